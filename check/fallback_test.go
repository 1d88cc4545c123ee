package check

import (
	"context"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/mc"
	"github.com/lipton-dev/lipton/obl"
)

// TestAddFallback checks how enumeration verdicts become findings: an
// assert that holds only by enumeration stays unknown (never proven), one
// that fails by enumeration is a failure with a counterexample, and one
// Z3 decided keeps Z3's verdict.
func TestAddFallback(t *testing.T) {
	x := &obl.Var{Name: "x", Sort: obl.IntSort}
	holds := &obl.Assert{E: obl.Le(obl.Ref(x), obl.Int(3)), Kind: "sequential", Msg: "x is small"}
	fails := &obl.Assert{E: obl.Ne(obl.Ref(x), obl.Int(2)), Kind: "sequential", Msg: "x is not 2"}
	proven := &obl.Assert{E: obl.Bool(true), Kind: "sequential", Msg: "trivial"}
	ob := &obl.Obligation{Name: "ob", Kind: "sequential", Vars: []*obl.Var{x},
		Body: obl.Sequence(proven, holds, fails)}
	res := obl.ObligationResult{Obligation: ob, Results: []obl.Result{
		{Assert: proven, Verdict: obl.Proven},
		{Assert: holds, Verdict: obl.Unknown, Reason: "timeout"},
		{Assert: fails, Verdict: obl.Unknown, Reason: "timeout"},
	}}
	r := &Result{Tally: map[Key]*Counts{}}
	if r.addFallback(context.Background(), res, nil) {
		t.Fatal("the fallback ran while switched off")
	}
	dom := mc.Domain{Lo: 0, Hi: 3}
	if !r.addFallback(context.Background(), res, &dom) {
		t.Fatal("the fallback did not run")
	}
	c := r.Tally[Key{0, "sequential"}]
	if c.Proven != 1 || c.Unknown != 1 || c.Failed != 1 {
		t.Errorf("tally %+v, want 1 proven, 1 unknown, 1 failed", *c)
	}
	if len(r.Findings) != 2 {
		t.Fatalf("%d findings, want 2", len(r.Findings))
	}
	h, f := r.Findings[0], r.Findings[1]
	if !h.Unknown || !strings.Contains(h.Reason, "holds for ints in 0..3") || !strings.Contains(h.Reason, "not a proof") {
		t.Errorf("held assert: unknown %v, reason %q", h.Unknown, h.Reason)
	}
	if f.Unknown || f.Cex == nil || !strings.Contains(f.Cex.String(), "x = 2") {
		t.Errorf("failed assert: unknown %v, counterexample %v", f.Unknown, f.Cex)
	}
}
