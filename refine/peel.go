package refine

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Loop peeling (Appendix B of the Chase-Lev paper, Figure 4).
//
// A procedure P of layer l whose body is a retry loop `while (true)
// { B }` may be replaced at layer l+1 by its namesake declared `peel`,
// whose body is the last iteration: B up to its last step (matched as
// refinement structure matches namesakes, each step by step
// abstraction), then one step that abstracts B's last step followed by
// the private code after it along the paths that leave the loop (a
// return or break); the paths that reach the end of B, and would start
// another iteration, are cut off. So a CAS
// `[if (h == H) { H := h + 1; chk := true; } else { chk := false; }]`
// followed by `if (chk) { return; }` may become `[assume H == h; H := h + 1;]`.
// The check is that, and:
//
//   - B has no loop and calls no procedure (parameters are read-only, so
//     B writes only locals, outputs and globals);
//   - along every path through B that reaches its end (a failing
//     iteration), no assert fails and no step changes a global, ghost or
//     not (an obligation; other threads may run before each step).
//
// Then a failing iteration is a stutter: its steps change no global, and
// what it leaves in locals and outputs is a value they could have had at
// the start, where they are arbitrary (language.md, "Locals"). Every
// execution of P is an execution of the peeled procedure that starts
// with those values and runs the last iteration; an execution that
// retries forever is one where the thread never leaves its entry.

// Peel is the kind of the checks of loop peeling.
const Peel obl.Kind = "loop peeling"

// peelProc checks that up, declared peel, is p with its retry loop
// peeled.
func (r *refiner) peelProc(p, up *layers.Proc) {
	body := withoutYields(p.Decl.Body.Stmts)
	ws, ok := retryLoop(body)
	if !ok {
		r.fail(Peel, fmt.Sprintf("%s at layer %d is declared peel, but the body of %s at layer %d is not one loop while (true) { ... }",
			up.Name(), r.upper.Num, p.Name(), r.lower.Num), up.Decl.PeelPos, p.Decl.P)
		return
	}
	if msg, at := peelableBody(ws.Body.Stmts, p); msg != "" {
		r.fail(Peel, msg, at, up.Decl.PeelPos)
		return
	}
	ls := withoutYields(ws.Body.Stmts)
	k := lastStep(ls)
	if k < 0 || !simpleKind(ls[k]) {
		r.fail(Peel, fmt.Sprintf("the retry loop of %s must end with a step at the top level of its body (the CAS), followed by code without steps", p.Name()), ws.Pos(), up.Decl.PeelPos)
		return
	}
	us := withoutYields(up.Decl.Body.Stmts)
	if n := len(us); n > 0 {
		if _, ok := us[n-1].(*lang.ReturnStmt); ok {
			us = us[:n-1]
		}
	}
	m := &matcher{r: r, lower: p, upper: up}
	if len(us) == 0 {
		m.mismatch(fmt.Sprintf("%s has no statement for %s's last step at %s", m.layerName(true), m.layerName(false), ls[k].Pos()), ls[k].Pos(), up.Decl.Body.End)
	} else {
		m.block(ls[:k], us[:len(us)-1], ls[k].Pos(), us[len(us)-1].Pos())
		if !m.failed && !simpleKind(us[len(us)-1]) {
			m.differ(ls[k], us[len(us)-1], fmt.Sprintf("the last step of the retry loop corresponds to %s", withArticle(describeStmt(us[len(us)-1]))))
		}
	}
	if m.failed {
		m.report()
		return
	}
	for _, pr := range m.pairs {
		m.stepPair(pr[0], pr[1])
	}
	r.lastIteration(m, ls[k], ls[k+1:], us[len(us)-1])
	r.failingIteration(p, ws)
}

// lastStep returns the index of the last statement of ss that is or
// contains a step, or -1.
func lastStep(ss []lang.Stmt) int {
	for i := len(ss) - 1; i >= 0; i-- {
		if containsStep(ss[i]) {
			return i
		}
	}
	return -1
}

func containsStep(s lang.Stmt) bool {
	found := false
	lang.Inspect([]lang.Stmt{s}, func(t lang.Stmt) bool {
		found = found || lang.IsStep(t)
		return !found
	})
	return found
}

// lastIteration checks that the upper procedure's last step u abstracts
// the loop's last step l followed by the private code rest along the
// paths that leave the loop: the paths that go on to another iteration
// are cut off there.
func (r *refiner) lastIteration(m *matcher, l lang.Stmt, rest []lang.Stmt, u lang.Stmt) {
	b := layers.NewBuilder(r.prog)
	lower, upper, newVars, ok := r.frames(b, &m.lower.Decl.Signature, &m.upper.Decl.Signature)
	if !ok {
		return
	}
	gate := obl.And(stepGate(b, m.lower, l, lower), stepGate(b, m.upper, u, upper))
	lowerCode := obl.Sequence(b.Stmt(l, lower, layers.Transition), exitPaths(b, rest, lower))
	msg := fmt.Sprintf("the step at line %d of layer %d does not abstract the last step of the retry loop at line %d of layer %d on the paths that leave the loop: from a state satisfying its gate, the lower code makes a move the upper one cannot",
		u.Pos().Line, r.upper.Num, l.Pos().Line, r.lower.Num)
	ob, err := r.abstraction(b, Peel, msg, gate, lowerCode, b.Stmt(u, upper, layers.Transition),
		r.upperVars(upper, &m.upper.Decl.Signature), newVars, []lang.Pos{u.Pos(), l.Pos()})
	r.add(ob, err, Peel, u.Pos())
}

// exitPaths translates the private code after the loop's last step:
// a return or break leaves the loop (the path ends there), and reaching
// the end of the list starts another iteration, which is cut off.
func exitPaths(b *layers.Builder, ss []lang.Stmt, env *layers.Env) obl.Cmd {
	ss = withoutYields(ss)
	if len(ss) == 0 {
		return &obl.Assume{E: obl.Bool(false)}
	}
	switch s := ss[0].(type) {
	case *lang.ReturnStmt, *lang.BreakStmt:
		return obl.Sequence()
	case *lang.IfStmt:
		var els []lang.Stmt
		switch e := s.Else.(type) {
		case *lang.BlockStmt:
			els = e.Block.Stmts
		case *lang.IfStmt:
			els = []lang.Stmt{e}
		}
		then := exitPaths(b, append(append([]lang.Stmt{}, s.Then.Stmts...), ss[1:]...), env)
		other := exitPaths(b, append(append([]lang.Stmt{}, els...), ss[1:]...), env)
		if s.Cond != nil {
			c := b.Expr(s.Cond, env)
			then, other = obl.Sequence(&obl.Assume{E: c}, then), obl.Sequence(&obl.Assume{E: obl.Not(c)}, other)
		}
		return &obl.Choice{Branches: []obl.Cmd{then, other}}
	case *lang.BlockStmt:
		return exitPaths(b, append(append([]lang.Stmt{}, s.Block.Stmts...), ss[1:]...), env)
	case *lang.ChoiceStmt:
		var brs []obl.Cmd
		for _, br := range s.Branches {
			brs = append(brs, exitPaths(b, append(append([]lang.Stmt{}, br.Stmts...), ss[1:]...), env))
		}
		return &obl.Choice{Branches: brs}
	default:
		return obl.Sequence(b.Stmt(s, env, layers.Transition), exitPaths(b, ss[1:], env))
	}
}

// retryLoop returns the loop of a body that is one loop while (true).
func retryLoop(body []lang.Stmt) (*lang.WhileStmt, bool) {
	if len(body) != 1 {
		return nil, false
	}
	ws, ok := body[0].(*lang.WhileStmt)
	if !ok {
		return nil, false
	}
	lit, ok := ws.Cond.(*lang.BoolLit)
	return ws, ok && lit.Val
}

// peelableBody returns what keeps a loop body from being peeled, and
// where, or "".
func peelableBody(ss []lang.Stmt, p *layers.Proc) (string, lang.Pos) {
	msg, at := "", lang.Pos{}
	lang.Inspect(ss, func(s lang.Stmt) bool {
		if msg != "" {
			return false
		}
		switch s := s.(type) {
		case *lang.WhileStmt:
			msg, at = "the retry loop of "+p.Name()+" contains a loop: only a loop body without loops can be peeled", s.Pos()
		case *lang.CallStmt:
			if p.Decl.Layer != nil && callsProc(p, s) {
				msg, at = "the retry loop of "+p.Name()+" calls procedure "+s.Callee.Name+": a failing iteration must be a sequence of steps", s.Pos()
			}
		}
		return true
	})
	return msg, at
}

// callsProc reports whether call s of p's body calls a procedure.
func callsProc(p *layers.Proc, s *lang.CallStmt) bool {
	for _, m := range p.Decl.Layer.Members {
		if pr, ok := m.(*lang.Proc); ok && pr.Name.Name == s.Callee.Name {
			return true
		}
	}
	return false
}

// failingIteration adds the obligation that a failing iteration of the
// loop ws of p fails no assert and that none of its steps changes a
// global. Other threads may run before each step (the implementation
// interleaves at every access), so the globals are havoced there; the
// flag changed records a step that changed one, and the end of the body,
// reached only by failing iterations, asserts that none did.
func (r *refiner) failingIteration(p *layers.Proc, ws *lang.WhileStmt) {
	b := layers.NewBuilder(r.prog)
	env := b.Globals(r.lower, "", "globals")
	frame := b.Frame(env, &p.Decl.Signature, "", fmt.Sprintf("locals of %s (layer %d)", p.Name(), r.lower.Num))
	f := &failing{r: r, b: b, env: frame, changed: b.NewVar("changed", layers.SortOf(lang.Bool))}
	b.Group("a step of the failing iteration changed a global", []*obl.Var{f.changed})
	msg := fmt.Sprintf("a failing iteration of the retry loop of %s (one that goes on to the next) may change a global: it is not a stutter, so it cannot be peeled off", p.Name())
	body := obl.Sequence(&obl.Assign{Lhs: []*obl.Var{f.changed}, Rhs: []obl.Expr{obl.Bool(false)}},
		f.code(ws.Body.Stmts), layers.Check(Peel, obl.Not(obl.Ref(f.changed)), msg, ws.Pos()))
	r.obs = append(r.obs, b.Obligation(fmt.Sprintf("l%d-peel-%s", r.lower.Num, p.Name()), Peel, body))
}

// failing translates a loop body for failingIteration.
type failing struct {
	r       *refiner
	b       *layers.Builder
	env     *layers.Env
	changed *obl.Var
}

// step translates one step: other threads run, then the step, which
// sets changed if it changed a global.
func (f *failing) step(s lang.Stmt) obl.Cmd {
	var gs []*obl.Var
	for _, g := range f.r.lower.Globals {
		gs = append(gs, f.env.Var(g))
	}
	old, snap := f.b.Snapshot(f.env, f.r.lower.Globals, ".before", fmt.Sprintf("globals before the statement at line %d", s.Pos().Line))
	var same []obl.Expr
	for _, g := range f.r.lower.Globals {
		same = append(same, obl.Eq(f.env.Lookup(g), old.Lookup(g)))
	}
	return obl.Sequence(&obl.Havoc{Vars: gs}, snap, f.b.Stmt(s, f.env, layers.Mode{Check: true, Kind: Peel}),
		&obl.Assign{Lhs: []*obl.Var{f.changed}, Rhs: []obl.Expr{obl.Or(obl.Ref(f.changed), obl.Not(obl.And(same...)))}})
}

// code translates a statement list: the paths that leave the loop
// (return, break) are cut off, asserts are checked.
func (f *failing) code(ss []lang.Stmt) obl.Cmd {
	var cmds []obl.Cmd
	for _, s := range withoutYields(ss) {
		switch s := s.(type) {
		case *lang.ReturnStmt, *lang.BreakStmt:
			return obl.Sequence(append(cmds, &obl.Assume{E: obl.Bool(false)})...)
		case *lang.IfStmt:
			then := f.code(s.Then.Stmts)
			var els obl.Cmd = obl.Sequence()
			if s.Else != nil {
				els = f.code([]lang.Stmt{s.Else})
			}
			if s.Cond != nil {
				c := f.b.Expr(s.Cond, f.env)
				then, els = obl.Sequence(&obl.Assume{E: c}, then), obl.Sequence(&obl.Assume{E: obl.Not(c)}, els)
			}
			cmds = append(cmds, &obl.Choice{Branches: []obl.Cmd{then, els}})
		case *lang.BlockStmt:
			cmds = append(cmds, f.code(s.Block.Stmts))
		case *lang.ChoiceStmt:
			var brs []obl.Cmd
			for _, br := range s.Branches {
				brs = append(brs, f.code(br.Stmts))
			}
			cmds = append(cmds, &obl.Choice{Branches: brs})
		default:
			cmds = append(cmds, f.step(s))
		}
	}
	return obl.Sequence(cmds...)
}
