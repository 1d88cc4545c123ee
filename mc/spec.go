package mc

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lipton-dev/lipton/lang"
)

// specSide is the specification of a refinement check, normalized on the
// fly (seed 001, Definition 4): a normalized state is a set of states of
// the specification layer that the same history of calls and returns can
// reach, closed under the specification's hidden steps (everything but
// calls and returns: at the top layer, the atomic actions — the
// linearization points). Sets are interned; the transition of a set on an
// event is deterministic and memoized.
type specSide struct {
	// specTables are shared by every worker of a parallel search; the
	// rest of the side below is either set up before the search and
	// never changed (impl, m, methods, shared, sym, quasi) or the
	// scratch space of one worker (fork gives each worker its own).
	*specTables
	// recent and recentPerm answer step and permute for keys asked
	// lately without a lock (memoCache).
	recent, recentPerm memoCache
	impl               *model
	m                  *model
	// methods maps the implementation's methods to the specification's.
	methods []*method
	// shared pairs the global slots the two layers share (impl, spec).
	shared [][2]int

	// The scratch space of one worker.
	ru      *run
	cur     dstate
	buf     []int64
	out     []uint32 // successors collected by emit
	enc     []byte
	filter  func(ev event) bool // which events emit keeps
	hidden  bool                // emit keeps hidden steps only
	permDec dstate
	permBuf []int64

	// sym: the product uses symmetry reduction, so specification states
	// are stored masked and normalized states are permuted with the
	// implementation's threads.
	sym bool

	// quasi, if set, relaxes the specification (quasi.go). A quasi
	// linearizability check runs on one worker (explorer.jobs), so the
	// relaxed side's tables are not shared.
	quasi *quasiSide
}

// specTables are the tables of a specification side that its workers
// share: the specification states met, the normalized states (sets of
// them), and the memos of step and permute. A worker computes a memo's
// missing answer outside every lock, with its own scratch space, and
// takes a lock only to add a state, a set or an answer, or to look an
// answer up in a memo, so the workers of a parallel search compute
// answers at once. Two workers may compute the
// same answer at once; both then intern the same states and the same
// set, whose numbers the tables give, so they agree, and the states met
// are those of one worker.
type specTables struct {
	// tabMu guards adding to states and sets. Reading them takes no
	// lock: their entries never change once added, and neither their
	// bytes (visited's chunks) nor their references (refArray) move, so
	// a worker that learnt a number from the worker that added it (from
	// the memo, a normalized state, or a state of the product, all
	// published after the add) reads the entry as it was added.
	tabMu  sync.Mutex
	states *visited
	sets   *visited
	// recentStates answers addState for states added lately without
	// the lock: a normalized state's closure and the steps from its
	// members meet the same states again and again.
	recentStates memoCache
	// mu guards the memos and memoBytes.
	mu       sync.Mutex
	memo     map[string]int32
	permMemo map[string]int32
	// memoBytes estimates the bytes memo and permMemo hold (memory()).
	memoBytes int64
}

// stateAt returns the bytes of specification state id.
func (tb *specTables) stateAt(id uint32) []byte { return tb.states.get(int(id)) }

// addState interns specification state b and returns its number.
func (tb *specTables) addState(b []byte) uint32 {
	if id, ok := tb.recentStates.get(b); ok {
		return uint32(id)
	}
	tb.tabMu.Lock()
	id, _ := tb.states.insert(b)
	tb.tabMu.Unlock()
	tb.recentStates.put(b, int32(uint32(id)))
	return uint32(id)
}

// setAt returns the encoding of normalized state set.
func (tb *specTables) setAt(set int32) []byte { return tb.sets.get(int(set)) }

// addSet interns the encoding of a normalized state and returns its
// number.
func (tb *specTables) addSet(b []byte) int {
	tb.tabMu.Lock()
	defer tb.tabMu.Unlock()
	n, _ := tb.sets.insert(b)
	return n
}

// counts returns the numbers of specification states and of normalized
// states.
func (tb *specTables) counts() (states, sets int) {
	tb.tabMu.Lock()
	defer tb.tabMu.Unlock()
	return tb.states.count(), tb.sets.count()
}

// lookup returns memo's answer for key k, if any.
func (tb *specTables) lookup(memo map[string]int32, k []byte) (int32, bool) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	r, ok := memo[string(k)]
	return r, ok
}

// remember records r as memo's answer for key k, unless another worker
// recorded one meanwhile, and returns the answer recorded. Both answers
// are the same normalized state (specTables), so either may be kept.
func (tb *specTables) remember(memo map[string]int32, k []byte, r int32) int32 {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if prev, ok := memo[string(k)]; ok {
		return prev
	}
	memo[string(k)] = r
	tb.memoBytes += int64(len(k)) + goMapEntry
	return r
}

// fork returns a side for one more worker of a parallel search: it
// shares the tables and the setup, and has its own scratch space and
// run (with its own registers).
func (sp *specSide) fork() *specSide {
	w := &specSide{specTables: sp.specTables, recent: sp.recent, recentPerm: sp.recentPerm,
		impl: sp.impl, m: sp.m, methods: sp.methods, shared: sp.shared, sym: sp.sym, quasi: sp.quasi}
	w.ru = newRun(sp.m, w)
	w.ru.events = true
	w.ru.regs = make([][]int64, len(sp.m.procs))
	for _, p := range sp.m.procs {
		w.ru.regs[p.idx] = make([]int64, len(p.regs))
	}
	return w
}

// newSpecSide compiles layer num as the specification of impl.
func newSpecSide(impl *model, num int) (*specSide, error) {
	if num == impl.layer.Num {
		return nil, fmt.Errorf("a layer cannot be checked against itself")
	}
	sm, err := newModel(impl.prog, impl.inst, num, modelOptions{spec: true, maps: impl.maps})
	if err != nil {
		return nil, fmt.Errorf("layer %d as a specification: %v", num, err)
	}
	tables := &specTables{states: newVisited(), sets: newVisited(), recentStates: newMemoCache(),
		memo: map[string]int32{}, permMemo: map[string]int32{}}
	sp := &specSide{specTables: tables, impl: impl, m: sm, recent: newMemoCache(), recentPerm: newMemoCache()}
	sp.ru = newRun(sm, sp)
	sp.ru.events = true
	for _, mt := range impl.methods {
		smt := sm.method(mt.name)
		if smt == nil {
			return nil, fmt.Errorf("method %s does not exist at layer %d", mt.name, num)
		}
		if len(smt.inSlots) != len(mt.inSlots) || len(smt.outSlots) != len(mt.outSlots) {
			return nil, fmt.Errorf("method %s has different parameters or outputs at layers %d and %d", mt.name, impl.layer.Num, num)
		}
		sp.methods = append(sp.methods, smt)
	}
	for i, g := range impl.globals {
		for j, h := range sm.globals {
			if g == h {
				sp.shared = append(sp.shared, [2]int{i, j})
			}
		}
	}
	sp.compileRealGates()
	return sp, nil
}

// initial returns the normalized initial state that matches the
// implementation's initial globals g on the shared globals and
// constants.
func (sp *specSide) initial(g []int64) (int32, bool) {
	var ids []uint32
	rec := dthread{}
	for _, h := range sp.m.inits {
		match := true
		for _, p := range sp.shared {
			match = match && g[p[0]] == h[p[1]]
		}
		if !match {
			continue
		}
		b := sp.m.appendGlobals(sp.enc[:0], h)
		for t := range sp.m.threads {
			b = sp.m.appendThread(b, t, &rec, 0)
		}
		sp.enc = b
		ids = append(ids, sp.addState(b))
	}
	if len(ids) == 0 {
		return 0, false
	}
	if sp.quasi != nil {
		return sp.internSet(sp.qInitial(sp.close(ids))), true
	}
	return sp.internSet(sp.close(ids)), true
}

// Outcomes of step besides a normalized state (which is >= 0).
const (
	// unmatched: no specification state allows the event (a return, or
	// the return of an atomic call): a violation.
	unmatched int32 = -1
	// refused: the specification's requires does not allow the call in
	// the states the history can reach (contract.go says which), so a
	// client does not make it (the gate of the specification's action is
	// the client's obligation).
	refused int32 = -2
)

// step returns the normalized state reached from s's normalized state by
// thread t's event, or unmatched, or refused. How a call filters the
// set depends on the rule of the client contract that applies in s
// (contract.go), which is part of the memo's key; the implementation's
// state enters otherwise only through the client's decision to call,
// taken before step.
func (sp *specSide) step(s *dstate, t int, ev event) int32 {
	set := s.set
	real := ev.kind&evCall != 0 && sp.real(s, t, ev.m)
	var buf [64]byte
	k := binary.AppendUvarint(buf[:0], uint64(set))
	k = binary.AppendUvarint(k, uint64(t))
	k = append(k, byte(ev.kind), b2byte(real))
	k = binary.AppendUvarint(k, uint64(ev.m.idx))
	for _, v := range ev.args {
		k = binary.AppendVarint(k, v)
	}
	for _, v := range ev.outs {
		k = binary.AppendVarint(k, v)
	}
	if r, ok := sp.recent.get(k); ok {
		return r
	}
	r, ok := sp.lookup(sp.memo, k)
	if !ok {
		r = sp.remember(sp.memo, k, sp.compute(set, t, ev, real))
	}
	sp.recent.put(k, r)
	return r
}

func (sp *specSide) compute(set int32, t int, ev event, real bool) int32 {
	if sp.quasi != nil {
		return sp.qCompute(set, t, ev, real)
	}
	ids := sp.members(set)
	smt := sp.methods[ev.m.idx]
	if ev.kind&evCall != 0 {
		ids = sp.callAllowed(ids, t, smt, ev.args, real)
		if ids == nil {
			return refused
		}
		if ev.kind&evReturn != 0 {
			ids = sp.close(ids)
		}
	}
	if ev.kind&evReturn != 0 {
		ids = sp.apply(ids, t, func(e event) bool {
			return e.kind == evReturn && e.m == smt && equal(e.outs, ev.outs)
		})
	}
	if len(ids) == 0 {
		return unmatched
	}
	return sp.internSet(sp.close(ids))
}

func b2byte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// apply returns the states reached from ids by a step of thread t whose
// event satisfies keep.
func (sp *specSide) apply(ids []uint32, t int, keep func(event) bool) []uint32 {
	sp.out = sp.out[:0]
	sp.filter, sp.hidden = keep, false
	for _, id := range ids {
		sp.m.decode(sp.stateAt(id), &sp.cur, &sp.buf)
		sp.run(t)
	}
	return dedup(sp.out)
}

// close returns the closure of ids under hidden steps, sorted.
func (sp *specSide) close(ids []uint32) []uint32 {
	seen := map[uint32]bool{}
	work := append([]uint32(nil), ids...)
	for _, id := range ids {
		seen[id] = true
	}
	sp.filter, sp.hidden = nil, true
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		sp.m.decode(sp.stateAt(id), &sp.cur, &sp.buf)
		sp.out = sp.out[:0]
		for t := range sp.cur.th {
			th := &sp.cur.th[t]
			if th.idle() || len(th.frames) == 1 && th.frames[0].node == th.frames[0].p.exit {
				continue // calls and returns are visible
			}
			sp.run(t)
		}
		for _, n := range sp.out {
			if !seen[n] {
				seen[n] = true
				work = append(work, n)
			}
		}
	}
	out := make([]uint32, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func (sp *specSide) run(t int) {
	if err := sp.ru.successors(&sp.cur, t); err != nil {
		panic(evalError{msg: fmt.Sprintf("in the specification (layer %d): %v", sp.m.layer.Num, err), pos: errorPos(sp.ru, err)})
	}
}

func dedup(ids []uint32) []uint32 {
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := ids[:0]
	for i, id := range ids {
		if i == 0 || id != ids[i-1] {
			out = append(out, id)
		}
	}
	return append([]uint32(nil), out...)
}

// form is how specification states are stored: masked under symmetry.
// Their frames keep every value (dead variables are not masked on this
// side).
func (sp *specSide) form() storedForm {
	if sp.sym {
		return maskSym
	}
	return 0
}

// emit collects a successor of a specification state.
func (sp *specSide) emit(ru *run, g []int64, rec *dthread, ev event) {
	if sp.hidden && ev.kind != evNone || !sp.hidden && !sp.filter(ev) {
		return
	}
	b := sp.m.appendGlobals(sp.enc[:0], g)
	for u := range ru.src.th {
		if u == ru.t {
			b = sp.m.appendThread(b, u, rec, sp.form())
		} else {
			b = append(b, ru.src.th[u].seg...)
		}
	}
	sp.enc = b
	if sp.quasi != nil && sp.quasi.raw {
		sp.quasi.rawOut = append(sp.quasi.rawOut, append([]byte(nil), b...))
		return
	}
	sp.out = append(sp.out, sp.addState(b))
}

// fail is never called: the specification assumes its asserts and does
// not check annotations.
func (sp *specSide) fail(ru *run, f *Failure) {}

func (sp *specSide) internSet(ids []uint32) int32 {
	b := sp.enc[:0]
	prev := uint32(0)
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(id-prev))
		prev = id
	}
	sp.enc = b
	n := sp.addSet(b)
	if n > 1<<31-1 {
		panic("mc: too many normalized specification states")
	}
	return int32(n)
}

func (sp *specSide) members(set int32) []uint32 {
	b := sp.setAt(set)
	var out []uint32
	prev := uint32(0)
	for pos := 0; pos < len(b); {
		d, n := binary.Uvarint(b[pos:])
		pos += n
		prev += uint32(d)
		out = append(out, prev)
	}
	return out
}

// explainFailure says why a return has no match in the specification.
func (sp *specSide) explainFailure(t int, ev event) string {
	th := sp.impl.threads[t].String()
	var b strings.Builder
	fmt.Fprintf(&b, "%s returns from %s", th, ev.m.name)
	if outs := sp.impl.showOuts(ev.m, ev.outs); outs != "" {
		fmt.Fprintf(&b, " with %s", outs)
	}
	if sp.quasi != nil {
		fmt.Fprintf(&b, ", but no linearization of the history by the atomic actions of layer %d, with the calls of each method reordered by at most its quasi factor (%s), explains it", sp.m.layer.Num, sp.quasiTitle())
		return b.String()
	}
	fmt.Fprintf(&b, ", but no linearization of the history by the atomic actions of layer %d explains it", sp.m.layer.Num)
	b.WriteString(sp.domainCaveat(ev))
	return b.String()
}

// domainCaveat warns when the verdict may come from the integer domain:
// the specification's action chooses its outputs by havoc or reads a
// quantifier, which the model checker enumerates over the instance's
// ints only, and the implementation returned an integer outside them,
// which the action may then be unable to produce although it allows it.
func (sp *specSide) domainCaveat(ev event) string {
	spec := sp.methods[ev.m.idx].proc
	if spec.action == nil || !choosesFromDomain(spec.action.Body.Stmts) {
		return ""
	}
	d := sp.m.dom
	for i, r := range ev.m.proc.sig.Returns {
		if r.Name.Obj.Type == lang.Int && i < len(ev.outs) && (ev.outs[i] < d.lo || ev.outs[i] > d.hi) {
			return fmt.Sprintf(" (but %s at layer %d chooses by havoc or a quantifier, which the model checker tries over the ints domain %s only, and %s = %d is outside it: widen the instance's ints to decide)",
				spec.sig.Name.Name, sp.m.layer.Num, d, r.Name.Name, ev.outs[i])
		}
	}
	return ""
}

// choosesFromDomain reports whether stmts havoc a variable or contain a
// quantifier.
func choosesFromDomain(stmts []lang.Stmt) bool {
	found := false
	lang.Inspect(stmts, func(st lang.Stmt) bool {
		if _, ok := st.(*lang.HavocStmt); ok {
			found = true
		}
		for _, e := range lang.StmtExprs(st) {
			lang.InspectExpr(e, func(e lang.Expr) bool {
				if _, ok := e.(*lang.QuantExpr); ok {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// layerPos is the position of the specification layer's declaration.
func (sp *specSide) layerPos() lang.Pos {
	for _, l := range sp.m.prog.File.Layers {
		if l.Num == sp.m.layer.Num {
			return l.P
		}
	}
	return lang.Pos{}
}

// restrictSymmetry switches symmetry reduction off for the roles of the
// implementation whose threads the specification can tell apart.
func (sp *specSide) restrictSymmetry() {
	for i, r := range sp.impl.roles {
		if sr := sp.m.roles[i]; r.sym && !sr.sym {
			r.sym = false
			r.noSym = fmt.Sprintf("at layer %d (the specification) %s", sp.m.layer.Num, sr.noSym)
		}
	}
	sp.restrictRealGates()
}

// permute returns the normalized state whose members are those of set
// with their threads reordered: thread i of each member becomes the
// record of thread perm[i].
func (sp *specSide) permute(set int32, perm []int) int32 {
	identity := true
	for i, p := range perm {
		identity = identity && i == p
	}
	if identity {
		return set
	}
	var buf [32]byte
	k := binary.AppendUvarint(buf[:0], uint64(set))
	for _, p := range perm {
		k = binary.AppendUvarint(k, uint64(p))
	}
	if r, ok := sp.recentPerm.get(k); ok {
		return r
	}
	r, ok := sp.lookup(sp.permMemo, k)
	if !ok {
		r = sp.remember(sp.permMemo, k, sp.computePermute(set, perm))
	}
	sp.recentPerm.put(k, r)
	return r
}

// computePermute computes permute's answer.
func (sp *specSide) computePermute(set int32, perm []int) int32 {
	var ids []uint32
	for _, id := range sp.members(set) {
		sp.m.decode(sp.stateAt(id), &sp.permDec, &sp.permBuf)
		b := sp.m.appendGlobals(sp.enc[:0], sp.permDec.g)
		for _, p := range perm {
			b = append(b, sp.permDec.th[p].seg...)
		}
		sp.enc = b
		ids = append(ids, sp.addState(b))
	}
	return sp.internSet(dedup(ids))
}

// memoCache holds recent answers of a memo (step's, permute's), by a
// hash of the key, one per slot, for reading without a lock:
// the workers of a parallel search ask on every call and return (and
// every successor, with symmetry reduction), and one lock for each made
// them wait for each other. An entry is immutable once published, and
// a memo's answer for a key never changes.
type memoCache struct {
	slots []atomic.Pointer[memoEntry]
}

type memoEntry struct {
	key string
	r   int32
}

// memoCacheSize is the number of slots of a memoCache (a power of two).
const memoCacheSize = 1 << 14

func newMemoCache() memoCache {
	return memoCache{slots: make([]atomic.Pointer[memoEntry], memoCacheSize)}
}

func (c *memoCache) get(k []byte) (int32, bool) {
	if e := c.slots[hashBytes(k)&(memoCacheSize-1)].Load(); e != nil && e.key == string(k) {
		return e.r, true
	}
	return 0, false
}

func (c *memoCache) put(k []byte, r int32) {
	c.slots[hashBytes(k)&(memoCacheSize-1)].Store(&memoEntry{string(k), r})
}
