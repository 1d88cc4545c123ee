package lsp

import (
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// armChain corrects the chain of statements at offset off in a parallel
// call: the checker's yield point for a run of invariant arms spans to
// the end of the call, so it also covers the arms written after the run,
// but the arm written at off is the one hovered. The chain it returns
// ends with the parallel call, followed by the arm at off if that arm
// calls an action or a procedure; an invariant arm at off is returned
// apart.
func armChain(chain []lang.Stmt, off int) ([]lang.Stmt, *lang.CallStmt) {
	for i := len(chain) - 1; i >= 0; i-- {
		par, ok := chain[i].(*lang.ParCallStmt)
		if !ok {
			continue
		}
		if !partsOf(par, chain[i+1:]) {
			// a statement after the call, which starts where the
			// call ends
			return chain, nil
		}
		chain = chain[:i+1]
		// An arm ends where the next begins: the last arm that spans
		// off is the one written there.
		var at *lang.CallStmt
		for _, arm := range par.Written {
			if arm.P.Offset <= off && off <= arm.End.Offset {
				at = arm
			}
		}
		switch {
		case at == nil:
			return chain, nil
		case isCodeArm(par, at):
			return append(chain, at), nil
		}
		return chain, at
	}
	return chain, nil
}

// partsOf reports whether every statement of ss is an arm of par or the
// yield point of its invariant arms.
func partsOf(par *lang.ParCallStmt, ss []lang.Stmt) bool {
	for _, s := range ss {
		part := false
		for _, arm := range par.Written {
			part = part || lang.Stmt(arm) == s
		}
		for _, y := range par.Yields {
			part = part || lang.Stmt(y.Yield) == s
		}
		if !part {
			return false
		}
	}
	return true
}

// isCodeArm reports whether arm, an arm of par as written, calls an
// action or a procedure (the checker keeps those in Arms).
func isCodeArm(par *lang.ParCallStmt, arm *lang.CallStmt) bool {
	for _, a := range par.Arms {
		if a == arm {
			return true
		}
	}
	return false
}

// parCallText describes a parallel call by the kinds of its arms
// (docs/language.md, "Parallel calls").
func parCallText(s *lang.ParCallStmt) string {
	if layers.HasProcArm(s) {
		what := "a parallel call with procedure arms: they run as sub-threads, checked as one yield point (every callee's requires before, every ensures after) between the left-moving and the right-moving action arms"
		if hasMoverProcArm(s) {
			what += "; a mover procedure arm counts as an action arm of its mover type"
		}
		if len(s.Yields) > 0 {
			what += "; its yield-invariant arms are part of the procedures' yield point"
		}
		return what
	}
	what := "a parallel call: its arms are calls of actions"
	if hasMoverProcArm(s) {
		what += " and mover procedures (one step of their mover type each)"
	}
	what += ", checked in textual order (their mover types make that order enough)"
	if len(s.Yields) > 0 {
		what += "; each run of its yield-invariant arms is a yield point between the arms written before and after it"
	}
	return what
}

func hasMoverProcArm(s *lang.ParCallStmt) bool {
	for _, arm := range s.Arms {
		if layers.IsMoverCall(arm) {
			return true
		}
	}
	return false
}

// armText describes an arm of parallel call par that calls an action or
// a procedure.
func armText(par *lang.ParCallStmt, arm *lang.CallStmt) string {
	switch {
	case layers.IsMoverCall(arm):
		return "a mover procedure arm: one step of the procedure's mover type (its summary), placed in the arms' mover pattern as an action arm of that type"
	case arm.Class == lang.ClassProcCall:
		return "a procedure arm: the procedure runs as a sub-thread of the caller; its requires must hold where the procedure arms start (one yield point for all of them), and its ensures hold when every arm has returned"
	}
	return "an action arm: a step, with the action's mover type and gate, checked in the arms' textual order"
}

// invariantArmText describes a yield-invariant arm of par.
func invariantArmText(par *lang.ParCallStmt) string {
	if layers.HasProcArm(par) {
		return "a yield-invariant arm: it runs no code; it is part of the procedure arms' yield point: it must hold where they start, with their requires, and holds again, with their ensures, when every arm has returned"
	}
	return "a yield-invariant arm: it runs no code; it is a yield point after the arms written before it, where the invariant must hold and stay true while other threads run"
}
