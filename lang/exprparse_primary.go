package lang

import (
	"strconv"

	"github.com/alecthomas/participle/v2"
)

func (p *exprParser) primary() (Expr, error) {
	t := p.peek()
	b := ExprBase{P: posOf(t.Pos)}
	switch {
	case t.Type == tokInt:
		p.next()
		n, err := strconv.ParseInt(t.Value, 10, 64)
		if err != nil {
			return nil, participle.Errorf(t.Pos, "integer literal %s does not fit in 64 bits", Abbrev(t.Value))
		}
		return &IntLit{ExprBase: b, Val: n}, nil
	case t.Type == tokIdent:
		p.next()
		id := &Ident{P: b.P, Name: t.Value}
		if p.is("(") && t.Value == "old" {
			return p.old(b)
		}
		if p.is("(") {
			return p.call(id)
		}
		return id, nil
	case p.is("true") || p.is("false"):
		p.next()
		return &BoolLit{ExprBase: b, Val: t.Value == "true"}, nil
	case p.is("("):
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(")", "to close the parenthesis"); err != nil {
			return nil, err
		}
		return x, nil
	case p.is("["):
		return p.constMap(b)
	case p.is("if"):
		return p.cond()
	case p.is("forall") || p.is("exists"):
		return p.quant()
	}
	return nil, p.errorf("expected an expression, found %s", describeToken(*t))
}

func (p *exprParser) call(fn *Ident) (Expr, error) {
	p.next() // (
	c := &CallExpr{ExprBase: ExprBase{P: fn.P}, Func: fn}
	if p.is(")") {
		p.next()
		return p.built(c)
	}
	for {
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, a)
		if !p.is(",") {
			break
		}
		p.next()
	}
	if _, err := p.expect(")", "to close the argument list"); err != nil {
		return nil, err
	}
	return p.built(c, c.Args...)
}

// old parses old(e); "old" is a name everywhere but before "(".
func (p *exprParser) old(b ExprBase) (Expr, error) {
	p.next() // (
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(")", "to close old(...)"); err != nil {
		return nil, err
	}
	return p.built(&OldExpr{ExprBase: b, X: x}, x)
}

// cond parses `if c then a else b`; the else branch extends as far right
// as possible.
func (p *exprParser) cond() (Expr, error) {
	t := p.next()
	c, err := p.expr()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("then", "after the condition of an if-expression"); err != nil {
		return nil, err
	}
	a, err := p.expr()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("else", "in an if-expression (if c then a else b)"); err != nil {
		return nil, err
	}
	b, err := p.expr()
	if err != nil {
		return nil, err
	}
	return p.built(&CondExpr{ExprBase: ExprBase{P: posOf(t.Pos)}, Cond: c, Then: a, Else: b}, c, a, b)
}

// quant parses `forall x: T, y: T :: e`; the body extends as far right
// as possible.
func (p *exprParser) quant() (Expr, error) {
	t := p.next()
	q := &QuantExpr{ExprBase: ExprBase{P: posOf(t.Pos)}, Exists: t.Value == "exists"}
	for {
		group, err := p.boundGroup()
		if err != nil {
			return nil, err
		}
		q.Vars = append(q.Vars, group...)
		if !p.is(",") {
			break
		}
		p.next()
	}
	if _, err := p.expect("::", "after the variables of a quantifier"); err != nil {
		return nil, err
	}
	body, err := p.expr()
	if err != nil {
		return nil, err
	}
	q.Body = body
	return p.built(q, body)
}

// boundGroup parses `x, y: T`.
func (p *exprParser) boundGroup() ([]*Param, error) {
	var names []*Ident
	for {
		t := p.peek()
		if t.Type != tokIdent {
			return nil, p.errorf("expected a variable name, found %s", describeToken(*t))
		}
		p.next()
		names = append(names, &Ident{P: posOf(t.Pos), Name: t.Value})
		if !p.is(",") {
			break
		}
		p.next()
	}
	if _, err := p.expect(":", "and a type after a quantified variable"); err != nil {
		return nil, err
	}
	typ, err := p.typ()
	if err != nil {
		return nil, err
	}
	var ps []*Param
	for _, n := range names {
		ps = append(ps, &Param{Name: n, Type: typ})
	}
	return ps, nil
}

// typ parses int, bool, an alias, []T or [K]V.
func (p *exprParser) typ() (TypeExpr, error) {
	t := p.peek()
	if t.Type == tokIdent {
		p.next()
		return &NamedType{Name: &Ident{P: posOf(t.Pos), Name: t.Value}}, nil
	}
	if !p.is("[") {
		return nil, p.errorf("expected a type, found %s", describeToken(*t))
	}
	p.next()
	if p.is("]") {
		p.next()
		elem, err := p.typ()
		if err != nil {
			return nil, err
		}
		return &SeqTypeExpr{P: posOf(t.Pos), Elem: elem}, nil
	}
	k, err := p.typ()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("]", "after the key type of a map type"); err != nil {
		return nil, err
	}
	v, err := p.typ()
	if err != nil {
		return nil, err
	}
	return &MapTypeExpr{P: posOf(t.Pos), Key: k, Val: v}, nil
}

// constMap parses [K]V(e), the map that is e at every key, and []T{...},
// a sequence.
func (p *exprParser) constMap(b ExprBase) (Expr, error) {
	t, err := p.typ()
	if err != nil {
		return nil, err
	}
	if _, ok := t.(*SeqTypeExpr); ok {
		return p.seqLit(b, t)
	}
	if _, err := p.expect("(", "after a map type in an expression ([K]V(e) is the map that is e at every key)"); err != nil {
		return nil, err
	}
	v, err := p.expr()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(")", "to close the constant map"); err != nil {
		return nil, err
	}
	return p.built(&ConstMapExpr{ExprBase: b, MapType: t, Val: v}, v)
}

// seqLit parses the elements {e1, e2, ...} of the sequence []T{...}.
func (p *exprParser) seqLit(b ExprBase, t TypeExpr) (Expr, error) {
	if _, err := p.expect("{", "after a sequence type in an expression ([]T{e1, e2} is a sequence)"); err != nil {
		return nil, err
	}
	lit := &SeqLitExpr{ExprBase: b, SeqType: t}
	for !p.is("}") {
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		lit.Elems = append(lit.Elems, x)
		if !p.is(",") {
			break
		}
		p.next()
	}
	if _, err := p.expect("}", "to close the sequence"); err != nil {
		return nil, err
	}
	return p.built(lit, lit.Elems...)
}
