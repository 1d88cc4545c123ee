package main

import (
	"math/rand"
	"os"
	"testing"

	"github.com/lipton-dev/lipton/internal/randprog"
)

// TestSoundnessMoverProcMutants runs the soundness oracle on mutants of
// the mover procedure proofs (a mover type changed, a yield dropped, a
// gate or annotation changed, ...): whatever check proves, explore, which
// runs mover procedures as calls, must find no violation of.
func TestSoundnessMoverProcMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Z3 and the model checker on mutants")
	}
	const perProof = 30
	explored := 0
	for _, path := range []string{"proofs/moverproc/lock-add.lip", "proofs/moverproc/layered.lip"} {
		src, err := os.ReadFile("../../" + path)
		if err != nil {
			t.Fatal(err)
		}
		for seed := int64(0); seed < perProof; seed++ {
			mutant, ok := randprog.Mutate(rand.New(rand.NewSource(seed)), string(src))
			if !ok {
				continue
			}
			o := evaluateProgram(int(seed), path, mutant, 20_000)
			if o.internalError() {
				t.Errorf("internal error: %s", o.report())
			}
			for _, r := range o.runs {
				if o.disagrees(r) {
					t.Errorf("disagreement: %s", o.report())
				}
				if o.proven && r.class == exploreOK {
					explored++
				}
			}
		}
	}
	if explored == 0 {
		t.Error("no proven mutant was explored: the test tested nothing")
	}
	t.Logf("%d explorations of proven mutants without violation", explored)
}
