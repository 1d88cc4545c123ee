package og

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Stability of the invariant arms of parallel calls with procedure arms
// (docs/checks.md, "Yield-invariant arms"). Such an arm's clauses are
// part of the procedures' yield point: asserted where the procedures
// start, assumed when all have returned. In between, the procedure arms
// run as sub-threads with linear values of the caller, so the caller's
// frame cannot be thread 1 of the usual obligation (its linear values
// would be assumed distinct from theirs). Thread 1 is the yield
// invariant itself instead, as in CIVL: its parameters are the frame,
// its linear parameters are values the caller keeps (the front end
// gives them to no other arm), and every fragment of another thread or
// arm, and every public action, must keep its clauses.

// yieldArmStability returns, for every yield invariant called as an arm
// of a parallel call with procedure arms at layer l, one obligation per
// interferer that may write a global the invariant reads.
func yieldArmStability(l *layers.Layer) []*obl.Obligation {
	var obs []*obl.Obligation
	fs := interferers(l)
	for _, d := range yieldArmDecls(l) {
		reads := yieldInvReads(l, d)
		for _, f := range fs {
			if !intersects(reads, globalsWritten(l, f)) {
				continue
			}
			obs = append(obs, yieldArmCheck(l, d, f))
		}
	}
	return obs
}

// yieldArmDecls returns the yield invariants called as invariant arms of
// parallel calls with procedure arms at layer l, each once, in the order
// of their first call.
func yieldArmDecls(l *layers.Layer) []*lang.FuncDecl {
	var out []*lang.FuncDecl
	seen := map[*lang.FuncDecl]bool{}
	for _, p := range l.Procs {
		for _, y := range p.Yields {
			for _, call := range layers.YieldArmCalls(y) {
				d := call.Func.Obj.Decl.(*lang.FuncDecl)
				if !seen[d] {
					seen[d] = true
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// yieldInvSig is the frame of a yield invariant as thread 1: its
// parameters.
func yieldInvSig(d *lang.FuncDecl) *lang.Signature {
	return &lang.Signature{Name: d.Name, Params: d.Params}
}

// yieldInvReads returns the globals of layer l that d's clauses read.
func yieldInvReads(l *layers.Layer, d *lang.FuncDecl) map[*lang.Object]bool {
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	env1 := b.Frame(env, yieldInvSig(d), ".1", "thread 1")
	return readGlobals(b.Expr(d.Body, env1), l, env)
}

// yieldArmCheck builds {Y(p)[t1] ∧ inv ∧ pre(f)[t2] ∧ t1 ≠ t2} f[t2]
// {Y(p)[t1]} for yield invariant d and interferer f.
func yieldArmCheck(l *layers.Layer, d *lang.FuncDecl, f interferer) *obl.Obligation {
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	sig := yieldInvSig(d)
	env1 := b.Frame(env, sig, ".1", fmt.Sprintf("yield invariant %s", d.Name.Name))
	clauses := b.Expr(d.Body, env1)
	check := func(msg func(string) string, pos ...lang.Pos) obl.Cmd {
		what := fmt.Sprintf("yield invariant %s, an arm of a parallel call,", d.Name.Name)
		a := &obl.Assert{E: clauses, Kind: NonInterference, Msg: msg(what)}
		for _, p := range pos {
			a.Pos = append(a.Pos, layers.Pos(p))
		}
		return a
	}
	pre, distinct, code := interfererRun(b, env, thread1{l, sig, env1, d.P, check}, f)
	body := obl.Sequence(&obl.Assume{E: clauses}, &obl.Assume{E: b.Conj(l.Invariants, env)},
		&obl.Assume{E: pre}, distinct, code())
	return b.Obligation(obName(l, "ni-arm", d.Name.Name, f.key()), NonInterference, body)
}
