package mc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
)

// Quasi linearizability (seed 000, Definitions 3 and 4): the calls of a
// method M may be reordered by at most K positions among the calls of M.
// docs/explore.md ("Quasi linearizability") states the rule exactly;
// in short, a linearization π of the history (the order of the atomic
// actions' linearization points, as for plain linearizability) and a
// legal sequential history π' of the specification must have the same
// calls of other methods at the same places, and the calls of M must
// occupy the same positions ("slots") in both, each call of M at most K
// slots away from its slot in π.
//
// The relaxed specification is built on the fly: a normalized state is
// a set of quasi states, each a specification state (the state after π')
// with a tail of entries that say how π' and π differ so far:
//
//   - qDebt: thread t's call of M has its slot in π, but π' has not run
//     it yet (π' ran another call of M in that slot);
//   - qResolved: thread t's call of M took its slot in π, and π' had
//     already run it, earlier, as a promise: its outputs are fixed;
//   - qPromise: π' ran a call of M (arguments and outputs recorded) that
//     has not taken its slot in π yet — a later call must match it;
//   - qAnonDebt: a qDebt whose thread has returned (its outputs known).
//
// Every entry has an age: the slots of M since it was made. An entry
// older than K is a reordering by more than K: the state is dropped.
type quasiSide struct {
	methods []*quasiMethod
	byIdx   map[int]int // specification method index: index in methods
	qstates *visited    // base specification state id, then the tail
	live    map[uint32]bool
	// raw: emit appends successors' encodings to rawOut instead of
	// storing them (scratch executions of promises).
	raw    bool
	rawOut [][]byte
	// anon memoizes anonExec by base state, method and parameters.
	anon map[string][]anonResult
}

// quasiMethod is a method whose calls may be reordered.
type quasiMethod struct {
	name string
	k    int
	smt  *method
	// guesses are the parameter tuples a promise may have: those the
	// instance's threads offer (a promise no thread can make is never
	// matched; leaving it out only accepts less).
	guesses [][]int64
	// callers are, per guess, the threads that can make that call.
	callers [][]int
}

// Kinds of tail entries.
const (
	qDebt byte = iota
	qResolved
	qPromise
	qAnonDebt
)

// qEntry is an entry of a quasi state's tail.
type qEntry struct {
	q    int  // index in quasiSide.methods
	kind byte // qDebt, ...
	t    int  // the thread (qDebt, qResolved), else -1
	age  int
	args []int64
	outs []int64
}

// SetQuasi makes the check quasi: factors maps method names to their
// quasi factors (0: no reordering).
func (sp *specSide) setQuasi(factors map[string]int) error {
	if len(factors) == 0 {
		return nil
	}
	qs := &quasiSide{byIdx: map[int]int{}, qstates: newVisited(), live: map[uint32]bool{}, anon: map[string][]anonResult{}}
	names := make([]string, 0, len(factors))
	for n := range factors {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		qm, err := sp.quasiMethod(n, factors[n])
		if err != nil {
			return err
		}
		qs.byIdx[qm.smt.idx] = len(qs.methods)
		qs.methods = append(qs.methods, qm)
	}
	sp.quasi = qs
	return nil
}

// quasiMethod checks that method name can be reordered and collects
// the tuples a promise may guess.
func (sp *specSide) quasiMethod(name string, k int) (*quasiMethod, error) {
	smt := sp.m.method(name)
	if smt == nil {
		return nil, fmt.Errorf("--quasi %s=%d: there is no method %s at layer %d (the specification)", name, k, name, sp.m.layer.Num)
	}
	if k < 0 {
		return nil, fmt.Errorf("--quasi %s=%d: the quasi factor must be at least 0", name, k)
	}
	p := smt.proc
	switch {
	case p.action == nil:
		return nil, fmt.Errorf("--quasi %s: %s is not an atomic action at layer %d", name, name, sp.m.layer.Num)
	case len(smt.inSlots) != len(p.sig.Params) || len(smt.outSlots) != len(p.sig.Returns):
		return nil, fmt.Errorf("--quasi %s: %s has ghost parameters or outputs at layer %d, which a reordered call cannot be matched on", name, name, sp.m.layer.Num)
	case len(p.sig.Requires) > 0:
		return nil, fmt.Errorf("--quasi %s: %s has a requires at layer %d; a call run out of order would need it to hold where it runs, which is not supported", name, name, sp.m.layer.Num)
	}
	qm := &quasiMethod{name: name, k: k, smt: smt}
	seen := map[string]int{}
	for t, ti := range sp.m.threads {
		for _, cc := range ti.role.calls {
			if cc.m != smt {
				continue
			}
			for _, a := range cc.args {
				a = cc.fill(a, ti)
				key := fmt.Sprint(a)
				if _, ok := seen[key]; !ok {
					seen[key] = len(qm.guesses)
					qm.guesses = append(qm.guesses, a)
					qm.callers = append(qm.callers, nil)
				}
				i := seen[key]
				qm.callers[i] = append(qm.callers[i], t)
			}
		}
	}
	return qm, nil
}

// ---- quasi states ----

func (qs *quasiSide) intern(base uint32, tail []qEntry) uint32 {
	encs := make([][]byte, len(tail))
	for i, e := range tail {
		b := binary.AppendUvarint(nil, uint64(e.q))
		b = append(b, e.kind)
		b = binary.AppendVarint(b, int64(e.t))
		b = binary.AppendUvarint(b, uint64(e.age))
		b = appendVals(b, e.args)
		b = appendVals(b, e.outs)
		encs[i] = b
	}
	sort.Slice(encs, func(i, j int) bool { return bytes.Compare(encs[i], encs[j]) < 0 })
	b := binary.AppendUvarint(nil, uint64(base))
	b = binary.AppendUvarint(b, uint64(len(encs)))
	for _, e := range encs {
		b = append(b, e...)
	}
	id, _ := qs.qstates.insert(b)
	return uint32(id)
}

func appendVals(b []byte, vs []int64) []byte {
	b = binary.AppendUvarint(b, uint64(len(vs)))
	for _, v := range vs {
		b = binary.AppendVarint(b, v)
	}
	return b
}

func readVals(b []byte, pos *int) []int64 {
	n := int(readUint(b, pos))
	vs := make([]int64, n)
	for i := range vs {
		vs[i] = readInt(b, pos)
	}
	return vs
}

// get returns the base specification state and the tail of quasi state id.
func (qs *quasiSide) get(id uint32) (uint32, []qEntry) {
	b := qs.qstates.get(int(id))
	pos := 0
	base := uint32(readUint(b, &pos))
	n := int(readUint(b, &pos))
	tail := make([]qEntry, n)
	for i := range tail {
		e := &tail[i]
		e.q = int(readUint(b, &pos))
		e.kind = b[pos]
		pos++
		e.t = int(readInt(b, &pos))
		e.age = int(readUint(b, &pos))
		e.args = readVals(b, &pos)
		e.outs = readVals(b, &pos)
	}
	return base, tail
}

// marker returns the index of thread t's entry in tail, or -1.
func marker(tail []qEntry, t int) int {
	for i, e := range tail {
		if e.t == t {
			return i
		}
	}
	return -1
}

// without returns tail without entry i (a copy).
func without(tail []qEntry, i int) []qEntry {
	out := append([]qEntry(nil), tail[:i]...)
	return append(out, tail[i+1:]...)
}

// tick ages the entries of quasi method q by one slot; false if one is
// then older than K.
func (qs *quasiSide) tick(tail []qEntry, q int) ([]qEntry, bool) {
	out := make([]qEntry, len(tail))
	for i, e := range tail {
		if e.q == q && e.kind != qResolved {
			e.age++
			if e.age > qs.methods[q].k {
				return nil, false
			}
		}
		out[i] = e
	}
	return out, true
}

// ---- steps of the relaxed specification ----

// decodeBase decodes specification state id into a fresh dstate.
func (sp *specSide) decodeBase(id uint32) *dstate {
	s := &dstate{}
	var buf []int64
	sp.m.decode(sp.stateAt(id), s, &buf)
	return s
}

// internBase stores the specification state with globals g and the
// threads of s, thread t's record replaced by rec (if t >= 0).
func (sp *specSide) internBase(g []int64, s *dstate, t int, rec *dthread) uint32 {
	b := sp.m.appendGlobals(nil, g)
	for u := range s.th {
		if u == t {
			b = sp.m.appendThread(b, u, rec, 0)
		} else {
			b = append(b, s.th[u].seg...)
		}
	}
	return sp.addState(b)
}

// runHidden returns the states reached from base by the hidden step of
// thread u (its atomic action).
func (sp *specSide) runHidden(base uint32, u int) []uint32 {
	sp.m.decode(sp.stateAt(base), &sp.cur, &sp.buf)
	sp.out = sp.out[:0]
	sp.filter, sp.hidden = nil, true
	sp.run(u)
	return dedup(sp.out)
}

// anonResult is a run of a call of a reordered method outside any
// thread: the state after it and its outputs.
type anonResult struct {
	base uint32
	outs []int64
}

// anonExec runs the atomic action of quasi method q with parameters
// args on base, on a scratch record in place of thread 0's (an atomic
// action reads only the globals and its frame), and returns the states
// after it with the threads' records unchanged.
func (sp *specSide) anonExec(base uint32, q int, args []int64) []anonResult {
	qs := sp.quasi
	key := appendVals(binary.AppendUvarint(binary.AppendUvarint(nil, uint64(base)), uint64(q)), args)
	if r, ok := qs.anon[string(key)]; ok {
		return r
	}
	r := sp.anonRun(base, q, args)
	qs.anon[string(key)] = r
	sp.memoBytes += int64(len(key)) + goMapEntry + int64(len(r))*32
	return r
}

// anonRun computes anonExec.
func (sp *specSide) anonRun(base uint32, q int, args []int64) []anonResult {
	qs := sp.quasi
	smt := qs.methods[q].smt
	p := smt.proc
	orig := sp.decodeBase(base)
	sp.m.decode(sp.stateAt(base), &sp.cur, &sp.buf)
	vals := append([]int64(nil), p.zero...)
	copy(vals, args)
	rec := dthread{calls: sp.cur.th[0].calls, frames: []dframe{{p: p, node: p.entry, vals: vals}}}
	sp.cur.th[0] = dthread{calls: rec.calls, frames: rec.frames, seg: sp.m.appendThread(nil, 0, &rec, 0)}
	qs.raw, qs.rawOut = true, qs.rawOut[:0]
	sp.filter, sp.hidden = nil, true
	sp.run(0)
	qs.raw = false
	var out []anonResult
	for _, b := range qs.rawOut {
		s := &dstate{}
		var buf []int64
		sp.m.decode(b, s, &buf)
		top := s.th[0].frames[0]
		outs := pick(top.vals, smt.outSlots)
		out = append(out, anonResult{base: sp.internBase(s.g, orig, -1, nil), outs: outs})
	}
	return out
}

// qInitial returns the quasi states of the initial specification states.
func (sp *specSide) qInitial(ids []uint32) []uint32 {
	var out []uint32
	for _, id := range ids {
		out = append(out, sp.quasi.intern(id, nil))
	}
	return sp.qClose(out)
}

// qClose closes quasi states under the hidden steps: the linearization
// of a call (a slot when it is a call of a reordered method), and keeps
// those that can still be completed (qLive).
func (sp *specSide) qClose(ids []uint32) []uint32 {
	qs := sp.quasi
	seen := map[uint32]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	work := append([]uint32(nil), ids...)
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		base, tail := qs.get(id)
		s := sp.decodeBase(base)
		var next []uint32
		for u := range s.th {
			th := &s.th[u]
			if th.idle() || len(th.frames) == 1 && th.frames[0].node == th.frames[0].p.exit || marker(tail, u) >= 0 {
				continue
			}
			if q, ok := qs.byIdx[th.frames[0].p.method.idx]; ok {
				next = append(next, sp.qSlot(base, s, tail, u, q)...)
				continue
			}
			for _, b := range sp.runHidden(base, u) {
				next = append(next, qs.intern(b, tail))
			}
		}
		for _, n := range next {
			if !seen[n] {
				seen[n] = true
				work = append(work, n)
			}
		}
	}
	out := make([]uint32, 0, len(seen))
	for id := range seen {
		if sp.qLive(id) {
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// qSlot returns the quasi states after thread t's call of quasi method
// q takes its slot in π: π' runs, in that slot, t's call itself, or
// (t's call becoming a debt or matching a promise) a debt or a new
// promise.
func (sp *specSide) qSlot(base uint32, s *dstate, tail []qEntry, t, q int) []uint32 {
	qs := sp.quasi
	qm := qs.methods[q]
	args := pick(s.th[t].frames[0].vals, qm.smt.inSlots)
	var out []uint32
	push := func(b uint32, tl []qEntry) {
		if tl, ok := qs.tick(tl, q); ok {
			out = append(out, qs.intern(b, tl))
		}
	}
	for _, b := range sp.runHidden(base, t) {
		push(b, tail)
	}
	disps := [][]qEntry{append(append([]qEntry(nil), tail...), qEntry{q: q, kind: qDebt, t: t, args: args})}
	for i, e := range tail {
		if e.q == q && e.kind == qPromise && equal(e.args, args) {
			disps = append(disps, append(without(tail, i), qEntry{q: q, kind: qResolved, t: t, args: args, outs: e.outs}))
		}
	}
	for _, d := range disps {
		sp.runDebts(base, d, q, t, push)
		for _, a := range qm.guesses {
			for _, r := range sp.anonExec(base, q, a) {
				push(r.base, append(append([]qEntry(nil), d...), qEntry{q: q, kind: qPromise, t: -1, args: a, outs: r.outs}))
			}
		}
	}
	return out
}

// qCompute is compute for a quasi check.
func (sp *specSide) qCompute(set int32, t int, ev event, real bool) int32 {
	ids := sp.members(set)
	smt := sp.methods[ev.m.idx]
	if ev.kind&evCall != 0 {
		ids = sp.qCall(ids, t, smt, ev.args, real)
		if ids == nil {
			return refused
		}
		if ev.kind&evReturn != 0 {
			ids = sp.qClose(ids)
		}
	}
	if ev.kind&evReturn != 0 {
		ids = sp.qReturn(ids, t, smt, ev.outs)
	}
	ids = sp.qClose(ids) // drops the states that cannot be completed
	if len(ids) == 0 {
		return unmatched
	}
	return sp.internSet(ids)
}

// qCall is callAllowed for quasi states: the tail does not change.
func (sp *specSide) qCall(ids []uint32, t int, smt *method, args []int64, real bool) []uint32 {
	keep := func(e event) bool { return e.kind == evCall && e.m == smt && equal(e.args, args) }
	var next []uint32
	for _, id := range ids {
		base, tail := sp.quasi.get(id)
		bs := sp.apply([]uint32{base}, t, keep)
		if len(bs) == 0 && !real {
			return nil
		}
		for _, b := range bs {
			next = append(next, sp.quasi.intern(b, tail))
		}
	}
	if len(next) == 0 {
		return nil
	}
	return dedup(next)
}

// qReturn returns the quasi states after thread t returns outs from smt.
// A thread whose call π' has not run yet returns anyway: its debt keeps
// the outputs π' must give it.
func (sp *specSide) qReturn(ids []uint32, t int, smt *method, outs []int64) []uint32 {
	qs := sp.quasi
	keep := func(e event) bool { return e.kind == evReturn && e.m == smt && equal(e.outs, outs) }
	var next []uint32
	for _, id := range ids {
		base, tail := qs.get(id)
		i := marker(tail, t)
		if i < 0 {
			for _, b := range sp.apply([]uint32{base}, t, keep) {
				next = append(next, qs.intern(b, tail))
			}
			continue
		}
		e := tail[i]
		if e.kind == qResolved && !equal(e.outs, outs) {
			continue
		}
		rest := without(tail, i)
		if e.kind == qDebt {
			rest = append(rest, qEntry{q: e.q, kind: qAnonDebt, t: -1, age: e.age, args: e.args, outs: outs})
		}
		next = append(next, qs.intern(sp.idle(base, t), rest))
	}
	return dedup(next)
}

// idle returns base with thread t returned from its call.
func (sp *specSide) idle(base uint32, t int) uint32 {
	s := sp.decodeBase(base)
	rec := dthread{calls: s.th[t].calls}
	if sp.m.threads[t].role.max > 0 {
		rec.calls++
	}
	return sp.internBase(s.g, s, t, &rec)
}

// qLive reports whether quasi state id can be completed by later calls
// of the reordered methods: whether there are slots such that π' runs
// every debt within K slots of its slot in π, giving the outputs its
// thread returned, while each later call takes the slot of the oldest
// promise. In such a slot π' runs a debt or a new promise (a call still
// later takes its slot). The search invents no call of another method
// in between: a state it rejects might still be completed by such
// calls, so it may reject more than necessary, never less
// (docs/explore.md).
func (sp *specSide) qLive(id uint32) bool {
	qs := sp.quasi
	if v, ok := qs.live[id]; ok {
		return v
	}
	seen := map[uint32]bool{id: true}
	work := []uint32{id}
	live := false
	for len(work) > 0 && !live {
		n := work[0]
		work = work[1:]
		base, tail := qs.get(n)
		q := firstDebtor(tail)
		if q < 0 || qs.live[n] {
			live = true
			break
		}
		for _, m := range sp.laterSlot(base, tail, q) {
			if !seen[m] {
				seen[m] = true
				work = append(work, m)
			}
		}
	}
	qs.live[id] = live
	return live
}

// firstDebtor returns the first quasi method with a debt in tail, or -1.
func firstDebtor(tail []qEntry) int {
	q := -1
	for _, e := range tail {
		if (e.kind == qDebt || e.kind == qAnonDebt) && (q < 0 || e.q < q) {
			q = e.q
		}
	}
	return q
}

// runDebts pushes, for each debt of quasi method q in d but thread
// skip's, the states after π' runs it in the slot, with the debt
// removed from d.
func (sp *specSide) runDebts(base uint32, d []qEntry, q, skip int, push func(uint32, []qEntry)) {
	for i, e := range d {
		switch {
		case e.q != q:
		case e.kind == qDebt && e.t != skip:
			for _, b := range sp.runHidden(base, e.t) {
				push(b, without(d, i))
			}
		case e.kind == qAnonDebt:
			for _, r := range sp.anonExec(base, q, e.args) {
				if equal(r.outs, e.outs) {
					push(r.base, without(d, i))
				}
			}
		}
	}
}

// laterSlot returns the quasi states after a later call of quasi method
// q takes the slot of the oldest promise, π' running a debt or a new
// promise in it.
func (sp *specSide) laterSlot(base uint32, tail []qEntry, q int) []uint32 {
	qs := sp.quasi
	if !sp.canCall(base, tail, q) {
		return nil
	}
	d := consumeOldest(tail, q)
	var out []uint32
	push := func(b uint32, tl []qEntry) {
		if tl, ok := qs.tick(tl, q); ok {
			out = append(out, qs.intern(b, tl))
		}
	}
	sp.runDebts(base, d, q, -1, push)
	for _, a := range qs.methods[q].guesses {
		for _, r := range sp.anonExec(base, q, a) {
			push(r.base, append(append([]qEntry(nil), d...), qEntry{q: q, kind: qPromise, t: -1, args: a, outs: r.outs}))
		}
	}
	return out
}

// quasiFactor returns the quasi factor of method name, or -1.
func (sp *specSide) quasiFactor(name string) int {
	if sp.quasi == nil {
		return -1
	}
	for _, qm := range sp.quasi.methods {
		if qm.name == name {
			return qm.k
		}
	}
	return -1
}

// quasiTitle describes the quasi factors, for the title.
func (sp *specSide) quasiTitle() string {
	var parts []string
	for _, qm := range sp.quasi.methods {
		parts = append(parts, fmt.Sprintf("%s=%d", qm.name, qm.k))
	}
	return strings.Join(parts, ", ")
}

// canCall reports whether a later call can match the oldest promise of
// quasi method q: some thread that makes such calls is not in the
// middle of a call that has not taken effect (it would have to return
// first, and its call to take a slot before the promise's).
func (sp *specSide) canCall(base uint32, tail []qEntry, q int) bool {
	qm := sp.quasi.methods[q]
	best := oldestPromise(tail, q)
	if best < 0 {
		return true
	}
	s := sp.decodeBase(base)
	for i, a := range qm.guesses {
		if !equal(a, tail[best].args) {
			continue
		}
		for _, u := range qm.callers[i] {
			th := &s.th[u]
			if th.idle() || th.frames[0].node == th.frames[0].p.exit || marker(tail, u) >= 0 {
				return true
			}
		}
	}
	return false
}

// oldestPromise returns the index in tail of the oldest promise of quasi
// method q, or -1.
func oldestPromise(tail []qEntry, q int) int {
	best := -1
	for i, e := range tail {
		if e.q == q && e.kind == qPromise && (best < 0 || e.age > tail[best].age) {
			best = i
		}
	}
	return best
}

// consumeOldest removes the oldest promise of quasi method q from tail:
// the call that takes the next slot matches it.
func consumeOldest(tail []qEntry, q int) []qEntry {
	best := oldestPromise(tail, q)
	if best < 0 {
		return tail
	}
	return without(tail, best)
}

// quasiDistance says, for a history that the quasi factors do not
// explain, how far out of order the failing call of a reordered method
// is: the least factor of its method that explains the history, found
// by checking the history again with larger factors, up to the number
// of calls in the history (later calls may take the places of values
// the history skips, so calls of other methods count too) and at most
// maxQuasiTry above the factor given.
func (e *explorer) quasiDistance(g0 []int64, evs []specEvent) string {
	last := evs[len(evs)-1]
	name := last.ev.m.name
	k := e.spec.quasiFactor(name)
	if k < 0 {
		return ""
	}
	n := 0
	for _, se := range evs {
		if se.ev.kind&evCall != 0 {
			n++
		}
	}
	n = min(n, k+maxQuasiTry)
	factors := map[string]int{}
	for _, qm := range e.spec.quasi.methods {
		factors[qm.name] = qm.k
	}
	for k2 := k + 1; k2 <= n; k2++ {
		factors[name] = k2
		if e.explains(g0, evs, factors) {
			return fmt.Sprintf(": this call of %s is out of order by more than %d; the least quasi factor that explains the history is %s=%d", name, k, name, k2)
		}
	}
	return fmt.Sprintf(": no reordering of the calls of %s by up to %d positions explains the history either", name, n)
}

// maxQuasiTry bounds the factors quasiDistance tries.
const maxQuasiTry = 6

// explains reports whether the history evs, from initial globals g0, is
// explained with the given quasi factors.
func (e *explorer) explains(g0 []int64, evs []specEvent, factors map[string]int) bool {
	sp, err := newSpecSide(e.m, e.spec.m.layer.Num)
	if err != nil || sp.setQuasi(factors) != nil {
		return false
	}
	set, ok := sp.initial(g0)
	for _, se := range evs {
		if !ok {
			return false
		}
		set = sp.compute(set, se.t, se.ev, se.real)
		ok = set >= 0
	}
	return ok
}
