package mc

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/lipton-dev/lipton/layers"
)

// parallelBudget bounds each search of the parallel corpus test, so that
// some searches stop at the state limit, which must happen at the same
// state for every number of workers.
const parallelBudget = 6_000

// resultDigest is everything of a result that must not depend on the
// number of workers: all but the elapsed time and the memory.
func resultDigest(res *Result) string {
	var b strings.Builder
	s := res.Stats
	fmt.Fprintf(&b, "status %d vacuous %v limit %q\n", res.Status, res.Vacuous, res.Limit)
	fmt.Fprintf(&b, "states %d transitions %d depth %d reduced %d\n", s.States, s.Transitions, s.Depth, s.Reduced)
	if res.Status == OK {
		// A search that stops may have had its workers expand states
		// beyond the stop, which met specification states that one
		// worker would not have (docs/explore.md).
		fmt.Fprintf(&b, "spec %d/%d\n", s.SpecStates, s.SpecSets)
	}
	if f := res.Failure; f != nil {
		fmt.Fprintf(&b, "failure %s thread %d at %v: %s\n", f.Kind, f.Thread, f.Pos, f.Msg)
	}
	b.WriteString(traceText(res))
	for _, h := range res.History {
		fmt.Fprintf(&b, "\nhistory %+v", h)
	}
	for _, n := range res.Notes {
		b.WriteString("\nnote " + n)
	}
	return b.String()
}

// parallelCase is one search of the parallel corpus test.
type parallelCase struct {
	path string
	prog *layers.Program
	opts Options
}

// parallelCases returns the searches the test compares: every instance
// of the corpus at layer 0 (safety), with and without reductions, with
// access atomicity, and under TSO; in short mode, the files whose
// path contains one of the given fragments only.
func parallelCases(t *testing.T, short []string) []parallelCase {
	progs := corpus(t)
	var paths []string
	for p := range progs {
		if !testing.Short() || containsAny(p, short) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var cases []parallelCase
	for _, path := range paths {
		prog := progs[path]
		var insts []string
		for inst := range prog.Info.Instances {
			insts = append(insts, inst)
		}
		sort.Strings(insts)
		for _, inst := range insts {
			for _, o := range []Options{{}, {NoPOR: true, NoSymmetry: true}, {Atomicity: AtomicityAccess}, {Memory: MemoryTSO}} {
				o.Instance, o.MaxStates = inst, parallelBudget
				cases = append(cases, parallelCase{path, prog, o})
			}
		}
	}
	return cases
}

func containsAny(s string, frags []string) bool {
	for _, f := range frags {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// TestParallelSameResult runs searches of the corpus with 1, 2 and 4
// workers, the parallel ones also in tiny windows and chunks (so that a
// small search crosses many windows and its workers interleave often),
// and requires the same result each time: verdict, counts, depth,
// failure, trace. The broken variants give violations, so the
// counterexamples are compared too. In short mode (run with -race) a
// few files only.
func TestParallelSameResult(t *testing.T) {
	cases := parallelCases(t, []string{"treiber", "chaselev-put-early", "broken/incr-exactly-one", "counter-lin", "weak/", "loops/", "civl/peterson"})
	kinds := map[string]int{}
	for _, tc := range cases {
		name := fmt.Sprintf("%s/%s/%v/%v/nored=%v", tc.path, tc.opts.Instance, tc.opts.Atomicity, tc.opts.Memory, tc.opts.NoPOR)
		// Every run checks the compressed set's hints (checkHints), as
		// TestCompressedSameResult's do: the runs both tests make are
		// then the same searches, made once (runShared).
		o := tc.opts
		o.checkHints = true
		one, err := runShared(tc.prog, o)
		if err != nil {
			continue // not runnable in this mode (an error for every number of workers)
		}
		want := resultDigest(one)
		kinds[[...]string{"ok", "violation", "incomplete"}[one.Status]]++
		for _, cfg := range []struct{ jobs, window, chunk int }{{2, 0, 0}, {4, 0, 0}, {2, 7, 1}, {3, 50, 4}} {
			o := o
			o.Jobs, o.window, o.chunk = cfg.jobs, cfg.window, cfg.chunk
			res, err := runShared(tc.prog, o)
			if err != nil {
				t.Fatalf("%s: jobs %d: %v", name, cfg.jobs, err)
			}
			if got := resultDigest(res); got != want {
				t.Fatalf("%s: jobs %d, window %d: a different result\n--- jobs 1:\n%s\n--- jobs %d:\n%s", name, cfg.jobs, cfg.window, want, cfg.jobs, got)
			}
		}
	}
	t.Logf("%d searches compared: %v", len(cases), kinds)
	if kinds["violation"] == 0 || kinds["ok"] == 0 || !testing.Short() && kinds["incomplete"] == 0 {
		t.Errorf("the test compared too little: %v", kinds)
	}
}

// refinementFiles are the files of the parallel refinement test: the
// corpus's lock-free structures and the refinement checks that fail
// for the client contract's reasons (calls refused or unexplained), a
// peterson file whose specification refuses calls under rule 2, and
// their broken variants.
var refinementFiles = []string{"treiber", "counter-lin", "call-unexplained", "chaselev-put-early", "queue/", "contract/", "peterson/broken/lock-no-flag"}

// TestParallelRefinementSameResult is TestParallelSameResult for
// refinement checks (--linearizability, --refines), whose workers share
// the specification side, with and without reductions; a quasi
// linearizability check runs on one worker.
func TestParallelRefinementSameResult(t *testing.T) {
	if (&explorer{opts: Options{Jobs: 4}, spec: &specSide{quasi: &quasiSide{}}}).jobs() != 1 {
		t.Errorf("a quasi linearizability check with --jobs 4 uses more than one worker")
	}
	var cases []parallelCase
	for _, tc := range parallelCases(t, refinementFiles) {
		if !containsAny(tc.path, refinementFiles) || tc.opts.Atomicity != AtomicityYield || tc.opts.Memory != MemorySC {
			continue
		}
		tc.opts.Mode = ModeLinearizability
		cases = append(cases, tc)
		if !tc.opts.NoPOR && len(tc.prog.Layers) > 2 {
			tc.opts.Mode, tc.opts.SpecLayer = ModeRefines, 1
			cases = append(cases, tc)
		}
	}
	kinds := map[string]int{}
	for _, tc := range cases {
		name := fmt.Sprintf("%s/%s/mode=%v/nored=%v", tc.path, tc.opts.Instance, tc.opts.Mode, tc.opts.NoPOR)
		one, err := Run(tc.prog, tc.opts)
		if err != nil {
			continue // no specification to check against
		}
		kinds[[...]string{"ok", "violation", "incomplete"}[one.Status]]++
		for _, cfg := range []struct{ jobs, window, chunk int }{{3, 50, 4}, {2, 7, 1}} {
			o := tc.opts
			o.Jobs, o.window, o.chunk = cfg.jobs, cfg.window, cfg.chunk
			res, err := Run(tc.prog, o)
			if err != nil {
				t.Fatalf("%s: jobs %d: %v", name, cfg.jobs, err)
			}
			if got, want := resultDigest(res), resultDigest(one); got != want {
				t.Fatalf("%s: jobs %d, window %d: a different result\n--- jobs 1:\n%s\n--- jobs %d:\n%s", name, cfg.jobs, cfg.window, want, cfg.jobs, got)
			}
		}
	}
	t.Logf("%d refinement searches compared: %v", len(cases), kinds)
	if kinds["violation"] == 0 || kinds["ok"] == 0 {
		t.Errorf("the test compared too little: %v", kinds)
	}
}

// TestVisitedPendingNumbering: states added as pending from several
// goroutines at once (each for its own groups of shards, as pass 2 does)
// and numbered in a given order get the numbers insert would give them
// in that order, and duplicates are found whether numbered or pending.
func TestVisitedPendingNumbering(t *testing.T) {
	var states [][]byte
	for i := range 5000 {
		states = append(states, []byte(fmt.Sprintf("state %d", i%3000))) // 2000 duplicates
	}
	seq := newVisited()
	want := map[string]int{}
	for _, b := range states {
		n, isNew := seq.insert(b)
		if isNew {
			want[string(b)] = n
		}
	}
	par := newVisited()
	par.insert([]byte("state 0")) // numbered before the window
	par.setArenas(2)
	isNew := make([]bool, len(states))
	done := make(chan bool)
	for j := range 2 {
		go func() {
			for g := j; g < addGroups; g += 2 {
				for k, b := range states {
					if h := par.hash(b); shardIndex(h)%addGroups == g {
						isNew[k] = par.addPending(b, h, j)
					}
				}
			}
			done <- true
		}()
	}
	<-done
	<-done
	for k, b := range states {
		if isNew[k] {
			if n := par.numberNext(shardIndex(par.hash(b))); n != want[string(b)] {
				t.Fatalf("%q numbered %d, want %d", b, n, want[string(b)])
			}
		}
	}
	par.dropPending()
	if par.count() != seq.count() || par.count() != 3000 {
		t.Fatalf("%d and %d states, want 3000", par.count(), seq.count())
	}
	for s, n := range want {
		if got, isNew := par.insert([]byte(s)); isNew || got != n || string(par.get(n)) != s {
			t.Fatalf("%q: number %d (new %v), want %d", s, got, isNew, n)
		}
	}
}

// TestRefArray: a visited set's references, read back across the
// boundaries of refArray's chunks.
func TestRefArray(t *testing.T) {
	var a refArray
	const n = 70000 // chunks 0 to 7
	for i := range n {
		a.add(uint64(i) * 3)
	}
	for _, i := range []int{0, 1023, 1024, 2047, 2048, 4095, 4096, 65535, 65536, n - 1} {
		if got := a.at(i); got != uint64(i)*3 {
			t.Fatalf("entry %d: got %d, want %d", i, got, uint64(i)*3)
		}
	}
	if a.n != n || a.bytes() < n*8 || a.bytes() > 2*n*8+1024*8 {
		t.Errorf("%d entries in %d bytes", a.n, a.bytes())
	}
}

// TestSpecTablesConcurrent: workers interning the same specification
// states and sets at once get one number per state, the same for every
// worker, and read back the bytes they interned (go test -race also
// checks that the reads without the lock are ordered after the adds).
func TestSpecTablesConcurrent(t *testing.T) {
	tb := &specTables{states: newVisited(), sets: newVisited(), recentStates: newMemoCache()}
	const workers, states = 4, 3000
	ids := make([][]uint32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range states {
				k := (i*7 + w*1000) % states // each worker in its own order
				b := []byte(fmt.Sprintf("spec state %d", k))
				id := tb.addState(b)
				if got := tb.stateAt(id); string(got) != string(b) {
					t.Errorf("worker %d: state %d reads back as %q", w, id, got)
					return
				}
				ids[w] = append(ids[w], id)
				if set := tb.addSet(b); string(tb.setAt(int32(set))) != string(b) {
					t.Errorf("worker %d: set %d reads back wrong", w, set)
					return
				}
			}
		}()
	}
	wg.Wait()
	idOf := map[int]uint32{} // by k, from worker 0
	numbers := map[uint32]bool{}
	for w := range workers {
		for i, id := range ids[w] {
			k := (i*7 + w*1000) % states
			if prev, ok := idOf[k]; ok && prev != id {
				t.Fatalf("state %d: number %d for worker %d, %d before", k, id, w, prev)
			}
			idOf[k] = id
			numbers[id] = true
		}
	}
	if n, _ := tb.counts(); n != states || len(numbers) != states {
		t.Fatalf("%d states interned, %d numbers, want %d", n, len(numbers), states)
	}
}
