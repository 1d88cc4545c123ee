package lang

import (
	"strconv"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Expressions are parsed by hand (precedence climbing) and plugged into
// the participle grammar as a Parseable: this gives exact error positions
// inside expressions, which participle's backtracking would lose.

// gExpr is an expression in the participle grammar.
type gExpr struct {
	X Expr
}

// Parse implements participle.Parseable. It returns NextMatch when the
// next token cannot start an expression, so that optional expressions
// (`yield;`) work; errors after the first token are real errors.
func (g *gExpr) Parse(lex *lexer.PeekingLexer) error {
	if !startsExpr(lex.Peek()) {
		return participle.NextMatch
	}
	p := &exprParser{lex: lex}
	x, err := p.expr()
	if err != nil {
		return err
	}
	g.X = x
	return nil
}

func startsExpr(t *lexer.Token) bool {
	switch t.Type {
	case tokIdent, tokInt:
		return true
	case tokKeyword:
		switch t.Value {
		case "true", "false", "if", "forall", "exists":
			return true
		}
	case tokPunct:
		return t.Value == "(" || t.Value == "!" || t.Value == "-" || t.Value == "[" // [K]V(e)
	}
	return false
}

type exprParser struct {
	lex    *lexer.PeekingLexer
	depth  int          // current recursion depth, bounded by maxNesting
	height map[Expr]int // height of the inner nodes built so far
}

// maxExprHeight bounds the height of an expression tree. Long chains of
// left-associative operators (a + b + c ...) are parsed by iteration but
// make tall trees, and the checker, the formatter and the later packages
// recurse over them.
const maxExprHeight = 10000

// enter counts one level of recursion; leave undoes it.
func (p *exprParser) enter() error {
	p.depth++
	if p.depth > maxNesting {
		return p.errorf("expression nested too deeply (more than %d levels)", maxNesting)
	}
	return nil
}

func (p *exprParser) leave() { p.depth-- }

// built records the height of a new node with the given children and
// rejects trees taller than maxExprHeight.
func (p *exprParser) built(e Expr, kids ...Expr) (Expr, error) {
	h := 0
	for _, k := range kids {
		h = max(h, p.height[k])
	}
	if h+1 > maxExprHeight {
		return nil, p.errorf("expression too large: its tree is more than %d levels deep (split it with functions)", maxExprHeight)
	}
	if p.height == nil {
		p.height = map[Expr]int{}
	}
	p.height[e] = h + 1
	return e, nil
}

func (p *exprParser) peek() *lexer.Token { return p.lex.Peek() }
func (p *exprParser) next() *lexer.Token { return p.lex.Next() }

func (p *exprParser) is(v string) bool {
	t := p.peek()
	return (t.Type == tokPunct || t.Type == tokKeyword) && t.Value == v
}

func (p *exprParser) expect(v, context string) (*lexer.Token, error) {
	if !p.is(v) {
		return nil, p.errorf("expected %q %s, found %s", v, context, describeToken(*p.peek()))
	}
	return p.next(), nil
}

func (p *exprParser) errorf(format string, args ...any) error {
	return participle.Errorf(p.peek().Pos, format, args...)
}

func (p *exprParser) binary(t *lexer.Token, op Op, x, y Expr) (Expr, error) {
	return p.built(&BinaryExpr{ExprBase: ExprBase{P: x.Pos()}, Op: op, X: x, Y: y, OpPos: posOf(t.Pos)}, x, y)
}

// expr parses <==>, the weakest operator, associating to the left.
func (p *exprParser) expr() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	x, err := p.implies()
	for err == nil && p.is("<==>") {
		t := p.next()
		var y Expr
		if y, err = p.implies(); err == nil {
			x, err = p.binary(t, OpIff, x, y)
		}
	}
	return x, err
}

// implies parses ==>, which associates to the right.
func (p *exprParser) implies() (Expr, error) {
	x, err := p.leftAssoc(OpOr)
	if err != nil || !p.is("==>") {
		return x, err
	}
	t := p.next()
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	y, err := p.implies()
	if err != nil {
		return nil, err
	}
	return p.binary(t, OpImplies, x, y)
}

// levels lists the left-associative binary operators by precedence.
var levels = map[Op][]struct {
	tok string
	op  Op
}{
	OpOr:  {{"||", OpOr}},
	OpAnd: {{"&&", OpAnd}},
	OpAdd: {{"+", OpAdd}, {"-", OpSub}},
	OpMul: {{"*", OpMul}, {"/", OpDiv}, {"%", OpMod}},
}

// operand parses the operands of the operators of a level.
func (p *exprParser) operand(level Op) (Expr, error) {
	switch level {
	case OpOr:
		return p.leftAssoc(OpAnd)
	case OpAnd:
		return p.comparison()
	case OpAdd:
		return p.leftAssoc(OpMul)
	}
	return p.unary()
}

func (p *exprParser) leftAssoc(level Op) (Expr, error) {
	x, err := p.operand(level)
	for err == nil {
		op, ok := p.levelOp(level)
		if !ok {
			break
		}
		t := p.next()
		var y Expr
		if y, err = p.operand(level); err == nil {
			x, err = p.binary(t, op, x, y)
		}
	}
	return x, err
}

func (p *exprParser) levelOp(level Op) (Op, bool) {
	for _, o := range levels[level] {
		if p.is(o.tok) {
			return o.op, true
		}
	}
	return 0, false
}

var comparisons = map[string]Op{"==": OpEq, "!=": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe}

// comparison parses a non-associative comparison.
func (p *exprParser) comparison() (Expr, error) {
	x, err := p.leftAssoc(OpAdd)
	if err != nil {
		return nil, err
	}
	op, ok := comparisons[p.peek().Value]
	if !ok || p.peek().Type != tokPunct {
		return x, nil
	}
	t := p.next()
	y, err := p.leftAssoc(OpAdd)
	if err != nil {
		return nil, err
	}
	if _, again := comparisons[p.peek().Value]; again && p.peek().Type == tokPunct {
		return nil, p.errorf("comparisons do not chain: write a < b && b < c instead of a < b < c")
	}
	return p.binary(t, op, x, y)
}

func (p *exprParser) unary() (Expr, error) {
	t := p.peek()
	if !p.is("!") && !p.is("-") {
		return p.postfix()
	}
	p.next()
	if t.Value == "-" && p.peek().Type == tokInt {
		lit := p.next()
		n, err := strconv.ParseInt("-"+lit.Value, 10, 64)
		if err != nil {
			return nil, participle.Errorf(lit.Pos, "integer literal -%s does not fit in 64 bits", Abbrev(lit.Value))
		}
		return p.suffixes(&IntLit{ExprBase: ExprBase{P: posOf(t.Pos)}, Val: n})
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	op := OpNot
	if t.Value == "-" {
		op = OpNeg
	}
	return p.built(&UnaryExpr{ExprBase: ExprBase{P: posOf(t.Pos)}, Op: op, X: x}, x)
}

func (p *exprParser) postfix() (Expr, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	return p.suffixes(x)
}

// suffixes parses map reads m[k], updates m[k := v], sequence slices
// s[lo:hi] and field reads x.f.
func (p *exprParser) suffixes(x Expr) (Expr, error) {
	for p.is("[") || p.is(".") {
		var err error
		if p.is(".") {
			x, err = p.field(x)
		} else {
			x, err = p.bracket(x)
		}
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}

// bracket parses the suffix [k], [k := v] or [lo:hi] after x.
func (p *exprParser) bracket(x Expr) (Expr, error) {
	t := p.next()
	b := ExprBase{P: posOf(t.Pos)}
	var k Expr
	var err error
	if !p.is(":") {
		if k, err = p.expr(); err != nil {
			return nil, err
		}
	}
	switch {
	case p.is(":"):
		return p.slice(b, x, k)
	case p.is(":="):
		p.next()
		var v Expr
		if v, err = p.expr(); err != nil {
			return nil, err
		}
		x, err = p.built(&UpdateExpr{ExprBase: b, Map: x, Key: k, Val: v}, x, k, v)
	default:
		x, err = p.built(&IndexExpr{ExprBase: b, Map: x, Key: k}, x, k)
	}
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("]", "to close the map index"); err != nil {
		return nil, err
	}
	return x, nil
}

// slice parses the rest of s[lo:hi] from the colon; lo may be nil.
func (p *exprParser) slice(b ExprBase, s, lo Expr) (Expr, error) {
	p.next() // :
	var hi Expr
	if !p.is("]") {
		var err error
		if hi, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if _, err := p.expect("]", "to close the slice"); err != nil {
		return nil, err
	}
	kids := []Expr{s}
	for _, k := range []Expr{lo, hi} {
		if k != nil {
			kids = append(kids, k)
		}
	}
	return p.built(&SliceExpr{ExprBase: b, Seq: s, Lo: lo, Hi: hi}, kids...)
}

// field parses the field read .f after x.
func (p *exprParser) field(x Expr) (Expr, error) {
	dot := p.next()
	t := p.peek()
	if t.Type != tokIdent {
		return nil, p.errorf("expected a field name after \".\", found %s", describeToken(*t))
	}
	p.next()
	name := &Ident{P: posOf(t.Pos), Name: t.Value}
	return p.built(&FieldExpr{ExprBase: ExprBase{P: posOf(dot.Pos)}, X: x, Name: name}, x)
}
