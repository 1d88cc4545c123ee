package mc

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// Parallel calls with procedure arms (layers.NodeFork). Explore runs the
// arms as sub-threads of the caller, without the static checks'
// reordering argument: when the caller reaches the fork, it waits there
// and its record holds one state per arm (armState); every transition of
// the thread is then a transition of one arm, in any order, interleaved
// with the other threads; when every arm has returned, a join transition
// hands the procedure arms' outputs to the caller, which continues after
// the call.
//
// An arm that calls an action runs as one step: the caller's step node
// for the arm (layers.Node.Arms), on the caller's frame (its arguments
// read locals that no arm writes, and it writes its own outputs). An arm
// that calls a procedure has a call stack of its own, which starts at
// the callee's entry, where the callee's requires must hold at the fork
// and keeps holding (like any waiting thread's annotation) until the arm
// runs. Forks do not nest in explore: an arm's code that reaches another
// fork is an error of the run.

// armState is the state of one arm of the fork the thread waits at. An
// action arm has no frames; done says it ran. A procedure arm has its
// call stack; it is done when its only frame is at the callee's exit.
type armState struct {
	done   bool
	frames []dframe
}

// armDone reports whether arm a has finished.
func (a *armState) armDone() bool {
	if a.frames == nil {
		return a.done
	}
	f := &a.frames[0]
	return len(a.frames) == 1 && f.node == f.p.exit
}

// armFrameBase encodes, in run.regsFrame and unsetRead.frame, frame j of
// arm i as armFrameBase - (i*maxDepth + j) (lazy.go).
const armFrameBase = -2

func armFrame(i, j int) int { return armFrameBase - (i*maxDepth + j) }

// forkData is what a compiled procedure knows about a fork node: per arm,
// the called procedure (nil for an action arm), its compiled arguments
// and the caller's slots receiving its outputs.
type forkData struct {
	node   *layers.Node
	callee []*cproc
	args   [][]evalFn
	outs   [][]int
}

// compileFork compiles the fork node of a procedure. Its code starts the
// arms; the code of an action arm's node ends the arm.
func (m *model) compileFork(cp *cproc, node *layers.Node) code {
	m.forks = true
	fd := &forkData{node: node}
	s := node.Stmt.(*lang.ParCallStmt)
	for i, arm := range s.Arms {
		var q *cproc
		var args []evalFn
		var outs []int
		if node.Arms[i] == nil {
			q = m.procOf[arm.Callee.Obj.Decl.(*lang.Proc)]
			for _, a := range arm.Args {
				args = append(args, cp.c.expr(m.b.Expr(a, cp.env)))
			}
			for _, o := range arm.Outs {
				outs = append(outs, cp.frameSlot(o.Obj))
			}
		}
		fd.callee, fd.args, fd.outs = append(fd.callee, q), append(fd.args, args), append(fd.outs, outs)
	}
	if cp.forks == nil {
		cp.forks = map[int]*forkData{}
	}
	cp.forks[node.ID] = fd
	return func(x *exec) { x.run.fork(x, cp, fd) }
}

// fork starts the arms of fd: the caller waits at the fork node; every
// procedure arm waits at its callee's entry, whose annotation (requires
// and the layer's invariants) must hold.
func (ru *run) fork(x *exec, cp *cproc, fd *forkData) {
	if ru.arm >= 0 {
		fail("an arm of a parallel call reaches another parallel call with a procedure arm at line %d: explore does not run nested forks", fd.node.Pos().Line)
	}
	g := ru.m.nglob()
	callerVals := append([]int64(nil), x.r[g:g+len(cp.frame)]...)
	globals := append([]int64(nil), x.r[:g]...)
	arms := make([]armState, len(fd.callee))
	for i, q := range fd.callee {
		if q == nil {
			continue
		}
		vals := append([]int64(nil), q.zero...)
		for k, a := range fd.args[i] {
			vals[k] = a(x.r)
		}
		arms[i].frames = []dframe{{p: q, node: q.entry, vals: vals}}
	}
	for i, q := range fd.callee {
		if q == nil || q.ann[q.entry] == nil {
			continue
		}
		regs := ru.loadRegs(q, globals, arms[i].frames[0].vals)
		if !ru.m.annotationHolds(q.ann[q.entry], q, regs) {
			saved := x.r
			x.r = regs
			ru.annotationFailed(x, q, q.entry)
			x.r = saved
			return
		}
	}
	out := &ru.out
	out.calls = ru.calls
	out.frames = append(out.frames[:0], ru.below...)
	out.frames = append(out.frames, dframe{p: cp, node: fd.node.ID, vals: callerVals})
	out.arms = arms
	ru.emitRegs(globals, out, ru.ev)
	out.arms = nil
}

// forkSuccessors runs thread t, which waits at a fork with the arms
// th.arms: every arm that has not finished takes a step, or, when all
// have, the join.
func (ru *run) forkSuccessors(s *dstate, th *dthread) {
	caller := &th.frames[len(th.frames)-1]
	cp := caller.p
	fd := cp.forks[caller.node]
	all := true
	for i := range th.arms {
		a := &th.arms[i]
		if a.armDone() {
			continue
		}
		all = false
		ru.arm = i
		if a.frames == nil {
			ru.actionArm(s, th, fd, i)
		} else {
			ru.procArm(s, a, i)
		}
		ru.arm = -1
		if ru.x.stop {
			return
		}
	}
	if all {
		ru.join(s, th, fd)
	}
}

// actionArm runs action arm i: its step, on the caller's frame.
func (ru *run) actionArm(s *dstate, th *dthread, fd *forkData, i int) {
	caller := &th.frames[len(th.frames)-1]
	cp := caller.p
	ru.below = th.frames[:len(th.frames)-1]
	ru.regsFrame = len(th.frames) - 1
	ru.x.r = ru.loadRegs(cp, ru.viewOf(s, ru.t), caller.vals)
	cp.code[fd.node.Arms[i].ID](&ru.x)
}

// procArm runs one transition of procedure arm i, whose call stack is
// a.frames, as attempt runs a thread's.
func (ru *run) procArm(s *dstate, a *armState, i int) {
	stack := &dthread{frames: a.frames}
	top := &a.frames[len(a.frames)-1]
	p := top.p
	ru.regsFrame = armFrame(i, len(a.frames)-1)
	switch {
	case top.node == p.exit:
		ru.popStep(s, stack, top)
	case p.isCall(top.node):
		ru.callStep(s, stack, top)
	default:
		ru.below = a.frames[:len(a.frames)-1]
		ru.x.r = ru.loadRegs(p, ru.viewOf(s, ru.t), top.vals)
		p.start[top.node](&ru.x)
	}
}

// armEnd ends a transition of the running arm: the thread keeps waiting
// at its fork, with the arm's new state.
func (ru *run) armEnd(g []int64, arm armState) {
	src := &ru.src.th[ru.t]
	out := &ru.out
	out.calls = ru.calls
	out.frames = append(out.frames[:0], src.frames...)
	out.arms = append([]armState(nil), src.arms...)
	out.arms[ru.arm] = arm
	ru.emitRegs(g, out, ru.ev)
	out.arms = nil
}

// armWait ends a transition of procedure arm ru.arm waiting at node of
// p (a yield point, or its exit once it returned).
func (ru *run) armWait(x *exec, p *cproc, node int) {
	g := ru.m.nglob()
	frames := append(append([]dframe(nil), ru.below...), dframe{p: p, node: node, vals: append([]int64(nil), x.r[g:g+len(p.frame)]...)})
	ru.armEnd(x.r[:g], armState{frames: frames})
}

// actionArmCode is the code after action arm i's step: the arm is done,
// and the caller's frame holds what the step wrote.
func actionArmCode(cp *cproc) code {
	return func(x *exec) {
		ru := x.run
		g := ru.m.nglob()
		src := &ru.src.th[ru.t]
		out := &ru.out
		out.calls = ru.calls
		out.frames = append(out.frames[:0], src.frames...)
		top := &out.frames[len(out.frames)-1]
		top.vals = append([]int64(nil), x.r[g:g+len(cp.frame)]...)
		out.arms = append([]armState(nil), src.arms...)
		out.arms[ru.arm] = armState{done: true}
		ru.emitRegs(x.r[:g], out, ru.ev)
		out.arms = nil
	}
}

// join ends the fork: the procedure arms' outputs go to the caller,
// which continues after the parallel call.
func (ru *run) join(s *dstate, th *dthread, fd *forkData) {
	caller := &th.frames[len(th.frames)-1]
	cp := caller.p
	ru.regsFrame = len(th.frames) - 1
	regs := ru.loadRegs(cp, ru.viewOf(s, ru.t), caller.vals)
	g := ru.m.nglob()
	for i, q := range fd.callee {
		if q == nil {
			continue
		}
		f := &th.arms[i].frames[0]
		ru.regsFrame = armFrame(i, 0)
		needSet(q, f.vals, q.rets)
		for k, slot := range fd.outs[i] {
			regs[g+slot] = f.vals[q.rets[k]]
		}
	}
	ru.regsFrame = len(th.frames) - 1
	ru.below = th.frames[:len(th.frames)-1]
	ru.x.r = regs
	cp.after[fd.node.ID](&ru.x)
}

// armWaitingFrames calls f with the top frame of every procedure arm of
// th that has not finished, except arm skip: the sub-threads whose
// annotations other steps must preserve.
func armWaitingFrames(th *dthread, skip int, f func(top *dframe)) {
	for i := range th.arms {
		a := &th.arms[i]
		if i == skip || a.frames == nil || a.armDone() {
			continue
		}
		f(&a.frames[len(a.frames)-1])
	}
}

// forkError is the error of a model whose forks explore cannot run with
// the options given.
func forkError(what string) error {
	return fmt.Errorf("explore runs parallel calls with procedure arms with fragment atomicity and sequential consistency only (%s)", what)
}

// appendArms encodes the arms of a thread record: their number (0: the
// thread waits at no fork), then per arm 0 (an action arm to run), 1 (a
// finished action arm) or 2 plus the depth of a procedure arm's call
// stack, followed by its frames.
func appendArms(b []byte, arms []armState) []byte {
	b = appendUint(b, uint64(len(arms)))
	for _, a := range arms {
		switch {
		case a.frames != nil:
			b = appendUint(b, uint64(2+len(a.frames)))
			for _, f := range a.frames {
				b = appendUint(b, uint64(f.p.idx))
				b = appendUint(b, uint64(f.node))
				for _, v := range f.vals {
					b = appendInt(b, v)
				}
			}
		case a.done:
			b = appendUint(b, 1)
		default:
			b = appendUint(b, 0)
		}
	}
	return b
}

// readArms decodes what appendArms wrote; frame values are appended to
// vals.
func (m *model) readArms(b []byte, pos *int, vals []int64) ([]armState, []int64) {
	n := int(readUint(b, pos))
	if n == 0 {
		return nil, vals
	}
	arms := make([]armState, n)
	for i := range arms {
		k := int(readUint(b, pos))
		if k < 2 {
			arms[i].done = k == 1
			continue
		}
		for range k - 2 {
			p := m.procs[readUint(b, pos)]
			node := int(readUint(b, pos))
			start := len(vals)
			for range p.frame {
				vals = append(vals, readInt(b, pos))
			}
			arms[i].frames = append(arms[i].frames, dframe{p: p, node: node, vals: vals[start:len(vals):len(vals)]})
		}
	}
	return arms, vals
}

// skipFrames returns the position after depth encoded frames at pos.
func (m *model) skipFrames(b []byte, pos, depth int) int {
	for range depth {
		p := m.procs[readUint(b, &pos)]
		pos = skipVarint(b, pos) // node
		for range p.frame {
			pos = skipVarint(b, pos)
		}
	}
	return pos
}

// skipArms returns the position after the encoded arms at pos.
func (m *model) skipArms(b []byte, pos int) int {
	n := int(readUint(b, &pos))
	for range n {
		if k := int(readUint(b, &pos)); k >= 2 {
			pos = m.skipFrames(b, pos, k-2)
		}
	}
	return pos
}

// forkWhere says where a thread waiting at a fork is (trace.go): the
// parallel call, and where each arm is.
func (m *model) forkWhere(top dframe, arms []armState) string {
	fd := top.p.forks[top.node]
	s := fd.node.Stmt.(*lang.ParCallStmt)
	var parts []string
	for i, a := range arms {
		name := s.Arms[i].Callee.Name
		switch {
		case a.frames == nil && a.done:
			parts = append(parts, name+" done")
		case a.frames == nil:
			parts = append(parts, name+" not run")
		case a.armDone():
			parts = append(parts, name+" returned")
		default:
			f := a.frames[len(a.frames)-1]
			if y := f.p.yield[f.node]; y != nil && y.Kind == layers.YieldEntry {
				parts = append(parts, name+" at its entry")
			} else if y != nil {
				parts = append(parts, fmt.Sprintf("%s at line %d", name, y.Pos.Line))
			} else {
				parts = append(parts, fmt.Sprintf("%s in %s", name, f.p.name))
			}
		}
	}
	return fmt.Sprintf("waits in the parallel call at line %d in %s (%s)", fd.node.Pos().Line, top.p.name, strings.Join(parts, ", "))
}
