package lang

import (
	"math"
	"strconv"

	"github.com/alecthomas/participle/v2/lexer"
)

// converter turns the participle parse tree into the AST. The only errors
// it finds are integer literals out of range.
type converter struct {
	errs ErrorList
}

func (c *converter) file(g *gFile, f *File) {
	for _, gd := range g.Decls {
		d := c.decl(gd)
		f.Decls = append(f.Decls, d)
		switch d := d.(type) {
		case *TypeDecl:
			f.Types = append(f.Types, d)
		case *ConstDecl:
			f.Consts = append(f.Consts, d)
		case *VarDecl:
			f.Vars = append(f.Vars, d)
		case *FuncDecl:
			f.Funcs = append(f.Funcs, d)
		case *InvariantDecl:
			f.Invariants = append(f.Invariants, d)
		case *Layer:
			f.Layers = append(f.Layers, d)
		case *Instance:
			f.Instances = append(f.Instances, d)
		}
	}
}

func (c *converter) decl(g *gDecl) Decl {
	switch {
	case g.Type != nil:
		d := &TypeDecl{P: posOf(g.Type.Pos), Name: c.ident(g.Type.Name)}
		if r := g.Type.Record; r != nil {
			rt := &RecordTypeExpr{P: posOf(r.Pos)}
			for _, f := range r.Fields {
				rt.Fields = append(rt.Fields, &Param{Name: c.ident(f.Name), Type: c.typ(f.Type)})
			}
			d.Type = rt
		} else if e := g.Type.Enum; e != nil {
			et := &EnumTypeExpr{P: posOf(e.Pos)}
			for _, m := range e.Members {
				et.Members = append(et.Members, c.ident(m))
			}
			d.Type = et
		} else {
			d.Type = c.typ(g.Type.Type)
		}
		return d
	case g.Const != nil:
		return &ConstDecl{P: posOf(g.Const.Pos), Name: c.ident(g.Const.Name), Type: c.typ(g.Const.Type), Value: c.optExpr(g.Const.Value)}
	case g.Var != nil:
		v := g.Var
		return &VarDecl{P: posOf(v.Pos), Linear: v.Linear, Ghost: v.Ghost, Name: c.ident(v.Name), Type: c.typ(v.Type),
			Init: c.optExpr(v.Init), Layers: c.layerRange(v.Layers)}
	case g.Func != nil:
		fn := g.Func
		return &FuncDecl{P: posOf(fn.Pos), Name: c.ident(fn.Name), Params: c.params(fn.Params),
			Result: c.typ(fn.Result), Body: c.expr(fn.Body)}
	case g.YieldInv != nil:
		return c.yieldInv(g.YieldInv)
	case g.Inv != nil:
		return &InvariantDecl{P: posOf(g.Inv.Pos), Expr: c.expr(g.Inv.Expr), Layers: c.layerRange(g.Inv.Layers)}
	case g.Layer != nil:
		return c.layer(g.Layer)
	default:
		return c.instance(g.Instance)
	}
}

// yieldInv converts a yield invariant into a FuncDecl whose body is the
// conjunction of its clauses.
func (c *converter) yieldInv(g *gYieldInv) *FuncDecl {
	name := c.ident(g.Name)
	d := &FuncDecl{P: posOf(g.Pos), Name: name, Params: c.params(g.Params), YieldInv: true,
		Result: &NamedType{Name: &Ident{P: name.P, Name: "bool"}},
		Layers: c.layerRange(g.Layers), End: posOf(g.End.Pos)}
	for _, e := range g.Body {
		d.Conjuncts = append(d.Conjuncts, c.expr(e))
	}
	d.Body = d.Conjuncts[0]
	for _, e := range d.Conjuncts[1:] {
		d.Body = &BinaryExpr{ExprBase: ExprBase{P: d.Body.Pos()}, Op: OpAnd, OpPos: e.Pos(), X: d.Body, Y: e}
	}
	return d
}

func (c *converter) layer(g *gLayer) *Layer {
	l := &Layer{P: posOf(g.Pos), End: posOf(g.End.Pos), Num: c.smallInt(g.Num, g.Pos)}
	for _, m := range g.Members {
		var mem Member
		if m.Action != nil {
			a := m.Action
			act := &Action{P: posOf(a.Pos), Signature: c.signature(a.Name, a.Params, a.Returns, a.Specs, l)}
			if m.Mover != nil {
				act.P = posOf(m.Mover.Pos)
				act.Mover, act.MoverPos = moverOf(m.Mover.Kind), posOf(m.Mover.Pos)
			}
			act.Locals, act.Body = c.body(a.Body)
			mem = act
		} else {
			p := m.Proc
			proc := &Proc{P: posOf(p.Pos), Signature: c.signature(p.Name, p.Params, p.Returns, p.Specs, l)}
			if m.Mover != nil {
				proc.P = posOf(m.Mover.Pos)
				proc.Mover, proc.MoverPos = moverOf(m.Mover.Kind), posOf(m.Mover.Pos)
			}
			proc.Locals, proc.Body = c.body(p.Body)
			c.derive(proc, p.Derive)
			mem = proc
		}
		if m.Public != nil {
			mem.Sig().Public, mem.Sig().PublicPos = true, posOf(m.Public.Pos)
		}
		l.Members = append(l.Members, mem)
	}
	return l
}

// derive converts a procedure's split or peel clause.
func (c *converter) derive(proc *Proc, g *gDerive) {
	switch {
	case g == nil:
	case g.Peel:
		proc.Peel, proc.PeelPos = true, posOf(g.Pos)
	default:
		proc.Split = &SplitClause{P: posOf(g.Pos), Of: c.ident(g.Split), Cond: c.expr(g.When)}
	}
}

func (c *converter) signature(name *gIdent, params, returns []*gParam, specs []*gSpec, l *Layer) Signature {
	sig := Signature{Name: c.ident(name), Params: c.params(params), Returns: c.params(returns), Layer: l}
	for _, s := range specs {
		e := c.expr(s.Expr)
		switch s.Kind {
		case "requires":
			sig.Requires = append(sig.Requires, e)
		case "ensures":
			sig.Ensures = append(sig.Ensures, e)
		default:
			sig.Requires = append(sig.Requires, e)
			sig.Ensures = append(sig.Ensures, e)
			sig.Preserves = append(sig.Preserves, e)
		}
	}
	return sig
}

// body splits the leading local declarations off a body. Declarations
// after the first statement stay in the statement list as *LocalDeclStmt
// so that the checker can report them.
func (c *converter) body(g *gBlock) ([]*LocalDecl, *Block) {
	var locals []*LocalDecl
	i := 0
	for ; i < len(g.Stmts) && g.Stmts[i].Local != nil && g.Stmts[i].Mover == nil; i++ {
		locals = append(locals, c.local(g.Stmts[i].Local))
	}
	b := &Block{P: posOf(g.Pos), End: posOf(g.End.Pos), Stmts: c.stmts(g.Stmts[i:])}
	return locals, b
}

func (c *converter) local(g *gLocal) *LocalDecl {
	d := &LocalDecl{P: posOf(g.Pos), Linear: g.Linear, Ghost: g.Ghost, Type: c.typ(g.Type)}
	for _, n := range g.Names {
		d.Names = append(d.Names, c.ident(n))
	}
	return d
}

func (c *converter) params(gs []*gParam) []*Param {
	var ps []*Param
	for _, g := range gs {
		ps = append(ps, &Param{Name: c.ident(g.Name), Type: c.typ(g.Type), Linear: g.Linear != "", LinearIn: g.Linear == "linear_in", Ghost: g.Ghost})
	}
	return ps
}

func (c *converter) ident(g *gIdent) *Ident {
	return &Ident{P: posOf(g.Pos), Name: g.Name}
}

func (c *converter) typ(g *gType) TypeExpr {
	if g.Name != nil {
		return &NamedType{Name: c.ident(g.Name)}
	}
	if g.Bracket.Elem != nil {
		return &SeqTypeExpr{P: posOf(g.Pos), Elem: c.typ(g.Bracket.Elem)}
	}
	return &MapTypeExpr{P: posOf(g.Pos), Key: c.typ(g.Bracket.Map.Key), Val: c.typ(g.Bracket.Map.Val)}
}

func (c *converter) layerRange(g *gLayerRange) *LayerRange {
	if g == nil {
		return nil
	}
	return &LayerRange{P: posOf(g.Pos), Lo: c.smallInt(g.Lo, g.Pos), Hi: c.smallInt(g.Hi, g.Pos)}
}

// smallInt converts a layer number or count, which must fit in an int32.
func (c *converter) smallInt(s string, p lexer.Position) int {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		c.errs.Add(posOf(p), "number %s is too large", Abbrev(s))
		return 0
	}
	return int(n)
}

func (c *converter) bigInt(s string, p lexer.Position) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		c.errs.Add(posOf(p), "integer literal %s does not fit in 64 bits", Abbrev(s))
		return math.MaxInt64
	}
	return n
}

func moverOf(s string) Mover {
	switch s {
	case "right":
		return MoverRight
	case "left":
		return MoverLeft
	case "both":
		return MoverBoth
	}
	return MoverAtomic
}

func (c *converter) instance(g *gInstance) *Instance {
	in := &Instance{P: posOf(g.Pos), End: posOf(g.End.Pos), Name: c.ident(g.Name)}
	for _, it := range g.Items {
		if it.Ints != nil {
			in.Ints = c.intRange(it.Ints)
			continue
		}
		t := it.Thread
		td := &ThreadDecl{P: posOf(t.Pos), Role: c.ident(t.Role), TidParam: c.ident(t.TidParam), Tids: c.intRange(t.Tids)}
		for _, ts := range t.Sets {
			td.Sets = append(td.Sets, c.threadSets(ts))
		}
		for _, cs := range t.Calls {
			spec := &CallSpec{Method: c.ident(cs.Method)}
			for _, a := range cs.Args {
				spec.Args = append(spec.Args, &ArgSpec{Param: c.ident(a.Param), Range: c.intRange(a.Range)})
			}
			td.Calls = append(td.Calls, spec)
		}
		if t.Max != nil {
			td.Max, td.MaxPos = c.smallInt(t.Max.N, t.Max.Pos), posOf(t.Max.Pos)
		}
		in.Threads = append(in.Threads, td)
	}
	return in
}

func (c *converter) threadSets(g *gThrSet) *ThreadSets {
	ts := &ThreadSets{Param: c.ident(g.Param)}
	for _, sl := range g.Sets {
		lit := &SetLit{P: posOf(sl.Pos)}
		for _, r := range sl.Elems {
			lit.Elems = append(lit.Elems, c.intRange(r))
		}
		ts.Sets = append(ts.Sets, lit)
	}
	return ts
}

func (c *converter) intRange(g *gRange) *IntRange {
	r := &IntRange{P: posOf(g.Pos), Lo: c.bigInt(g.Lo, g.Pos)}
	if g.LoNeg {
		r.Lo = -r.Lo
	}
	if g.Hi == "" {
		r.Hi, r.Single = r.Lo, true
		return r
	}
	r.Hi = c.bigInt(g.Hi, g.Pos)
	if g.HiNeg {
		r.Hi = -r.Hi
	}
	return r
}
