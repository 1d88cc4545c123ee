package mc

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt"
)

// The differential test: random small obligations decided by Z3
// (smt.Discharge) and by enumeration must get the same verdict on every
// assert where Z3 answers.
//
// The generator keeps the two semantics equal. Enumeration ranges over
// the integers of a small domain, Z3 over all integers; so every integer
// variable is constrained to the domain by an assume at the start and
// after every assignment or havoc of it, map values at the domain's keys
// are constrained likewise, and maps are read and written only at keys
// that are variables or literals of the domain (the values at other keys,
// where the two semantics differ, are never observed; maps are never
// compared whole). Divisors are nonzero literals.

const (
	diffCount = 1100 // obligations generated
	diffWant  = 1000 // decided by Z3 and compared, at least
)

var diffDom = Domain{-1, 1}

type gen struct {
	r    *rand.Rand
	ints []*obl.Var
	b    *obl.Var
	m    *obl.Var
}

func newGen(seed int64) *gen {
	return &gen{
		r:    rand.New(rand.NewSource(seed)),
		ints: []*obl.Var{{Name: "x", Sort: obl.IntSort}, {Name: "y", Sort: obl.IntSort}},
		b:    &obl.Var{Name: "b", Sort: obl.BoolSort},
		m:    &obl.Var{Name: "m", Sort: &obl.MapSort{Key: obl.IntSort, Val: obl.IntSort}},
	}
}

func (g *gen) vars() []*obl.Var { return append(append([]*obl.Var(nil), g.ints...), g.b, g.m) }

// inDom is lo <= e <= hi.
func inDom(e obl.Expr) obl.Expr {
	return obl.And(obl.Le(obl.Int(diffDom.Lo), e), obl.Le(e, obl.Int(diffDom.Hi)))
}

// obligation generates one obligation.
func (g *gen) obligation(i int) *obl.Obligation {
	var start []obl.Expr
	for _, v := range g.ints {
		start = append(start, inDom(obl.Ref(v)))
	}
	for k := diffDom.Lo; k <= diffDom.Hi; k++ {
		start = append(start, inDom(obl.Index(obl.Ref(g.m), obl.Int(k))))
	}
	cmds := []obl.Cmd{&obl.Assume{E: obl.And(start...)}}
	cmds = append(cmds, g.stmts(2+g.r.Intn(4), 2)...)
	cmds = append(cmds, g.assert())
	return &obl.Obligation{Name: fmt.Sprintf("diff%d", i), Kind: "differential", Vars: g.vars(), Body: obl.Sequence(cmds...)}
}

func (g *gen) stmts(n, depth int) []obl.Cmd {
	var out []obl.Cmd
	for i := 0; i < n; i++ {
		out = append(out, g.stmt(depth))
	}
	return out
}

func (g *gen) stmt(depth int) obl.Cmd {
	v := g.ints[g.r.Intn(len(g.ints))]
	switch k := g.r.Intn(10); {
	case k < 3:
		return obl.Sequence(obl.AssignOne(v, g.intExpr(2)), &obl.Assume{E: inDom(obl.Ref(v))})
	case k < 4:
		return obl.Sequence(&obl.Havoc{Vars: []*obl.Var{v}}, &obl.Assume{E: inDom(obl.Ref(v))})
	case k < 5:
		return obl.AssignOne(g.b, g.boolExpr(2))
	case k < 6:
		return obl.AssignOne(g.m, obl.Update(obl.Ref(g.m), g.key(), g.value()))
	case k < 7 && depth > 0:
		return &obl.Choice{Branches: []obl.Cmd{
			obl.Sequence(g.stmts(1+g.r.Intn(2), depth-1)...),
			obl.Sequence(g.stmts(g.r.Intn(2), depth-1)...),
		}}
	case k < 8:
		return &obl.Assume{E: g.boolExpr(1)}
	}
	return g.assert()
}

func (g *gen) assert() *obl.Assert {
	return &obl.Assert{E: g.boolExpr(2), Kind: "differential", Msg: "random assert"}
}

// key is a map key in the domain: a variable or a literal.
func (g *gen) key() obl.Expr {
	if g.r.Intn(2) == 0 {
		return obl.Ref(g.ints[g.r.Intn(len(g.ints))])
	}
	return obl.Int(diffDom.Lo + g.r.Int63n(diffDom.Hi-diffDom.Lo+1))
}

// value is a value in the domain.
func (g *gen) value() obl.Expr {
	if g.r.Intn(3) == 0 {
		return obl.Index(obl.Ref(g.m), g.key())
	}
	return g.key()
}

func (g *gen) intExpr(depth int) obl.Expr {
	if depth == 0 {
		switch g.r.Intn(3) {
		case 0:
			return obl.Int(g.r.Int63n(5) - 2)
		case 1:
			return obl.Index(obl.Ref(g.m), g.key())
		}
		return obl.Ref(g.ints[g.r.Intn(len(g.ints))])
	}
	x, y := g.intExpr(depth-1), g.intExpr(depth-1)
	divisors := []int64{-2, -1, 1, 2, 3}
	switch g.r.Intn(8) {
	case 0:
		return &obl.Binary{Op: obl.OpAdd, X: x, Y: y}
	case 1:
		return &obl.Binary{Op: obl.OpSub, X: x, Y: y}
	case 2:
		return &obl.Binary{Op: obl.OpMul, X: x, Y: y}
	case 3:
		return &obl.Binary{Op: obl.OpDiv, X: x, Y: obl.Int(divisors[g.r.Intn(len(divisors))])}
	case 4:
		return &obl.Binary{Op: obl.OpMod, X: x, Y: obl.Int(divisors[g.r.Intn(len(divisors))])}
	case 5:
		return obl.IfThenElse(g.boolExpr(depth-1), x, y)
	case 6:
		return obl.Neg(x)
	}
	return x
}

func (g *gen) boolExpr(depth int) obl.Expr {
	if depth == 0 || g.r.Intn(3) == 0 {
		ops := []obl.BinaryOp{obl.OpLt, obl.OpLe, obl.OpEq, obl.OpNe, obl.OpGe}
		if g.r.Intn(5) == 0 {
			return obl.Ref(g.b)
		}
		return &obl.Binary{Op: ops[g.r.Intn(len(ops))], X: g.intExpr(1), Y: g.intExpr(min(depth, 1))}
	}
	x, y := g.boolExpr(depth-1), g.boolExpr(depth-1)
	switch g.r.Intn(5) {
	case 0:
		return obl.And(x, y)
	case 1:
		return obl.Or(x, y)
	case 2:
		return obl.Implies(x, y)
	case 3:
		return obl.Not(x)
	}
	return &obl.Binary{Op: obl.OpIff, X: x, Y: y}
}

// TestDifferential compares Z3 and enumeration on generated obligations.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("calls Z3 a thousand times")
	}
	g := newGen(20240607)
	var obs []*obl.Obligation
	for i := 0; i < diffCount; i++ {
		ob := g.obligation(i)
		if err := ob.Validate(); err != nil {
			t.Fatalf("generated an invalid obligation: %v\n%s", err, ob)
		}
		obs = append(obs, ob)
	}
	results := smt.Discharge(context.Background(), obs, smt.Options{Jobs: 2})
	compared, asserts, holds, fails := 0, 0, 0, 0
	for i, res := range results {
		ob := obs[i]
		dec := Decide(context.Background(), ob, diffDom, DecideLimits{})
		answered := true
		for j, r := range res.Results {
			d := dec.Results[j]
			if r.Verdict == obl.Unknown {
				answered = false
				continue
			}
			asserts++
			want := Holds
			if r.Verdict == obl.Failed {
				want = Fails
				fails++
			} else {
				holds++
			}
			if d.Verdict != want {
				t.Errorf("obligation %d, assert %d (%s): Z3 says %v, enumeration says %v (%s)\nprogram:\n%s\nZ3 counterexample:\n%v\nenumeration counterexample:\n%v",
					i, j, r.Assert.E, r.Verdict, d.Verdict, d.Reason, ob, r.Cex, d.Cex)
			}
		}
		if answered {
			compared++
		}
	}
	t.Logf("%d obligations compared (%d asserts: %d hold, %d fail)", compared, asserts, holds, fails)
	if compared < diffWant {
		t.Errorf("only %d obligations were decided by Z3, want at least %d", compared, diffWant)
	}
	if holds < asserts/10 || fails < asserts/10 {
		t.Errorf("the generator is lopsided: %d asserts hold, %d fail", holds, fails)
	}
}
