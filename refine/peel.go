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
// whose body is B followed by `assume false;`: the last iteration, with
// the path that would start another iteration cut off. The check is:
//
//   - the upper body is B (matched as refinement structure matches
//     namesakes, each step by step abstraction) and then `assume false;`;
//   - B has no loop and calls no procedure, and writes no parameter;
//   - along every path through B that reaches its end (a failing
//     iteration), no assert fails and every global, ghost or not, ends
//     with the value it started with (an obligation).
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
			up.Name(), r.upper.Num, p.Name(), r.lower.Num), up.Decl.Peel, p.Decl.P)
		return
	}
	if msg, at := peelableBody(ws.Body.Stmts, p); msg != "" {
		r.fail(Peel, msg, at, up.Decl.Peel)
		return
	}
	us := withoutYields(up.Decl.Body.Stmts)
	if len(us) == 0 || !assumesFalse(us[len(us)-1]) {
		r.fail(Peel, fmt.Sprintf("%s at layer %d is declared peel, so its body must end with assume false; (the path into another iteration, cut off)",
			up.Name(), r.upper.Num), up.Decl.Body.End, up.Decl.Peel)
		return
	}
	m := &matcher{r: r, lower: p, upper: up}
	m.block(ws.Body.Stmts, us[:len(us)-1], ws.Body.End, us[len(us)-1].Pos())
	if m.failed {
		m.report()
		return
	}
	for _, pr := range m.pairs {
		m.stepPair(pr[0], pr[1])
	}
	r.failingIteration(p, ws)
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

func assumesFalse(s lang.Stmt) bool {
	a, ok := s.(*lang.AssumeStmt)
	if !ok {
		return false
	}
	lit, ok := a.Cond.(*lang.BoolLit)
	return ok && !lit.Val
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
	if msg != "" {
		return msg, at
	}
	for o := range layers.WrittenVars(ss) {
		if o.Kind == lang.ObjParam {
			return fmt.Sprintf("the retry loop of %s writes parameter %s: a failing iteration may leave only locals and outputs changed", p.Name(), o.Name), p.Decl.P
		}
	}
	return "", at
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
	old, snap := f.b.Snapshot(f.env, f.r.lower.Globals, ".before", "globals before a step")
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
