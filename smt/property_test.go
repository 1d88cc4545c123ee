package smt

import (
	"context"
	"fmt"
	"github.com/lipton-dev/lipton/obl"
	"math/rand"
	"testing"
)

// This file cross-checks the prover against a brute-force interpreter on
// random quantifier-free programs over two integers and a boolean: every
// failure the interpreter finds from a small initial domain must be
// reported, and every counterexample the prover reports must replay
// concretely, with the same values after and the same branches.

// concrete is a concrete state: int64 for int variables, bool for bool.
type concrete map[*obl.Var]any

func (st concrete) clone() concrete {
	out := make(concrete, len(st))
	for k, v := range st {
		out[k] = v
	}
	return out
}

func evalConcrete(e obl.Expr, st concrete) any {
	switch e := e.(type) {
	case *obl.IntLit:
		return e.V.Int64()
	case *obl.BoolLit:
		return e.V
	case *obl.VarRef:
		return st[e.V]
	case *obl.Unary:
		if e.Op == obl.OpNot {
			return !evalConcrete(e.X, st).(bool)
		}
		return -evalConcrete(e.X, st).(int64)
	case *obl.Ite:
		if evalConcrete(e.Cond, st).(bool) {
			return evalConcrete(e.Then, st)
		}
		return evalConcrete(e.Else, st)
	case *obl.Binary:
		return evalBinary(e, st)
	}
	panic(fmt.Sprintf("evalConcrete: %T", e))
}

func evalBinary(e *obl.Binary, st concrete) any {
	x, y := evalConcrete(e.X, st), evalConcrete(e.Y, st)
	switch e.Op {
	case obl.OpAnd:
		return x.(bool) && y.(bool)
	case obl.OpOr:
		return x.(bool) || y.(bool)
	case obl.OpImplies:
		return !x.(bool) || y.(bool)
	case obl.OpIff, obl.OpEq:
		return x == y
	case obl.OpNe:
		return x != y
	}
	a, b := x.(int64), y.(int64)
	switch e.Op {
	case obl.OpAdd:
		return a + b
	case obl.OpSub:
		return a - b
	case obl.OpMul:
		return a * b
	case obl.OpLt:
		return a < b
	case obl.OpLe:
		return a <= b
	case obl.OpGt:
		return a > b
	case obl.OpGe:
		return a >= b
	}
	panic(fmt.Sprintf("evalBinary: %v", e.Op))
}

// failure is a concrete failing execution of an assert.
type failure struct {
	assert   *obl.Assert
	after    concrete
	branches []obl.BranchTaken
}

// run executes c from st along every path, calling fail for each assert
// that fails; a failing path stops there. It returns the final states.
type pathState struct {
	st       concrete
	branches []obl.BranchTaken
}

func runConcrete(c obl.Cmd, ps []pathState, fail func(failure)) []pathState {
	switch c := c.(type) {
	case *obl.Assume:
		var out []pathState
		for _, p := range ps {
			if evalConcrete(c.E, p.st).(bool) {
				out = append(out, p)
			}
		}
		return out
	case *obl.Assert:
		var out []pathState
		for _, p := range ps {
			if evalConcrete(c.E, p.st).(bool) {
				out = append(out, p)
			} else {
				fail(failure{c, p.st, p.branches})
			}
		}
		return out
	case *obl.Assign:
		for i := range ps {
			next := ps[i].st.clone()
			for j, v := range c.Lhs {
				next[v] = evalConcrete(c.Rhs[j], ps[i].st)
			}
			ps[i].st = next
		}
		return ps
	case *obl.Choice:
		var out []pathState
		for b, br := range c.Branches {
			in := make([]pathState, len(ps))
			for i, p := range ps {
				in[i] = pathState{p.st.clone(), append(append([]obl.BranchTaken{}, p.branches...), obl.BranchTaken{Choice: c, Branch: b})}
			}
			out = append(out, runConcrete(br, in, fail)...)
		}
		return out
	case *obl.Seq:
		for _, s := range c.Cmds {
			ps = runConcrete(s, ps, fail)
		}
		return ps
	}
	panic(fmt.Sprintf("runConcrete: %T", c))
}

// progGen generates random programs over x, y: int and p: bool.
type progGen struct {
	rnd     *rand.Rand
	x, y, p *obl.Var
}

func (g *progGen) intExpr(depth int) obl.Expr {
	switch k := g.rnd.Intn(6); {
	case k == 0 || depth == 0:
		return obl.Int(int64(g.rnd.Intn(5) - 2))
	case k == 1:
		return obl.Ref(g.x)
	case k == 2:
		return obl.Ref(g.y)
	case k == 3:
		return &obl.Binary{Op: obl.OpAdd, X: g.intExpr(depth - 1), Y: g.intExpr(depth - 1)}
	case k == 4:
		return &obl.Binary{Op: obl.OpSub, X: g.intExpr(depth - 1), Y: g.intExpr(depth - 1)}
	default:
		return &obl.Ite{Cond: g.boolExpr(depth - 1), Then: g.intExpr(depth - 1), Else: g.intExpr(depth - 1)}
	}
}

func (g *progGen) boolExpr(depth int) obl.Expr {
	ops := []obl.BinaryOp{obl.OpLt, obl.OpLe, obl.OpEq, obl.OpNe, obl.OpGt, obl.OpGe}
	switch k := g.rnd.Intn(5); {
	case k == 0 && depth > 0:
		return &obl.Binary{Op: []obl.BinaryOp{obl.OpAnd, obl.OpOr, obl.OpImplies, obl.OpIff}[g.rnd.Intn(4)], X: g.boolExpr(depth - 1), Y: g.boolExpr(depth - 1)}
	case k == 1:
		return obl.Ref(g.p)
	case k == 2 && depth > 0:
		return &obl.Unary{Op: obl.OpNot, X: g.boolExpr(depth - 1)}
	default:
		return &obl.Binary{Op: ops[g.rnd.Intn(len(ops))], X: g.intExpr(1), Y: g.intExpr(1)}
	}
}

func (g *progGen) cmd(depth int) obl.Cmd {
	switch k := g.rnd.Intn(7); {
	case k == 0:
		return &obl.Assume{E: g.boolExpr(1)}
	case k <= 2:
		return &obl.Assert{E: g.boolExpr(2)}
	case k == 3:
		return obl.AssignOne(g.x, g.intExpr(2))
	case k == 4:
		return &obl.Assign{Lhs: []*obl.Var{g.x, g.y, g.p}, Rhs: []obl.Expr{g.intExpr(1), obl.Ref(g.x), g.boolExpr(1)}}
	case k == 5 && depth > 0:
		var brs []obl.Cmd
		for b := 0; b < 1+g.rnd.Intn(3); b++ {
			brs = append(brs, g.seq(depth-1))
		}
		return &obl.Choice{Branches: brs}
	default:
		return obl.AssignOne(g.y, g.intExpr(1))
	}
}

func (g *progGen) seq(depth int) obl.Cmd {
	var cs []obl.Cmd
	for i := 0; i < 1+g.rnd.Intn(4); i++ {
		cs = append(cs, g.cmd(depth))
	}
	return &obl.Seq{Cmds: cs}
}

func TestRandomProgramsAgreeWithInterpreter(t *testing.T) {
	g := &progGen{rnd: rand.New(rand.NewSource(1)), x: intVar("x"), y: intVar("y"), p: boolVar("p")}
	prover, err := NewProver()
	if err != nil {
		t.Fatal(err)
	}
	defer prover.Close()
	programs := 300
	if testing.Short() {
		programs = 60
	}
	for i := 0; i < programs; i++ {
		ob := &obl.Obligation{Name: fmt.Sprintf("random_%d", i), Vars: vars(g.x, g.y, g.p), Body: g.seq(3)}
		res := prover.Prove(context.Background(), ob, Options{Encoding: Encoding(1 + i%2)})
		if res.Err != nil {
			t.Fatalf("%s: %v\n%s", ob.Name, res.Err, ob)
		}
		checkAgainstInterpreter(t, g, ob, res)
	}
}

func checkAgainstInterpreter(t *testing.T, g *progGen, ob *obl.Obligation, res obl.ObligationResult) {
	t.Helper()
	verdict := make(map[*obl.Assert]obl.Result)
	for _, r := range res.Results {
		verdict[r.Assert] = r
	}
	for x := int64(-2); x <= 2; x++ {
		for y := int64(-2); y <= 2; y++ {
			for _, p := range []bool{false, true} {
				st := concrete{g.x: x, g.y: y, g.p: p}
				runConcrete(ob.Body, []pathState{{st: st}}, func(f failure) {
					if r := verdict[f.assert]; r.Verdict != obl.Failed {
						t.Errorf("%s: assert %s fails from %v but the prover says %v\n%s", ob.Name, f.assert.E, st, r.Verdict, ob)
					}
				})
			}
		}
	}
	for _, r := range res.Results {
		if r.Verdict == obl.Failed {
			replayCex(t, g, ob, r)
		}
	}
}

// replayCex runs ob from the counterexample's initial state and checks that
// some path fails the assert with the reported after-state and branches.
func replayCex(t *testing.T, g *progGen, ob *obl.Obligation, r obl.Result) {
	t.Helper()
	st := concrete{}
	for _, vv := range r.Cex.Vars {
		switch v := vv.Before.(type) {
		case obl.IntVal:
			st[vv.Var] = v.V.Int64()
		case obl.BoolVal:
			st[vv.Var] = bool(v)
		}
	}
	found := false
	runConcrete(ob.Body, []pathState{{st: st}}, func(f failure) {
		if f.assert != r.Assert || found || !sameBranches(f.branches, r.Cex.Branches) {
			return
		}
		for _, vv := range r.Cex.Vars {
			if fmt.Sprint(f.after[vv.Var]) != vv.After.String() {
				return
			}
		}
		found = true
	})
	if !found {
		t.Errorf("%s: counterexample for %s does not replay:\n%s\n%s", ob.Name, r.Assert.E, r.Cex, ob)
	}
}

func sameBranches(a, b []obl.BranchTaken) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRandomRelationsAgreeWithInterpreter checks Relation on random
// commands against their concrete executions: from each initial state of a
// small domain, every final state satisfies the relation, and a random
// candidate post-state satisfies it iff some execution ends there. The
// commands havoc only with a syntactic witness (havoc x; assume x == e),
// so every existential must be eliminated.
func TestRandomRelationsAgreeWithInterpreter(t *testing.T) {
	g := &progGen{rnd: rand.New(rand.NewSource(2)), x: intVar("x"), y: intVar("y"), p: boolVar("p")}
	xp, yp, pp := intVar("x_post"), intVar("y_post"), boolVar("p_post")
	post := map[*obl.Var]obl.Expr{g.x: obl.Ref(xp), g.y: obl.Ref(yp), g.p: obl.Ref(pp)}
	for i := 0; i < 150; i++ {
		witness := obl.Subst(g.intExpr(1), map[*obl.Var]obl.Expr{g.x: obl.Ref(g.y)})
		c := obl.Sequence(g.seq(2), havoc(g.x), assume(obl.Eq(obl.Ref(g.x), witness)), g.seq(1))
		rel, err := obl.Relation(c, nil, post)
		if err != nil {
			t.Fatal(err)
		}
		obl.WalkExpr(rel, func(e obl.Expr) {
			if _, ok := e.(*obl.Quant); ok {
				t.Fatalf("relation keeps a quantifier: %s", rel)
			}
		})
		for x := int64(-2); x <= 2; x++ {
			for y := int64(-2); y <= 2; y++ {
				st := concrete{g.x: x, g.y: y, g.p: g.rnd.Intn(2) == 0}
				finals := g.runWithHavoc(c, st)
				check := func(fx, fy int64, fp bool) {
					env := st.clone()
					env[xp], env[yp], env[pp] = fx, fy, fp
					_, want := finals[fmt.Sprint(fx, fy, fp)]
					if got := evalConcrete(rel, env).(bool); got != want {
						t.Fatalf("from %v to (%d, %d, %v): relation %v, executions %v\n%s", st, fx, fy, fp, got, want, rel)
					}
				}
				for _, f := range finals {
					check(f[g.x].(int64), f[g.y].(int64), f[g.p].(bool))
				}
				for k := 0; k < 20; k++ {
					check(int64(g.rnd.Intn(21)-10), int64(g.rnd.Intn(21)-10), g.rnd.Intn(2) == 0)
				}
			}
		}
	}
}

// runWithHavoc returns the final states of c from st, keyed by
// g.key; havoc tries every value in [-30, 30], enough for the witnesses
// the generator builds. c must be a *Seq whose havocs are top-level.
func (g *progGen) runWithHavoc(c obl.Cmd, st concrete) map[string]concrete {
	out := make(map[string]concrete)
	var run func(cmds []obl.Cmd, st concrete)
	run = func(cmds []obl.Cmd, st concrete) {
		if len(cmds) == 0 {
			out[g.key(st)] = st
			return
		}
		if h, ok := cmds[0].(*obl.Havoc); ok {
			for v := int64(-30); v <= 30; v++ {
				next := st.clone()
				next[h.Vars[0]] = v
				run(cmds[1:], next)
			}
			return
		}
		for _, p := range runConcrete(cmds[0], []pathState{{st: st}}, func(failure) {}) {
			run(cmds[1:], p.st)
		}
	}
	run(c.(*obl.Seq).Cmds, st)
	return out
}

// key prints the values of x, y and p.
func (g *progGen) key(st concrete) string { return fmt.Sprint(st[g.x], st[g.y], st[g.p]) }
