package mc

import (
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"

	"github.com/lipton-dev/lipton/layers"
)

// Several tests of the package make the same search: the corpus tests
// run the same file in the same mode, atomicity and reductions, and the
// tests that compare implementations of the search (workers,
// compression, hash compaction) all start from the one-worker result of
// the same case. runShared makes each such search once per test binary
// and hands every test that asks for it the same result, which the
// tests only read. The search is deterministic (TestParallelSameResult
// and TestCompressedSameResult require it), so a shared result is the
// result each test would have computed itself.
//
// The tests bound their searches with different state limits (2,000,000
// for the verdict tests, 240,000 for the reduction test). A limit is
// read only by the checks that stop a search when its stored states
// exceed it, and the count of stored states only grows; so a search
// that ended (OK or a violation) with n stored states never saw more
// than n, and runs the same under every limit of at least n, or none.
// Such a result answers the same search under any such limit
// (TestStateLimitAboveCountSameResult checks the argument on real
// searches). A search that a limit stopped, or that returned an error,
// answers only the same search under the same limit.

// sharedFamily holds the searches made of one file with the same
// options but for the state limit, under its mutex (a second test
// asking for a search waits for the first to make it, then shares it).
type sharedFamily struct {
	mu       sync.Mutex
	searches []sharedSearch
}

// sharedSearch is one search made: its limit and outcome.
type sharedSearch struct {
	maxStates int
	res       *Result
	err       error
}

// answers reports whether s is the outcome of a search under limit max.
func (s sharedSearch) answers(max int) bool {
	if s.maxStates == max {
		return true
	}
	complete := s.err == nil && s.res.Status != Incomplete
	return complete && (max <= 0 || s.res.Stats.States <= int64(max))
}

// sharedFamilies maps a family's key (sharedKey) to its *sharedFamily.
var sharedFamilies sync.Map

// sharedKey is what a search's result depends on but the state limit:
// the program (the name and source of its file, from which the tests
// build it in one way: lang.ParseAndCheck, then layers.Build) and every
// other option. Options that cannot be compared by
// value (a context, callbacks, a synthesized instance, a replaced clock
// or heap measure) make a search that is not shared: ok is false.
func sharedKey(prog *layers.Program, o Options) (key string, ok bool) {
	if o.InstanceDecl != nil || o.Context != nil || o.Progress != nil || o.clock != nil || o.heapLive != nil {
		return "", false
	}
	o.MaxStates = 0
	exec := prog.Exec // layers.ForExecution's view of the same file
	// Run reads SpecLayer in ModeRefines only (a linearizability check
	// is against the top layer, a safety check against none).
	if o.Mode != ModeRefines {
		o.SpecLayer = 0
	}
	return fmt.Sprintf("%s\x00%x\x00%v\x00%+v", prog.File.Name, sha256.Sum256(prog.File.Src), exec, o), true
}

// runShared is Run(prog, o), made once per test binary for each
// program, options and state limit (or taken from a search of it under
// another limit, as explained above).
func runShared(prog *layers.Program, o Options) (*Result, error) {
	key, ok := sharedKey(prog, o)
	if !ok {
		return Run(prog, o)
	}
	v, _ := sharedFamilies.LoadOrStore(key, &sharedFamily{})
	fam := v.(*sharedFamily)
	fam.mu.Lock()
	defer fam.mu.Unlock()
	for _, s := range fam.searches {
		if s.answers(o.MaxStates) {
			return s.res, s.err
		}
	}
	res, err := Run(prog, o)
	fam.searches = append(fam.searches, sharedSearch{o.MaxStates, res, err})
	return res, err
}

// clientsRun is one RunClients made once per test binary: its result,
// and the sizes its callback reported finished, in order.
type clientsRun struct {
	once   sync.Once
	res    *ClientsResult
	levels []int
	err    error
}

// clientsRuns maps a clientsRun's key (clientsKey) to the *clientsRun.
var clientsRuns sync.Map

// runClientsShared is RunClients(prog, o, maxN, callback) with a
// callback that records the sizes finished, made once per test binary
// for each program, options and maxN: TestClientsChaseLev and
// TestClientsIncomplete make the one-worker searches that
// TestClientsParallelSameResult compares its three workers with. A
// Jobs below 1 is one worker (searchAll), so it is keyed as 1.
func runClientsShared(prog *layers.Program, o Options, maxN int) (*ClientsResult, []int, error) {
	key, ok := sharedKey(prog, withJobs(o, max(o.Jobs, 1)))
	run := &clientsRun{}
	if ok {
		v, _ := clientsRuns.LoadOrStore(fmt.Sprintf("%s\x00%d\x00%d", key, o.MaxStates, maxN), run)
		run = v.(*clientsRun)
	}
	run.once.Do(func() {
		run.res, run.err = RunClients(prog, o, maxN, func(l ClientLevel) { run.levels = append(run.levels, l.N) })
	})
	return run.res, run.levels, run.err
}

// TestStateLimitAboveCountSameResult checks the argument runShared
// relies on, on real searches: a search that ends with n stored states
// has the same result under the limit n (where the deferred successors
// of the compressed set's last expansions reach past the limit before
// they are added) as with no limit, with one worker and with two,
// compressed and plain, for a violation and for a search without one.
func TestStateLimitAboveCountSameResult(t *testing.T) {
	for _, tc := range []struct {
		file string
		opts Options
	}{
		{"testdata/treiber.lip", Options{Instance: "small"}},
		{"testdata/treiber-lost-push.lip", Options{Instance: "small", Mode: ModeLinearizability}},
		{"testdata/counter-cas.lip", Options{Instance: "three", Mode: ModeLinearizability}},
		{"testdata/chaselev-put-early.lip", Options{Instance: "small", Mode: ModeLinearizability}},
	} {
		prog := load(t, tc.file)
		for _, o := range []Options{tc.opts, withJobs(tc.opts, 2), withPlain(tc.opts)} {
			free, err := Run(prog, o)
			if err != nil {
				t.Fatal(err)
			}
			if free.Status == Incomplete {
				t.Fatalf("%s %+v: incomplete without a limit: %s", tc.file, o, free.Limit)
			}
			want := resultDigest(free)
			for _, limit := range []int{int(free.Stats.States), 2 * int(free.Stats.States)} {
				o.MaxStates = limit
				res, err := Run(prog, o)
				if err != nil {
					t.Fatal(err)
				}
				if got := resultDigest(res); got != want {
					t.Fatalf("%s %+v: with the limit %d:\n%s\nwithout:\n%s", tc.file, o, limit, got, want)
				}
			}
		}
	}
}

func withJobs(o Options, jobs int) Options { o.Jobs = jobs; return o }

func withPlain(o Options) Options { o.NoCompress = true; return o }
