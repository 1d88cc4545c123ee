package lang

import "fmt"

// parCall checks a parallel call `call A(..) | B(..) | ...;`. Every arm
// is checked as a call and must call an action of this layer. The static
// checks run the arms one after the other in textual order; what makes
// that sound is checked here:
//
//   - all arguments are evaluated before any arm runs, so an argument may
//     not read an output of another arm, and no variable receives outputs
//     of two arms;
//   - a linear variable goes to a linear parameter of at most one arm (the
//     arms run as distinct threads, whose linear values the mover checks
//     assume distinct);
//   - the arms' mover types, in textual order, are left movers, then at
//     most one non-mover or right mover, then right movers (CIVL's side
//     condition): then any interleaving of the arms can be reordered into
//     the textual order (docs/checks.md, "Parallel calls").
func (c *checker) parCall(s *ParCallStmt) {
	if s.Mover != MoverNone {
		c.errorf(s.MoverPos, "a parallel call has the mover types of the actions it calls: put the tags on the actions")
		s.Mover = MoverNone
	}
	c.takeYieldArms(s)
	actions := true
	for _, arm := range s.Arms {
		c.callStmt(arm)
		if arm.Class == ClassNone {
			actions = false
		}
	}
	c.parCallVars(s)
	c.parCallGiven(s)
	switch {
	case !actions:
	case procArms(s) > 0:
		c.parCallProcPattern(s)
	default:
		c.parCallPattern(s)
	}
}

// parCallGiven reports a variable that an arm gives to a linear_in
// parameter and that another arm (an invariant arm included) reads or
// receives an output in: the arguments are evaluated before any arm
// runs, but the static checks run the arms in textual order, where the
// variable is empty after the arm that gives it away; so no other arm
// may touch it (docs/language.md, "Parallel calls").
func (c *checker) parCallGiven(s *ParCallStmt) {
	givenBy := map[*Object]int{}
	for i, arm := range s.Arms {
		for _, o := range givenObjs(arm) {
			givenBy[o] = i
		}
	}
	if len(givenBy) == 0 {
		return
	}
	report := func(id *Ident, what string) {
		if j, ok := givenBy[id.Obj]; ok {
			c.errorf(id.P, "%s is given to a linear_in parameter of %s by another arm of this parallel call, so no other arm may %s it; give it in a call of its own", id.Name, s.Arms[j].Callee.Name, what)
		}
	}
	reads := func(i int, args []Expr) {
		for _, a := range args {
			InspectExpr(a, func(x Expr) bool {
				if id, ok := x.(*Ident); ok && id.Obj != nil && (i < 0 || givenBy[id.Obj] != i) {
					report(id, "read")
				}
				return true
			})
		}
	}
	for i, arm := range s.Arms {
		reads(i, arm.Args)
		for _, out := range arm.Outs {
			if out.Obj != nil && givenBy[out.Obj] != i {
				report(out, "receive an output in")
			}
		}
	}
	for _, y := range s.Yields {
		for _, call := range y.Calls {
			reads(-1, call.Args)
		}
	}
}

// givenObjs returns the variables a checked call passes to linear_in
// parameters.
func givenObjs(arm *CallStmt) []*Object {
	if arm.Callee.Obj == nil {
		return nil
	}
	m, ok := arm.Callee.Obj.Decl.(Member)
	if !ok {
		return nil
	}
	var out []*Object
	for i, p := range m.Sig().Params {
		if i >= len(arm.Args) || !p.LinearIn {
			continue
		}
		if id, ok := arm.Args[i].(*Ident); ok && id.Obj != nil {
			out = append(out, id.Obj)
		}
	}
	return out
}

// parCallVars reports a linear variable passed to two arms, a variable
// that receives outputs of two arms, and an argument that reads another
// arm's output.
func (c *checker) parCallVars(s *ParCallStmt) {
	linearArm := map[*Object]int{}
	outArm := map[*Object]int{}
	for i, arm := range s.Arms {
		for _, out := range arm.Outs {
			if out.Obj == nil {
				continue
			}
			if j, ok := outArm[out.Obj]; ok && j != i {
				c.errorf(out.P, "%s receives outputs of two arms of this parallel call; use another variable", out.Name)
			}
			outArm[out.Obj] = i
		}
		for _, id := range linearArgs(arm) {
			if j, ok := linearArm[id.Obj]; ok && j != i {
				c.errorf(id.P, "linear %s is passed to two arms of this parallel call; a linear value cannot be duplicated", id.Name)
			}
			linearArm[id.Obj] = i
		}
	}
	for _, y := range s.Yields {
		c.yieldArmReadsNoOutput(y, outArm)
		for _, id := range yieldArmLinears(y) {
			if j, ok := linearArm[id.Obj]; ok && s.Arms[j].Class == ClassProcCall {
				c.errorf(id.P, "linear %s is passed to procedure arm %s and to an invariant arm of this parallel call: the invariant must hold while the procedures run, as a thread of its own whose linear values no arm holds", id.Name, s.Arms[j].Callee.Name)
			}
		}
	}
	for i, arm := range s.Arms {
		for _, a := range arm.Args {
			InspectExpr(a, func(x Expr) bool {
				id, ok := x.(*Ident)
				if !ok || id.Obj == nil {
					return true
				}
				if j, out := outArm[id.Obj]; out && j != i {
					c.errorf(id.P, "%s is an output of another arm of this parallel call: the arms' arguments are evaluated before any arm runs; use another variable", id.Name)
					return false
				}
				return true
			})
		}
	}
}

// linearArgs returns the arguments of a checked call that go to linear
// parameters. A linear variable passed to a parameter that is not linear
// is an ordinary value: the mover checks assume nothing about it, so it
// may go to several arms.
func linearArgs(arm *CallStmt) []*Ident {
	if arm.Callee.Obj == nil {
		return nil
	}
	m, ok := arm.Callee.Obj.Decl.(Member)
	if !ok {
		return nil
	}
	params := m.Sig().Params
	var out []*Ident
	for i, a := range arm.Args {
		id, ok := a.(*Ident)
		if ok && i < len(params) && params[i].Linear && id.Obj != nil && id.Obj.Linear {
			out = append(out, id)
		}
	}
	return out
}

// parCallPattern checks CIVL's side condition on the arms' mover types:
// (left|both)* then at most one (atomic|right) then (right|both)*.
func (c *checker) parCallPattern(s *ParCallStmt) {
	var pivot *CallStmt // the first arm that is not a left mover
	for _, arm := range s.Arms {
		m := armMover(arm)
		switch {
		case pivot == nil && !m.IsLeft():
			pivot = arm
		case pivot != nil && !m.IsRight():
			c.errorf(arm.Callee.P, "the arms of a parallel call must be left movers, then at most one non-mover or right mover, then right movers: %s (%s) comes after %s (%s); reorder the arms or change the mover types",
				arm.Callee.Name, moverWord(m), pivot.Callee.Name, moverWord(armMover(pivot)))
			return
		}
	}
}

// armMover returns the mover type of the action or mover procedure an
// arm calls: a mover procedure arm is one step of its mover type for
// the caller, like an action arm (docs/checks.md, "Mover procedure
// arms").
func armMover(arm *CallStmt) Mover {
	m := MoverNone
	switch d := arm.Callee.Obj.Decl.(type) {
	case *Action:
		m = d.Mover
	case *Proc:
		m = d.Mover
	}
	if m == MoverNone {
		return MoverAtomic
	}
	return m
}

// moverWord names a mover type for messages.
func moverWord(m Mover) string {
	switch m {
	case MoverAtomic:
		return "a non-mover"
	case MoverBoth:
		return "a both mover"
	}
	return fmt.Sprintf("a %s mover", m)
}
