package mc

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// TraceStep is one transition of a trace, described for people.
type TraceStep struct {
	Thread  string   // "thief(1)"
	Method  string   // the method the thread executes
	Event   string   // "calls put(task = 1)", "returns task = 1", or ""
	Lines   []string // the statements executed: "line 21: t := T"
	Changes []string // values that changed: "T: 0 -> 1"
	Where   string   // where the thread is afterwards
	// Buffer lists the thread's buffered writes after the step, oldest
	// first, under weak memory when it had or has any ("" otherwise).
	Buffer string
}

// HistoryEvent is a call or a return of a method in a history.
type HistoryEvent struct {
	Thread string
	Call   bool
	Method string
	Values string // the arguments of a call, the outputs of a return
}

// explain rebuilds a shortest trace to the failure by replaying the
// search path on concrete states (the stored states may be symmetry
// representatives), and records the history of calls and returns.
func (e *explorer) explain(res *Result) {
	var path []int
	for i := e.failFrom; i >= 0; {
		path = append(path, i)
		p := e.parent.at(i)
		if p == ^uint32(0) {
			break
		}
		i = int(p)
	}
	if e.failFrom < 0 {
		e.explainInitial(res)
		return
	}
	rp := &replay{e: e}
	rp.ru = newRun(e.m, rp)
	rp.ru.tracing, rp.ru.events = true, true
	rp.ru.spec = e.spec
	c, compact := e.vis.(*compacted)
	if compact {
		// Only the hashes of the states on the path are stored.
		e.m.decode(c.inits[c.root.keys.at(path[len(path)-1])], &rp.cur, &rp.buf)
	} else {
		e.m.decode(e.vis.state(path[len(path)-1], nil, nil), &rp.cur, &rp.buf)
	}
	g0 := append([]int64(nil), rp.cur.g...)
	rp.history = e.initialHistory()
	for k := len(path) - 2; k >= 0; k-- {
		var ok bool
		if compact {
			ok = rp.advanceHash(c.root.keys.at(path[k]))
		} else {
			ok = rp.advance(e.vis.state(path[k], nil, nil))
		}
		if !ok {
			res.Trace = append(rp.steps, TraceStep{Thread: "?", Event: "(the trace could not be replayed: this is a bug in lipton)"})
			return
		}
	}
	rp.final()
	res.Trace, res.History = rp.steps, rp.history
	if rp.failure != nil {
		res.Failure = rp.failure
	}
	if e.spec != nil && e.spec.quasi != nil && res.Failure.Kind == "linearizability" && len(rp.events) > 0 {
		res.Failure.Msg += e.quasiDistance(g0, rp.events)
	}
}

func (e *explorer) explainInitial(res *Result) {
	var parts []string
	for i, v := range e.failInit {
		parts = append(parts, fmt.Sprintf("%s = %s", e.m.globals[i].Name, e.m.showValue(v, e.m.globals[i].Type)))
	}
	res.Trace = []TraceStep{{Thread: "-", Event: "initial state", Changes: parts}}
}

func (e *explorer) initialHistory() []HistoryEvent { return nil }

// replay follows a path of stored states on concrete states.
type replay struct {
	e      *explorer
	ru     *run
	cur    dstate
	buf    []int64
	next   []byte // the concrete successor found
	target []byte // the stored state to reach; nil when looking for the failure
	// byHash says that target is a hash: the hash of the state to reach
	// (hash compaction).
	byHash     bool
	targetHash uint64
	found      bool
	steps      []TraceStep
	history    []HistoryEvent
	failure    *Failure
	scratch    []byte
	alt        []byte // isTargetReordered's candidates
	// events are the visible events of the history with the rule of the
	// client contract each call followed, for quasiDistance.
	events []specEvent
}

// specEvent is a visible event of a history as the specification sees it.
type specEvent struct {
	t    int
	ev   event
	real bool
}

// advanceHash moves to a concrete successor whose stored form has hash
// h (hash compaction: the stored form itself is not kept).
func (rp *replay) advanceHash(h uint64) bool {
	rp.byHash, rp.targetHash = true, h
	return rp.advance([]byte{})
}

// advance moves to a concrete successor whose stored form is target.
func (rp *replay) advance(target []byte) bool {
	rp.target, rp.found = target, false
	for t := range rp.cur.th {
		_ = rp.ru.successors(&rp.cur, t)
		if rp.found {
			var cur dstate
			var buf []int64
			rp.e.m.decode(append([]byte(nil), rp.next...), &cur, &buf)
			rp.cur, rp.buf = cur, buf
			return true
		}
	}
	return false
}

// final runs every thread from the last state until one fails.
func (rp *replay) final() {
	rp.target, rp.found = nil, false
	for t := range rp.cur.th {
		if err := rp.ru.successors(&rp.cur, t); err != nil && rp.failure == nil {
			rp.failure = &Failure{Kind: "error", Msg: err.Error(), Thread: t, Pos: []lang.Pos{errorPos(rp.ru, err)}}
			rp.steps = append(rp.steps, rp.describe(rp.ru, nil, nil, event{}, rp.ru.x.r))
		}
		if rp.failure != nil {
			return
		}
	}
}

func (rp *replay) emit(ru *run, g []int64, rec *dthread, ev event) {
	if rp.found || rp.target == nil && rp.failure == nil && rp.failHere(ru, g, rec, ev) {
		return
	}
	if rp.target == nil {
		return
	}
	e := rp.e
	set := ru.src.set
	if e.spec != nil && ev.kind != evNone {
		if set = e.spec.step(ru.src, ru.t, ev); set < 0 {
			return
		}
	}
	if e.checkState(ru, ru.src, g, rec) != nil {
		return
	}
	rp.scratch = e.encodeSucc(rp.scratch[:0], ru.src, ru.t, g, rec, set, true, false)
	if !rp.isTarget(rp.scratch) && !rp.isTargetReordered(rp.scratch, set) {
		return
	}
	rp.found = true
	rp.next = e.encodeSucc(rp.next[:0], ru.src, ru.t, g, rec, set, false, false)
	rp.steps = append(rp.steps, rp.describe(ru, g, rec, ev, nil))
	rp.record(ru.t, ev)
	ru.x.stop = true
}

// isTarget reports whether b is the stored form of the state to reach.
func (rp *replay) isTarget(b []byte) bool {
	if rp.byHash {
		return hashBytes(b) == rp.targetHash
	}
	return string(b) == string(rp.target)
}

// isTargetReordered reports whether b, the stored form of a successor
// whose normalized specification state is set before symmetry's
// permutation, is the state to reach once threads with equal stored
// records are put in another order. The sort of symmetry reduction
// leaves such threads in the order they come in, and in a refinement
// check that order permutes the normalized specification state, which
// may tell them apart (their pending calls' arguments, when the
// variables holding them are dead): the search took the order of the
// state it expanded, which the replay's concrete state need not share.
// Either order stands for the same states.
func (rp *replay) isTargetReordered(b []byte, set int32) bool {
	e := rp.e
	if !e.sym || e.spec == nil {
		return false
	}
	prefix := b[:e.partEnds[len(e.partEnds)-2]] // all but the set
	perm := append([]int(nil), e.perm...)
	var blocks [][2]int // runs of equal records in a symmetric role
	for _, r := range e.m.roles {
		if !r.sym {
			continue
		}
		end := r.first + int(r.hi-r.lo+1)
		for q := r.first; q < end; {
			k := q + 1
			for k < end && bytes.Equal(e.segs[perm[k]], e.segs[perm[q]]) {
				k++
			}
			if k-q > 1 {
				blocks = append(blocks, [2]int{q, k})
			}
			q = k
		}
	}
	return permuteBlocks(perm, blocks, func(p []int) bool {
		rp.alt = appendUint(append(rp.alt[:0], prefix...), uint64(e.spec.permute(set, p)))
		return rp.isTarget(rp.alt)
	})
}

// permuteBlocks calls try with perm reordered in every way within each
// block [lo, hi), until try returns true; it reports whether one did.
func permuteBlocks(perm []int, blocks [][2]int, try func([]int) bool) bool {
	if len(blocks) == 0 {
		return try(perm)
	}
	lo, hi := blocks[0][0], blocks[0][1]
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == hi {
			return permuteBlocks(perm, blocks[1:], try)
		}
		for j := i; j < hi; j++ {
			perm[i], perm[j] = perm[j], perm[i]
			ok := rec(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
			if ok {
				return true
			}
		}
		return false
	}
	return rec(lo)
}

// failHere checks a transition of the final step for a failure found
// after it (invariants, interference, linearizability).
func (rp *replay) failHere(ru *run, g []int64, rec *dthread, ev event) bool {
	e := rp.e
	set := ru.src.set
	if e.spec != nil && ev.kind != evNone {
		if set = e.spec.step(ru.src, ru.t, ev); set == refused {
			return false
		}
	}
	f := e.checkState(ru, ru.src, g, rec)
	if f == nil && set == unmatched {
		f = e.linFailure(ru, ev)
	}
	if f == nil {
		return false
	}
	rp.failure = f
	rp.steps = append(rp.steps, rp.describe(ru, g, rec, ev, nil))
	rp.record(ru.t, ev)
	ru.x.stop = true
	return true
}

func (rp *replay) fail(ru *run, f *Failure) {
	if rp.target != nil || rp.failure != nil {
		return
	}
	rp.failure = f
	rp.steps = append(rp.steps, rp.describe(ru, nil, nil, ru.ev, ru.x.r))
	if f.Kind == "linearizability" {
		rp.record(ru.t, ru.ev) // a call that no linearization allows ends the history
	}
	ru.x.stop = true
}

// record adds a transition's events to the history.
func (rp *replay) record(t int, ev event) {
	th := rp.e.m.threads[t].String()
	if sp := rp.e.spec; sp != nil && ev.kind != evNone {
		real := ev.kind&evCall != 0 && sp.real(rp.ru.src, t, ev.m)
		ev.args, ev.outs = append([]int64(nil), ev.args...), append([]int64(nil), ev.outs...)
		rp.events = append(rp.events, specEvent{t: t, ev: ev, real: real})
	}
	if ev.kind&evCall != 0 {
		rp.history = append(rp.history, HistoryEvent{Thread: th, Call: true, Method: ev.m.name,
			Values: rp.e.m.showArgs(ev.m, ev.args)})
	}
	if ev.kind&evReturn != 0 {
		rp.history = append(rp.history, HistoryEvent{Thread: th, Method: ev.m.name,
			Values: rp.e.m.showOuts(ev.m, ev.outs)})
	}
}

// describe describes the transition of ru: to the successor (g, rec),
// or, with regs set, up to a failure inside the fragment.
func (rp *replay) describe(ru *run, g []int64, rec *dthread, ev event, regs []int64) TraceStep {
	m := rp.e.m
	src := ru.src
	st := TraceStep{Thread: m.threads[ru.t].String()}
	if ru.meth != nil {
		st.Method = ru.meth.name
	}
	if ru.flushing != nil {
		st.Event = "flushes " + m.describeEntry(*ru.flushing) + " from its store buffer to memory"
	}
	if ev.kind&evCall != 0 {
		st.Event = fmt.Sprintf("calls %s(%s)", ev.m.name, m.showArgs(ev.m, ev.args))
	}
	if ev.kind&evReturn != 0 {
		ret := "returns"
		if outs := m.showOuts(ev.m, ev.outs); outs != "" {
			ret += " " + outs
		}
		st.Event = strings.TrimSpace(st.Event + " " + ret)
	}
	for _, en := range ru.path {
		line := m.nodeLine(en.node)
		if en.proc != nil && ru.meth != nil && en.proc.name != ru.meth.name {
			// A callee's line: say whose, since the step is headed by
			// the method the thread runs.
			line = strings.Replace(line, ":", " in "+en.proc.name+":", 1)
		}
		if en.access != "" {
			line += " (" + en.access + ")"
		}
		st.Lines = append(st.Lines, line)
	}
	if regs != nil {
		g = regs[:m.nglob()]
		if m.weak() {
			g = ru.memoryAfter(nil, g) // the registers hold the thread's view
			if buf := m.appendBuffer(nil, src.th[ru.t].buf, ru.pending); len(buf) > 0 {
				st.Buffer = m.describeBuffer(buf)
			}
		}
	}
	for i := range g {
		if g[i] != src.g[i] {
			st.Changes = append(st.Changes, fmt.Sprintf("%s: %s -> %s", m.globals[i].Name,
				m.showValue(src.g[i], m.globals[i].Type), m.showValue(g[i], m.globals[i].Type)))
		}
	}
	st.Changes = append(st.Changes, rp.localChanges(ru, rec, regs)...)
	if rec != nil {
		st.Where = m.where(rec)
		if m.weak() && (len(rec.buf) > 0 || len(src.th[ru.t].buf) > 0) {
			st.Buffer = m.describeBuffer(rec.buf)
		}
	}
	return st
}

// localChanges lists the thread's locals that changed.
func (rp *replay) localChanges(ru *run, rec *dthread, regs []int64) []string {
	m := rp.e.m
	before := &ru.src.th[ru.t]
	var p *cproc
	var vals []int64
	switch {
	case regs != nil:
		p = procOfRegs(m, regs)
		if p != nil {
			vals = regs[m.nglob() : m.nglob()+len(p.frame)]
		}
	case rec != nil && !rec.idle():
		top := rec.frames[len(rec.frames)-1]
		p, vals = top.p, top.vals
	}
	if p == nil {
		return nil
	}
	var old []int64
	if !before.idle() {
		if top := before.frames[len(before.frames)-1]; top.p == p {
			old = top.vals
		}
	}
	var out []string
	for i, o := range p.sig.Frame() { // not the temporaries of access atomicity
		v, t := vals[i], o.Type
		switch {
		case old != nil && old[i] == v:
		case old != nil:
			out = append(out, fmt.Sprintf("%s: %s -> %s", o.Name, m.showFrameValue(old[i], t), m.showFrameValue(v, t)))
		case v != p.zero[i]:
			out = append(out, fmt.Sprintf("%s = %s", o.Name, m.showFrameValue(v, t)))
		}
	}
	return out
}

// showFrameValue prints a frame slot of type t, which may be unset.
func (m *model) showFrameValue(v int64, t lang.Type) string {
	if v == unset {
		return "(arbitrary, not read yet)"
	}
	return m.showValue(v, t)
}

// procOfRegs finds the procedure whose register file regs is.
func procOfRegs(m *model, regs []int64) *cproc {
	for _, p := range m.procs {
		if len(p.regs) > 0 && &p.regs[0] == &regs[0] {
			return p
		}
	}
	return nil
}

// nodeLine describes a node passed by a fragment: the source line of a
// statement, or the branch taken.
func (m *model) nodeLine(n *layers.Node) string {
	pos := n.Pos()
	if n.Kind == layers.NodeCond {
		return fmt.Sprintf("line %d: %s", pos.Line, branchText(n))
	}
	text := strings.TrimSpace(lang.SourceLine(m.prog.File.Src, pos.Line))
	if text == "" && n.Stmt != nil {
		text = lang.StmtString(n.Stmt)
	}
	if n.Arm {
		arm := strings.TrimSuffix(strings.TrimPrefix(lang.StmtString(n.Stmt), "call "), ";")
		text = "arm " + arm + " of " + text
	}
	return fmt.Sprintf("line %d: %s", pos.Line, text)
}

// branchText describes the branch a condition node takes.
func branchText(n *layers.Node) string {
	head := lang.StmtString(n.Stmt)
	switch n.Stmt.(type) {
	case *lang.WhileStmt:
		if n.Negated {
			return head + " exits the loop"
		}
		return head + " enters the loop"
	}
	if n.Negated {
		return head + " takes the else branch"
	}
	return head + " takes the then branch"
}

// where says where a thread is after a transition.
func (m *model) where(rec *dthread) string {
	if rec.idle() {
		return "between calls"
	}
	top := rec.frames[len(rec.frames)-1]
	if rec.arms != nil {
		return m.forkWhere(top, rec.arms)
	}
	if ps := top.p.pauseAt(top.node); ps != nil {
		return fmt.Sprintf("stops at line %d in %s, before it %s", ps.node.Pos().Line, top.p.name, ps.what)
	}
	if y := top.p.yield[top.node]; y != nil {
		switch y.Kind {
		case layers.YieldEntry:
			return fmt.Sprintf("waits at the entry of %s", top.p.name)
		case layers.YieldExit:
			return fmt.Sprintf("waits at the exit of %s", top.p.name)
		case layers.YieldCall:
			return fmt.Sprintf("waits at the call at line %d in %s", y.Pos.Line, top.p.name)
		}
		return fmt.Sprintf("waits at line %d in %s", y.Pos.Line, top.p.name)
	}
	if top.node == top.p.exit {
		return fmt.Sprintf("has executed %s, not yet returned", top.p.name)
	}
	return fmt.Sprintf("has called %s", top.p.name)
}

func (m *model) showArgs(mt *method, vals []int64) string {
	var parts []string
	objs := mt.proc.sig.Frame()
	for i, s := range mt.inSlots {
		parts = append(parts, fmt.Sprintf("%s = %s", objs[s].Name, m.showValue(vals[i], objs[s].Type)))
	}
	return strings.Join(parts, ", ")
}

func (m *model) showOuts(mt *method, vals []int64) string {
	var parts []string
	objs := mt.proc.sig.Frame()
	for i, s := range mt.outSlots {
		parts = append(parts, fmt.Sprintf("%s = %s", objs[s].Name, m.showValue(vals[i], objs[s].Type)))
	}
	return strings.Join(parts, ", ")
}
