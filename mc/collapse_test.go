package mc

import (
	"fmt"
	"os"
	"testing"

	"github.com/lipton-dev/lipton/layers"
)

// TestCompressedSameResult runs searches of the corpus with the
// compressed visited set (collapse.go) and with the plain one (the
// encodings themselves), and requires the same result: verdict, counts,
// depth, failure, trace, history. The cases are those of the parallel
// test (safety with and without reductions, access atomicity, TSO) and
// linearizability on the files with a specification layer; the
// compressed set runs with 1 and 2 workers. The files whose path has
// one of a few fragments only (TestParallelSameResult runs them all).
func TestCompressedSameResult(t *testing.T) {
	cases := someCases(t, []string{"treiber", "chaselev", "broken/", "counter-lin", "weak/", "civl/peterson", "quasi"}, 3)
	for _, tc := range someCases(t, []string{"treiber", "counter-lin", "chaselev", "quasi"}, 2) {
		if o := tc.opts; !o.NoPOR && o.Atomicity == AtomicityYield && o.Memory == MemorySC && len(tc.prog.Layers) > 1 {
			tc.opts.Mode = ModeLinearizability
			cases = append(cases, tc)
		}
	}
	kinds := map[string]int{}
	for _, tc := range cases {
		name := fmt.Sprintf("%s/%s/%v/%v/%v/nored=%v", tc.path, tc.opts.Instance, tc.opts.Mode, tc.opts.Atomicity, tc.opts.Memory, tc.opts.NoPOR)
		o := tc.opts
		o.NoCompress = true
		plain, err := Run(tc.prog, o)
		if err != nil {
			continue // not runnable in this mode
		}
		want := resultDigest(plain)
		kinds[[...]string{"ok", "violation", "incomplete"}[plain.Status]]++
		if tc.opts.Mode == ModeLinearizability {
			kinds["linearizability"]++
		}
		for _, jobs := range []int{1, 2} {
			o := tc.opts
			o.Jobs = jobs
			o.checkHints = true
			res, err := runShared(tc.prog, o) // shared with TestParallelSameResult
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := resultDigest(res); got != want {
				t.Fatalf("%s: jobs %d: compressed, a different result\n--- plain:\n%s\n--- compressed:\n%s", name, jobs, want, got)
			}
		}
	}
	t.Logf("%d searches compared: %v", len(cases), kinds)
	if kinds["violation"] == 0 || kinds["ok"] == 0 || kinds["linearizability"] == 0 {
		t.Errorf("the test compared too little: %v", kinds)
	}
}

// TestCompressedMemory checks that the compressed set holds less than
// the plain one on a search of a few thousand states, and rebuilds
// every state's encoding exactly.
func TestCompressedMemory(t *testing.T) {
	prog := corpus(t)["testdata/chaselev-plain.lip"]
	if prog == nil {
		t.Fatal("testdata/chaselev-plain.lip is missing")
	}
	var mem [2]int64
	var states [2][]string
	for i, plain := range []bool{true, false} {
		e := &explorer{opts: Options{Instance: "small", NoPOR: true, NoSymmetry: true, NoCompress: plain}}
		res := runExplorer(t, prog, e)
		if res.Status != OK {
			t.Fatalf("plain=%v: status %v, want OK", plain, res.Status)
		}
		mem[i] = e.vis.memory()
		for n := range e.vis.count() {
			states[i] = append(states[i], string(e.vis.state(n, nil, nil)))
		}
	}
	if len(states[0]) < 1000 || len(states[0]) != len(states[1]) {
		t.Fatalf("%d and %d states", len(states[0]), len(states[1]))
	}
	for n := range states[0] {
		if states[0][n] != states[1][n] {
			t.Fatalf("state %d: %q, want %q", n, states[1][n], states[0][n])
		}
	}
	if mem[1]*2 > mem[0] {
		t.Errorf("compressed: %d bytes, plain %d: want less than half", mem[1], mem[0])
	}
}

// runExplorer runs e's search of layer 0 of prog (safety, SC), keeping
// e for inspection.
func runExplorer(t *testing.T, prog *layers.Program, e *explorer) *Result {
	t.Helper()
	m, err := newModel(prog, prog.Info.Instances[e.opts.Instance], 0, modelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e.m, e.por, e.sym = m, !e.opts.NoPOR, !e.opts.NoSymmetry
	e.setup()
	return e.search()
}

// envAllCases makes the comparisons of the compressed and the
// hash-compacted set run every case instead of a sample:
//
//	LIPTON_MC_ALL_CASES=1 go test ./mc -run 'TestCompressedSameResult|TestHashCompact'
const envAllCases = "LIPTON_MC_ALL_CASES"

// someCases returns the cases of parallelCases whose file's path
// contains one of frags, in every mode: every k-th of them (a fixed
// sample, which keeps the suite within its time budget on a loaded
// machine), or all with LIPTON_MC_ALL_CASES set.
func someCases(t *testing.T, frags []string, k int) []parallelCase {
	if os.Getenv(envAllCases) != "" {
		k = 1
	}
	var cases []parallelCase
	i := 0
	for _, tc := range parallelCases(t, frags) {
		if containsAny(tc.path, frags) {
			if i%k == 0 {
				cases = append(cases, tc)
			}
			i++
		}
	}
	return cases
}
