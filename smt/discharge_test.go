package smt

import (
	"context"
	"errors"
	"fmt"
	"github.com/lipton-dev/lipton/obl"
	"strings"
	"testing"
)

// fermatObligation asserts that x^3 + y^3 != z^3 for positive x, y, z,
// which Z3 cannot settle.
func fermatObligation(name string) *obl.Obligation {
	x, y, z := intVar("x"), intVar("y"), intVar("z")
	cube := func(v *obl.Var) obl.Expr { return obl.Mul(obl.Mul(r(v), r(v)), r(v)) }
	return newOb(name, vars(x, y, z),
		assume(obl.And(obl.Gt(r(x), n(0)), obl.Gt(r(y), n(0)), obl.Gt(r(z), n(0)))),
		assert(obl.Ne(obl.Add(cube(x), cube(y)), cube(z))))
}

// easyObligation is proven or fails (odd i) quickly.
func easyObligation(i int) (*obl.Obligation, obl.Verdict) {
	x := intVar("x")
	bound, want := int64(i), obl.Proven
	if i%2 == 1 {
		bound, want = int64(i+10), obl.Failed
	}
	return newOb(fmt.Sprintf("easy_%d", i), vars(x),
		assume(obl.Gt(r(x), n(0))), set(x, obl.Add(r(x), n(int64(i)))), assert(obl.Gt(r(x), n(bound)))), want
}

// TestResourceLimitThenPoolKeepsWorking: an obligation that runs out of
// its resource limit is unknown ("resource limit"), and the workers go on
// deciding the others. The outcome depends on resource counts only, not
// on time, so it is the same on a busy machine.
func TestResourceLimitThenPoolKeepsWorking(t *testing.T) {
	obs := []*obl.Obligation{fermatObligation("hard_1")}
	var want []obl.Verdict
	want = append(want, obl.Unknown)
	for i := 0; i < 6; i++ {
		ob, v := easyObligation(i)
		obs = append(obs, ob)
		want = append(want, v)
	}
	obs = append(obs, fermatObligation("hard_2"))
	want = append(want, obl.Unknown)
	ob, v := easyObligation(7)
	obs, want = append(obs, ob), append(want, v)

	for _, jobs := range []int{1, 2} {
		res := Discharge(context.Background(), obs, Options{Jobs: jobs, RLimit: 5_000})
		for i, r := range res {
			if r.Obligation != obs[i] {
				t.Fatalf("jobs=%d: result %d is for %s, want %s", jobs, i, r.Obligation.Name, obs[i].Name)
			}
			got := r.Results[0]
			if got.Verdict != want[i] {
				t.Errorf("jobs=%d: %s: %v (%s), want %v", jobs, obs[i].Name, got.Verdict, got.Reason, want[i])
			}
			if want[i] == obl.Unknown && got.Reason != "resource limit" {
				t.Errorf("jobs=%d: %s: reason %q, want resource limit", jobs, obs[i].Name, got.Reason)
			}
			if want[i] == obl.Unknown && (got.Resources < 5_000 || got.Resources > 10_000) {
				t.Errorf("jobs=%d: %s used %d resource units with a limit of 5000", jobs, obs[i].Name, got.Resources)
			}
		}
	}
}

// TestResourceCountsAreReproducible: the same obligations use the same
// resource units on every run, and with any number of workers the same
// verdicts: the verdicts of lipton do not depend on timing.
func TestResourceCountsAreReproducible(t *testing.T) {
	var obs []*obl.Obligation
	for i := 0; i < 12; i++ {
		ob, _ := easyObligation(i)
		obs = append(obs, ob)
	}
	obs = append(obs, fermatObligation("hard"))
	counts := func(jobs int) []uint64 {
		var out []uint64
		for _, r := range Discharge(context.Background(), obs, Options{Jobs: jobs, RLimit: 5_000}) {
			out = append(out, r.Results[0].Resources)
		}
		return out
	}
	first := counts(2)
	for run := 0; run < 2; run++ {
		if again := counts(2); fmt.Sprint(again) != fmt.Sprint(first) {
			t.Errorf("resource counts differ between runs:\n%v\n%v", first, again)
		}
	}
}

// TestCancellation: cancelling the context while queries run makes every
// undecided assert unknown, with the cancellation's cause as the reason.
// The test cancels when the first query starts (queryStartHook), not
// after some time.
func TestCancellation(t *testing.T) {
	obs := []*obl.Obligation{fermatObligation("hard_a"), fermatObligation("hard_b"), fermatObligation("hard_c")}
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("interrupted by the test")
	queryStartHook = func() { cancel(cause) }
	defer func() { queryStartHook = nil }()
	res := Discharge(ctx, obs, Options{Jobs: 2})
	for i, r := range res {
		got := r.Results[0]
		if got.Verdict != obl.Unknown || got.Reason != cause.Error() {
			t.Errorf("%s: %v (%s), want unknown (%s)", obs[i].Name, got.Verdict, got.Reason, cause)
		}
	}
	// A canceled context still yields one result per obligation.
	res = Discharge(ctx, []*obl.Obligation{obs[0]}, Options{})
	if len(res) != 1 || res[0].Results[0].Reason != cause.Error() {
		t.Errorf("pre-canceled: %+v", res)
	}
}

func TestDischargeOrderAndBatch(t *testing.T) {
	var obs []*obl.Obligation
	var want []obl.Verdict
	for i := 0; i < 40; i++ {
		ob, v := easyObligation(i)
		obs = append(obs, ob)
		want = append(want, v)
	}
	b := Start(context.Background(), obs, Options{Jobs: 3})
	if p := b.Prefix(); len(p) > b.Decided() {
		t.Errorf("prefix of %d results with %d decided", len(p), b.Decided())
	}
	<-b.Done()
	res := b.Results()
	if len(res) != len(obs) || b.Decided() != len(obs) || len(b.Prefix()) != len(obs) {
		t.Fatalf("%d results, %d decided, prefix %d; want %d", len(res), b.Decided(), len(b.Prefix()), len(obs))
	}
	for i, r := range res {
		if r.Obligation != obs[i] {
			t.Fatalf("result %d is for %s", i, r.Obligation.Name)
		}
		if r.Verdict() != want[i] {
			t.Errorf("%s: %v, want %v", obs[i].Name, r.Verdict(), want[i])
		}
	}
	if res := Discharge(context.Background(), nil, Options{}); len(res) != 0 {
		t.Errorf("no obligations: %d results", len(res))
	}
}

func TestDischargeMalformedObligation(t *testing.T) {
	x := intVar("x")
	bad := newOb("bad", nil, assert(obl.Gt(r(x), n(0))))
	good, _ := easyObligation(0)
	res := Discharge(context.Background(), []*obl.Obligation{bad, good}, Options{Jobs: 1})
	if res[0].Err == nil || res[0].Verdict() != obl.Unknown {
		t.Errorf("malformed: err %v, verdict %v", res[0].Err, res[0].Verdict())
	}
	if res[1].Verdict() != obl.Proven {
		t.Errorf("after a malformed obligation: %v", res[1].Verdict())
	}
}

func TestObligationVerdict(t *testing.T) {
	r := obl.ObligationResult{Results: []obl.Result{{Verdict: obl.Proven}, {Verdict: obl.Unknown}}}
	if r.Verdict() != obl.Unknown {
		t.Error("proven+unknown is not unknown")
	}
	r.Results = append(r.Results, obl.Result{Verdict: obl.Failed})
	if r.Verdict() != obl.Failed {
		t.Error("a failure does not dominate")
	}
	if (&obl.ObligationResult{}).Verdict() != obl.Proven {
		t.Error("no asserts is not proven")
	}
}

// TestSolverRecycling proves more obligations than a solver serves, so the
// Prover replaces its solver, and checks verdicts stay right.
func TestSolverRecycling(t *testing.T) {
	p, err := NewProver()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := 0; i < solverLife+20; i++ {
		ob, want := easyObligation(i)
		if got := p.Prove(context.Background(), ob, Options{}).Verdict(); got != want {
			t.Fatalf("%s: %v, want %v", ob.Name, got, want)
		}
	}
	if p.uses != 20 {
		t.Errorf("solver served %d obligations, want 20 after a replacement", p.uses)
	}
}

func TestProveSafelyRecoversPanic(t *testing.T) {
	good, _ := easyObligation(0)
	// A nil Prover panics as soon as it needs its Z3 context.
	res, ok := proveSafely(context.Background(), nil, good, Options{})
	if ok || res.Err == nil || !strings.Contains(res.Err.Error(), "internal error") {
		t.Errorf("ok = %v, err = %v; want an internal error", ok, res.Err)
	}
	if len(res.Results) != 1 || res.Results[0].Verdict != obl.Unknown {
		t.Errorf("results = %+v", res.Results)
	}
	// Unknown expression types are caught by validation, before Z3.
	bad := newOb("bad_expr", nil, assert(badExpr{obl.True()}))
	if r := Discharge(context.Background(), []*obl.Obligation{bad}, Options{}); r[0].Err == nil {
		t.Error("an unknown expression type was not rejected")
	}
}

// badExpr is an expression type smt does not know.
type badExpr struct{ *obl.BoolLit }
