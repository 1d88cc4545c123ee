package lang

// old checks old(e). It may appear only where a procedure's state at the
// start of its body makes sense and is only read: the ensures, yield
// annotations, loop invariants and asserts of a procedure. Inside it,
// globals stand for their snapshots (recorded in e.Snaps and in the
// procedure's Olds); locals and outputs have no value at the start, and
// old does not nest.
func (c *checker) old(e *OldExpr, ctx *exprCtx) Type {
	switch {
	case ctx.inOld != nil:
		c.errorf(e.P, "old cannot be nested: inside old(...), every variable already means its value at the start of the procedure's body")
		return nil
	case !ctx.oldOK:
		if _, isAction := c.member.(*Action); isAction {
			c.errorf(e.P, "old is not allowed in an action: an action is one atomic step, whose body reads the state before the step directly (its transition relates that state to the state after it)")
		} else {
			c.errorf(e.P, "old is not allowed here: old(e) may appear only in a procedure's ensures clauses, yield annotations, loop invariants and asserts")
		}
		return nil
	}
	inner := *ctx
	inner.inOld, inner.oldOK = e, false
	return c.expr(e.X, &inner)
}

// readOld records that the old expression of ctx reads global g: it
// reads g's snapshot, a hidden ghost local of the procedure made on
// first use. Reading the snapshot is not reading a global, so it does
// not make a statement a step.
func (c *checker) readOld(pos Pos, g *Object, ctx *exprCtx) {
	c.checkVisible(pos, g, "variable "+g.Name, ctx)
	sig := c.member.Sig()
	var snap *OldSnapshot
	for _, s := range sig.Olds {
		if s.Global == g {
			snap = s
		}
	}
	if snap == nil {
		snap = &OldSnapshot{Global: g, Snap: &Object{Kind: ObjLocal, Name: "old(" + g.Name + ")", Type: g.Type, Ghost: true, Pos: pos}}
		sig.Olds = append(sig.Olds, snap)
	}
	for _, s := range ctx.inOld.Snaps {
		if s == snap {
			return
		}
	}
	ctx.inOld.Snaps = append(ctx.inOld.Snaps, snap)
}
