package main

import (
	"strings"
	"testing"
)

// TestSequenceSolverReuse runs `lipton check --jobs 1` (one Prover for
// every obligation) in a child process on a program of the differential
// soundness test on which Z3 4.8.12 crashed the process with a
// segmentation fault inside Z3_solver_check, when its sequence
// obligations reused a solver that had served other obligations. The
// crash needs a fresh process (in this test process the same checks do
// not crash): with the old code the child dies with SIGSEGV.
func TestSequenceSolverReuse(t *testing.T) {
	for i := 0; i < 3; i++ {
		out := runChild(t, false, nil, "check", "--no-cache", "--jobs", "1", "testdata/seq-solver-reuse.lip")
		if !strings.Contains(out, "q does not refine action q") || !strings.Contains(out, "1 failed, 0 unknown") {
			t.Fatalf("run %d: want q's method abstraction to fail, and nothing else:\n%s", i, out)
		}
	}
}
