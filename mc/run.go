package mc

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/vcgen"
)

// A decoded state: the globals and every thread.
type dstate struct {
	g   []int64
	th  []dthread
	set int32 // product state: the normalized specification state
}

// dthread is a thread's record: how many calls it made and its call
// stack (empty when it is between calls).
type dthread struct {
	calls  int
	frames []dframe
	seg    []byte // its encoding, in a decoded state
}

// dframe is a frame of the call stack: a procedure, the yield point where
// it waits, and its frame's values.
type dframe struct {
	p    *cproc
	node int
	vals []int64
}

func (t *dthread) idle() bool { return len(t.frames) == 0 }

// evKind says which visible events a transition performs.
type evKind uint8

// Event kinds; a call of an atomic action both calls and returns.
const (
	evNone   evKind = 0
	evCall   evKind = 1
	evReturn evKind = 2
)

// event is the visible part of a transition: a call of a method with its
// (non-ghost) arguments and/or its return with its outputs.
type event struct {
	kind evKind
	m    *method
	args []int64
	outs []int64
}

// sink receives what a run produces.
type sink interface {
	// emit receives a successor: the new globals, the thread's new record
	// (valid only during the call) and the transition's event.
	emit(ru *run, g []int64, rec *dthread, ev event)
	// fail receives a failure of the transition.
	fail(ru *run, f *Failure)
}

// run computes the transitions of one thread from one state.
type run struct {
	m       *model
	t       int
	src     *dstate
	below   []dframe // the frames under the running one
	calls   int
	meth    *method // the method the thread is executing
	ev      event
	out     dthread // scratch for the successor record
	sink    sink
	events  bool // compute the values of events (refinement, traces)
	tracing bool
	path    []*layers.Node // nodes passed, when tracing
	x       exec
}

func newRun(m *model, s sink) *run {
	ru := &run{m: m, sink: s}
	ru.x.run = ru
	ru.x.onFail = func(x *exec, a *vcgen.Assert) { x.run.assertFailed(x, a) }
	return ru
}

// loadRegs prepares p's registers for thread code: the globals, the
// frame values, zeroed temporaries.
func (ru *run) loadRegs(p *cproc, g []int64, vals []int64) []int64 {
	r := p.regs
	copy(r, g)
	n := copy(r[len(g):], vals)
	clear(r[len(g)+n:])
	return r
}

// successors runs thread t from state s, giving every successor and
// failure to the sink. It returns an error if the code cannot be run
// (integer overflow, division by zero, a call stack too deep).
func (ru *run) successors(s *dstate, t int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(evalError)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	ru.t, ru.src = t, s
	ru.x.stop = false
	th := &s.th[t]
	ru.calls = th.calls
	if th.idle() {
		ru.invoke(s, t)
		return nil
	}
	ru.meth = th.frames[0].p.method
	ru.ev = event{m: ru.meth}
	top := &th.frames[len(th.frames)-1]
	p := top.p
	switch {
	case top.node == p.exit && len(th.frames) == 1:
		ru.returnStep(s, th, top)
	case top.node == p.exit:
		ru.popStep(s, th, top)
	case p.isCall(top.node):
		ru.callStep(s, th, top)
	default:
		ru.below = th.frames[:len(th.frames)-1]
		ru.x.r = ru.loadRegs(p, s.g, top.vals)
		p.start[top.node](&ru.x)
	}
	return nil
}

// invoke calls every method the thread's role may call, with every
// argument tuple whose requires holds.
func (ru *run) invoke(s *dstate, t int) {
	ti := ru.m.threads[t]
	r := ti.role
	if r.max > 0 && ru.calls >= r.max {
		return
	}
	g := ru.m.nglob()
	for _, cc := range r.calls {
		mt := cc.m
		p := mt.proc
		for _, args := range cc.args {
			regs := ru.loadRegs(p, s.g, p.zero)
			copy(regs[g:], args)
			if cc.tid >= 0 {
				regs[g+cc.tid] = ti.tid
			}
			if mt.guard(regs) == 0 {
				continue
			}
			ru.meth = mt
			ru.ev = event{kind: evCall, m: mt}
			if ru.events {
				ru.ev.args = pick(regs[g:], mt.inSlots)
			}
			ru.below = nil
			ru.x.r = regs
			if mt.atomic {
				p.start[p.entry](&ru.x)
			} else {
				p.code[p.entry](&ru.x)
			}
			if ru.x.stop {
				return
			}
		}
	}
}

// pick returns vals at the given slots.
func pick(vals []int64, slots []int) []int64 {
	out := make([]int64, len(slots))
	for i, s := range slots {
		out[i] = vals[s]
	}
	return out
}

// returnStep is the return of a method as a step of its own (on the
// specification side).
func (ru *run) returnStep(s *dstate, th *dthread, top *dframe) {
	ru.ev.kind = evReturn
	ru.ev.outs = pick(top.vals, ru.meth.outSlots)
	ru.out.frames = ru.out.frames[:0]
	ru.out.calls = ru.nextCalls()
	ru.sink.emit(ru, s.g, &ru.out, ru.ev)
}

func (ru *run) nextCalls() int {
	if ru.m.threads[ru.t].role.max > 0 {
		return ru.calls + 1
	}
	return ru.calls
}

// popStep resumes a caller after its callee reached its exit.
func (ru *run) popStep(s *dstate, th *dthread, top *dframe) {
	caller := &th.frames[len(th.frames)-2]
	q := caller.p
	regs := ru.loadRegs(q, s.g, caller.vals)
	g := ru.m.nglob()
	callee := top.p
	for i, slot := range q.outs[caller.node] {
		regs[g+slot] = top.vals[len(callee.sig.Params)+i]
	}
	ru.below = th.frames[:len(th.frames)-2]
	ru.x.r = regs
	q.after[caller.node](&ru.x)
}

// callStep enters a procedure called at the caller's yield point.
func (ru *run) callStep(s *dstate, th *dthread, top *dframe) {
	if len(th.frames) >= maxDepth {
		fail("the call stack of thread %s is deeper than %d frames", ru.m.threads[ru.t], maxDepth)
	}
	p := top.p
	callerRegs := ru.loadRegs(p, s.g, top.vals)
	q := p.callee[top.node]
	regs := ru.loadRegs(q, s.g, q.zero)
	g := ru.m.nglob()
	for i, a := range p.args[top.node] {
		regs[g+i] = a(callerRegs)
	}
	ru.below = th.frames
	ru.x.r = regs
	q.start[q.entry](&ru.x)
}

// reach ends a fragment at yield point node of p: the thread waits
// there, or returns from its method.
func (ru *run) reach(x *exec, p *cproc, node int) {
	g := ru.m.nglob()
	out := &ru.out
	out.calls = ru.calls
	ev := ru.ev
	if node == p.exit && len(ru.below) == 0 && !ru.m.spec {
		out.frames = out.frames[:0]
		out.calls = ru.nextCalls()
		ev.kind |= evReturn
		if ru.events {
			ev.outs = pick(x.r[g:], ru.meth.outSlots)
		}
	} else {
		out.frames = append(out.frames[:0], ru.below...)
		out.frames = append(out.frames, dframe{p: p, node: node, vals: x.r[g : g+len(p.frame)]})
	}
	ru.sink.emit(ru, x.r[:g], out, ev)
}

// Failure is a violation found in a state or a transition.
type Failure struct {
	// Kind is "assert", "annotation", "interference", "invariant",
	// "error" (the code could not run) or "linearizability".
	Kind string
	Msg  string
	Pos  []lang.Pos
	// Thread is the thread whose transition failed (-1: none, for a
	// violation in an initial state).
	Thread int
}

func (ru *run) assertFailed(x *exec, a *vcgen.Assert) {
	f := &Failure{Kind: "assert", Msg: a.Msg, Thread: ru.t}
	if a.Kind == "loop invariant" {
		f.Kind = "annotation"
	}
	for _, p := range a.Pos {
		f.Pos = append(f.Pos, lang.Pos{File: p.File, Line: p.Line, Col: p.Col})
	}
	ru.sink.fail(ru, f)
}

func (ru *run) annotationFailed(x *exec, p *cproc, node int) {
	f := &Failure{Kind: "annotation", Thread: ru.t}
	if y := p.yield[node]; y != nil {
		f.Msg = describeYield(y) + " does not hold when " + ru.m.threads[ru.t].String() + " reaches it"
		f.Pos = []lang.Pos{y.Pos}
	} else {
		f.Msg = fmt.Sprintf("the ensures of action %s does not hold after it", p.name)
		f.Pos = []lang.Pos{p.action.P}
	}
	ru.sink.fail(ru, f)
}

// describeYield names a yield point's annotation; at entry and exit the
// layer's invariants are checked with it.
func describeYield(y *layers.YieldPoint) string {
	if y.Kind == layers.YieldEntry || y.Kind == layers.YieldExit {
		return y.Describe() + " (or a layer invariant)"
	}
	return y.Describe()
}
