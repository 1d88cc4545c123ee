package mc

import (
	"context"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/obl"
)

var (
	ix = &obl.Var{Name: "x", Sort: obl.IntSort}
	iy = &obl.Var{Name: "y", Sort: obl.IntSort}
	bb = &obl.Var{Name: "b", Sort: obl.BoolSort}
	mm = &obl.Var{Name: "m", Sort: &obl.MapSort{Key: obl.IntSort, Val: obl.IntSort}}
	bm = &obl.Var{Name: "bm", Sort: &obl.MapSort{Key: obl.BoolSort, Val: obl.IntSort}}
)

func ref(v *obl.Var) obl.Expr { return obl.Ref(v) }
func lit(n int64) obl.Expr    { return obl.Int(n) }

func assertOf(e obl.Expr) *obl.Assert { return &obl.Assert{E: e, Kind: "test", Msg: e.String()} }

// TestDecide checks the enumeration semantics assert by assert.
func TestDecide(t *testing.T) {
	dom := Domain{-1, 2}
	tests := []struct {
		name string
		vars []*obl.Var
		body obl.Cmd
		want []Verdict
	}{
		{"arithmetic over the domain", []*obl.Var{ix},
			obl.Sequence(assertOf(obl.Le(obl.Mul(ref(ix), lit(2)), lit(4))), assertOf(obl.Lt(ref(ix), lit(2)))),
			[]Verdict{Holds, Fails}},
		{"euclidean division", nil,
			obl.Sequence(
				assertOf(obl.And(obl.Eq(&obl.Binary{Op: obl.OpDiv, X: lit(-7), Y: lit(2)}, lit(-4)),
					obl.Eq(&obl.Binary{Op: obl.OpMod, X: lit(-7), Y: lit(2)}, lit(1)))),
				assertOf(obl.And(obl.Eq(&obl.Binary{Op: obl.OpDiv, X: lit(7), Y: lit(-2)}, lit(-3)),
					obl.Eq(&obl.Binary{Op: obl.OpMod, X: lit(7), Y: lit(-2)}, lit(1)))),
				assertOf(obl.Eq(&obl.Binary{Op: obl.OpMod, X: lit(-7), Y: lit(-2)}, lit(1)))),
			[]Verdict{Holds, Holds, Holds}},
		{"havoc and choice", []*obl.Var{ix, iy},
			obl.Sequence(&obl.Havoc{Vars: []*obl.Var{ix}},
				&obl.Choice{Branches: []obl.Cmd{
					obl.Sequence(&obl.Assume{E: obl.Gt(ref(ix), lit(0))}, obl.AssignOne(iy, ref(ix))),
					obl.AssignOne(iy, lit(1)),
				}},
				assertOf(obl.Gt(ref(iy), lit(0))),
				assertOf(obl.Ne(ref(iy), lit(2)))),
			[]Verdict{Holds, Fails}},
		{"a failed assert stops its run", []*obl.Var{ix},
			obl.Sequence(assertOf(obl.Eq(ref(ix), lit(0))), assertOf(obl.Eq(ref(ix), lit(0)))),
			[]Verdict{Fails, Holds}},
		{"maps", []*obl.Var{mm, ix},
			obl.Sequence(
				assertOf(obl.Eq(obl.Index(obl.Update(ref(mm), ref(ix), lit(5)), ref(ix)), lit(5))),
				assertOf(obl.Eq(obl.Index(ref(mm), lit(0)), obl.Index(ref(mm), lit(1)))),
				assertOf(obl.Eq(obl.Update(ref(mm), lit(0), obl.Index(ref(mm), lit(0))), ref(mm)))),
			[]Verdict{Holds, Fails, Holds}},
		{"bool-keyed maps compare as functions", []*obl.Var{bm},
			obl.Sequence(assertOf(obl.Eq(
				obl.Update(obl.Update(ref(bm), obl.Bool(true), lit(1)), obl.Bool(false), lit(1)),
				obl.Update(obl.Update(ref(bm), obl.Bool(false), lit(1)), obl.Bool(true), lit(1))))),
			[]Verdict{Holds}},
		{"quantifiers range over the domain", []*obl.Var{ix},
			assertOf(obl.Forall([]*obl.Var{iy}, obl.Le(ref(iy), lit(2)))),
			[]Verdict{Holds}},
		{"booleans", []*obl.Var{bb},
			obl.Sequence(assertOf(obl.Or(ref(bb), obl.Not(ref(bb)))), assertOf(ref(bb))),
			[]Verdict{Holds, Fails}},
		{"division by zero is undecided", []*obl.Var{ix},
			obl.Sequence(&obl.Assume{E: obl.Ge(ref(ix), lit(0))},
				assertOf(obl.Eq(&obl.Binary{Op: obl.OpDiv, X: ref(ix), Y: ref(ix)}, lit(1)))),
			[]Verdict{Undecided}},
		{"overflow is undecided", nil,
			assertOf(obl.Gt(&obl.Binary{Op: obl.OpMul, X: lit(1 << 62), Y: lit(4)}, lit(0))),
			[]Verdict{Undecided}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ob := &obl.Obligation{Name: "t", Kind: "test", Vars: tc.vars, Body: tc.body}
			if err := ob.Validate(); err != nil {
				t.Fatal(err)
			}
			d := Decide(context.Background(), ob, dom, DecideLimits{})
			if len(d.Results) != len(tc.want) {
				t.Fatalf("%d results, want %d", len(d.Results), len(tc.want))
			}
			for i, r := range d.Results {
				if r.Verdict != tc.want[i] {
					t.Errorf("assert %d (%s): %v (%s), want %v", i, r.Assert.E, r.Verdict, r.Reason, tc.want[i])
				}
				if r.Verdict == Fails && r.Cex == nil {
					t.Errorf("assert %d fails without a counterexample", i)
				}
			}
		})
	}
}

// TestDecideCounterexample checks the counterexample of a failure.
func TestDecideCounterexample(t *testing.T) {
	body := obl.Sequence(obl.AssignOne(iy, obl.Add(ref(ix), lit(1))), assertOf(obl.Lt(ref(iy), lit(3))))
	ob := &obl.Obligation{Name: "t", Kind: "test", Vars: []*obl.Var{ix, iy}, Body: body}
	d := Decide(context.Background(), ob, Domain{0, 2}, DecideLimits{})
	cex := d.Results[0].Cex
	if cex == nil {
		t.Fatal("no counterexample")
	}
	got := strings.TrimSpace(cex.String())
	if !strings.Contains(got, "x = 2") || !strings.Contains(got, "-> 3") {
		t.Errorf("counterexample:\n%s", got)
	}
	if s := d.Summary(); s != "fails for ints in 0..2" {
		t.Errorf("summary %q", s)
	}
}

// TestDecideLimits checks that too large a domain is undecided, not
// holding.
func TestDecideLimits(t *testing.T) {
	ob := &obl.Obligation{Name: "t", Kind: "test", Vars: []*obl.Var{ix, iy}, Body: assertOf(obl.Bool(true))}
	d := Decide(context.Background(), ob, Domain{0, 99}, DecideLimits{MaxValuations: 1000})
	if d.Results[0].Verdict != Undecided || !strings.Contains(d.Results[0].Reason, "valuations") {
		t.Errorf("got %v (%s)", d.Results[0].Verdict, d.Results[0].Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d = Decide(ctx, ob, Domain{0, 99}, DecideLimits{})
	if d.Results[0].Verdict != Undecided {
		t.Errorf("canceled: got %v", d.Results[0].Verdict)
	}
}

// TestArithmetic checks the 64-bit arithmetic helpers at their edges.
func TestArithmetic(t *testing.T) {
	const max, min = 1<<63 - 1, -1 << 63
	ok := func(f func() int64, want int64) {
		t.Helper()
		if got := f(); got != want {
			t.Errorf("got %d, want %d", got, want)
		}
	}
	overflows := func(f func() int64) {
		t.Helper()
		defer func() {
			if _, isEval := recover().(evalError); !isEval {
				t.Error("no overflow reported")
			}
		}()
		f()
	}
	ok(func() int64 { return add(max-1, 1) }, max)
	ok(func() int64 { return sub(min+2, 1) }, min+1)
	ok(func() int64 { return mul(-1<<62+1, 2) }, min+2)
	ok(func() int64 { return mul(-3, -4) }, 12)
	ok(func() int64 { q, _ := divmod(-1, 3); return q }, -1)
	ok(func() int64 { _, m := divmod(-1, 3); return m }, 2)
	overflows(func() int64 { return add(max, 1) })
	// -2^63 is reserved for slots not yet given a value (lazy.go).
	overflows(func() int64 { return sub(min+1, 1) })
	overflows(func() int64 { return add(-max, -1) })
	overflows(func() int64 { return mul(-1<<62, 2) })
	overflows(func() int64 { return sub(min, 1) })
	overflows(func() int64 { return mul(1<<62, 2) })
	overflows(func() int64 { return mul(min, -1) })
	overflows(func() int64 { return neg(min) })
	overflows(func() int64 { q, _ := divmod(min, -1); return q })
}
