package smt

import (
	"github.com/lipton-dev/lipton/obl"
	"strings"
	"testing"
)

// failingCex proves ob and returns the counterexample of assert i.
func failingCex(t *testing.T, ob *obl.Obligation, i int, enc Encoding) *obl.Counterexample {
	t.Helper()
	res := proveAll(t, ob, Options{Encoding: enc})
	r := res.Results[i]
	if r.Verdict != obl.Failed || r.Cex == nil {
		t.Fatalf("%s: assert %d: %v (%s), want failed with a counterexample", ob.Name, i+1, r.Verdict, r.Reason)
	}
	return r.Cex
}

func lookup(t *testing.T, c *obl.Counterexample, name string) obl.VarValues {
	t.Helper()
	vv, ok := c.Lookup(name)
	if !ok {
		t.Fatalf("no variable %s in counterexample\n%s", name, c)
	}
	return vv
}

var encodings = []Encoding{PerAssert, Labelled}

func TestCexHavoc(t *testing.T) {
	for _, enc := range encodings {
		x := intVar("x")
		ob := newOb("cex_havoc", vars(x), havoc(x), assert(obl.Gt(r(x), n(0))))
		vv := lookup(t, failingCex(t, ob, 0, enc), "x")
		if bigOf(vv.After).Sign() > 0 {
			t.Errorf("x after havoc = %v, want <= 0", vv.After)
		}
	}
}

func TestCexBeforeAfter(t *testing.T) {
	for _, enc := range encodings {
		x := intVar("x")
		ob := newOb("cex_inc", vars(x), set(x, obl.Add(r(x), n(1))), assert(obl.Gt(r(x), n(1))))
		vv := lookup(t, failingCex(t, ob, 0, enc), "x")
		before, after := bigOf(vv.Before).Int64(), bigOf(vv.After).Int64()
		if after != before+1 || after > 1 {
			t.Errorf("x = %d -> %d, want after = before+1 <= 1", before, after)
		}
	}
}

func TestCexMapEntry(t *testing.T) {
	for _, enc := range encodings {
		m := mapVar("m", obl.IntSort, obl.IntSort)
		ob := newOb("cex_map", vars(m), obl.AssignIndex(m, []obl.Expr{n(3)}, n(5)), assert(obl.Eq(obl.Index(r(m), n(4)), n(5))))
		vv := lookup(t, failingCex(t, ob, 0, enc), "m")
		after := vv.After.(obl.MapVal)
		if got := after.Get(obl.Int64Val(3)); got == nil || bigOf(got).Int64() != 5 {
			t.Errorf("m[3] after = %v, want 5 (m = %v)", got, after)
		}
		if got := after.Get(obl.Int64Val(4)); got == nil || bigOf(got).Int64() == 5 {
			t.Errorf("m[4] after = %v, want a known value other than 5 (m = %v)", got, after)
		}
		before := vv.Before.(obl.MapVal)
		if got := before.Get(obl.Int64Val(4)); got == nil || !obl.ValueEqual(got, after.Get(obl.Int64Val(4))) {
			t.Errorf("m[4] changed from %v to %v", got, after.Get(obl.Int64Val(4)))
		}
		if !strings.Contains(after.String(), "3 := 5") {
			t.Errorf("m after prints as %s, want the entry 3 := 5", after)
		}
	}
}

func TestCexNestedMap(t *testing.T) {
	for _, enc := range encodings {
		nm := mapVar("n", obl.IntSort, &obl.MapSort{Key: obl.IntSort, Val: obl.BoolSort})
		ob := newOb("cex_nested", vars(nm), obl.AssignIndex(nm, []obl.Expr{n(1), n(2)}, obl.True()), assert(obl.Index(obl.Index(r(nm), n(1)), n(3))))
		vv := lookup(t, failingCex(t, ob, 0, enc), "n")
		row, ok := vv.After.(obl.MapVal).Get(obl.Int64Val(1)).(obl.MapVal)
		if !ok {
			t.Fatalf("n[1] after = %v, want a map", vv.After.(obl.MapVal).Get(obl.Int64Val(1)))
		}
		if got := row.Get(obl.Int64Val(2)); got != obl.BoolVal(true) {
			t.Errorf("n[1][2] = %v, want true (n = %v)", got, vv.After)
		}
		if got := row.Get(obl.Int64Val(3)); got != obl.BoolVal(false) {
			t.Errorf("n[1][3] = %v, want false (n = %v)", got, vv.After)
		}
	}
}

func TestCexMapUnderQuantifier(t *testing.T) {
	m, i := mapVar("m", obl.IntSort, obl.IntSort), intVar("i")
	ob := newOb("cex_lambda", vars(m),
		assume(obl.Forall(vars(i), obl.Implies(obl.Gt(r(i), n(10)), obl.Eq(obl.Index(r(m), r(i)), n(7))))), obl.AssignIndex(m, []obl.Expr{n(3)}, n(4)), assert(obl.Ne(obl.Index(r(m), n(3)), n(4))))
	if got := failingCex(t, ob, 0, PerAssert); bigOf(lookup(t, got, "m").After.(obl.MapVal).Get(obl.Int64Val(3))).Int64() != 4 {
		t.Errorf("m[3] after = %v, want 4", lookup(t, got, "m").After)
	}
	ob2 := newOb("cex_lambda2", vars(m),
		assume(obl.Forall(vars(i), obl.Implies(obl.Gt(r(i), n(10)), obl.Eq(obl.Index(r(m), r(i)), n(7))))),
		assert(obl.Eq(obl.Index(r(m), n(3)), n(7))))
	vv := lookup(t, failingCex(t, ob2, 0, PerAssert), "m")
	got := vv.Before.(obl.MapVal).Get(obl.Int64Val(3))
	if got == nil || bigOf(got).Int64() == 7 {
		t.Errorf("m[3] = %v, want a known value other than 7 (m = %v)", got, vv.Before)
	}
}

func TestCexBranches(t *testing.T) {
	for _, enc := range encodings {
		x, y := intVar("x"), intVar("y")
		inner := &obl.Choice{Branches: []obl.Cmd{set(x, n(10)), set(x, n(20))}}
		outer := &obl.Choice{Branches: []obl.Cmd{seq(set(y, n(1)), inner), seq(set(y, n(2)), set(x, n(30)))}}
		ob := newOb("cex_branches", vars(x, y), outer, assert(obl.Ne(r(x), n(20))))
		c := failingCex(t, ob, 0, enc)
		want := []obl.BranchTaken{{Choice: outer, Branch: 0}, {Choice: inner, Branch: 1}}
		if len(c.Branches) != 2 || c.Branches[0] != want[0] || c.Branches[1] != want[1] {
			t.Errorf("branches = %v, want outer 0, inner 1", c.Branches)
		}
		if y := lookup(t, c, "y"); bigOf(y.After).Int64() != 1 {
			t.Errorf("y after = %v, want 1", y.After)
		}
		if !strings.Contains(c.String(), "branches: 1 2") {
			t.Errorf("String() = %q, want the branches listed", c.String())
		}
	}
}

func TestCexValuesAtTheFailingAssert(t *testing.T) {
	// The second assert fails; x's value there is 5 although it is
	// assigned again afterwards.
	x := intVar("x")
	ob := newOb("cex_point", vars(x),
		set(x, n(5)), assert(obl.Gt(r(x), n(0))), assert(obl.Gt(r(x), n(6))), set(x, n(100)))
	vv := lookup(t, failingCex(t, ob, 1, PerAssert), "x")
	if bigOf(vv.After).Int64() != 5 {
		t.Errorf("x at the failing assert = %v, want 5", vv.After)
	}
}

func TestCexBool(t *testing.T) {
	p, q := boolVar("p"), boolVar("q")
	ob := newOb("cex_bool", vars(p, q), assume(obl.Implies(r(p), r(q))), assert(r(q)))
	c := failingCex(t, ob, 0, PerAssert)
	if lookup(t, c, "q").After != obl.BoolVal(false) {
		t.Errorf("q = %v, want false", lookup(t, c, "q").After)
	}
	if lookup(t, c, "p").After != obl.BoolVal(false) {
		t.Errorf("p = %v, want false (p ==> q)", lookup(t, c, "p").After)
	}
}
