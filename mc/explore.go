package mc

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// Mode selects what Run checks.
type Mode int

// The modes.
const (
	// ModeSafety checks the gates, asserts, yield annotations and
	// invariants of one layer.
	ModeSafety Mode = iota
	// ModeLinearizability checks one layer against the top layer's atomic
	// actions (and the layer's safety too).
	ModeLinearizability
	// ModeRefines checks one layer against another (and its safety).
	ModeRefines
)

// Options configure Run.
type Options struct {
	Instance string
	// InstanceDecl, if set, is the instance to run instead of the one
	// named Instance: a client that RunClients synthesizes.
	InstanceDecl *lang.Instance
	Layer        int
	Mode         Mode
	// Quasi maps methods to their quasi factors (ModeLinearizability
	// only): the calls of each may be reordered by at most its factor
	// (seed 000; quasi.go).
	Quasi map[string]int
	// SpecLayer is the layer checked against in ModeRefines; in
	// ModeLinearizability it is the top layer.
	SpecLayer int
	// MaxStates bounds the states stored (0: no bound).
	MaxStates int
	// Timeout bounds the search time (0: no bound).
	Timeout time.Duration
	// MaxMemory bounds the memory the search holds, in bytes (0: no
	// bound): both its own estimate (Stats.Memory) and the Go heap's
	// live bytes, which count what the estimate leaves out.
	MaxMemory int64
	// Context, if set, stops the search when it is done (a signal): the
	// result is Incomplete, with the context's cause as its Limit.
	Context context.Context
	// Atomicity is the granularity at which the threads of layer 0
	// interleave: at yield points (the default) or at every access to a
	// global (only for layer 0; see access.go).
	Atomicity Atomicity
	// Memory is the memory model layer 0 runs under (weak.go): sc, the
	// default, or tso or pso, which imply access atomicity.
	Memory Memory
	// NoPOR, NoSymmetry and NoDeadVars switch off the reductions.
	NoPOR, NoSymmetry, NoDeadVars bool
	// Jobs is the number of workers that expand states (parallel.go);
	// below 2, one. The result is the same for every number (but for
	// the specification's counts of a search that stops: parallel.go).
	Jobs int
	// Progress, if set, is called about every ProgressEvery (default 2s).
	Progress      func(Stats)
	ProgressEvery time.Duration
	// HashCompact stores a 64-bit hash per state instead of the state
	// (compact.go): lossy, so a search that finds no violation is
	// incomplete, never a proof.
	HashCompact bool
	// NoCompress keeps the states' encodings uncompressed (the visited
	// set of state.go): about 3 times the memory of the compressed set
	// (collapse.go), about 0.7 times its CPU time.
	NoCompress bool
	// chunk and window, if set, replace parallelChunk and
	// parallelWindow (parallel.go), for tests that make a small search
	// take many windows.
	chunk, window int
	// checkHints, in tests, makes the compressed set compare the parts
	// encodeSucc says are the expanded state's, and panic if one is not
	// (storeScratch.hinted).
	checkHints bool
	// clock replaces time.Now, for tests that must not depend on the
	// wall clock.
	clock func() time.Time
	// heapLive replaces the runtime's measure of the live heap, for
	// tests that must not depend on the garbage collector's timing.
	heapLive func() int64
}

// Status is the outcome of a search.
type Status int

// The outcomes.
const (
	OK         Status = iota // every reachable state was explored, no violation
	Violation                // a violation was found
	Incomplete               // a limit stopped the search first
)

// Stats describe a search.
type Stats struct {
	States      int64
	Transitions int64
	Depth       int
	Elapsed     time.Duration
	Memory      int64 // bytes the search holds (an estimate: explorer.memory)
	SpecStates  int   // refinement: specification states met
	SpecSets    int   // refinement: normalized specification states
	Reduced     int64 // states expanded by one thread's transitions only
}

// Result is the outcome of Run.
type Result struct {
	Status  Status
	Stats   Stats
	Failure *Failure
	Trace   []TraceStep
	History []HistoryEvent // for a refinement violation: the calls and returns
	Limit   string         // why the search is incomplete
	// Vacuous says that the search is incomplete because no thread ever
	// made a call: it checked nothing (Limit says so too).
	Vacuous bool
	Notes   []string // semantic choices and reductions used
	Title   string   // what was checked
}

// CannotRun says that the search stopped where the code cannot run (a
// Failure of kind "error": an overflow, a division by zero in an
// annotation, a call stack too deep, an instance that breaks the
// contract of linear types). That is no violation of the program,
// whose integers are unbounded and whose divisions are total, but the
// model checker cannot go on: the search is incomplete and proves
// nothing.
func (r *Result) CannotRun() bool {
	return r.Status == Violation && r.Failure != nil && r.Failure.Kind == "error"
}

// Run checks a layer of prog on an instance.
func Run(prog *layers.Program, opts Options) (*Result, error) {
	inst := opts.InstanceDecl
	if inst == nil {
		inst = prog.Info.Instances[opts.Instance]
	}
	if inst == nil {
		return nil, fmt.Errorf("there is no instance named %q%s", opts.Instance, prog.Info.DescribeInstances())
	}
	switch {
	case opts.Atomicity != AtomicityYield && opts.Atomicity != AtomicityAccess:
		return nil, fmt.Errorf("unknown atomicity %v", opts.Atomicity)
	case opts.Atomicity == AtomicityAccess && opts.Layer != 0:
		return nil, fmt.Errorf("access atomicity applies to layer 0 only: the steps of layer %d are atomic actions implemented by the layers below it", opts.Layer)
	case opts.Memory != MemorySC && opts.Memory != MemoryTSO && opts.Memory != MemoryPSO:
		return nil, fmt.Errorf("unknown memory model %v", opts.Memory)
	case opts.Memory != MemorySC && opts.Layer != 0:
		return nil, fmt.Errorf("a weak memory model applies to layer 0 only: the steps of layer %d are atomic actions implemented by the layers below it", opts.Layer)
	}
	if opts.Memory != MemorySC {
		opts.Atomicity = AtomicityAccess // weak memory is about single accesses
	}
	m, err := newModel(prog, inst, opts.Layer, modelOptions{access: opts.Atomicity == AtomicityAccess, memory: opts.Memory})
	if err != nil {
		return nil, err
	}
	if m.forks && m.access {
		return nil, m.forkError("--atomicity access, or a weak memory model, is not supported with them")
	}
	e := &explorer{m: m, opts: opts, por: !opts.NoPOR, sym: !opts.NoSymmetry}
	if opts.Mode != ModeSafety {
		spec := opts.SpecLayer
		if opts.Mode == ModeLinearizability {
			spec = len(prog.Layers) - 1
		}
		if e.spec, err = newSpecSide(m, spec); err != nil {
			return nil, err
		}
	}
	if len(opts.Quasi) > 0 {
		if opts.Mode != ModeLinearizability {
			return nil, fmt.Errorf("quasi factors apply to a linearizability check only")
		}
		if err := e.spec.setQuasi(opts.Quasi); err != nil {
			return nil, err
		}
	}
	e.setup()
	return e.search(), nil
}

// ErrorPos returns the source position of an error of Run, if it has
// one: a statement that the model checker cannot run as the options
// ask (a write that weak memory cannot buffer, say).
func ErrorPos(err error) (lang.Pos, bool) {
	if e, ok := err.(evalError); ok && e.pos.Line > 0 {
		return e.pos, true
	}
	return lang.Pos{}, false
}

// explorer is a breadth-first search of a model's states (or of the
// product with a normalized specification).
type explorer struct {
	m    *model
	spec *specSide
	opts Options
	por  bool
	sym  bool
	dead bool // dead frame variables are masked (dead.go)

	vis    stateStore
	parent chunked[uint32]
	sc     storeScratch // for vis.has
	stBuf  []byte       // the encoding of the state expanded
	ru     *run
	cur    dstate
	buf    []int64
	regs   []int64 // scratch registers for checks

	succ     []byte // successors of the current thread, concatenated
	succEnds []int
	// succParts lists, per successor, where its parts end (the globals,
	// each thread's record, the specification's set: collapse.go) and
	// succSame which of them are those of the state expanded, as
	// encodeSucc knows them; the compressed set need not find them.
	succParts []int32
	succSame  []uint64
	// deferRoots says that the sequential search defers adding the
	// successors of a state to the root set (roots.go): pending holds
	// those of the state expanded before, next those of this one.
	deferRoots bool
	pending    []pendingRoot
	next       []pendingRoot
	partEnds   []int32 // encodeSucc's, of the successor it encoded last
	partSame   uint64
	segs       [][]byte
	perm       []int // the thread permutation of the last representative
	segBuf     []byte
	enc        []byte
	leaves     *leafCache // decoded parts of states (leafcache.go)

	failure  *Failure
	failFrom int     // the state whose transition failed (-1: initial)
	failInit []int64 // the initial valuation that failed
	stats    Stats
	start    time.Time
	lim      *limits
	por0     *porInfo
	futures  []fp
	called   []bool // by method index: some transition called it

	// cands, in a worker of a parallel search, receives the successors
	// instead of the visited set (parallel.go).
	cands *candidates
	// held and heldPrev, in a worker with the compressed set, hold the
	// successors of the state it expands and of the one before (held.go).
	held, heldPrev *heldSuccs
	lastProgress   time.Time
}

func (e *explorer) setup() {
	switch {
	case e.opts.HashCompact:
		e.vis = newCompacted()
	case e.opts.NoCompress:
		e.vis = newVisited()
	default:
		e.vis = newCollapsed(e.m, e.spec != nil)
	}
	e.lim = newLimits(e.opts)
	e.sc.checkHints = e.opts.checkHints
	e.called = make([]bool, len(e.m.methods))
	e.ru = newRun(e.m, e)
	e.ru.events = e.spec != nil
	e.ru.spec = e.spec
	n := 0
	for _, p := range e.m.procs {
		n = max(n, p.c.nreg)
	}
	e.regs = make([]int64, n+e.m.nglob()+64)
	e.segs = make([][]byte, len(e.m.threads))
	e.perm = make([]int, len(e.m.threads))
	if e.spec != nil {
		e.spec.restrictSymmetry()
	}
	if !e.m.symmetryUseful() {
		e.sym = false
	}
	if (e.m.forks || e.spec != nil && e.spec.m.forks) && e.sym {
		// the identities an arm's frames hold are not masked
		e.sym = false
		for _, r := range e.m.roles {
			if r.sym {
				r.sym, r.noSym = false, "a parallel call has a procedure arm, whose frames the symmetry reduction does not cover"
			}
		}
	}
	if e.spec != nil && e.spec.quasi != nil && e.sym {
		// The tails of quasi states name threads: not permuted.
		e.sym = false
		for _, r := range e.m.roles {
			if r.sym {
				r.sym, r.noSym = false, "quasi linearizability: the relaxed specification's states name threads"
			}
		}
	}
	if e.spec != nil {
		e.spec.sym = e.sym
	}
	e.dead = !e.opts.NoDeadVars && !e.m.forks && e.m.deadUseful()
	if e.por && e.m.forks {
		e.por, e.m.porOff = false, "a parallel call has a procedure arm: the arms' steps are not covered by its independence argument"
	}
	if e.por && e.m.weak() {
		e.por, e.m.porOff = false, "weak memory: flushes of store buffers are not covered by its independence argument"
	}
	if e.por {
		e.por0 = e.m.porAnalysis()
		if e.por0 == nil {
			e.por = false
		}
	}
}

// search runs the breadth-first search.
func (e *explorer) search() *Result {
	e.start = e.now()
	res := &Result{Notes: e.m.notes, Title: e.title()}
	if e.spec != nil {
		if n := e.spec.m.arbitraryNote(); n != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("in the specification (layer %d), %s", e.spec.m.layer.Num, n))
		}
	}
	res.Notes = append(res.Notes, e.reductionNotes()...)
	e.failFrom = -1
	if !e.initial() {
		return e.finish(res)
	}
	e.lastProgress = e.now()
	if e.jobs() > 1 {
		return e.searchParallel(res)
	}
	_, e.deferRoots = e.vis.(*collapsed)
	levelEnd := e.vis.count()
	for i := 0; e.more(i); i++ {
		if i == levelEnd {
			e.flushRoots()
			e.stats.Depth++
			levelEnd = e.vis.count()
		}
		if why := e.lim.stopped(); why != "" {
			e.flushRoots()
			res.Status, res.Limit = Incomplete, why
			return e.finish(res)
		}
		if i%limitEvery == 0 {
			e.flushRoots() // the counts checkLimits reads and reports
		}
		if e.checkLimits(i, res) {
			return e.finish(res)
		}
		e.release(i)
		e.expand(i)
		if e.failure != nil {
			e.flushRoots()
			break
		}
		if e.overLimit() {
			res.Status, res.Limit = Incomplete, fmt.Sprintf("the state limit (%d) was reached", e.opts.MaxStates)
			return e.finish(res)
		}
	}
	return e.finish(res)
}

// overLimit reports whether the set holds more states than the state
// limit allows (flushing the deferred successors when they might cross
// it: only the root set knows which of them are new).
func (e *explorer) overLimit() bool {
	if e.opts.MaxStates <= 0 || e.vis.count()+len(e.pending) <= e.opts.MaxStates {
		return false
	}
	e.flushRoots()
	return e.vis.count() > e.opts.MaxStates
}

// checkLimits checks the time and memory limits and reports progress,
// every limitEvery states, before state i is expanded; it reports
// whether a limit stops the search (res says so).
func (e *explorer) checkLimits(i int, res *Result) bool {
	if i%limitEvery != 0 {
		return false
	}
	if lim := e.limit(); lim != "" {
		res.Status, res.Limit = Incomplete, lim
		return true
	}
	every := e.opts.ProgressEvery
	if every == 0 {
		every = 2 * time.Second
	}
	if e.opts.Progress != nil && e.now().Sub(e.lastProgress) >= every {
		e.lastProgress = e.now()
		e.opts.Progress(e.snapshot())
	}
	return false
}

// now is the time of the search's clock.
func (e *explorer) now() time.Time {
	if e.opts.clock != nil {
		return e.opts.clock()
	}
	return time.Now()
}

func (e *explorer) snapshot() Stats {
	s := e.stats
	s.States = int64(e.vis.count())
	s.Elapsed = e.now().Sub(e.start)
	s.Memory = e.memory()
	if e.spec != nil {
		s.SpecStates, s.SpecSets = e.spec.counts()
	}
	return s
}

func (e *explorer) finish(res *Result) *Result {
	res.Stats = e.snapshot()
	if e.failure != nil {
		res.Status = Violation
		res.Failure = e.failure
		e.explain(res)
		e.placeFailure(res.Failure)
		return res
	}
	if res.Status == OK {
		e.checkCalls(res)
	}
	if _, ok := e.vis.(*compacted); ok && res.Status == OK {
		res.Status, res.Limit = Incomplete, compactLimit(res.Stats.States)
	}
	if res.Status == OK && e.m.bufferFull.Load() {
		// A write that waited for room in a full buffer is a behaviour
		// of a machine with bounded buffers only: the runs with longer
		// buffers were not explored, so the search is not complete.
		res.Status = Incomplete
		res.Limit = fmt.Sprintf("a store buffer reached %d writes: a further write waited for a flush, so runs with longer buffers were not explored", maxBuffer)
	}
	return res
}

// checkCalls turns a complete search in which no thread made a call
// into an incomplete one, since it checked nothing, and notes the
// methods of the instance that no thread ever called.
func (e *explorer) checkCalls(res *Result) {
	var never []string
	someCall := false
	for _, mt := range e.m.methods {
		if e.called[mt.idx] {
			someCall = true
		} else if e.offered(mt) {
			never = append(never, mt.name)
		}
	}
	if !someCall {
		contract := ""
		if e.spec != nil {
			contract = fmt.Sprintf(" (of layer %d, the specification: the client contract)", e.spec.m.layer.Num)
		}
		res.Status, res.Vacuous = Incomplete, true
		res.Limit = fmt.Sprintf("no thread of the instance ever makes a call: every requires%s is false for every argument the instance offers in every reachable state (or the call blocks at once), so the search checked nothing", contract)
		return
	}
	if len(never) > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("never called in any reachable state (its requires never allows the call, or the call blocks at once): %s", strings.Join(never, ", ")))
	}
}

// placeFailure gives a failure without a source position the best one
// there is: where the failing thread waits in the state it failed from,
// the declaration of its role (it was between calls), or the instance.
func (e *explorer) placeFailure(f *Failure) {
	if len(f.Pos) > 0 {
		return
	}
	pos := e.m.inst.P
	if f.Thread >= 0 && e.failFrom >= 0 {
		var s dstate
		var buf []int64
		e.m.decode(e.vis.state(e.failFrom, nil, nil), &s, &buf)
		ru := &run{m: e.m, t: f.Thread, src: &s}
		pos = ru.where()
	}
	f.Pos = []lang.Pos{pos}
}

// offered reports whether some role of the instance calls mt.
func (e *explorer) offered(mt *method) bool {
	for _, r := range e.m.roles {
		for _, cc := range r.calls {
			if cc.m == mt {
				return true
			}
		}
	}
	return false
}

// initial inserts the initial states.
func (e *explorer) initial() bool {
	rec := dthread{}
	for _, g := range e.m.inits {
		if e.m.inv != nil && !e.evalGlobals(e.m.inv, g) {
			e.failure = &Failure{Kind: "invariant", Thread: -1, Pos: e.failingInvariant(g),
				Msg: fmt.Sprintf("this invariant of layer %d does not hold in an initial state", e.m.layer.Num)}
			e.failInit = g
			return false
		}
		b := e.m.appendGlobals(e.enc[:0], g)
		for t := range e.m.threads {
			b = e.m.appendThread(b, t, &rec, 0)
		}
		if e.spec != nil {
			set, ok := e.spec.initial(g)
			if !ok {
				e.failure = &Failure{Kind: "linearizability", Thread: -1, Pos: []lang.Pos{e.spec.layerPos()},
					Msg: fmt.Sprintf("no initial state of layer %d (the specification) agrees with this initial state on the globals and constants they share", e.spec.m.layer.Num)}
				e.failInit = g
				return false
			}
			b = appendUint(b, uint64(set))
		}
		e.enc = b
		if _, isNew := e.vis.insert(b); isNew {
			e.parent.add(^uint32(0))
		}
	}
	if c, ok := e.vis.(*compacted); ok {
		c.keepInits()
	}
	return true
}

// failingInvariant returns the position of an invariant false for g.
func (e *explorer) failingInvariant(g []int64) []lang.Pos {
	for i, f := range e.m.invs {
		if !e.evalGlobals(f, g) {
			return []lang.Pos{e.m.layer.Invariants[i].Pos()}
		}
	}
	return nil
}

func (e *explorer) evalGlobals(f evalFn, g []int64) bool {
	copy(e.regs, g)
	return f(e.regs) != 0
}

// release tells a lossy visited set that the states before i are
// expanded (compact.go).
func (e *explorer) release(i int) {
	if c, ok := e.vis.(*compacted); ok {
		c.release(i)
	}
}

// expand computes the successors of state i and inserts them.
func (e *explorer) expand(i int) {
	e.stBuf = e.vis.state(i, e.stBuf, &e.sc)
	e.decodeExpanded()
	s := &e.cur
	if e.por {
		if t := e.ample(s, i); t >= 0 {
			e.endExpand()
			return
		}
	}
	for t := range s.th {
		e.gen(s, t)
		if e.failure != nil {
			e.failFrom = i
			return
		}
		e.insertAll(i)
	}
	e.endExpand()
}

// gen computes the successors of thread t into e.succ.
func (e *explorer) gen(s *dstate, t int) {
	e.succ, e.succEnds = e.succ[:0], e.succEnds[:0]
	e.succParts, e.succSame = e.succParts[:0], e.succSame[:0]
	if err := e.ru.successors(s, t); err != nil && e.failure == nil {
		e.failure = &Failure{Kind: "error", Msg: err.Error(), Thread: t, Pos: []lang.Pos{errorPos(e.ru, err)}}
	}
}

func (e *explorer) insertAll(from int) {
	if e.cands != nil {
		e.collect()
		return
	}
	if c, ok := e.vis.(*collapsed); ok {
		e.insertRoots(c, from)
		return
	}
	start := 0
	for j, end := range e.succEnds {
		e.stats.Transitions++
		e.hint(j)
		if _, isNew := e.vis.insertFrom(e.succ[start:end], &e.sc); isNew {
			e.parent.add(uint32(from))
		}
		start = end
	}
	e.sc.hinted = false
}

// hint tells the visited set (e.sc) where the parts of successor j end
// and which are those of the state expanded.
func (e *explorer) hint(j int) {
	n := len(e.succParts) / len(e.succEnds)
	e.sc.hinted = true
	e.sc.hintEnds, e.sc.hintSame = e.succParts[j*n:(j+1)*n], e.succSame[j]
}

// emit receives a successor from the run: it checks the layer's
// invariants and the annotations of the waiting threads, and encodes it.
func (e *explorer) emit(ru *run, g []int64, rec *dthread, ev event) {
	s := ru.src
	if e.failure != nil {
		return
	}
	if ev.kind&evCall != 0 {
		e.called[ev.m.idx] = true
	}
	set := s.set
	if e.spec != nil && ev.kind != evNone {
		set = e.spec.step(s, ru.t, ev)
		if set == refused {
			return // not reached: clientCalls made only calls the specification allows
		}
	}
	if f := e.checkState(ru, s, g, rec); f != nil {
		e.fail(ru, f)
		return
	}
	if set == unmatched {
		e.failLin(ru, ev)
		return
	}
	e.succ = e.encodeSucc(e.succ, s, ru.t, g, rec, set, true, true)
	e.succEnds = append(e.succEnds, len(e.succ))
	e.succParts = append(e.succParts, e.partEnds...)
	e.succSame = append(e.succSame, e.partSame)
}

// checkState checks the invariants, the waiting threads' annotations
// and the disjointness of linear values (checkLinear) in the successor
// of s with globals g, where thread ru.t has record rec. Under access atomicity neither is
// checked: both are proven at yield points for fragment-atomic runs, and
// may be false while some thread is inside a fragment.
func (e *explorer) checkState(ru *run, s *dstate, g []int64, rec *dthread) *Failure {
	if f := e.checkLinear(ru, s, g, rec); f != nil {
		return f
	}
	changed := changedMask(s.g, g)
	if e.m.moverProcs && !e.m.access {
		var skip bool
		if changed, skip = ru.fragmentChecks(rec, changed); skip {
			return nil
		}
	}
	if changed == 0 || e.m.access {
		return nil
	}
	m := e.m
	if m.inv != nil && changed&m.invReads != 0 && !e.evalGlobals(m.inv, g) {
		return &Failure{Kind: "invariant", Thread: ru.t, Pos: e.failingInvariant(g),
			Msg: fmt.Sprintf("this invariant of layer %d does not hold after a step of %s", m.layer.Num, m.threads[ru.t])}
	}
	for u := range s.th {
		th := &s.th[u]
		if u == ru.t {
			// the thread's other arms wait like other threads (fork.go)
			if f := e.armsInterference(ru, u, rec, ru.armPath, g, changed); f != nil {
				return f
			}
			continue
		}
		if th.idle() {
			continue
		}
		if f := e.armsInterference(ru, u, th, nil, g, changed); f != nil {
			return f
		}
		top := &th.frames[len(th.frames)-1]
		if !e.waitingHolds(top, g, changed) {
			return e.interference(ru, u, top)
		}
	}
	return nil
}

// waitingHolds reports whether the annotation of the yield point where
// frame top waits holds in globals g, after a step that changed the
// globals in changed.
func (e *explorer) waitingHolds(top *dframe, g []int64, changed uint64) bool {
	ann := top.p.ann[top.node]
	if ann == nil || top.p.annReads[top.node]&changed == 0 {
		return true
	}
	r := e.regs
	copy(r, g)
	n := copy(r[len(g):], top.vals)
	clear(r[len(g)+n : top.p.c.nreg])
	return e.m.annotationHolds(ann, top.p, r)
}

// armsInterference checks the annotations where the procedure arms of
// thread u's fork wait (th is its record), except arm skip.
func (e *explorer) armsInterference(ru *run, u int, th *dthread, skip []int, g []int64, changed uint64) (f *Failure) {
	armWaitingFrames(th.arms, skip, func(top *dframe) {
		if f == nil && !e.waitingHolds(top, g, changed) {
			f = e.interference(ru, u, top)
		}
	})
	return f
}

func (e *explorer) interference(ru *run, u int, top *dframe) *Failure {
	f := &Failure{Kind: "interference", Thread: ru.t}
	what := "the annotation"
	if y := top.p.yield[top.node]; y != nil {
		what = describeYield(y)
		f.Pos = []lang.Pos{y.Pos}
	}
	f.Msg = fmt.Sprintf("%s, where %s waits, is invalidated by a step of %s", what, e.m.threads[u], e.m.threads[ru.t])
	return f
}

// changedMask returns the set of slots where a and b differ (all bits if
// a slot beyond 63 differs).
func changedMask(a, b []int64) uint64 {
	var mask uint64
	for i := range a {
		if a[i] != b[i] {
			if i >= 64 {
				return ^uint64(0)
			}
			mask |= 1 << i
		}
	}
	return mask
}

// encodeSucc appends the encoding of the successor of s in which thread
// t has record rec and the globals are g: with sym, its symmetry
// representative (canonical says s itself is one).
//
// It leaves in e.partEnds where the successor's parts end (the globals,
// each thread's record, the specification's set: collapse.go) and in
// e.partSame which of them are those of s (bit j for part j): the
// globals when no global changed (their encoding is a function of their
// values), and a record copied from s, at its own place: a thread other
// than t, which symmetry's sort left where it was. The compressed
// visited set need not look for these parts (storeScratch.hinted).
func (e *explorer) encodeSucc(b []byte, s *dstate, t int, g []int64, rec *dthread, set int32, stored, canonical bool) []byte {
	m := e.m
	start := len(b)
	b = m.appendGlobals(b, g)
	ends := append(e.partEnds[:0], int32(len(b)-start))
	var same uint64
	if changedMask(s.g, g) == 0 {
		same = 1
	}
	var form storedForm
	if stored && e.dead {
		form = maskDead
	}
	if !stored || !e.sym {
		for u := range s.th {
			switch {
			case u == t:
				b = m.appendThread(b, t, rec, form)
			case form != 0 && !canonical:
				// A concrete state (when replaying): mask its records too.
				b = m.appendThread(b, u, &s.th[u], form)
			default:
				b = append(b, s.th[u].seg...)
				same |= 1 << (u + 1)
			}
			ends = append(ends, int32(len(b)-start))
		}
	} else {
		form |= maskSym
		e.segBuf = m.appendThread(e.segBuf[:0], t, rec, form)
		for u := range s.th {
			e.segs[u] = s.th[u].seg
			if !canonical && u != t {
				// A concrete state (when replaying): mask its records too.
				e.segs[u] = m.appendThread(nil, u, &s.th[u], form)
			}
		}
		e.segs[t] = e.segBuf
		b = m.appendCanonical(b, e.segs, e.perm)
		end := ends[0]
		for q, u := range e.perm {
			end += int32(len(e.segs[u]))
			ends = append(ends, end)
			if u == q && q != t && canonical {
				same |= 1 << (q + 1)
			}
		}
		if e.spec != nil {
			set = e.spec.permute(set, e.perm)
		}
	}
	if e.spec != nil {
		b = appendUint(b, uint64(set))
		ends = append(ends, int32(len(b)-start))
	}
	e.partEnds, e.partSame = ends, same
	return b
}

func (e *explorer) fail(ru *run, f *Failure) {
	if e.failure == nil {
		e.failure = f
	}
	ru.x.stop = true
}

func (e *explorer) failLin(ru *run, ev event) { e.fail(ru, e.linFailure(ru, ev)) }

// linFailure describes an event that the specification does not allow,
// at the method's declaration in both layers.
func (e *explorer) linFailure(ru *run, ev event) *Failure {
	f := &Failure{Kind: "linearizability", Thread: ru.t, Msg: e.spec.explainFailure(ru.t, ev)}
	for _, p := range []*cproc{ev.m.proc, e.spec.methods[ev.m.idx].proc} {
		f.Pos = append(f.Pos, p.sig.Name.P)
	}
	return f
}

// title says what the search checks.
func (e *explorer) title() string {
	m := e.m
	t := fmt.Sprintf("%s: instance %s, layer %d", m.prog.File.Name, m.inst.Name.Name, m.layer.Num)
	switch e.opts.Mode {
	case ModeLinearizability:
		t += fmt.Sprintf(" against the atomic actions of layer %d (linearizability)", e.spec.m.layer.Num)
		if e.spec.quasi != nil {
			t = strings.TrimSuffix(t, "(linearizability)") + "(quasi linearizability: " + e.spec.quasiTitle() + ")"
		}
	case ModeRefines:
		t += fmt.Sprintf(" against layer %d (refinement of calls and returns)", e.spec.m.layer.Num)
	}
	if m.access {
		t += ", access atomicity"
	}
	if m.weak() {
		t += ", memory model " + strings.ToUpper(m.memory.String())
	}
	return t
}

func (e *explorer) reductionNotes() []string {
	var notes []string
	if e.opts.HashCompact {
		notes = append(notes, "hash compaction: a 64-bit hash per state instead of the state (lossy: no result is complete; a violation found is real)")
	}
	if e.m.weak() {
		notes = append(notes, e.m.memoryNote())
	}
	if e.m.access {
		notes = append(notes, "access atomicity: threads interleave at every access to a global variable of layer 0; "+
			"annotations and invariants are not checked after steps (they hold for fragment-atomic runs); asserts and the requires of called actions are checked")
		if e.m.linear {
			notes = append(notes, "linearity is not checked under access atomicity (an action's moves are seen half done); explore without --atomicity access checks it")
		}
	}
	if e.por {
		notes = append(notes, "partial-order reduction: on")
	} else if !e.opts.NoPOR {
		notes = append(notes, "partial-order reduction: off ("+e.m.porOff+")")
	}
	switch {
	case e.dead:
		notes = append(notes, "dead-variable reduction: on ("+e.m.deadNote()+")")
	case e.opts.NoDeadVars || !e.m.deadUseful():
	case e.m.forks:
		notes = append(notes, "dead-variable reduction: off (a parallel call has a procedure arm, which writes its caller's frame while the caller waits)")
	}
	for _, r := range e.m.roles {
		switch {
		case r.hi == r.lo:
		case e.sym && r.sym:
			notes = append(notes, fmt.Sprintf("symmetry reduction: on for role %s (threads %d..%d)", r.name, r.lo, r.hi))
		case !e.opts.NoSymmetry && r.noSym != "":
			notes = append(notes, fmt.Sprintf("symmetry reduction: off for role %s: %s", r.name, r.noSym))
		}
	}
	return notes
}
