package mc

import (
	"context"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/vcgen"
)

var (
	ix = &vcgen.Var{Name: "x", Sort: vcgen.IntSort}
	iy = &vcgen.Var{Name: "y", Sort: vcgen.IntSort}
	bb = &vcgen.Var{Name: "b", Sort: vcgen.BoolSort}
	mm = &vcgen.Var{Name: "m", Sort: &vcgen.MapSort{Key: vcgen.IntSort, Val: vcgen.IntSort}}
	bm = &vcgen.Var{Name: "bm", Sort: &vcgen.MapSort{Key: vcgen.BoolSort, Val: vcgen.IntSort}}
)

func ref(v *vcgen.Var) vcgen.Expr { return vcgen.Ref(v) }
func lit(n int64) vcgen.Expr      { return vcgen.Int(n) }

func assertOf(e vcgen.Expr) *vcgen.Assert { return &vcgen.Assert{E: e, Kind: "test", Msg: e.String()} }

// TestDecide checks the enumeration semantics assert by assert.
func TestDecide(t *testing.T) {
	dom := Domain{-1, 2}
	tests := []struct {
		name string
		vars []*vcgen.Var
		body vcgen.Cmd
		want []Verdict
	}{
		{"arithmetic over the domain", []*vcgen.Var{ix},
			vcgen.Sequence(assertOf(vcgen.Le(vcgen.Mul(ref(ix), lit(2)), lit(4))), assertOf(vcgen.Lt(ref(ix), lit(2)))),
			[]Verdict{Holds, Fails}},
		{"euclidean division", nil,
			vcgen.Sequence(
				assertOf(vcgen.And(vcgen.Eq(&vcgen.Binary{Op: vcgen.OpDiv, X: lit(-7), Y: lit(2)}, lit(-4)),
					vcgen.Eq(&vcgen.Binary{Op: vcgen.OpMod, X: lit(-7), Y: lit(2)}, lit(1)))),
				assertOf(vcgen.And(vcgen.Eq(&vcgen.Binary{Op: vcgen.OpDiv, X: lit(7), Y: lit(-2)}, lit(-3)),
					vcgen.Eq(&vcgen.Binary{Op: vcgen.OpMod, X: lit(7), Y: lit(-2)}, lit(1)))),
				assertOf(vcgen.Eq(&vcgen.Binary{Op: vcgen.OpMod, X: lit(-7), Y: lit(-2)}, lit(1)))),
			[]Verdict{Holds, Holds, Holds}},
		{"havoc and choice", []*vcgen.Var{ix, iy},
			vcgen.Sequence(&vcgen.Havoc{Vars: []*vcgen.Var{ix}},
				&vcgen.Choice{Branches: []vcgen.Cmd{
					vcgen.Sequence(&vcgen.Assume{E: vcgen.Gt(ref(ix), lit(0))}, vcgen.AssignOne(iy, ref(ix))),
					vcgen.AssignOne(iy, lit(1)),
				}},
				assertOf(vcgen.Gt(ref(iy), lit(0))),
				assertOf(vcgen.Ne(ref(iy), lit(2)))),
			[]Verdict{Holds, Fails}},
		{"a failed assert stops its run", []*vcgen.Var{ix},
			vcgen.Sequence(assertOf(vcgen.Eq(ref(ix), lit(0))), assertOf(vcgen.Eq(ref(ix), lit(0)))),
			[]Verdict{Fails, Holds}},
		{"maps", []*vcgen.Var{mm, ix},
			vcgen.Sequence(
				assertOf(vcgen.Eq(vcgen.Index(vcgen.Update(ref(mm), ref(ix), lit(5)), ref(ix)), lit(5))),
				assertOf(vcgen.Eq(vcgen.Index(ref(mm), lit(0)), vcgen.Index(ref(mm), lit(1)))),
				assertOf(vcgen.Eq(vcgen.Update(ref(mm), lit(0), vcgen.Index(ref(mm), lit(0))), ref(mm)))),
			[]Verdict{Holds, Fails, Holds}},
		{"bool-keyed maps compare as functions", []*vcgen.Var{bm},
			vcgen.Sequence(assertOf(vcgen.Eq(
				vcgen.Update(vcgen.Update(ref(bm), vcgen.Bool(true), lit(1)), vcgen.Bool(false), lit(1)),
				vcgen.Update(vcgen.Update(ref(bm), vcgen.Bool(false), lit(1)), vcgen.Bool(true), lit(1))))),
			[]Verdict{Holds}},
		{"quantifiers range over the domain", []*vcgen.Var{ix},
			assertOf(vcgen.Forall([]*vcgen.Var{iy}, vcgen.Le(ref(iy), lit(2)))),
			[]Verdict{Holds}},
		{"booleans", []*vcgen.Var{bb},
			vcgen.Sequence(assertOf(vcgen.Or(ref(bb), vcgen.Not(ref(bb)))), assertOf(ref(bb))),
			[]Verdict{Holds, Fails}},
		{"division by zero is undecided", []*vcgen.Var{ix},
			vcgen.Sequence(&vcgen.Assume{E: vcgen.Ge(ref(ix), lit(0))},
				assertOf(vcgen.Eq(&vcgen.Binary{Op: vcgen.OpDiv, X: ref(ix), Y: ref(ix)}, lit(1)))),
			[]Verdict{Undecided}},
		{"overflow is undecided", nil,
			assertOf(vcgen.Gt(&vcgen.Binary{Op: vcgen.OpMul, X: lit(1 << 62), Y: lit(4)}, lit(0))),
			[]Verdict{Undecided}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ob := &vcgen.Obligation{Name: "t", Kind: "test", Vars: tc.vars, Body: tc.body}
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
	body := vcgen.Sequence(vcgen.AssignOne(iy, vcgen.Add(ref(ix), lit(1))), assertOf(vcgen.Lt(ref(iy), lit(3))))
	ob := &vcgen.Obligation{Name: "t", Kind: "test", Vars: []*vcgen.Var{ix, iy}, Body: body}
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
	ob := &vcgen.Obligation{Name: "t", Kind: "test", Vars: []*vcgen.Var{ix, iy}, Body: assertOf(vcgen.Bool(true))}
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
