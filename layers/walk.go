package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// Walk generates the code of a whole procedure with its yield points
// made explicit, as CIVL's checks see it: at a yield point other threads
// run, so the globals take any values the yield's annotation allows,
// while the thread's locals keep theirs (no other thread can change
// them). The hooks say what happens at yield points; the sequential check
// asserts the annotations there, method abstraction instruments the
// fragments.
type Walk struct {
	B    *Builder
	Env  *Env // the globals and the procedure's frame
	Proc *Proc
	Mode Mode // how asserts inside steps are treated

	// Reach is run when the code reaches yield point y: at a yield
	// statement, at a loop head (from before the loop and from its back
	// edge) and at the exit.
	Reach func(y *YieldPoint) obl.Cmd
	// Resume is run after Reach at every yield point but the exit,
	// after the globals and the variables in havoc have been havoced
	// and the yield's annotation assumed.
	Resume func(y *YieldPoint) obl.Cmd
	// Loop, if set, is run at a loop head before the variables written
	// by the loop are havoced, and BackEdge after Reach at its back
	// edge; LoopHavoc lists extra variables to havoc at loop heads.
	Loop      func(w *lang.WhileStmt) obl.Cmd
	BackEdge  func(w *lang.WhileStmt) obl.Cmd
	LoopHavoc []*obl.Var
	// Exit is run at the exit after Reach.
	Exit func() obl.Cmd
	// Before, if set, is run before each simple statement or group.
	Before func(s lang.Stmt) obl.Cmd
}

// Body returns the code of the whole procedure from its entry. The
// caller assumes what holds at entry first.
func (w *Walk) Body() obl.Cmd {
	return obl.Sequence(w.B.TakeOld(&w.Proc.Decl.Signature, w.Env), w.seq(w.Proc.Decl.Body.Stmts), w.exit())
}

// frag returns a Fragments for the pieces Walk shares with it: private
// loops and branch guards. A private loop has no yield point inside, but
// it may return: its end is then the procedure's exit.
func (w *Walk) frag() *Fragments {
	return &Fragments{B: w.B, Env: w.Env, Proc: w.Proc, Mode: w.Mode, End: func(y *YieldPoint) obl.Cmd {
		if y.Kind != YieldExit {
			panic("layers: a private loop reaches a yield point")
		}
		return w.exit()
	}, Break: w.after}
}

// after returns the code that follows statement s through the end of
// the procedure (or the end of the iteration of the loop around s), and
// stops the path: a break out of the loop s continues there.
func (w *Walk) after(s *lang.WhileStmt) obl.Cmd {
	seq := func(ss []lang.Stmt) (obl.Cmd, bool) { return w.seq(ss), false }
	loopEnd := func(ws *lang.WhileStmt) obl.Cmd {
		if y := w.Proc.yieldOf[ws]; y != nil {
			return w.backEdge(ws, y)
		}
		return w.frag().privateBackEdge(ws)
	}
	return obl.Sequence(w.Proc.continuation(s, seq, loopEnd, w.exit), &obl.Assume{E: obl.Bool(false)})
}

// backEdge is the end of an iteration of the loop ws whose head is y.
func (w *Walk) backEdge(ws *lang.WhileStmt, y *YieldPoint) obl.Cmd {
	back := []obl.Cmd{w.Reach(y)}
	if w.BackEdge != nil {
		back = append(back, w.BackEdge(ws))
	}
	return obl.Sequence(append(back, &obl.Assume{E: obl.Bool(false)})...)
}

func (w *Walk) exit() obl.Cmd {
	cmds := []obl.Cmd{w.Reach(w.Proc.Exit.Yield)}
	if w.Exit != nil {
		cmds = append(cmds, w.Exit())
	}
	return obl.Sequence(append(cmds, &obl.Assume{E: obl.Bool(false)})...)
}

// yield reaches y and resumes after it: the globals and extra are
// havoced, and y's annotation (proven) is assumed.
func (w *Walk) yield(y *YieldPoint, extra ...*obl.Var) obl.Cmd {
	var havoc []*obl.Var
	for _, g := range w.Proc.Layer.Globals {
		havoc = append(havoc, w.Env.Var(g))
	}
	cmds := []obl.Cmd{
		&obl.Havoc{Vars: append(havoc, extra...)},
		&obl.Assume{E: obl.And(w.B.AnnotationAfter(y, w.Env), w.B.ParamFacts(w.Proc, w.Env), OwnLinearFacts(w.Proc.Layer.Globals, &w.Proc.Decl.Signature, w.Env))},
	}
	if w.Resume != nil {
		cmds = append(cmds, w.Resume(y))
	}
	return obl.Sequence(cmds...)
}

func (w *Walk) seq(ss []lang.Stmt) obl.Cmd {
	var cmds []obl.Cmd
	for _, s := range ss {
		cmds = append(cmds, w.stmt(s))
	}
	return obl.Sequence(cmds...)
}

func (w *Walk) stmt(s lang.Stmt) obl.Cmd {
	switch s := s.(type) {
	case *lang.YieldStmt:
		y := w.Proc.yieldOf[s]
		return obl.Sequence(w.Reach(y), w.yield(y))
	case *lang.ReturnStmt:
		return w.exit()
	case *lang.BreakStmt:
		return w.after(w.Proc.LoopOf(s))
	case *lang.WhileStmt:
		if y := w.Proc.yieldOf[s]; y != nil {
			return w.loop(s, y)
		}
		return w.frag().privateLoop(s)
	case *lang.CallStmt:
		if y := w.Proc.yieldOf[s]; y != nil {
			return w.frag().callThrough(y)
		}
	case *lang.IfStmt:
		return w.B.ifStmt(s, w.Env, w.Mode, func(ss []lang.Stmt, _ *Env, _ Mode) obl.Cmd { return w.seq(ss) }, w.stmt)
	case *lang.BlockStmt:
		return w.seq(s.Block.Stmts)
	case *lang.ParCallStmt:
		return w.seq(StaticArms(s))
	case *lang.ChoiceStmt:
		var brs []obl.Cmd
		for _, br := range s.Branches {
			brs = append(brs, w.seq(br.Stmts))
		}
		return &obl.Choice{Branches: brs}
	}
	if w.Before != nil {
		return obl.Sequence(w.Before(s), w.B.Stmt(s, w.Env, w.Mode))
	}
	return w.B.Stmt(s, w.Env, w.Mode)
}

// loop handles a loop whose head is a yield point: the head is reached
// from before the loop, then the locals the loop writes are havoced
// with the globals (any iteration may be the current one), the
// invariants assumed, and one iteration checked: it must reach the head
// again or leave the loop.
func (w *Walk) loop(ws *lang.WhileStmt, y *YieldPoint) obl.Cmd {
	var written []*obl.Var
	for o := range WrittenVars(ws.Body.Stmts) {
		if o.IsLocal() {
			written = append(written, w.Env.Var(o))
		}
	}
	sortVars(written)
	g := w.frag()
	cmds := []obl.Cmd{w.Reach(y)}
	if w.Loop != nil {
		cmds = append(cmds, w.Loop(ws)) // before BackEdge, which may use what Loop sets up
	}
	return obl.Sequence(append(cmds,
		w.yield(y, append(written, w.LoopHavoc...)...),
		&obl.Choice{Branches: []obl.Cmd{
			obl.Sequence(g.guard(ws.Cond, false), w.seq(ws.Body.Stmts), w.backEdge(ws, y)),
			g.guard(ws.Cond, true),
		}})...)
}

// Trace records, for counterexamples, the values of vars when a path
// passes a program point: a group named title whose first variable
// tells whether the point was reached. Nothing reads the trace: it is
// not part of any check. Call ClearTraces at the start of the program.
func (b *Builder) Trace(title, key string, vars []*obl.Var) obl.Cmd {
	reached := b.NewVar("reached."+key, obl.BoolSort)
	var copies []*obl.Var
	for _, v := range vars {
		copies = append(copies, b.NewVar(fmt.Sprintf("%s.%s", v.Name, key), v.Sort))
	}
	b.traces = append(b.traces, reached)
	b.Group(title, append([]*obl.Var{reached}, copies...))
	return obl.Sequence(obl.AssignOne(reached, obl.Bool(true)), CopyVars(copies, vars))
}

// Marked shows vars in counterexamples under title only when the failing
// path runs the returned command (a branch of a choice, say): like a
// Trace, but showing the variables themselves rather than copies.
func (b *Builder) Marked(title, key string, vars []*obl.Var) obl.Cmd {
	reached := b.NewVar("reached."+key, obl.BoolSort)
	b.traces = append(b.traces, reached)
	b.Group(title, append([]*obl.Var{reached}, vars...))
	return obl.AssignOne(reached, obl.Bool(true))
}

// ClearTraces marks every trace point as not reached; it must come
// first in a program that uses Trace.
func (b *Builder) ClearTraces() obl.Cmd {
	var cmds []obl.Cmd
	for _, r := range b.traces {
		cmds = append(cmds, obl.AssignOne(r, obl.Bool(false)))
	}
	return obl.Sequence(cmds...)
}

// CopyVars assigns the values of src to dst, in parallel.
func CopyVars(dst, src []*obl.Var) obl.Cmd {
	a := &obl.Assign{Lhs: dst}
	for _, v := range src {
		a.Rhs = append(a.Rhs, obl.Ref(v))
	}
	return a
}
