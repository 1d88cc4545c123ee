package mc

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
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
	arms   []armState // the arms of the fork the top frame waits at (fork.go)
	seg    []byte     // its encoding, in a decoded state
	buf    []bufEntry // its buffered writes, oldest first (weak memory)
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
	path    []traceEntry // nodes passed, when tracing
	x       exec
	argBuf  []int64 // the arguments of a call of a procedure, evaluated
	// regsFrame is the frame whose values the register file holds while
	// code runs: its index in the thread's call stack, or -1 for a frame
	// the transition creates. fresh are the values chosen for unset
	// slots of created frames (lazy.go).
	regsFrame int
	fresh     []freshValue
	// atYield is the yield point whose annotation is being evaluated,
	// for the position of an error there.
	atYield *layers.YieldPoint
	// spec is the specification of a refinement check (nil in a safety
	// check): its requires, not the layer's own, is the client contract.
	spec *specSide
	// Weak memory (weak.go): the globals as the thread sees them, the
	// writes its transition buffered, whether it runs a locked
	// instruction, the write a flush transition moves to memory, and
	// scratch space for successors.
	view       []int64
	pending    []bufEntry
	locked     bool
	flushing   *bufEntry
	memScratch []int64
	bufScratch []bufEntry
	// regs, if set, are the register files of this run, per procedure;
	// else the run uses the procedures' own (p.regs). The workers of a
	// parallel search each have their own.
	regs [][]int64
	// armPath is the path, in the thread's tree of forks, to the arm
	// whose stack the transition changes (empty: the thread's own
	// stack); actionFrames, actionArms and actionIdx are the stack, its
	// arms and the index of the action arm being run (fork.go).
	armPath      []int
	actionFrames []dframe
	actionArms   []armState
	actionIdx    int
}

// traceEntry is a node a traced run passed, with the access to a global
// it made there (access atomicity), if any.
type traceEntry struct {
	node   *layers.Node
	proc   *cproc // the procedure node belongs to
	access string
}

func newRun(m *model, s sink) *run {
	ru := &run{m: m, sink: s}
	ru.x.run = ru
	ru.x.onFail = func(x *exec, a *obl.Assert) { x.run.assertFailed(x, a) }
	return ru
}

// loadRegs prepares p's registers for thread code: the globals, the
// frame values, zeroed temporaries.
func (ru *run) loadRegs(p *cproc, g []int64, vals []int64) []int64 {
	r := p.regs
	if ru.regs != nil {
		r = ru.regs[p.idx]
	}
	copy(r, g)
	n := copy(r[len(g):], vals)
	clear(r[len(g)+n:])
	return r
}

// successors runs thread t from state s, giving every successor and
// failure to the sink. It returns an error if the code cannot be run
// (integer overflow, division by zero, a call stack too deep).
func (ru *run) successors(s *dstate, t int) error {
	ru.x.stop = false
	ru.flushes(s, t)
	if ru.x.stop {
		return nil
	}
	need, err := ru.attempt(s, t)
	if need == nil || ru.x.stop {
		return err
	}
	return ru.choose(s, t, need)
}

// attempt runs thread t from state s. If the code reads a slot whose
// initial value is not chosen yet, it stops and returns that slot
// (lazy.go).
func (ru *run) attempt(s *dstate, t int) (need *unsetRead, err error) {
	ru.path, ru.atYield = ru.path[:0], nil
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case evalError:
				err = e // ru.path ends at the failing node, for where
			case unsetRead:
				e.frame = ru.regsFrame
				e.path = append([]int(nil), ru.armPath...)
				need, ru.path = &e, ru.path[:0]
			default:
				panic(r)
			}
		}
	}()
	ru.t, ru.src = t, s
	ru.armPath = ru.armPath[:0] // a transition of an arm that stopped by a panic left it set
	ru.x.stop, ru.x.accessed = false, false
	ru.pending, ru.locked = ru.pending[:0], false
	th := &s.th[t]
	ru.calls = th.calls
	if th.idle() {
		ru.invoke(s, t)
		return nil, nil
	}
	ru.meth = th.frames[0].p.method
	ru.ev = event{m: ru.meth}
	if th.arms != nil {
		ru.forkSuccessors(s, th)
		return nil, nil
	}
	top := &th.frames[len(th.frames)-1]
	p := top.p
	ru.regsFrame = len(th.frames) - 1
	switch {
	case top.node == p.exit && len(th.frames) == 1:
		ru.returnStep(s, th, top)
	case top.node == p.exit:
		ru.popStep(s, th, top)
	case p.isCall(top.node):
		ru.callStep(s, th, top)
	default:
		ru.below = th.frames[:len(th.frames)-1]
		ru.x.r = ru.loadRegs(p, ru.viewOf(s, t), top.vals)
		p.start[top.node](&ru.x)
	}
	return nil, nil
}

// invoke calls every method the thread's role may call, with every
// argument tuple the client contract allows (clientCalls).
func (ru *run) invoke(s *dstate, t int) {
	ti := ru.m.threads[t]
	if r := ti.role; r.max > 0 && ru.calls >= r.max {
		return
	}
	for _, cc := range ti.role.calls {
		for _, args := range cc.args {
			ru.call(s, ti, cc, args)
			if ru.x.stop {
				return
			}
		}
	}
}

// call makes the call of cc with the argument tuple args, if the client
// contract allows it.
func (ru *run) call(s *dstate, ti *threadInfo, cc *callChoice, args []int64) {
	mt := cc.m
	p := mt.proc
	regs := ru.callFrame(s, ti, cc, args)
	ru.meth = mt
	ru.ev = event{kind: evCall, m: mt}
	if ru.events {
		ru.ev.args = pick(regs[ru.m.nglob():], mt.inSlots)
	}
	ru.below = nil
	ru.x.r = regs
	ru.regsFrame = -1
	if f := ru.poolClash(ti, cc); f != nil {
		ru.sink.fail(ru, f)
		return
	}
	if !ru.clientCalls(s, ti, cc, args) {
		return
	}
	if mt.atomic {
		p.start[p.entry](&ru.x) // run the action
	} else {
		p.code[p.entry](&ru.x) // wait at the entry
	}
}

// callFrame loads the registers of the called method for a call of cc
// with the argument tuple args: the globals and the frame.
func (ru *run) callFrame(s *dstate, ti *threadInfo, cc *callChoice, args []int64) []int64 {
	p := cc.m.proc
	regs := ru.loadRegs(p, ru.viewOf(s, ru.t), p.zero)
	g := ru.m.nglob()
	copy(regs[g:], cc.fill(args, ti))
	ru.applyFresh(p, regs)
	return regs
}

// clientCalls reports whether a client makes the call of cc with args,
// whose frame is in ru.x.r. In a safety check the layer's own requires
// is the client contract. In a refinement check the specification's is
// (specAllows, contract.go: evaluated in the implementation's state
// where it can be, else required in every state of the normalized
// specification), and the implementation's requires is then no filter
// but an obligation — if it does not hold, the implementation requires
// more than its specification, which is a failure (kind "contract"),
// not a behaviour to leave out. Ghost arguments are the client's
// choice: the requires fails only if it fails for every choice of them.
// Under weak memory the implementation's requires is no obligation
// while some thread has buffered writes: it is an annotation of a proof
// for sequential consistency, often over ghost variables, which run
// ahead of memory until the buffers drain (weak.go). Under access
// atomicity, for the same reason, it is no obligation while another
// thread is inside a fragment: like every annotation it is proven for
// runs where fragments are atomic (yieldCode), and there the other
// thread's fragment could complete before the call.
func (ru *run) clientCalls(s *dstate, ti *threadInfo, cc *callChoice, args []int64) bool {
	mt := cc.m
	if ru.spec == nil {
		return mt.guard(ru.x.r) != 0
	}
	if !ru.specAllows(s, mt) {
		return false
	}
	if mt.guard(ru.x.r) != 0 || ru.m.weak() && anyBuffered(s) || ru.m.access && insideFragment(s, ru.t) {
		return true
	}
	if !ru.otherGhostArgs(s, ti, cc, args) {
		ru.callFrame(s, ti, cc, args) // the frame of the failing call, for the trace
		ru.sink.fail(ru, ru.contractFailure(mt))
	}
	return false
}

// otherGhostArgs reports whether the requires of cc's method holds for
// another argument tuple that differs from args in ghost parameters only.
// It overwrites the method's registers.
func (ru *run) otherGhostArgs(s *dstate, ti *threadInfo, cc *callChoice, args []int64) bool {
	mt := cc.m
	if len(mt.inSlots) == len(mt.proc.sig.Params) {
		return false
	}
	for _, other := range cc.args {
		same := true
		for _, i := range mt.inSlots {
			same = same && other[i] == args[i]
		}
		if same && mt.guard(ru.callFrame(s, ti, cc, other)) != 0 {
			return true
		}
	}
	return false
}

// contractFailure describes a call that the specification allows and
// the implementation's requires does not.
func (ru *run) contractFailure(mt *method) *Failure {
	m, sm := ru.m, ru.spec.methods[mt.idx]
	f := &Failure{Kind: "contract", Thread: ru.t, Msg: fmt.Sprintf(
		"%s calls %s(%s), which layer %d's requires allows here, but the requires of %s at layer %d does not hold: the implementation requires more than its specification",
		m.threads[ru.t], mt.name, m.showArgs(mt, ru.ev.args), ru.spec.m.layer.Num, mt.name, m.layer.Num)}
	if req := mt.proc.sig.Requires; len(req) > 0 {
		f.Pos = append(f.Pos, req[0].Pos())
	}
	f.Pos = append(f.Pos, sm.proc.sig.Name.P)
	return f
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
	needSet(top.p, top.vals, ru.meth.outSlots)
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
	callee := top.p
	needSet(callee, top.vals, callee.rets) // the caller receives them as values
	ru.regsFrame = len(th.frames) - 2
	regs := ru.loadRegs(q, ru.viewOf(s, ru.t), caller.vals)
	g := ru.m.nglob()
	for i, slot := range q.outs[caller.node] {
		regs[g+slot] = top.vals[callee.rets[i]]
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
	callerRegs := ru.loadRegs(p, ru.viewOf(s, ru.t), top.vals)
	// The arguments are evaluated before the callee's registers are
	// loaded: a procedure that calls itself has one register file for
	// caller and callee.
	ru.argBuf = ru.argBuf[:0]
	for _, a := range p.args[top.node] {
		ru.argBuf = append(ru.argBuf, a(callerRegs))
	}
	q := p.callee[top.node]
	ru.regsFrame = -1
	regs := ru.loadRegs(q, ru.viewOf(s, ru.t), q.zero)
	copy(regs[ru.m.nglob():], ru.argBuf)
	ru.applyFresh(q, regs)
	ru.below = giveAway(th.frames, p.gives[top.node])
	ru.x.r = regs
	q.start[q.entry](&ru.x)
}

// reach ends a fragment at yield point node of p: the thread waits
// there, or returns from its method.
func (ru *run) reach(x *exec, p *cproc, node int) {
	if node == p.exit && len(ru.below) == 0 && !ru.m.spec && !ru.inArm() {
		g := ru.m.nglob()
		out, ev := &ru.out, ru.ev
		out.frames = out.frames[:0]
		out.calls = ru.nextCalls()
		ev.kind |= evReturn
		if ru.events {
			needSet(p, x.r[g:], ru.meth.outSlots)
			ev.outs = pick(x.r[g:], ru.meth.outSlots)
		}
		ru.emitRegs(x.r[:g], out, ev)
		return
	}
	ru.wait(x, p, node)
}

// wait ends a transition with the thread waiting at node of p: a yield
// point, or a pause point under access atomicity.
func (ru *run) wait(x *exec, p *cproc, node int) {
	if ru.inArm() {
		ru.armWait(x, p, node)
		return
	}
	g := ru.m.nglob()
	out := &ru.out
	out.calls = ru.calls
	out.frames = append(out.frames[:0], ru.below...)
	out.frames = append(out.frames, dframe{p: p, node: node, vals: x.r[g : g+len(p.frame)]})
	ru.emitRegs(x.r[:g], out, ru.ev)
}

// where returns the best source position of what the run did last,
// after it stopped with an error: the statement it ran last (when
// tracing), the point where the thread waited, or the method it called.
func (ru *run) where() lang.Pos {
	if ru.atYield != nil {
		return ru.atYield.Pos
	}
	if n := len(ru.path); n > 0 {
		return ru.path[n-1].node.Pos()
	}
	th := &ru.src.th[ru.t]
	if th.idle() {
		if ru.meth != nil {
			return ru.meth.proc.sig.Name.P
		}
		return ru.m.threads[ru.t].role.decl.Role.P
	}
	top := &th.frames[len(th.frames)-1]
	if ps := top.p.pauseAt(top.node); ps != nil {
		return ps.node.Pos()
	}
	if y := top.p.yield[top.node]; y != nil {
		return y.Pos
	}
	return top.p.sig.Name.P
}

// errorPos is the position of an error of run ru.
func errorPos(ru *run, err error) lang.Pos {
	if e, ok := err.(evalError); ok && e.pos.Line > 0 {
		return e.pos
	}
	return ru.where()
}

// Failure is a violation found in a state or a transition.
type Failure struct {
	// Kind is "assert", "annotation", "interference", "invariant",
	// "error" (the code could not run), "linearizability" or "contract"
	// (a call the specification allows and the implementation's
	// requires does not).
	Kind string
	Msg  string
	Pos  []lang.Pos
	// Thread is the thread whose transition failed (-1: none, for a
	// violation in an initial state).
	Thread int
}

func (ru *run) assertFailed(x *exec, a *obl.Assert) {
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
		if part := ru.m.failingPart(x, p, y); part != nil {
			f.Msg = part.What + " does not hold when " + ru.m.threads[ru.t].String() + " reaches it"
			if part.Pos != nil {
				f.Pos = part.Pos
			}
		}
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
