package smt

import (
	"context"
	"github.com/lipton-dev/lipton/obl"
	"os/exec"
	"path/filepath"
	"testing"
)

// proveAll proves ob with a fresh Prover. If the z3 binary is installed it
// also checks that ob's SMT-LIB2 dump gets the same verdicts from it, so
// every obligation of the tests is checked both ways.
func proveAll(t *testing.T, ob *obl.Obligation, opts Options) obl.ObligationResult {
	t.Helper()
	res := proveInProcess(t, ob, opts)
	if _, err := exec.LookPath("z3"); err == nil {
		dir := t.TempDir()
		if err := WriteDump(dir, ob); err != nil {
			t.Fatal(err)
		}
		got := runZ3Binary(t, filepath.Join(dir, ob.Name+".smt2"))
		if len(got) != len(res.Results) {
			t.Fatalf("%s: z3 binary answered %d queries, want %d", ob.Name, len(got), len(res.Results))
		}
		for i, r := range res.Results {
			if r.Verdict != obl.Unknown && got[i] != r.Verdict {
				t.Errorf("%s: assert %d: z3 binary says %v, binding %v", ob.Name, i+1, got[i], r.Verdict)
			}
		}
	}
	return res
}

// proveInProcess proves ob with a fresh Prover.
func proveInProcess(t *testing.T, ob *obl.Obligation, opts Options) obl.ObligationResult {
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

func checkVerdicts(t *testing.T, c proveCase, res obl.ObligationResult) {
	t.Helper()
	if len(res.Results) != len(c.want) {
		t.Fatalf("%s: %d results, want %d", c.ob.Name, len(res.Results), len(c.want))
	}
	for i, r := range res.Results {
		if r.Verdict != c.want[i] {
			t.Errorf("%s: assert %d (%s): %v (%s), want %v", c.ob.Name, i+1, r.Assert.E, r.Verdict, r.Reason, c.want[i])
		}
		if (r.Verdict == obl.Failed) != (r.Cex != nil) {
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

// proveInProcess2 proves ob without failing the test on an obligation
// error.
func proveInProcess2(t *testing.T, ob *obl.Obligation) obl.ObligationResult {
	t.Helper()
	p, err := NewProver()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	return p.Prove(context.Background(), ob, Options{})
}

// TestProveMalformed: a malformed obligation is unknown, with the reason,
// never proven.
func TestProveMalformed(t *testing.T) {
	x, y := intVar("x"), intVar("y")
	res := proveInProcess2(t, newOb("u", vars(x), assert(obl.Gt(r(y), n(0)))))
	if res.Err == nil || len(res.Results) != 1 || res.Results[0].Verdict != obl.Unknown || res.Results[0].Reason == "" {
		t.Errorf("Prove of a malformed obligation: %+v", res)
	}
}
