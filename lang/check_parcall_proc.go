package lang

// Parallel calls with procedure arms. An arm that calls a procedure of
// the caller's layer (a yielding procedure, CIVL's yield procedure) runs
// as a sub-thread of the caller: its fragments interleave with the other
// arms and with other threads, and the caller resumes when every arm has
// returned. The static checks treat such a call as its left-moving
// action arms, then the procedure call, then its right-moving action
// arms (docs/checks.md, "Parallel calls with procedure arms"); what
// makes that sound is the pattern checked here, CIVL's
// (left)* (yielding procedure)* (right)*.

// procArms returns the number of arms of s that call procedures that
// yield.
func procArms(s *ParCallStmt) int {
	n := 0
	for _, arm := range s.Arms {
		if arm.Class == ClassProcCall {
			n++
		}
	}
	return n
}

// parCallProcPattern checks the arms of a parallel call with procedure
// arms: left or both movers before the first procedure arm, right or
// both movers after it. A non-mover action arm has no place in that
// pattern: its step can be moved neither before the procedures'
// fragments nor after them.
func (c *checker) parCallProcPattern(s *ParCallStmt) {
	var proc *CallStmt // the procedure arm, once seen
	for _, arm := range s.Arms {
		if arm.Class == ClassProcCall {
			if proc == nil {
				proc = arm
			}
			continue
		}
		m := armMover(arm)
		switch {
		case m == MoverAtomic:
			near := proc
			if near == nil {
				near = procArmAfter(s, arm)
			}
			c.errorf(arm.Callee.P, "the arms of a parallel call with procedure arms must be left movers, then the procedures, then right movers: %s (a non-mover) can be moved neither before nor after procedure %s; make it a left mover (before %s) or a right mover (after it)", arm.Callee.Name, near.Callee.Name, near.Callee.Name)
			return
		case proc == nil && !m.IsLeft():
			c.errorf(arm.Callee.P, "the arms of a parallel call with procedure arms must be left movers, then the procedures, then right movers: %s (%s) comes before procedure %s; move it after %s or make it a left mover", arm.Callee.Name, moverWord(m), procArmAfter(s, arm).Callee.Name, procArmAfter(s, arm).Callee.Name)
			return
		case proc != nil && !m.IsRight():
			c.errorf(arm.Callee.P, "the arms of a parallel call with procedure arms must be left movers, then the procedures, then right movers: %s (%s) comes after procedure %s; move it before %s or make it a right mover", arm.Callee.Name, moverWord(m), proc.Callee.Name, proc.Callee.Name)
			return
		}
	}
}

// procArmAfter returns the first procedure arm of s after arm.
func procArmAfter(s *ParCallStmt, arm *CallStmt) *CallStmt {
	seen := false
	for _, a := range s.Arms {
		seen = seen || a == arm
		if seen && a.Class == ClassProcCall {
			return a
		}
	}
	return arm
}
