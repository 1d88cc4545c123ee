package main

import (
	"math/rand"
	"os"
	"testing"

	"github.com/lipton-dev/lipton/internal/randprog"
)

// checkMutantsAgree runs the soundness oracle (soundness_test.go) on
// mutants of the given corpus files, seeds 0 to perProof-1 each: no
// mutant may make the tool fail internally, and whatever check proves,
// explore (within 20,000 states per search) must find no violation of.
// At least one proven mutant must have been explored, or the test
// tested nothing.
func checkMutantsAgree(t *testing.T, paths []string, perProof int64) {
	t.Helper()
	explored := 0
	for _, path := range paths {
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
