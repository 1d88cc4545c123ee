package lang

import "fmt"

// Checks of yield invariants (docs/language.md, "Yield invariants").
//
// A yield invariant is a named, parameterised annotation. It is declared
// once, at the top level, and procedures call it as a conjunct of their
// requires, ensures, preserves, yield annotations and loop invariants,
// where it stands for its clauses with the arguments for the parameters.
// This is CIVL's `yield invariant` and `call Y(...)` at a yield point:
// the invariant must hold when the thread reaches the point and must
// stay true while other threads run. Calls are kept to conjuncts so that
// a call always means "these clauses hold here", never their negation.

// checkYieldInvDecl checks what is particular to a yield invariant's
// declaration; the body is checked with the functions (checkFuncs).
func (c *checker) checkYieldInvDecl(d *FuncDecl) {
	fi := d.Name.Obj.Func
	fi.YieldInv = true
	fi.Layers = c.layerRange(d.Layers)
	for _, p := range d.Params {
		if p.Ghost {
			c.errorf(p.Name.P, "a yield invariant's parameters cannot be ghost (a yield invariant is proof text: all of it is ghost)")
		}
	}
}

// checkYieldInvGlobals checks that every global a yield invariant reads
// exists at every layer of its range, once the globals read through
// functions are known.
func (c *checker) checkYieldInvGlobals() {
	for _, o := range c.info.Funcs {
		fi := o.Func
		if !fi.YieldInv {
			continue
		}
		ctx := &exprCtx{layers: &fi.Layers}
		for _, g := range fi.Globals {
			c.checkVisible(o.Decl.(*FuncDecl).P, g, fmt.Sprintf("yield invariant %s reads %s, which", o.Name, g.Name), ctx)
		}
	}
}

// annotationCtx is the context of a procedure's annotation e at the
// current layer: the calls of yield invariants that are conjuncts of e
// are allowed there.
func (c *checker) annotationCtx(e Expr, oldOK bool) *exprCtx {
	ctx := &exprCtx{layers: c.here(), oldOK: oldOK, yieldInvs: map[*CallExpr]bool{}}
	for _, k := range Conjuncts(e) {
		if call, ok := k.(*CallExpr); ok {
			ctx.yieldInvs[call] = true
		}
	}
	return ctx
}

// callYieldInv applies the rules of a call of yield invariant o.
func (c *checker) callYieldInv(e *CallExpr, o *Object, ctx *exprCtx) {
	fi := o.Func
	switch {
	case ctx.fn != nil:
		c.errorf(e.P, "yield invariant %s cannot be called in a function or in a yield invariant: it is an annotation, called only in a procedure's requires, ensures, preserves, yield annotations and loop invariants", o.Name)
		return
	case ctx.yieldInvs == nil:
		c.errorf(e.P, "yield invariant %s can be called only in a procedure's requires, ensures, preserves, yield annotations and loop invariants", o.Name)
		return
	case !ctx.yieldInvs[e] || ctx.inOld != nil:
		c.errorf(e.P, "yield invariant %s must be a conjunct of the annotation: it says that its clauses hold here, so it cannot be negated, be under ||, ==>, ?:, old or a quantifier, or be an operand", o.Name)
		return
	}
	if r := *ctx.layers; r.Lo < fi.Layers.Lo || r.Hi > fi.Layers.Hi {
		c.errorf(e.P, "yield invariant %s is declared for layers %d..%d, so it cannot be called at layer %d", o.Name, fi.Layers.Lo, fi.Layers.Hi, outside(r, fi.Layers))
	}
	for _, a := range e.Args {
		if !readsOnlyParams(a) {
			c.errorf(a.Pos(), "an argument of yield invariant %s may read locals, parameters and constants only, not globals: the call stands for the clauses with the argument in place of the parameter, so a global argument would be read again at every use (CIVL evaluates it once, before the yield); save the global in a (ghost) local first, or read it in the yield invariant's body", o.Name)
		}
	}
	d := o.Decl.(*FuncDecl)
	passed := map[*Object]bool{}
	for i, p := range d.Params {
		if !p.Linear || i >= len(e.Args) {
			continue
		}
		id, ok := e.Args[i].(*Ident)
		switch {
		case !ok || id.Obj == nil || !id.Obj.Linear:
			c.errorf(e.Args[i].Pos(), "parameter %s of yield invariant %s is linear: the argument must be a linear parameter of the procedure, so that two threads never pass the same value", p.Name.Name, o.Name)
		case passed[id.Obj]:
			c.errorf(id.P, "linear %s is passed twice in one call; a linear value cannot be duplicated", id.Name)
		default:
			passed[id.Obj] = true
		}
	}
}

// specCtx is the context of a requires or ensures clause e of the
// current member: an annotation of a procedure, where yield invariants
// may be called, or an action's gate or postcondition, where they may not.
func (c *checker) specCtx(e Expr, isProc, oldOK bool) *exprCtx {
	if isProc {
		return c.annotationCtx(e, oldOK)
	}
	return &exprCtx{layers: c.here()}
}

// typeConjunction gives the && nodes that join a yield invariant's
// clauses into its body their type, once the clauses are checked.
func typeConjunction(d *FuncDecl) {
	for e := d.Body; len(d.Conjuncts) > 1; {
		b := e.(*BinaryExpr)
		b.T = Bool
		if b.X == d.Conjuncts[0] {
			return
		}
		e = b.X
	}
}
