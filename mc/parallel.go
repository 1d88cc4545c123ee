package mc

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// Parallel search (Options.Jobs > 1): level-synchronous breadth-first
// search whose result does not depend on the number of workers.
//
// The states of one BFS level are expanded in windows of parallelWindow
// states, each in three passes:
//
//  1. Expand (parallel): the workers take chunks of parallelChunk states
//     in increasing order and expand each (decode, run every thread,
//     check, encode, canonicalize) exactly as the sequential search
//     does, with an explorer of their own (scratch space, register files,
//     run) that shares the model, the map table and the visited set. They
//     only look successors up in the visited set, which nothing writes in
//     this pass, and keep those not found as candidates, per state
//     expanded.
//  2. Intern (parallel, the compressed set only: collapse.go): the parts
//     of the candidates that pass 1 did not find in the set are
//     interned, and then their pairs that it did not find, level by
//     level of the tree, one table per worker at a time, each table in
//     the order of the states expanded (store.go, internWindow).
//     Add (parallel): the visited set is sharded by hash (state.go), the
//     shards are grouped, and the workers take groups one at a time; for
//     its group a worker adds the group's candidates (pass 1 listed them
//     per group) in the order of the states expanded, as pending
//     (unnumbered) states, into an arena of its own, marking which are
//     new. A state's duplicates all fall in one shard, so "new"
//     means the first occurrence in that order.
//  3. Number (one goroutine): in the order of the states expanded, every
//     new candidate gets the next state number and its parent, with the
//     checks the sequential search makes before and after each state.
//
// So the states are numbered in exactly the order of the sequential
// search (Options.Jobs 1): a successor found in pass 1 was inserted
// before, and the sequential search would have found it too, and pass 3
// numbers the rest in the sequential order. State numbers, parents, the
// state and transition counts, the depth, the violation reported (the
// first in BFS order, which pass 3 meets first: a worker that fails
// stops, and no worker starts a chunk beyond the earliest failure, so
// every state before it is expanded), its trace, and where a state limit
// stops the search are all those of the sequential search, for every
// number of workers. Since BFS finds a shortest path to each state, the
// counterexample is a shortest one whatever the number of workers.
//
// The reductions are not affected: both decide per state. The
// partial-order reduction (por.go) chooses a state's persistent set from
// the state alone and a static analysis, and its cycle proviso is the
// static one of rule (4) there (every cycle of the reduced graph has a
// non-progressing transition, and those are taken only in fully
// expanded states), which needs no search stack or queue, so it holds
// whatever order the states are expanded in. Symmetry reduction
// (symmetry.go) replaces every successor by its canonical
// representative, a function of the state; map values are ids of a
// shared map table whose numbering depends on the order in which
// workers meet maps, but an id stands for one map throughout a search,
// so representatives are still one per orbit and the counts are the
// same. (Were a symmetric role's thread to hold a map in a local
// variable, which representative of an orbit is stored would depend on
// that numbering, and with it the order of the successors and the trace
// shown, though not its length, the counts or the verdict.)
//
// A refinement check's specification side (spec.go) shares its tables
// among the workers (specTables; each worker has its own scratch space,
// fork), and a worker computes a missing answer without a lock: two
// workers computing one answer at once intern the same states and set,
// so they agree. A normalized state's number depends on the
// order in which workers meet it, but, as with maps, a number stands
// for one normalized state throughout the search, and the symmetry
// representative is chosen from the implementation's records alone
// (encodeSucc), so the counts and the trace are those of one worker.
//
// What differs: the time and memory limits are checked in pass 3 (a
// memory limit sees the map table, the visited set and the
// specification's tables as filled by the whole window, so it may stop
// the search a window earlier than with one worker); and when a search
// stops (a violation, a limit), the workers may have expanded states of
// the window beyond the stop, so the counts of specification states and
// sets, which include what those expansions met, may be higher than with
// one worker. A complete search expands every state once for every
// number of workers, and meets the same specification states.

// parallelChunk is the number of states a worker takes at a time;
// parallelWindow the number of states expanded before they are merged
// (it bounds the memory the candidates hold).
const (
	parallelChunk  = 64
	parallelWindow = 1 << 16
)

// parentOut is what a worker found expanding one state.
type parentOut struct {
	done    bool
	w       int32 // the worker
	lo, hi  int32 // its candidates
	trans   int64 // transitions
	reduced bool  // expanded by one thread only
	failure *Failure
}

// candidates are successors that a worker did not find in the visited
// set, concatenated, with their hashes.
type candidates struct {
	b      []byte
	ends   []int
	hashes []uint64
	isNew  []bool // set when the window is merged
	// parts lists where each candidate's parts end (collapse.go), ids
	// the ids of its nodes, noID where pass 1 did not find the node in
	// the set (pass 2a interns those): a fixed number per candidate.
	parts []int32
	ids   []uint32
	// groups lists the candidates of each group of shards (addWindow),
	// in order.
	groups [addGroups][]int32
}

func (c *candidates) reset() {
	c.b, c.ends, c.hashes, c.isNew = c.b[:0], c.ends[:0], c.hashes[:0], c.isNew[:0]
	c.parts, c.ids = c.parts[:0], c.ids[:0]
	for g := range c.groups {
		c.groups[g] = c.groups[g][:0]
	}
}

func (c *candidates) get(i int32) []byte {
	start := 0
	if i > 0 {
		start = c.ends[i-1]
	}
	return c.b[start:c.ends[i]]
}

// jobs is the number of workers the search uses: one for a quasi
// linearizability check, whose relaxed specification's searches (which
// states can still be completed, which calls are refused) stop at the
// first answer, so the specification states they meet, and their
// count, would depend on the numbering of the states the workers meet.
func (e *explorer) jobs() int {
	if e.opts.Jobs < 2 || e.spec != nil && e.spec.quasi != nil {
		return 1
	}
	return e.opts.Jobs
}

// newWorker returns an explorer for one worker of a parallel search:
// it shares the model, the options, the analyses and the visited set,
// and has its own scratch space, run and register files.
func (e *explorer) newWorker() *explorer {
	m := e.m
	w := &explorer{m: m, opts: e.opts, por: e.por, sym: e.sym, dead: e.dead, vis: e.vis, por0: e.por0, lim: e.lim}
	if e.spec != nil {
		w.spec = e.spec.fork()
	}
	w.called = make([]bool, len(m.methods))
	w.ru = newRun(m, w)
	w.ru.events, w.ru.spec = e.spec != nil, w.spec
	w.ru.regs = make([][]int64, len(m.procs))
	for _, p := range m.procs {
		w.ru.regs[p.idx] = make([]int64, len(p.regs))
	}
	w.regs = make([]int64, len(e.regs))
	w.segs = make([][]byte, len(m.threads))
	w.perm = make([]int, len(m.threads))
	w.cands = &candidates{}
	if _, ok := e.vis.(*collapsed); ok {
		w.held, w.heldPrev = &heldSuccs{}, &heldSuccs{}
	}
	w.sc.checkHints = e.opts.checkHints
	w.sc.offered = make([]uint64, recentSize)
	return w
}

// collect keeps the successors in e.succ that the visited set does not
// hold as candidates (a worker's insertAll), or, with the compressed
// set, holds them until the next state is expanded (held.go).
func (e *explorer) collect() {
	start := 0
	defer func() { e.sc.hinted = false }()
	for j, end := range e.succEnds {
		e.stats.Transitions++
		b := e.succ[start:end]
		start = end
		h := e.vis.hash(b)
		e.sc.ends, e.sc.ids = e.sc.ends[:0], e.sc.ids[:0]
		e.hint(j)
		if e.held != nil {
			e.hold(b, h)
			continue
		}
		if !e.vis.has(b, h, &e.sc) {
			e.cands.add(b, h, e.sc.ends, e.sc.ids)
		}
	}
}

// add adds state b (hash h) as a candidate, with where its parts end
// and its nodes' ids (the compressed set).
func (c *candidates) add(b []byte, h uint64, parts []int32, ids []uint32) {
	c.parts = append(c.parts, parts...)
	c.ids = append(c.ids, ids...)
	g := shardIndex(h) % addGroups
	c.groups[g] = append(c.groups[g], int32(len(c.ends)))
	c.b = append(c.b, b...)
	c.ends = append(c.ends, len(c.b))
	c.hashes = append(c.hashes, h)
	c.isNew = append(c.isNew, false)
}

// searchParallel is search with several workers, after the initial
// states: level by level, window by window.
func (e *explorer) searchParallel(res *Result) *Result {
	workers := make([]*explorer, e.jobs())
	for i := range workers {
		workers[i] = e.newWorker()
	}
	e.vis.setArenas(len(workers))
	window, chunk := parallelWindow, parallelChunk
	if e.opts.window > 0 {
		window, chunk = e.opts.window, e.opts.chunk
	}
	outs := make([]parentOut, window)
	lo, hi := 0, e.vis.count()
	for level := 0; lo < hi; level++ {
		if level > 0 {
			e.stats.Depth++
		}
		if hi-lo < chunk*len(workers) {
			// A level narrower than one chunk per worker is expanded
			// here, in order, as the sequential search does: handing
			// it out costs more than it saves (a search of one state
			// per level ran 14 times slower in three passes per level).
			if e.expandNarrow(lo, hi, res) {
				e.collectCalls(workers)
				return e.finish(res)
			}
			lo, hi = hi, e.vis.count()
			continue
		}
		for start := lo; start < hi; start += window {
			end := min(start+window, hi)
			expandWindow(workers, start, end, outs, chunk)
			addWindow(e.vis, workers, outs[:end-start], chunk)
			if e.mergeWindow(workers, start, end, outs, res) {
				e.collectCalls(workers)
				return e.finish(res)
			}
			e.release(end)
		}
		lo, hi = hi, e.vis.count()
	}
	e.collectCalls(workers)
	return e.finish(res)
}

// expandNarrow expands states lo..hi-1 one by one, as search does
// (the same numbering, checks and stops); it reports whether the search
// ends (res says why, or e.failure is set).
func (e *explorer) expandNarrow(lo, hi int, res *Result) bool {
	for i := lo; i < hi; i++ {
		if why := e.lim.stopped(); why != "" {
			res.Status, res.Limit = Incomplete, why
			return true
		}
		if e.checkLimits(i, res) {
			return true
		}
		e.release(i)
		e.expand(i)
		if e.failure != nil {
			return true
		}
		if e.opts.MaxStates > 0 && e.vis.count() > e.opts.MaxStates {
			res.Status, res.Limit = Incomplete, fmt.Sprintf("the state limit (%d) was reached", e.opts.MaxStates)
			return true
		}
	}
	return false
}

// collectCalls records the methods the workers' transitions called.
func (e *explorer) collectCalls(workers []*explorer) {
	for _, w := range workers {
		for i, c := range w.called {
			e.called[i] = e.called[i] || c
		}
	}
}

// expandWindow expands states start..end-1 with the workers, recording
// what each found in outs[i-start].
func expandWindow(workers []*explorer, start, end int, outs []parentOut, chunk int) {
	n := end - start
	clear(outs[:n])
	var next atomic.Int64
	var firstFail atomic.Int64
	firstFail.Store(math.MaxInt64)
	var wg sync.WaitGroup
	for wi, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.expandChunks(int32(wi), start, n, chunk, outs, &next, &firstFail)
		}()
	}
	wg.Wait()
}

// expandChunks is one worker's part of expandWindow.
func (e *explorer) expandChunks(wi int32, start, n, chunk int, outs []parentOut, next, firstFail *atomic.Int64) {
	c := e.cands
	c.reset()
	e.sc.forgetOffered()
	for {
		from := next.Add(int64(chunk)) - int64(chunk)
		if from >= int64(n) || from > firstFail.Load() || e.lim.stopped() != "" {
			return
		}
		for i := from; i < min(from+int64(chunk), int64(n)); i++ {
			o := &outs[i]
			trans, reduced := e.stats.Transitions, e.stats.Reduced
			o.w, o.lo = wi, int32(len(c.ends))
			e.expandHeld(start+int(i), o)
			o.trans, o.reduced = e.stats.Transitions-trans, e.stats.Reduced > reduced
			o.done = true
			if e.failure != nil {
				e.flushHeld()
				o.failure, e.failure = e.failure, nil
				for {
					f := firstFail.Load()
					if i >= f || firstFail.CompareAndSwap(f, i) {
						break
					}
				}
				return
			}
		}
		e.flushHeld()
	}
}

// expandHeld expands state i, whose record is o, and sets where its
// candidates end; with held successors (held.go), it looks up those of
// the state expanded before, whose candidates then end, and holds this
// one's.
func (e *explorer) expandHeld(i int, o *parentOut) {
	if e.held == nil {
		e.expand(i)
		o.hi = int32(len(e.cands.ends))
		return
	}
	e.held.reset(o)
	e.expand(i)
	e.resolveHeld(e.heldPrev)
	e.held, e.heldPrev = e.heldPrev, e.held
}

// flushHeld looks up the successors still held, at a chunk's end.
func (e *explorer) flushHeld() {
	if e.held != nil {
		e.resolveHeld(e.heldPrev)
	}
}

// mergeWindow numbers the new candidates of states start..end-1 in
// order (pass 3), with the checks the sequential search makes before and
// after each state; it reports whether the search stops.
func (e *explorer) mergeWindow(workers []*explorer, start, end int, outs []parentOut, res *Result) bool {
	for i := start; i < end; i++ {
		if why := e.lim.stopped(); why != "" {
			res.Status, res.Limit = Incomplete, why
			return true
		}
		if e.checkLimits(i, res) {
			return true
		}
		o := &outs[i-start]
		if !o.done {
			// Only a stop makes a worker leave a state before the
			// earliest failure unexpanded, and a stop is final.
			res.Status, res.Limit = Incomplete, e.lim.stopped()
			if res.Limit == "" {
				panic(fmt.Sprintf("mc: state %d was not expanded", i))
			}
			return true
		}
		e.stats.Transitions += o.trans
		if o.reduced {
			e.stats.Reduced++
		}
		c := workers[o.w].cands
		for k := o.lo; k < o.hi; k++ {
			if c.isNew[k] {
				e.vis.number(c, k)
				e.parent.add(uint32(i))
			}
		}
		if o.failure != nil {
			e.failure, e.failFrom = o.failure, i
			return true
		}
		if e.opts.MaxStates > 0 && e.vis.count() > e.opts.MaxStates {
			res.Status, res.Limit = Incomplete, fmt.Sprintf("the state limit (%d) was reached", e.opts.MaxStates)
			return true
		}
	}
	e.vis.dropPending()
	return false
}

// addWindow adds the candidates of a window to the visited set as
// pending states, marking the new ones (pass 2), for the states expanded
// up to the first that failed or was left unexpanded. The shards are
// split into addGroups groups (by shard index modulo addGroups); one
// goroutine per worker takes groups one at a time, so a worker that the
// machine holds up delays no one for long, and adds the candidates of
// its group's shards, in the order of the states expanded, into its own
// arena.
func addWindow(vis stateStore, workers []*explorer, outs []parentOut, chunk int) {
	cut := len(outs)
	for i := range outs {
		if !outs[i].done {
			cut = i
			break
		}
		if outs[i].failure != nil {
			cut = i + 1
			break
		}
	}
	vis.internWindow(workers, outs[:cut], chunk)
	var wg sync.WaitGroup
	var next atomic.Int32
	for j := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := int(next.Add(1)) - 1; g < addGroups; g = int(next.Add(1)) - 1 {
				addGroup(vis, workers, outs[:cut], chunk, g, j)
			}
		}()
	}
	wg.Wait()
}

// addGroups is the number of groups of shards of pass 2; it divides
// visitedShards.
const addGroups = 16

// addGroup adds the candidates of group g's shards, into arena j. The
// states of a chunk were expanded by one worker, in order, so its
// candidates are a run of that worker's, which ends where the last state
// of the chunk's ends. The candidates are listed first, so that the
// slot of each can be prefetched a few candidates before it is added.
func addGroup(vis stateStore, workers []*explorer, outs []parentOut, chunk, g, j int) {
	type ref struct {
		c *candidates
		k int32
	}
	var refs []ref
	next := make([]int, len(workers)) // per worker: its next candidate of the group
	for q := 0; q < len(outs); q += chunk {
		w := outs[q].w
		hi := outs[min(q+chunk, len(outs))-1].hi
		c := workers[w].cands
		list := c.groups[g]
		for ; next[w] < len(list) && list[next[w]] < hi; next[w]++ {
			refs = append(refs, ref{c, list[next[w]]})
		}
	}
	for i, r := range refs {
		if i+addAhead < len(refs) {
			a := refs[i+addAhead]
			vis.prefetchCandidate(a.c, a.k)
		}
		r.c.isNew[r.k] = vis.addCandidate(r.c, r.k, j)
	}
}

// addAhead is how many candidates before its turn addGroup prefetches
// a candidate's slot.
const addAhead = 8
