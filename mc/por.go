package mc

import (
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Partial-order reduction by persistent sets at yield granularity.
//
// In a state s, the transitions of one thread t (all outcomes of its next
// fragment) are explored alone when:
//
//  1. the next fragment of t is independent of everything the other
//     threads may still do: it writes no global that another thread may
//     still read or write (in its code, its gates, or the annotations it
//     waits at or will reach), and reads no global another thread may
//     still write; the annotation t waits at counts as read by the move,
//     since after it the other threads can no longer invalidate it. What
//     a thread may still do is a static
//     over-approximation of the rest of its current call stack and, if it
//     has calls left, of every method its role calls;
//  2. the fragment writes no global read by the layer's invariants (a
//     property of every state);
//  3. it is invisible: in a refinement check it is neither a call nor a
//     return (reordering visible events would change the history);
//  4. it is progressing: it crosses no loop back edge and does not return
//     a thread without a call bound to its idle state. Each progressing
//     transition increases its thread's position (calls made, then the
//     positions of its frames in the loop-free order of the control-flow
//     graphs), which no other thread changes, so every cycle of the
//     reduced graph contains a non-progressing transition, which is only
//     taken in fully expanded states: the cycle proviso holds without
//     inspecting the search stack or queue;
//  5. t has at least one successor;
//  6. in a model whose linear values explore checks (checkLinear), it
//     changes none: it writes no linear global or linear frame variable
//     and gives or receives none at a procedure call. A duplicated
//     identity is a property of one state, like an invariant (2): two
//     threads' fragments that touch no common global may still both
//     hold one identity only in the states between them, which a
//     reduced set that ran one thread's fragments alone would skip
//     (proofs/linmap/broken/invent-por.lip).
//
// By (1) every transition of another thread from s onward commutes with
// t's and leaves them enabled with the same outcomes, so {t's transitions}
// is a persistent set; with (4) every failure reachable in the full graph
// is reachable in the reduced one (Godefroid's persistent sets with the
// cycle proviso), and with (3) the histories of calls and returns are
// preserved.
//
// The client contract of a refinement check (run.clientCalls and
// contract.go) makes a call's enabledness depend on the normalized
// specification state, on the implementation's globals, and on whether
// another thread is in the middle of a method that may write what the
// specification's requires reads. The normalized state changes only on
// calls and returns, which (3) keeps out of every reduced set, so t's
// invisible transitions neither enable nor disable another thread's call
// through it. The globals a client's decision reads — the
// implementation's requires, which decides between a call and a
// "contract" failure, and the specification's requires where it is
// evaluated in the implementation's state — are in the footprint of
// every method a role may call (guardReads), so (1) sees them. A thread
// enters or leaves the middle of a method only by its first step
// (invisible) or its return (visible, excluded by (3)); first steps of
// methods that matter there are never explored alone
// (startsDisturbing), so a reduced set cannot switch another thread's
// call between the rules either. Symmetry does not interfere: the rule
// treats every other thread alike.
//
// Access atomicity (access.go) cuts transitions finer: a thread may stop
// at a pause point inside a step statement, before an access. From a
// yield point a transition is then a prefix of the fragment, whose
// footprint over-approximates it; from a pause point it runs the rest of
// the step and at most the fragment after it, and next and rest of a
// pause point over-approximate that by the statement's footprint plus the
// fragment from its node. A pause point's position lies after its node's
// predecessors and before its successors in the loop-free order (and
// after the statement's earlier pause points), and a transition that
// crosses a back edge is non-progressing as before, so (4) still holds.

// fp is a footprint: the global slots read and written.
type fp struct{ r, w uint64 }

func (a fp) or(b fp) fp { return fp{a.r | b.r, a.w | b.w} }

// conflicts reports whether a transition with footprint a may not commute
// with one of footprint b.
func (a fp) conflicts(b fp) bool { return a.w&(b.r|b.w) != 0 || a.r&b.w != 0 }

// fragInfo describes the fragments that start somewhere.
type fragInfo struct {
	f    fp
	prog bool // every path is progressing
	ret  bool // some path reaches the procedure's exit
	lin  bool // some path may change a linear value (6)
}

// porInfo is the static analysis behind the reduction.
type porInfo struct {
	next   [][]fragInfo // per procedure and yield node: the next fragment
	after  [][]fragInfo // per procedure and call node: the fragment after the call returns
	rest   [][]fp       // per procedure and node: everything from there to the exit
	start  []fragInfo   // per role: starting a call
	role   []fp         // per role: everything a call may do
	roleOf []int
	// linear are the linear globals' and frames' variables, whose
	// changes (6) keeps out of reduced sets; callLin, per procedure and
	// call node, whether the call gives or receives linear values.
	linear  map[*obl.Var]bool
	callLin [][]bool
}

// porAnalysis returns the analysis, or nil (with m.porOff set) when the
// reduction does not apply.
func (m *model) porAnalysis() *porInfo {
	switch {
	case m.recursive:
		m.porOff = "a procedure may call itself"
		return nil
	case m.nglob() > 64:
		m.porOff = "more than 64 global variables"
		return nil
	}
	a := &porInfo{linear: m.linearVars()}
	slot := map[*obl.Var]int{}
	for i, v := range m.gvars {
		slot[v] = i
	}
	for _, p := range m.procs {
		n := len(p.start)
		a.next = append(a.next, make([]fragInfo, n))
		a.after = append(a.after, make([]fragInfo, n))
		a.rest = append(a.rest, make([]fp, n))
		a.callLin = append(a.callLin, make([]bool, n))
		if p.lp == nil {
			body := m.b.ActionBody(p.action, p.env, stepMode)
			f := cmdFootprint(body, slot)
			f.r |= p.annReads[1]
			a.next[p.idx][0] = fragInfo{f: f, prog: true, ret: true, lin: a.changesLinear(body)}
			a.rest[p.idx][0] = f
			a.rest[p.idx][1] = fp{r: p.annReads[1]}
			continue
		}
		m.analyzeProc(a, p, slot)
	}
	for _, p := range m.procs {
		if p.lp != nil {
			m.restOf(a, p, map[*cproc]bool{})
		}
	}
	for _, r := range m.roles {
		start := fragInfo{prog: true}
		var all fp
		for _, cc := range r.calls {
			p := cc.m.proc
			g := m.guardReads(cc.m)
			if cc.m.atomic {
				nx := a.next[p.idx][p.entry]
				start.f = start.f.or(nx.f).or(fp{r: g})
				start.lin = start.lin || nx.lin
				if r.max == 0 {
					start.prog = false
				}
			} else {
				start.f = start.f.or(fp{r: g | p.annReads[p.entry]})
			}
			all = all.or(fp{r: g}).or(a.rest[p.idx][p.entry])
		}
		a.start = append(a.start, start)
		a.role = append(a.role, all)
	}
	for _, t := range m.threads {
		for i, r := range m.roles {
			if t.role == r {
				a.roleOf = append(a.roleOf, i)
			}
		}
	}
	return a
}

// guardReads is the set of globals a client's decision to call mt
// reads: the method's requires and, in a refinement check, the
// specification's requires where it is evaluated in the implementation's
// state (contract.go).
func (m *model) guardReads(mt *method) uint64 {
	return m.globalMask(mt.requiresIR(m)) | mt.specReads
}

// cmdFootprint is the set of globals a command reads and writes.
func cmdFootprint(c obl.Cmd, slot map[*obl.Var]int) fp {
	var f fp
	for v := range obl.Reads(c) {
		if i, ok := slot[v]; ok {
			f.r |= 1 << i
		}
	}
	for v := range obl.Assigned(c) {
		if i, ok := slot[v]; ok {
			f.w |= 1 << i
		}
	}
	return f
}

// linearVars returns the variables whose values checkLinear compares:
// the linear globals and the linear variables of every frame; none if
// it compares none.
func (m *model) linearVars() map[*obl.Var]bool {
	vars := map[*obl.Var]bool{}
	if !m.linear || m.access {
		return vars
	}
	for i, g := range m.globals {
		if g.Linear {
			vars[m.gvars[i]] = true
		}
	}
	for _, p := range m.procs {
		for i, o := range p.sig.Frame() {
			if o.Linear {
				vars[p.frame[i]] = true
			}
		}
	}
	return vars
}

// changesLinear reports whether c may write a linear variable.
func (a *porInfo) changesLinear(c obl.Cmd) bool {
	for v := range obl.Assigned(c) {
		if a.linear[v] {
			return true
		}
	}
	return false
}

// nodeLinear reports whether node n of p may change a linear value: a
// step or private statement that writes a linear variable, a private
// loop of a procedure with linear variables (conservatively), or a call
// that gives or receives linear values or whose return drops some (the
// callee's linear locals). A callee's borrowed linear parameters hold
// what its caller holds, in the same thread: its return changes nothing
// checkLinear compares.
func (m *model) nodeLinear(a *porInfo, p *cproc, n *layers.Node) bool {
	if len(a.linear) == 0 {
		return false
	}
	switch n.Kind {
	case layers.NodeStep, layers.NodePrivate:
		return a.changesLinear(m.b.Stmt(n.Stmt, p.env, stepMode))
	case layers.NodePrivateLoop:
		for _, v := range p.frame {
			if a.linear[v] {
				return true
			}
		}
	case layers.NodeCall:
		q := p.callee[n.ID]
		for _, prm := range q.sig.Params {
			if prm.LinearIn {
				return true
			}
		}
		for _, r := range q.sig.Returns {
			if r.Linear {
				return true
			}
		}
		// Its return drops what its linear locals still hold.
		for _, d := range q.sig.Locals {
			if d.Linear {
				return true
			}
		}
	}
	return false
}

// analyzeProc computes the fragments of a procedure.
func (m *model) analyzeProc(a *porInfo, p *cproc, slot map[*obl.Var]int) {
	back := backEdges(p.lp)
	succs := flowSuccs(p.lp)
	nodeFP := make([]fp, len(p.nodes))
	nodeLin := make([]bool, len(p.nodes))
	for _, n := range p.nodes {
		nodeFP[n.ID] = m.nodeFootprint(p, n, slot)
		nodeLin[n.ID] = m.nodeLinear(a, p, n)
	}
	walk := func(from *layers.Node) fragInfo {
		info := fragInfo{prog: true}
		seen := map[*layers.Node]bool{}
		var visit func(n *layers.Node)
		visit = func(n *layers.Node) {
			for _, s := range succs[n.ID] {
				if back[[2]int{n.ID, s.ID}] {
					info.prog = false
				}
				if s.IsYield() {
					info.f.r |= p.annReads[s.ID]
					info.ret = info.ret || s.ID == p.exit
					continue
				}
				if !seen[s] {
					seen[s] = true
					info.f = info.f.or(nodeFP[s.ID])
					info.lin = info.lin || nodeLin[s.ID]
					visit(s)
				}
			}
		}
		visit(from)
		return info
	}
	for _, n := range p.nodes {
		if !n.IsYield() {
			continue
		}
		switch n.Kind {
		case layers.NodeCall:
			// The call's step gives the linear_in arguments (nextFrom),
			// its return receives the linear outputs.
			a.callLin[p.idx][n.ID] = nodeLin[n.ID]
			a.after[p.idx][n.ID] = walk(n)
			a.after[p.idx][n.ID].lin = a.after[p.idx][n.ID].lin || nodeLin[n.ID]
		case layers.NodeExit:
		case layers.NodeEntry:
			// the fragment from the entry first takes the snapshots of
			// old(e): it reads those globals
			info := walk(n)
			info.f = info.f.or(cmdFootprint(m.b.TakeOld(p.sig, p.env), slot))
			a.next[p.idx][n.ID] = info
		default:
			a.next[p.idx][n.ID] = walk(n)
		}
	}
	// From a pause point (access atomicity) a thread runs the rest of
	// its step and what follows, up to the next pause or yield point: at
	// most the step and the fragment after it.
	for i, ps := range p.pauses {
		info := walk(ps.node)
		info.f = info.f.or(nodeFP[ps.node.ID])
		a.next[p.idx][len(p.nodes)+i] = info
	}
}

// nodeFootprint is what a node that is not a yield point reads and
// writes.
func (m *model) nodeFootprint(p *cproc, n *layers.Node, slot map[*obl.Var]int) fp {
	switch n.Kind {
	case layers.NodeStep, layers.NodePrivate:
		return cmdFootprint(m.b.Stmt(n.Stmt, p.env, stepMode), slot)
	case layers.NodePrivateLoop:
		w := n.Stmt.(*lang.WhileStmt)
		var f fp
		for _, e := range append([]lang.Expr{w.Cond}, w.Invariants...) {
			if e != nil {
				f.r |= m.globalMask(m.b.Expr(e, p.env))
			}
		}
		return f
	}
	return fp{}
}

// backEdges finds the edges that close loops (depth-first from entry).
func backEdges(p *layers.Proc) map[[2]int]bool {
	back := map[[2]int]bool{}
	state := map[*layers.Node]int{}
	var visit func(n *layers.Node)
	visit = func(n *layers.Node) {
		state[n] = 1
		for _, s := range n.Succs {
			switch state[s] {
			case 0:
				visit(s)
			case 1:
				back[[2]int{n.ID, s.ID}] = true
			}
		}
		state[n] = 2
	}
	visit(p.Entry)
	return back
}

// restOf computes, for every node of p, the footprint of everything the
// thread may do from there to p's exit, callees included.
func (m *model) restOf(a *porInfo, p *cproc, done map[*cproc]bool) {
	if done[p] {
		return
	}
	done[p] = true
	for _, q := range p.callees() {
		m.restOf(a, q, done)
	}
	succs := flowSuccs(p.lp)
	for _, n := range p.nodes {
		var f fp
		seen := map[*layers.Node]bool{n: true}
		work := []*layers.Node{n}
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if x.IsYield() {
				f.r |= p.annReads[x.ID]
				f = f.or(a.next[p.idx][x.ID].f).or(a.after[p.idx][x.ID].f)
				if q := p.callee; q != nil && q[x.ID] != nil {
					f = f.or(a.rest[q[x.ID].idx][q[x.ID].entry])
				}
			}
			for _, s := range succs[x.ID] {
				if !seen[s] {
					seen[s] = true
					work = append(work, s)
				}
			}
		}
		a.rest[p.idx][n.ID] = f
	}
	for i, ps := range p.pauses {
		id := len(p.nodes) + i
		a.rest[p.idx][id] = a.next[p.idx][id].f.or(a.rest[p.idx][ps.node.ID])
	}
}

// ---- The reduction during the search ----

// nextFragment describes thread t's next transitions from s.
func (e *explorer) nextFragment(s *dstate, t int) (fragInfo, bool) {
	a := e.por0
	th := &s.th[t]
	r := e.m.threads[t].role
	if th.idle() {
		if r.max > 0 && th.calls >= r.max {
			return fragInfo{}, false
		}
		info := a.start[a.roleOf[t]]
		info.ret = true // a call is visible
		return info, true
	}
	top := &th.frames[len(th.frames)-1]
	p := top.p
	info, ok := e.nextFrom(th, top, r)
	// Moving t away from its yield point ends the checks of its
	// annotation against the other threads' steps: the annotation counts
	// as read by the move.
	info.f.r |= p.annReads[top.node]
	return info, ok
}

func (e *explorer) nextFrom(th *dthread, top *dframe, r *role) (fragInfo, bool) {
	a := e.por0
	p := top.p
	switch {
	case top.node == p.exit && len(th.frames) == 1:
		return fragInfo{prog: false, ret: true}, true
	case top.node == p.exit:
		caller := &th.frames[len(th.frames)-2]
		info := a.after[caller.p.idx][caller.node]
		info.ret = info.ret && len(th.frames) == 2
		return e.returning(info, r), true
	case p.isCall(top.node):
		q := p.callee[top.node]
		info := a.next[q.idx][q.entry]
		info.ret = false
		info.lin = info.lin || a.callLin[p.idx][top.node]
		return info, true
	}
	info := a.next[p.idx][top.node]
	info.ret = info.ret && len(th.frames) == 1
	return e.returning(info, r), true
}

// returning adjusts a fragment that may return from the thread's method:
// without a call bound, returning closes a cycle.
func (e *explorer) returning(info fragInfo, r *role) fragInfo {
	if info.ret && r.max == 0 {
		info.prog = false
	}
	return info
}

// future is everything thread t may still do from s.
func (e *explorer) future(s *dstate, t int) fp {
	a := e.por0
	th := &s.th[t]
	var f fp
	for _, fr := range th.frames {
		f = f.or(a.rest[fr.p.idx][fr.node])
	}
	r := e.m.threads[t].role
	if r.max == 0 || th.calls+1 < r.max || th.idle() && th.calls < r.max {
		f = f.or(a.role[a.roleOf[t]])
	}
	return f
}

// startsDisturbing reports whether thread t's next transitions start a
// method that may write what the specification's requires of some
// method reads where the implementation's state decides the client
// contract (contract.go, rule 1): starting it changes which rule applies
// to other threads' calls, so these transitions are not explored alone.
func startsDisturbing(s *dstate, t int) bool {
	th := &s.th[t]
	return !th.idle() && notStarted(th) && th.frames[0].p.method.disturbing
}

// ample tries to expand state i by one thread's transitions only; it
// returns the thread, or -1 if the state must be fully expanded.
func (e *explorer) ample(s *dstate, i int) int {
	n := len(s.th)
	if cap(e.futures) < n {
		e.futures = make([]fp, n)
	}
	fut := e.futures[:n]
	moverVisible := e.m.moverProcs && !e.m.access
	if moverVisible && someMid(s) {
		return -1 // no state is checked until the call ends (midfrag.go)
	}
	for u := range s.th {
		fut[u] = e.future(s, u)
	}
	for t := range s.th {
		info, ok := e.nextFragment(s, t)
		if !ok || !info.prog || e.spec != nil && (info.ret || startsDisturbing(s, t)) || info.f.w&e.m.invReads != 0 || info.lin {
			continue
		}
		indep := true
		for u := range s.th {
			if u != t && info.f.conflicts(fut[u]) {
				indep = false
				break
			}
		}
		if !indep {
			continue
		}
		e.gen(s, t)
		if e.failure != nil {
			e.failFrom = i
			return t
		}
		if len(e.succEnds) == 0 || moverVisible && e.succMid() {
			continue
		}
		e.stats.Reduced++
		e.insertAll(i)
		return t
	}
	return -1
}

// A call of a mover procedure is visible to the reduction: while a
// thread is at or inside one, explore checks no invariant or annotation
// (midfrag.go), so a step that starts or ends such a call changes which
// states are checked. The reduction never runs one thread alone in a
// state where some thread is inside such a call, nor when the thread's
// steps would take it into one: the other threads' steps from the
// state before would not be checked in the states after
// (TestPORMoverCallVisible).

// someMid reports whether a thread of s is at or inside a call of a
// mover procedure.
func someMid(s *dstate) bool {
	for u := range s.th {
		if midFragment(&s.th[u]) {
			return true
		}
	}
	return false
}

// succMid reports whether a successor in e.succ has a thread at or
// inside a call of a mover procedure. The reduction is off with forks
// and weak memory, so a thread's record is its calls and frames.
func (e *explorer) succMid() bool {
	n := len(e.succParts) / len(e.succEnds)
	start := 0
	for j, end := range e.succEnds {
		b, ends := e.succ[start:end], e.succParts[j*n:(j+1)*n]
		start = end
		for u := range e.m.threads {
			p := part(b, ends, u+1)
			pos := 0
			readUint(p, &pos) // calls
			frames, _ := e.m.readFrames(p, &pos, nil, nil)
			for i := range frames {
				if insideMover(&frames[i]) {
					return true
				}
			}
		}
	}
	return false
}
