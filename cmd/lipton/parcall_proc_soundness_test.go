package main

import (
	"os"
	"testing"
)

// Parallel calls with procedure arms: the static checks treat the arms
// in an order the mover pattern justifies, explore runs them as
// sub-threads in every interleaving (mc/fork.go). The two must agree.

// procArmProofs are the proven files with procedure arms and instances.
var procArmProofs = []string{
	"proofs/parcall/fill.lip",
	"proofs/parcall/fill-add.lip",
	"proofs/civl/par-incr.lip",
}

// procArmBroken are broken files with procedure arms whose bug explore
// can see on their instance.
var procArmBroken = []string{
	"proofs/parcall/broken/proc-arm-race.lip",
	"proofs/parcall/broken/proc-arm-sibling-yield.lip",
	"proofs/parcall/broken/proc-arms-requires-sequential.lip",
	"proofs/civl/parallel1.lip",
	"proofs/civl/parallel4.lip",
}

// TestParCallProcArmsAgree: every proven file with procedure arms passes
// every exploration explore can run (access atomicity is refused with
// forks, never run wrongly), and every broken one fails both.
func TestParCallProcArmsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Z3 and the model checker")
	}
	checkFilesAgree(t, procArmProofs, procArmBroken)
}

func evaluateFile(t *testing.T, i int, path string) *programOutcome {
	t.Helper()
	src, err := os.ReadFile("../../" + path)
	if err != nil {
		t.Fatal(err)
	}
	return evaluateProgram(i, path, string(src), 200_000)
}

// TestSoundnessProcArmMutants runs the soundness oracle on mutants of
// the proofs with procedure arms: whatever check proves, explore must
// find no violation of.
func TestSoundnessProcArmMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Z3 and the model checker on mutants")
	}
	checkMutantsAgree(t, procArmProofs[:3], 20)
}

// checkFilesAgree asserts that check proves every file of proofs and
// that every exploration explore can run of it ends without violation
// (an error only where access atomicity is refused, and at least one
// completed), and that check fails every file of broken and explore's
// first exploration of it finds a violation.
func checkFilesAgree(t *testing.T, proofs, broken []string) {
	t.Helper()
	for i, path := range proofs {
		o := evaluateFile(t, i, path)
		if !o.proven {
			t.Errorf("%s: check says %s, want proven", path, o.check)
			continue
		}
		ok := 0
		for _, r := range o.runs {
			switch r.class {
			case exploreOK:
				ok++
			case exploreError:
				if !r.access {
					t.Errorf("%s: %s: %s", path, r.what, r.detail)
				}
			default:
				t.Errorf("%s: %s: %s %s", path, r.what, exploreClassNames[r.class], r.detail)
			}
		}
		if ok == 0 {
			t.Errorf("%s: no exploration completed", path)
		}
	}
	for i, path := range broken {
		o := evaluateFile(t, 100+i, path)
		if o.proven || !o.valid {
			t.Errorf("%s: check says %s, want failures", path, o.check)
			continue
		}
		if len(o.runs) == 0 || o.runs[0].class != exploreViolation {
			t.Errorf("%s: explore finds no violation: %+v", path, o.runs)
		}
	}
}
