package mc

import (
	"fmt"
	"strings"
	"testing"
)

// TestHashCompact runs searches of the corpus with hash compaction and
// with the lossless set: a violation must be found with the same trace,
// and a search that finds none must be incomplete, never OK, saying
// that it is not exhaustive and estimating the probability of a missed
// state, with the same counts (no two states of these searches share a
// 64-bit hash). With 2 workers, the result is the same as with one.
func TestHashCompact(t *testing.T) {
	cases := someCases(t, []string{"treiber", "chaselev", "broken/", "counter", "weak/"}, 3)
	kinds := map[string]int{}
	for _, tc := range cases {
		name := fmt.Sprintf("%s/%s/%v/%v/nored=%v", tc.path, tc.opts.Instance, tc.opts.Atomicity, tc.opts.Memory, tc.opts.NoPOR)
		o := tc.opts
		o.checkHints = true // the search of TestParallelSameResult, shared
		exact, err := runShared(tc.prog, o)
		if err != nil {
			continue
		}
		o = tc.opts
		o.HashCompact = true
		lossy, err := Run(tc.prog, o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		o.Jobs = 2
		lossy2, err := Run(tc.prog, o)
		if err != nil {
			t.Fatalf("%s: jobs 2: %v", name, err)
		}
		if a, b := resultDigest(lossy), resultDigest(lossy2); a != b {
			t.Fatalf("%s: jobs 2 differs from jobs 1:\n%s\n---\n%s", name, a, b)
		}
		switch exact.Status {
		case Violation:
			kinds["violation"]++
			if lossy.Status != Violation || traceText(lossy) != traceText(exact) || lossy.Failure.Msg != exact.Failure.Msg {
				t.Fatalf("%s: with hash compaction:\n%s\nwithout:\n%s", name, resultDigest(lossy), resultDigest(exact))
			}
		case OK:
			kinds["ok"]++
			if lossy.Status != Incomplete || !strings.Contains(lossy.Limit, "not exhaustive") || !strings.Contains(lossy.Limit, "the probability that some state was missed this way is about") {
				t.Fatalf("%s: with hash compaction: status %v, limit %q; want incomplete", name, lossy.Status, lossy.Limit)
			}
		}
		if lossy.Status != Violation && lossy.Stats.States != exact.Stats.States {
			t.Fatalf("%s: %d states with hash compaction, %d without", name, lossy.Stats.States, exact.Stats.States)
		}
	}
	t.Logf("%d searches: %v", len(cases), kinds)
	if kinds["violation"] == 0 || kinds["ok"] == 0 {
		t.Errorf("the test compared too little: %v", kinds)
	}
}

// TestCompactLimit checks the estimate of a missed state: n^2/2^65.
func TestCompactLimit(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{1 << 20, "about 3.0e-08 (n^2/2^65 for n = 1048576 states)"}, // 2^40/2^65 = 2^-25
		{13094151, "about 4.6e-06 (n^2/2^65 for n = 13094151 states)"},
		{1 << 31, "about 1.2e-01"}, // 2^62/2^65 = 1/8
		{1 << 33, "is not small (n^2/2^65"},
	} {
		if got := compactLimit(c.n); !strings.Contains(got, c.want) || !strings.Contains(got, "not exhaustive") {
			t.Errorf("compactLimit(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
