package lang

// Yield-invariant arms of parallel calls: `call P(i) | Y(j);`, CIVL's
// `call P() | Yield()`. Such an arm runs no code: it is a yield point
// among the arms, annotated by the yield invariant. A run of consecutive
// invariant arms is one yield point (ParYield); the checks place it
// after the action arms written before it. With procedure arms, every
// invariant arm is part of the procedures' yield point instead: its
// clauses must hold where the procedures start and hold again when all
// have returned (docs/checks.md, "Yield-invariant arms").

// takeYieldArms moves the arms of s that call yield invariants from
// s.Arms to s.Yields, one ParYield per run of consecutive ones, and
// checks each run as a yield statement: its calls are conjuncts of the
// yield's annotation, with the rules of yield invariant calls.
func (c *checker) takeYieldArms(s *ParCallStmt) {
	var arms []*CallStmt
	var yields []*ParYield
	for _, arm := range s.Arms {
		if !c.isYieldInvArm(arm) {
			arms = append(arms, arm)
			continue
		}
		if len(arm.Outs) > 0 {
			c.errorf(arm.Outs[0].P, "%s is a yield invariant: an invariant arm of a parallel call has no outputs", arm.Callee.Name)
		}
		call := &CallExpr{ExprBase: ExprBase{P: arm.Callee.P}, Func: arm.Callee, Args: arm.Args}
		if n := len(yields); n > 0 && yields[n-1].At == len(arms) {
			yields[n-1].Calls = append(yields[n-1].Calls, call)
			continue
		}
		yields = append(yields, &ParYield{At: len(arms), Calls: []*CallExpr{call}})
	}
	s.Arms, s.Yields = arms, yields
	for _, y := range yields {
		var ann Expr = y.Calls[0]
		for _, k := range y.Calls[1:] {
			ann = &BinaryExpr{ExprBase: ExprBase{P: ann.Pos()}, Op: OpAnd, OpPos: k.P, X: ann, Y: k}
		}
		y.Yield = &YieldStmt{StmtBase: StmtBase{P: y.Calls[0].P, End: s.End}, Ann: ann, Arms: true}
		c.expect(ann, Bool, c.annotationCtx(ann, true), "an invariant arm")
	}
}

// isYieldInvArm reports whether arm calls a yield invariant: its name is
// no action or procedure of the layer, and names a yield invariant.
func (c *checker) isYieldInvArm(arm *CallStmt) bool {
	if c.info.Layers[c.layer].Members[arm.Callee.Name] != nil {
		return false
	}
	o := c.scope.lookup(arm.Callee.Name)
	return o != nil && o.Kind == ObjFunc && o.Func != nil && o.Func.YieldInv
}

// yieldArmLinears returns the arguments of s's invariant arms that go to
// linear parameters: the caller keeps them, so no other arm may take them.
func yieldArmLinears(y *ParYield) []*Ident {
	var out []*Ident
	for _, call := range y.Calls {
		d, ok := call.Func.Obj.Decl.(*FuncDecl)
		if !ok {
			continue
		}
		for i, p := range d.Params {
			if i >= len(call.Args) || !p.Linear {
				continue
			}
			if id, ok := call.Args[i].(*Ident); ok && id.Obj != nil {
				out = append(out, id)
			}
		}
	}
	return out
}

// yieldArmReadsNoOutput reports an argument of an invariant arm that
// reads an output of an arm: the invariant is asserted before the arms
// run and assumed after, with the same arguments, which an output would
// change in between.
func (c *checker) yieldArmReadsNoOutput(y *ParYield, outArm map[*Object]int) {
	for _, call := range y.Calls {
		for _, a := range call.Args {
			InspectExpr(a, func(x Expr) bool {
				id, ok := x.(*Ident)
				if ok && id.Obj != nil {
					if _, out := outArm[id.Obj]; out {
						c.errorf(id.P, "%s is an output of an arm of this parallel call: an invariant arm's arguments are evaluated before any arm runs; use another variable", id.Name)
						return false
					}
				}
				return true
			})
		}
	}
}
