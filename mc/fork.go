package mc

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// Parallel calls with procedure arms (layers.NodeFork). Explore runs the
// arms as sub-threads of the caller, without the static checks'
// reordering argument: when a call stack reaches a fork, its top frame
// waits there and the stack holds one state per arm (armState); every
// transition of the thread is then a transition of one arm, in any
// order, interleaved with the other threads; when every arm has
// returned, a join transition hands the procedure arms' outputs to the
// caller, which continues after the call.
//
// An arm that calls an action runs as one step: the caller's step node
// for the arm (layers.Node.Arms), on the caller's frame (its arguments
// read locals that no arm writes, and it writes its own outputs). An arm
// that calls a procedure has a call stack of its own, which starts at
// the callee's entry, where the callee's requires must hold at the fork
// and keeps holding (like any waiting thread's annotation) until the arm
// runs. Forks nest: a procedure arm's stack may reach a fork of its own,
// whose arms are then part of that arm's state. The stacks of a thread
// form a tree; run.armPath names the stack a transition changes (empty:
// the thread's own stack).

// armState is the state of one arm of a fork. An action arm has no
// frames; done says it ran. A procedure arm has its call stack; it is
// done when its only frame is at the callee's exit. arms are the arms of
// the fork where the stack's top frame waits, if it waits at one.
type armState struct {
	done   bool
	frames []dframe
	arms   []armState
}

// armDone reports whether arm a has finished.
func (a *armState) armDone() bool {
	if a.frames == nil {
		return a.done
	}
	f := &a.frames[0]
	return len(a.frames) == 1 && f.node == f.p.exit
}

// inArm reports whether the transition changes an arm's stack.
func (ru *run) inArm() bool { return len(ru.armPath) > 0 }

// forkData is what a compiled procedure knows about a fork node: per arm,
// the called procedure (nil for an action arm), its compiled arguments
// and the caller's slots receiving its outputs.
type forkData struct {
	node   *layers.Node
	callee []*cproc
	args   [][]evalFn
	outs   [][]int
	// gives are the caller's slots that procedure arms take through
	// linear_in parameters: emptied when the fork starts the arms.
	gives []givenSlot
}

// compileFork compiles the fork node of a procedure. Its code starts the
// arms; the code of an action arm's node ends the arm.
func (m *model) compileFork(cp *cproc, node *layers.Node) code {
	if !m.forks {
		m.forkPos = node.Pos()
	}
	m.forks = true
	fd := &forkData{node: node}
	s := node.Stmt.(*lang.ParCallStmt)
	for i, arm := range s.Arms {
		var q *cproc
		var args []evalFn
		var outs []int
		if node.Arms[i] == nil {
			q = m.procOf[arm.Callee.Obj.Decl.(*lang.Proc)]
			for k, a := range arm.Args {
				args = append(args, cp.c.expr(m.b.Expr(a, cp.env)))
				if id, ok := a.(*lang.Ident); ok && q.sig.Params[k].LinearIn {
					fd.gives = append(fd.gives, givenSlot{slot: cp.frameSlot(id.Obj), empty: m.zeroOf(id.Obj.Type)})
				}
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
	if len(ru.armPath) >= maxDepth {
		fail("parallel calls nested deeper than %d", maxDepth)
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
	for _, gs := range fd.gives {
		callerVals[gs.slot] = gs.empty // the arm's held local takes them
	}
	frames := append(append([]dframe(nil), ru.below...), dframe{p: cp, node: fd.node.ID, vals: callerVals})
	ru.emitStack(globals, frames, arms)
}

// emitStack emits a successor in which the stack the transition changes
// (ru.armPath) has the frames and arms given.
func (ru *run) emitStack(g []int64, frames []dframe, arms []armState) {
	src := &ru.src.th[ru.t]
	out := &ru.out
	out.calls = ru.calls
	if !ru.inArm() {
		out.frames = append(out.frames[:0], frames...)
		out.arms = arms
	} else {
		out.frames = append(out.frames[:0], src.frames...)
		out.arms = replaceArm(src.arms, ru.armPath, armState{frames: frames, arms: arms})
	}
	ru.emitRegs(g, out, ru.ev)
	out.arms = nil
}

// replaceArm returns a copy of arms in which the arm at path is a.
func replaceArm(arms []armState, path []int, a armState) []armState {
	out := append([]armState(nil), arms...)
	if len(path) == 1 {
		out[path[0]] = a
		return out
	}
	inner := out[path[0]]
	inner.arms = replaceArm(inner.arms, path[1:], a)
	out[path[0]] = inner
	return out
}

// forkSuccessors runs thread t, which waits at a fork with the arms
// th.arms.
func (ru *run) forkSuccessors(s *dstate, th *dthread) {
	ru.armPath = ru.armPath[:0]
	ru.runArms(s, th.frames, th.arms)
	ru.armPath = ru.armPath[:0]
}

// runArms runs the stack at ru.armPath, whose top frame waits at a fork
// with arms: every arm that has not finished takes a step, or, when all
// have, the join.
func (ru *run) runArms(s *dstate, frames []dframe, arms []armState) {
	caller := &frames[len(frames)-1]
	fd := caller.p.forks[caller.node]
	all := true
	for i := range arms {
		a := &arms[i]
		if a.armDone() {
			continue
		}
		all = false
		if a.frames == nil {
			ru.actionArm(s, frames, arms, fd, i)
		} else {
			ru.armPath = append(ru.armPath, i)
			if a.arms != nil {
				ru.runArms(s, a.frames, a.arms)
			} else {
				ru.procArm(s, a)
			}
			ru.armPath = ru.armPath[:len(ru.armPath)-1]
		}
		if ru.x.stop {
			return
		}
	}
	if all {
		ru.join(s, frames, arms, fd)
	}
}

// actionArm runs action arm i of the stack frames: its step, on the
// caller's frame.
func (ru *run) actionArm(s *dstate, frames []dframe, arms []armState, fd *forkData, i int) {
	caller := &frames[len(frames)-1]
	cp := caller.p
	ru.actionFrames, ru.actionArms, ru.actionIdx = frames, arms, i
	ru.regsFrame = len(frames) - 1
	ru.x.r = ru.loadRegs(cp, ru.viewOf(s, ru.t), caller.vals)
	cp.code[fd.node.Arms[i].ID](&ru.x)
}

// actionArmCode is the code after an action arm's step: the arm is
// done, and the caller's frame holds what the step wrote.
func actionArmCode(cp *cproc) code {
	return func(x *exec) {
		ru := x.run
		g := ru.m.nglob()
		frames := append([]dframe(nil), ru.actionFrames...)
		top := &frames[len(frames)-1]
		top.vals = append([]int64(nil), x.r[g:g+len(cp.frame)]...)
		arms := append([]armState(nil), ru.actionArms...)
		arms[ru.actionIdx] = armState{done: true}
		ru.emitStack(x.r[:g], frames, arms)
	}
}

// procArm runs one transition of procedure arm a (at ru.armPath), as
// attempt runs a thread's.
func (ru *run) procArm(s *dstate, a *armState) {
	stack := &dthread{frames: a.frames}
	top := &a.frames[len(a.frames)-1]
	p := top.p
	ru.regsFrame = len(a.frames) - 1
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

// armWait ends a transition of the procedure arm at ru.armPath, which
// waits at node of p (a yield point, or its exit once it returned).
func (ru *run) armWait(x *exec, p *cproc, node int) {
	g := ru.m.nglob()
	frames := append(append([]dframe(nil), ru.below...), dframe{p: p, node: node, vals: append([]int64(nil), x.r[g:g+len(p.frame)]...)})
	ru.emitStack(x.r[:g], frames, nil)
}

// join ends the fork of the stack frames (at ru.armPath): the procedure
// arms' outputs go to the caller, which continues after the parallel
// call.
func (ru *run) join(s *dstate, frames []dframe, arms []armState, fd *forkData) {
	caller := &frames[len(frames)-1]
	cp := caller.p
	g := ru.m.nglob()
	for i, q := range fd.callee {
		if q == nil {
			continue
		}
		f := &arms[i].frames[0]
		ru.armPath = append(ru.armPath, i)
		ru.regsFrame = 0
		needSet(q, f.vals, q.rets)
		ru.armPath = ru.armPath[:len(ru.armPath)-1]
	}
	ru.regsFrame = len(frames) - 1
	regs := ru.loadRegs(cp, ru.viewOf(s, ru.t), caller.vals)
	for i, q := range fd.callee {
		if q == nil {
			continue
		}
		f := &arms[i].frames[0]
		for k, slot := range fd.outs[i] {
			regs[g+slot] = f.vals[q.rets[k]]
		}
	}
	ru.below = frames[:len(frames)-1]
	ru.x.r = regs
	cp.after[fd.node.ID](&ru.x)
}

// armWaitingFrames calls f with the top frame of every procedure arm's
// stack in the tree arms that does not wait at a fork, except the stack
// at path skip (nil: none): the sub-threads whose annotations other
// steps must preserve. An arm that returned waits at its exit, whose
// annotation (the ensures) the caller relies on at the join.
func armWaitingFrames(arms []armState, skip []int, f func(top *dframe)) {
	for i := range arms {
		a := &arms[i]
		if a.frames == nil {
			continue
		}
		var inner []int
		if len(skip) > 0 && skip[0] == i {
			if len(skip) == 1 {
				continue
			}
			inner = skip[1:]
		}
		if a.arms != nil {
			armWaitingFrames(a.arms, inner, f)
			continue
		}
		f(&a.frames[len(a.frames)-1])
	}
}

// forkError is the error of a model whose forks explore cannot run with
// the options given, at the first fork.
func (m *model) forkError(what string) error {
	return evalError{pos: m.forkPos, forks: true, msg: fmt.Sprintf("explore runs parallel calls with procedure arms with fragment atomicity and sequential consistency only (%s)", what)}
}

// appendArms encodes the arms of a stack: their number (0: the stack
// waits at no fork), then per arm 0 (an action arm to run), 1 (a
// finished action arm) or 2 plus the depth of a procedure arm's call
// stack, followed by its frames and, recursively, its own arms.
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
			b = appendArms(b, a.arms)
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
		arms[i].arms, vals = m.readArms(b, pos, vals)
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
			pos = m.skipArms(b, pos)
		}
	}
	return pos
}

// forkWhere says where a thread waiting at a fork is (trace.go): the
// parallel call, and where each arm is.
func (m *model) forkWhere(top dframe, arms []armState) string {
	fd := top.p.forks[top.node]
	return fmt.Sprintf("waits in the parallel call at line %d in %s (%s)", fd.node.Pos().Line, top.p.name, m.armsWhere(fd, arms))
}

// armsWhere says where each of arms, the arms of fork fd, is.
func (m *model) armsWhere(fd *forkData, arms []armState) string {
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
			y := f.p.yield[f.node]
			switch {
			case a.arms != nil:
				inner := f.p.forks[f.node]
				parts = append(parts, fmt.Sprintf("%s in its parallel call at line %d (%s)", name, inner.node.Pos().Line, m.armsWhere(inner, a.arms)))
			case y != nil && y.Kind == layers.YieldEntry:
				parts = append(parts, name+" at its entry")
			case y != nil:
				parts = append(parts, fmt.Sprintf("%s at line %d", name, y.Pos.Line))
			default:
				parts = append(parts, fmt.Sprintf("%s in %s", name, f.p.name))
			}
		}
	}
	return strings.Join(parts, ", ")
}

// RefusedForks reports whether err is Run's refusal to run a program
// with procedure arms under the options given (access atomicity, weak
// memory): a limit of explore, not a property of the program.
func RefusedForks(err error) bool {
	e, ok := err.(evalError)
	return ok && e.forks
}
