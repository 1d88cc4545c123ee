package refine

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Retry loops in method abstraction.
//
// At the head of a loop whose head yields, method abstraction havocs pc
// (whether the action happened) with the locals the loop writes, keeping
// what loopHeadPC says: pc is unchanged since the loop started, or the
// loop condition is false. That lets the iteration that performs the
// action go back to the head when the loop then ends, but at the head
// nothing says that a false condition means the action happened: after
// the havoc, a path leaves the loop with pc false, and the exit check
// ("no fragment performs") fails although no execution does that.
//
// The natural CAS retry loop
//
//	ok := false;
//	while (!ok) { v := x; yield; [if (x == v) { x := v + 1; ok := true; } else { ok := false; }] yield; }
//
// has the missing fact: ok is set only by the CAS step, and the loop ends
// only when the CAS succeeded, which is the action. For such a loop,
// a retry loop, method abstraction adds the invariant
//
//	!cond && !pc.loop ==> pc
//
// (if the action had not happened when the loop started, the loop ends
// only after it happened), checks it where the loop starts (cond || pc)
// and at every back edge, and assumes it at the head. It is then an
// invariant of every execution, so assuming it is sound; a loop for which
// it does not hold fails the check with a message that says so.
//
// A retry loop is a loop whose condition is a boolean local b or !b, and
// whose every statement that writes b is one step that also writes a
// global: the step that may perform the action (a CAS) is the one that
// decides whether the loop goes on. A waiting loop (`[done := x > 0]`)
// writes its condition in a step that writes no global, and keeps the
// plain rule.

// retryCond returns the local that the condition of the retry loop ws
// tests, or nil if ws is not a retry loop.
func retryCond(ws *lang.WhileStmt) *lang.Object {
	cond := ws.Cond
	if u, ok := cond.(*lang.UnaryExpr); ok && u.Op == lang.OpNot {
		cond = u.X
	}
	id, ok := cond.(*lang.Ident)
	if !ok || id.Obj == nil || !id.Obj.IsLocal() || id.Obj.Type != lang.Bool {
		return nil
	}
	b, retry := id.Obj, true
	lang.Inspect(ws.Body.Stmts, func(s lang.Stmt) bool {
		switch s.(type) {
		case *lang.StepStmt, *lang.AssignStmt, *lang.HavocStmt, *lang.CallStmt:
			w := layers.WrittenVars([]lang.Stmt{s})
			if w[b] && !writesGlobal(w) {
				retry = false
			}
			return false
		}
		return true
	})
	if !retry {
		return nil
	}
	return b
}

func writesGlobal(w map[*lang.Object]bool) bool {
	for o := range w {
		if o.Kind == lang.ObjGlobal {
			return true
		}
	}
	return false
}

// retryInvariant is !cond && !pcHead ==> pc for a retry loop ws, or nil.
func (m *methodCheck) retryInvariant(ws *lang.WhileStmt, pcHead *obl.Var) obl.Expr {
	if retryCond(ws) == nil {
		return nil
	}
	cond := m.b.Expr(ws.Cond, m.env)
	return obl.Implies(obl.And(obl.Not(cond), obl.Not(obl.Ref(pcHead))), obl.Ref(m.pc))
}

// retryEntry checks, where a retry loop starts, that its condition holds
// or the action already happened.
func (m *methodCheck) retryEntry(ws *lang.WhileStmt) obl.Cmd {
	b := retryCond(ws)
	if b == nil {
		return obl.Sequence()
	}
	return layers.Check(MethodAbstraction, obl.Or(m.b.Expr(ws.Cond, m.env), obl.Ref(m.pc)),
		fmt.Sprintf("%s does not refine action %s: the retry loop at line %d (its condition tests %s, which only steps that write globals set) may start with its condition false before %s happened; set %s so that the loop runs",
			m.p.Name(), m.a.Name(), ws.P.Line, b.Name, m.a.Name(), b.Name), ws.P, m.a.Decl.P)
}

// retryBackEdge checks the retry invariant at a back edge.
func (m *methodCheck) retryBackEdge(ws *lang.WhileStmt, pcHead *obl.Var) obl.Cmd {
	inv := m.retryInvariant(ws, pcHead)
	if inv == nil {
		return obl.Sequence()
	}
	return layers.Check(MethodAbstraction, inv,
		fmt.Sprintf("%s does not refine action %s: an iteration of the retry loop at line %d ends the loop without performing %s (its condition tests %s, which a step that writes globals sets); the loop may end only after %s happened",
			m.p.Name(), m.a.Name(), ws.P.Line, m.a.Name(), retryCond(ws).Name, m.a.Name()), ws.P, m.a.Decl.P)
}

// retryLeavesDone is the retry invariant the head assumes (true for a
// loop that is not a retry loop).
func (m *methodCheck) retryLeavesDone(ws *lang.WhileStmt, pcHead *obl.Var) obl.Expr {
	if inv := m.retryInvariant(ws, pcHead); inv != nil {
		return inv
	}
	return obl.Bool(true)
}
