package vcgen

import (
	"context"
	"testing"
)

// proveAll proves ob with a fresh Prover.
func proveAll(t *testing.T, ob *Obligation, opts Options) ObligationResult {
	t.Helper()
	p, err := NewProver()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	res := p.Prove(context.Background(), ob, opts)
	if res.Err != nil {
		t.Fatalf("%s: %v", ob.Name, res.Err)
	}
	return res
}

func checkVerdicts(t *testing.T, c proveCase, res ObligationResult) {
	t.Helper()
	if len(res.Results) != len(c.want) {
		t.Fatalf("%s: %d results, want %d", c.ob.Name, len(res.Results), len(c.want))
	}
	for i, r := range res.Results {
		if r.Verdict != c.want[i] {
			t.Errorf("%s: assert %d (%s): %v (%s), want %v", c.ob.Name, i+1, r.Assert.E, r.Verdict, r.Reason, c.want[i])
		}
		if (r.Verdict == Failed) != (r.Cex != nil) {
			t.Errorf("%s: assert %d: verdict %v with counterexample %v", c.ob.Name, i+1, r.Verdict, r.Cex)
		}
	}
}

func TestVerdictsPerAssert(t *testing.T) {
	for _, c := range proveCases() {
		checkVerdicts(t, c, proveAll(t, c.ob, Options{Encoding: PerAssert}))
	}
}

func TestVerdictsLabelled(t *testing.T) {
	for _, c := range proveCases() {
		checkVerdicts(t, c, proveAll(t, c.ob, Options{Encoding: Labelled}))
	}
}

// TestProverReuse proves all cases on one Prover, twice, so that solver
// scopes and arena releases between obligations are exercised.
func TestProverReuse(t *testing.T) {
	p, err := NewProver()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for round := 0; round < 2; round++ {
		for _, c := range proveCases() {
			checkVerdicts(t, c, p.Prove(context.Background(), c.ob, Options{}))
		}
	}
}
