package lang

// Checks of statements that write variables: assignments, havoc, calls.

// target resolves an assignment target and checks that it may be
// written. It returns the variable's object, or nil after an error.
func (c *checker) target(id *Ident) *Object {
	o := c.scope.lookup(id.Name)
	if o == nil {
		c.errorf(id.P, "%s is not declared", id.Name)
		return nil
	}
	id.Obj = o
	switch o.Kind {
	case ObjGlobal:
		c.globalSeen = true
		c.checkVisible(id.P, o, "variable "+o.Name, &exprCtx{layers: c.here()})
		return o
	case ObjLocal, ObjReturn:
		return o
	case ObjParam:
		c.errorf(id.P, "cannot assign to parameter %s: parameters are read-only", id.Name)
	default:
		c.errorf(id.P, "cannot assign to %s %s", kindName(o), id.Name)
	}
	return nil
}

func (c *checker) assign(s *AssignStmt) {
	if len(s.Lhs) != len(s.Rhs) {
		c.errorf(s.P, "assignment has %d target(s) but %d value(s)", len(s.Lhs), len(s.Rhs))
	}
	seen := map[*Object]bool{}
	move := c.isMove(s)
	for i, lv := range s.Lhs {
		o := c.target(lv.Name)
		if !move {
			c.linearWrite(lv.Name, o)
		}
		t := c.lvalueType(lv, o)
		if o != nil && seen[o] {
			c.errorf(lv.Name.P, "%s is assigned twice in one assignment", o.Name)
		}
		if o != nil {
			seen[o] = true
		}
		if i >= len(s.Rhs) {
			continue
		}
		ctx := &exprCtx{layers: c.here()}
		if o != nil && !o.Ghost {
			ctx.ghostBan = "an assignment to non-ghost variable " + o.Name
		}
		c.expect(s.Rhs[i], t, ctx, "the value assigned to "+lv.Name.Name)
	}
	if move {
		c.linearMove(s)
	}
}

// lvalueType checks the indices of a target and returns the type of the
// location written. Indices of a non-ghost map may not read ghosts.
func (c *checker) lvalueType(lv *LValue, o *Object) Type {
	ctx := &exprCtx{layers: c.here()}
	if o != nil && !o.Ghost {
		ctx.ghostBan = "an index of non-ghost map " + o.Name
	}
	var t Type
	if o != nil {
		t = o.Type
	}
	target := lv.Name.Name // the location so far, for messages
	for _, sel := range lv.Sels {
		if sel.Field != nil {
			t = c.selectField(t, sel, target)
			target += "." + sel.Field.Name
			continue
		}
		k := sel.Index
		kt := c.expr(k, ctx)
		if t == nil {
			continue
		}
		mt, ok := t.(*MapType)
		if _, seq := t.(*SeqType); seq {
			c.errorf(k.Pos(), "%s is a sequence, which cannot be updated in place: assign it a new sequence (concat(append(s[:i], v), s[i+1:]))", target)
			t = nil
			continue
		}
		if !ok {
			c.errorf(k.Pos(), "%s is indexed, but it is %s, not a map", target, article(t.String()))
			t = nil
			continue
		}
		target += "[" + ExprString(k) + "]"
		if kt != nil && !Identical(kt, mt.Key) {
			c.errorf(k.Pos(), "map key must have type %s, not %s", mt.Key, kt)
		}
		t = mt.Val
	}
	return t
}

// selectField checks the field selector of an assignment's target, whose
// location so far has type t, and returns the field's type.
func (c *checker) selectField(t Type, sel *Selector, target string) Type {
	i, ft := c.field(t, sel.Field, target)
	sel.FieldIndex = i
	return ft
}

func (c *checker) havoc(s *HavocStmt) {
	seen := map[*Object]bool{}
	for _, id := range s.Vars {
		if o := c.target(id); o != nil {
			c.linearWrite(id, o)
			if seen[o] {
				c.errorf(id.P, "%s appears twice in havoc", o.Name)
			}
			seen[o] = true
		}
	}
}

func (c *checker) callStmt(s *CallStmt) {
	li := c.info.Layers[c.layer]
	m := li.Members[s.Callee.Name]
	// A call's arguments and outputs are locals only. A call of a
	// procedure yields, so the caller holds no step where it evaluates
	// them; a call of an action is the action's step, whose footprint and
	// mover type are the action's, which know nothing of the call site.
	ctx := &exprCtx{layers: c.here(), globalBan: "an argument of a call (it may read locals only: read the global in a step first)"}
	for _, a := range s.Args {
		c.expr(a, ctx)
	}
	if m == nil {
		c.errorf(s.Callee.P, "there is no action or procedure named %s at layer %d", s.Callee.Name, li.Layer.Num)
		return
	}
	s.Callee.Obj = m.MemberName().Obj
	s.Class = ClassProcCall
	if _, ok := m.(*Action); ok || isMoverProc(m) {
		// a mover procedure is one step for its callers, like an action
		s.Class = ClassActionCall
	}
	c.moverProcCall(s, m)
	sig := m.Sig()
	c.callArgs(s, sig)
	c.callOuts(s, sig)
	if s.Class == ClassProcCall {
		c.argsNotOutputs(s)
		c.argsNotGiven(s)
	}
}

// argsNotGiven reports a procedure call whose argument reads a variable
// that the call gives to a linear_in parameter, other than that
// parameter's own argument: the callee's ensures speaks of the
// arguments' values at the call, and the caller reads them after it,
// when the variable given away is empty (call p(b, b) with p(linear_in
// a, s) would make an ensures s[i] false after the call). A linear
// parameter that reads it is reported as passed twice (linearArg).
func (c *checker) argsNotGiven(s *CallStmt) {
	m, ok := memberOfCall(s)
	if !ok || len(m.Sig().Params) != len(s.Args) {
		return
	}
	params := m.Sig().Params
	for i, p := range params {
		given, ok := s.Args[i].(*Ident)
		if !p.LinearIn || !ok || given.Obj == nil {
			continue
		}
		for j, a := range s.Args {
			if j != i && !params[j].Linear && readsObject(a, given.Obj) {
				c.errorf(a.Pos(), "argument %s of %s reads %s, which the call gives to linear_in parameter %s: %s is empty when the call returns, so %s's ensures could not speak of the value passed; pass a copy made before the call", params[j].Name.Name, m.Sig().Name.Name, given.Name, p.Name.Name, given.Name, m.Sig().Name.Name)
			}
		}
	}
}

// readsObject reports whether expression e reads o.
func readsObject(e Expr, o *Object) bool {
	read := false
	InspectExpr(e, func(x Expr) bool {
		id, ok := x.(*Ident)
		read = read || ok && id.Obj == o
		return !read
	})
	return read
}

// argsNotOutputs reports outputs of a procedure call that its arguments
// read: the callee's ensures speaks of the arguments' values at the call,
// which must still be the same when the call returns. An output may be
// the variable the call gives to a linear_in parameter (`call a := p(a)`):
// the variable is empty from the call on and the output refills it when
// the call returns, and the ensures cannot read a linear_in parameter
// (nor any other argument read the variable given, argsNotGiven), so it
// speaks of no value the output overwrites.
func (c *checker) argsNotOutputs(s *CallStmt) {
	given := givenArgs(s)
	for _, out := range s.Outs {
		for _, a := range s.Args {
			if given[a] {
				continue
			}
			read := false
			InspectExpr(a, func(x Expr) bool {
				id, ok := x.(*Ident)
				read = read || ok && id.Obj != nil && id.Obj == out.Obj
				return !read
			})
			if read {
				c.errorf(out.P, "%s is both an output and read by an argument of this call; use another variable for the output (only a variable given to a linear_in parameter may receive an output of the same call)", out.Name)
				return
			}
		}
	}
}

// givenArgs returns the arguments of call s that are variables given to
// linear_in parameters.
func givenArgs(s *CallStmt) map[Expr]bool {
	given := map[Expr]bool{}
	m, ok := memberOfCall(s)
	if !ok || len(m.Sig().Params) != len(s.Args) {
		return given
	}
	for i, p := range m.Sig().Params {
		if id, ok := s.Args[i].(*Ident); ok && p.LinearIn && id.Obj != nil {
			given[id] = true
		}
	}
	return given
}

func (c *checker) callArgs(s *CallStmt, sig *Signature) {
	if len(s.Args) != len(sig.Params) {
		c.errorf(s.Callee.P, "%s takes %d argument(s), but is called with %d", sig.Name.Name, len(sig.Params), len(s.Args))
		return
	}
	linearUsed := map[*Object]bool{}
	for i, a := range s.Args {
		p := sig.Params[i]
		pt := p.Name.Obj.Type
		if t := a.Type(); t != nil && pt != nil && !Identical(t, pt) {
			c.errorf(a.Pos(), "argument %s of %s must have type %s, not %s", p.Name.Name, sig.Name.Name, pt, t)
		}
		if !p.Ghost && mentionsGhost(a) {
			c.errorf(a.Pos(), "argument %s of %s is not ghost, so it cannot be computed from ghost state", p.Name.Name, sig.Name.Name)
		}
		if p.Linear {
			c.linearArg(a, p, sig, linearUsed)
		}
	}
}

func (c *checker) callOuts(s *CallStmt, sig *Signature) {
	if len(s.Outs) != len(sig.Returns) {
		c.errorf(s.Callee.P, "%s returns %d value(s), but the call assigns %d", sig.Name.Name, len(sig.Returns), len(s.Outs))
		return
	}
	seen := map[*Object]bool{}
	for i, out := range s.Outs {
		o := c.target(out)
		if o == nil {
			continue
		}
		r := sig.Returns[i]
		if o.Kind == ObjGlobal {
			c.errorf(out.P, "output %s of %s is assigned to global variable %s: a call's outputs go to locals (write the global in a step of its own)", r.Name.Name, sig.Name.Name, o.Name)
		}
		if rt := r.Name.Obj.Type; rt != nil && o.Type != nil && !Identical(rt, o.Type) {
			c.errorf(out.P, "%s has type %s, but output %s of %s has type %s", o.Name, o.Type, r.Name.Name, sig.Name.Name, rt)
		}
		c.linearOut(out, o, r, sig)
		if r.Ghost && !o.Ghost {
			c.errorf(out.P, "output %s of %s is ghost, so it cannot be assigned to non-ghost %s", r.Name.Name, sig.Name.Name, o.Name)
		}
		if seen[o] {
			c.errorf(out.P, "%s receives two outputs of one call", o.Name)
		}
		seen[o] = true
	}
}

// mentionsGhost reports whether a checked expression reads a ghost,
// directly or through a function.
func mentionsGhost(e Expr) bool {
	found := false
	InspectExpr(e, func(x Expr) bool {
		switch x := x.(type) {
		case *Ident:
			found = found || x.Obj != nil && x.Obj.Ghost
		case *CallExpr:
			if x.Func.Obj != nil && x.Func.Obj.Func != nil {
				// A yield invariant is proof text, ghost as a whole.
				found = found || x.Func.Obj.Func.YieldInv
				for _, g := range x.Func.Obj.Func.Globals {
					found = found || g.Ghost
				}
			}
		}
		return !found
	})
	return found
}
