package mc

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// reductionConfigs are the four combinations of the reductions.
var reductionConfigs = []struct{ noPOR, noSym bool }{{false, false}, {true, false}, {false, true}, {true, true}}

// runAll runs a linearizability check of prog's instance in every
// reduction configuration and both atomicities, and checks the verdict
// each time; it returns the results.
func runAll(t *testing.T, prog string, inst, kind, msg string) []*Result {
	t.Helper()
	p := load(t, prog)
	var out []*Result
	for _, at := range []Atomicity{AtomicityYield, AtomicityAccess} {
		for _, c := range reductionConfigs {
			opts := Options{Instance: inst, Mode: ModeLinearizability, Atomicity: at, NoPOR: c.noPOR, NoSymmetry: c.noSym, MaxStates: 2_000_000}
			res, err := runShared(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s atomicity %d, no POR %v, no symmetry %v: %d states", prog, at, c.noPOR, c.noSym, res.Stats.States)
			checkVerdict(t, res, kind, msg)
			out = append(out, res)
		}
	}
	return out
}

// neverCalled returns the note naming the methods no thread called, or "".
func neverCalled(res *Result) string {
	for _, n := range res.Notes {
		if strings.HasPrefix(n, "never called") {
			return n
		}
	}
	return ""
}

// TestContractRealState checks rule 1 of the client contract
// (contract.go): where the specification's requires reads only what
// the implementation has, a client decides in the implementation's
// state.
func TestContractRealState(t *testing.T) {
	// A pending set(0) that has not happened does not let a client call
	// get, which requires C <= 1, while the real C is 2 (allowing the
	// call when some specification state allows it reported a false
	// violation here). get is still called where C <= 1 really holds.
	for _, res := range runAll(t, "testdata/gate-action-below.lip", "small", "", "") {
		if n := neverCalled(res); n != "" {
			t.Errorf("gate-action-below: %s", n)
		}
	}
	// The second q is called while the first is pending and x is still
	// 0, and both increment: the second q's action happens where its gate
	// y > x is false (allowing the call only when every specification
	// state allows it found nothing).
	runAll(t, "../proofs/contract/broken/upper-gate-after-linearization.lip", "small", "linearizability", "returns from q")
	// The same with a yield before the increment: the second call must
	// be made before the first q starts, which partial-order reduction
	// must not skip by running the first q's empty first step alone.
	runAll(t, "testdata/upper-gate-yield-first.lip", "small", "linearizability", "returns from q")
	// The implementation's x is 2 after inc, where every state of the
	// specification has x == 1: get's requires x == 2 allows the call
	// in the real state and in no state of the specification.
	for _, res := range runAll(t, "testdata/call-unexplained.lip", "small", "linearizability",
		"worker(1) calls get(tid = 1), which layer 1's requires allows in the implementation's state, but no linearization of the history so far reaches a state where it holds") {
		h := res.History
		if len(h) == 0 || !h[len(h)-1].Call || h[len(h)-1].Method != "get" {
			t.Errorf("the history does not end with the call of get: %+v", h)
		}
	}
}

// TestContractInProgress checks the condition (b) of rule 1: while a
// method that may write what the requires reads is in progress, its
// intermediate state is not the specification's, and the rule of every
// state applies. With access atomicity, Chase-Lev's take1 leaves H > T
// while it runs; steal's specification requires H <= T, which holds in
// every specification state, so a thief calls steal there and the
// implementation's requires (ticsCond, false since take1 does not set
// tics) fails. Evaluated in the implementation's state, the requires
// would keep the thief from calling and the search would pass.
func TestContractInProgress(t *testing.T) {
	p := load(t, "../proofs/chaselev/broken/take1-tics-not-set.lip")
	for _, c := range reductionConfigs {
		res, err := Run(p, Options{Instance: "small", Mode: ModeLinearizability, Atomicity: AtomicityAccess, NoPOR: c.noPOR, NoSymmetry: c.noSym})
		if err != nil {
			t.Fatal(err)
		}
		checkVerdict(t, res, "contract", "calls steal(tid = ")
	}
}

// TestContractHiddenVariables checks rule 2: a requires over a variable
// introduced above the explored layer (a lock's holder) allows a call
// only if every state the history can reach allows it.
func TestContractHiddenVariables(t *testing.T) {
	for _, f := range []string{"../proofs/ticket/ticket-lock.lip", "../proofs/peterson/peterson-lock.lip"} {
		for _, res := range runAll(t, f, "two", "", "") {
			if !hasNote(res, "the requires of unlock at layer 2 reads holder, which layer 0 does not have") {
				t.Errorf("%s: no note on unlock's requires: %q", f, res.Notes)
			}
			if n := neverCalled(res); n != "" {
				t.Errorf("%s: %s", f, n)
			}
		}
	}
	// After resetter(2)'s reset has freed the lock but not returned, some
	// specification state has holder == 1, the real one has holder ==
	// NONE: worker(1) must not call release (which would fail layer 0's
	// requires locked, a contract violation no real client can cause).
	for _, res := range runAll(t, "testdata/release-after-reset.lip", "small", "", "") {
		if n := neverCalled(res); n != "" {
			t.Errorf("release-after-reset: %s", n)
		}
	}
}

func hasNote(res *Result, s string) bool {
	for _, n := range res.Notes {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// TestContractBrokenVariants checks broken variants of the corpus whose
// violations involve the client contract: each must still be found,
// with the same kind, at both atomicities.
func TestContractBrokenVariants(t *testing.T) {
	tests := []struct {
		file, inst  string
		yield, accs string // the failure kind with each atomicity
	}{
		{"chaselev/broken/take-requires-false.lip", "small", "contract", "contract"},
		{"chaselev/broken/take-spec-gate-too-strong.lip", "small", "linearizability", "linearizability"},
		{"chaselev/broken/take2-last-without-cas.lip", "small", "interference", "contract"},
		{"contract/broken/action-gate-weakened.lip", "small", "contract", "contract"},
		{"contract/broken/implementation-requires-more.lip", "small", "contract", "contract"},
		{"contract/broken/lock-add-owner-handed-over.lip", "two", "annotation", "contract"},
		{"contract/broken/upper-gate-after-linearization.lip", "small", "linearizability", "linearizability"},
		{"lock/broken/forgot-release.lip", "two", "annotation", "contract"},
		{"refinement/broken/get-spec-strict.lip", "small", "linearizability", "linearizability"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			p := load(t, "../proofs/"+tc.file)
			for i, at := range []Atomicity{AtomicityYield, AtomicityAccess} {
				res, err := runShared(p, Options{Instance: tc.inst, Mode: ModeLinearizability, Atomicity: at, MaxStates: 2_000_000})
				if err != nil {
					t.Fatal(err)
				}
				checkVerdict(t, res, []string{tc.yield, tc.accs}[i], "")
			}
		})
	}
}

// TestCorpusLinearizability runs every proof under proofs/ (not the
// broken variants) that has an instance and more than one layer with
// --linearizability, at both atomicities: none may report a violation
// or make no call.
func TestCorpusLinearizability(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus runs take a while")
	}
	paths, err := filepath.Glob("../proofs/*/*.lip")
	if err != nil {
		t.Fatal(err)
	}
	progs := corpus(t)
	sort.Strings(paths)
	checked := 0
	for _, path := range paths {
		prog := progs[filepath.Clean(path)]
		if prog == nil || len(prog.Layers) == 1 {
			continue
		}
		for inst := range prog.Info.Instances {
			for _, at := range []Atomicity{AtomicityYield, AtomicityAccess} {
				res, err := runShared(prog, Options{Instance: inst, Mode: ModeLinearizability, Atomicity: at, MaxStates: 2_000_000})
				if at == AtomicityAccess && RefusedForks(err) {
					continue
				}
				if err != nil {
					t.Fatalf("%s %s: %v", path, inst, err)
				}
				if res.Status != OK {
					t.Errorf("%s instance %s atomicity %d: %v %s %+v\n%s", path, inst, at, res.Status, res.Limit, res.Failure, traceText(res))
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d searches: the corpus test lost its corpus", checked)
	}
}
