package mc

import (
	"strings"

	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Dead-variable reduction.
//
// A frame variable is dead at a yield point when no path from there
// reads it before writing it. Two states that differ only in the values
// of dead variables have the same futures: every step, annotation and
// return reads the same values in both, so they reach the same failures
// and the same histories. The stored form of a state (the one the
// visited set compares) therefore writes a dead variable as its initial
// value; the state a thread resumes from, decoded from the stored form,
// holds that value, which nothing reads before the code overwrites it.
// SPIN resets dead locals the same way by default.
//
// Liveness is the classic backward analysis on the procedure's
// control-flow graph, built from the same per-node reads and writes as
// the definite-assignment analysis of uninit.go (nodeDefUse): a yield
// point reads its annotation (which interference checks evaluate while
// the thread waits there), a call reads its arguments and writes its
// outputs, the exit reads the outputs (and is reached from a return
// inside a private loop too: flowSuccs). Reads are over-approximated (a
// read under a branch counts), writes under-approximated (a write counts
// only when every path through the node makes it), so a variable is
// called dead only when it is.
//
// Left out, always live: linear variables (the linearity check compares
// their values across threads), the held locals of linear_in parameters,
// the temporaries of access atomicity (reset when their statement ends),
// the frames of actions, and every frame of a model with a parallel call
// with procedure arms (an arm writes its outputs into the caller's frame
// while the caller waits at the fork).
//
// The stored form must also be a function of the concrete state that
// the search's decoded states agree with, or a trace could not be
// replayed: a variable reset where the thread waited and not written
// since must be reset wherever it waits next. One liveness analysis over
// every place a thread waits gives that: if v is dead at w and nothing
// on the way to the next wait point w' must write it, v is dead at w'
// (live(n) ⊇ live(succ) − writes(n) along the way). Under access
// atomicity (and so weak memory) a thread also waits at pause points
// inside a cut step: there the analysis runs on the step's parts (the
// IR the step runs, stepIR), so a pause point's live set is that of the
// parts from it on, then the node's successors.
//
// Traces are unaffected: they are rebuilt on concrete states, which
// keep every value, and matched with the stored states by their stored
// form.

// findDead computes, for every yield point and pause point of a
// procedure, the frame slots dead there (cp.dead, by node ID, pause
// points after the nodes; nil where none is). It runs once the
// procedure is compiled: the pause points exist then.
func (m *model) findDead(cp *cproc) {
	p := cp.lp
	objs := cp.sig.Frame()
	tracked := map[*obl.Var]int{}
	for i, o := range objs {
		if !o.Linear {
			tracked[cp.frame[i]] = i
		}
	}
	for _, h := range cp.sig.Held {
		delete(tracked, cp.env.Var(h))
	}
	if len(tracked) == 0 {
		return
	}
	isTracked := func(v *obl.Var) bool { _, ok := tracked[v]; return ok }
	live := m.liveIn(cp, isTracked)
	cp.dead = make([][]int, len(p.Nodes)+len(cp.pauses))
	deadOf := func(l varSet) []int {
		var d []int
		for i := range objs {
			if j, ok := tracked[cp.frame[i]]; ok && j == i && !l[cp.frame[i]] {
				d = append(d, i)
			}
		}
		return d
	}
	for _, n := range p.Nodes {
		if n.IsYield() {
			cp.dead[n.ID] = deadOf(live[n.ID])
		}
	}
	for j, pp := range cp.pauses {
		sp := cp.splits[pp.node.ID]
		if sp == nil {
			// a fence: the thread waits before the node, which
			// touches no frame variable
			cp.dead[len(p.Nodes)+j] = deadOf(live[pp.node.ID])
			continue
		}
		parts := sp.parts[pp.part:]
		cmds := make([]obl.Cmd, len(parts))
		for i, part := range parts {
			cmds[i] = part.cmd
		}
		cp.dead[len(p.Nodes)+j] = deadOf(liveThrough(obl.Sequence(cmds...), liveAfter(pp.node.Succs, live), isTracked))
	}
}

// liveIn returns, per node ID, the tracked variables live on entry to
// the node, by a backward fixpoint: live(n) = reads(n) ∪ (live after n −
// writes(n)), where live after n is the union over n's successors
// (flowSuccs: the exit too after a private loop that may return).
func (m *model) liveIn(cp *cproc, tracked func(*obl.Var) bool) []varSet {
	p := cp.lp
	uses := make([]varSet, len(p.Nodes))
	defs := make([]varSet, len(p.Nodes))
	for _, n := range p.Nodes {
		du := &defUse{tracked: tracked, reads: varSet{}}
		if n.Kind == layers.NodeStep && cp.splits[n.ID] != nil {
			defs[n.ID] = du.cmd(m.stepIR(cp, n), varSet{}) // what the thread runs
		} else {
			defs[n.ID] = m.nodeDefUse(cp, n, du, varSet{})
		}
		uses[n.ID] = du.reads
	}
	succs := flowSuccs(p)
	live := make([]varSet, len(p.Nodes))
	for _, n := range p.Nodes {
		live[n.ID] = varSet{}
	}
	for changed := true; changed; {
		changed = false
		for i := len(p.Nodes) - 1; i >= 0; i-- {
			n := p.Nodes[i]
			in := uses[n.ID].clone()
			for v := range liveAfter(succs[n.ID], live) {
				if !defs[n.ID][v] {
					in[v] = true
				}
			}
			if !in.equal(live[n.ID]) {
				live[n.ID], changed = in, true
			}
		}
	}
	return live
}

// liveAfter returns the variables live after a node whose successors
// are succs: the union of their live sets.
func liveAfter(succs []*layers.Node, live []varSet) varSet {
	out := varSet{}
	for _, s := range succs {
		for v := range live[s.ID] {
			out[v] = true
		}
	}
	return out
}

// liveThrough returns the tracked variables live before c when after
// is live after it.
func liveThrough(c obl.Cmd, after varSet, tracked func(*obl.Var) bool) varSet {
	du := &defUse{tracked: tracked, reads: varSet{}}
	written := du.cmd(c, varSet{})
	in := du.reads.clone()
	for v := range after {
		if !written[v] {
			in[v] = true
		}
	}
	return in
}

// deadAt returns the slots of p's frame dead at node, a yield point or
// a pause point (nil: none).
func (p *cproc) deadAt(node int) []int {
	if node < len(p.dead) {
		return p.dead[node]
	}
	return nil
}

// deadUseful reports whether some procedure has a variable dead at some
// yield point.
func (m *model) deadUseful() bool {
	for _, p := range m.procs {
		for _, d := range p.dead {
			if len(d) > 0 {
				return true
			}
		}
	}
	return false
}

// deadNote names the variables dead at some yield point, for the notes
// of a search.
func (m *model) deadNote() string {
	var names []string
	for _, p := range m.procs {
		objs := p.sig.Frame()
		seen := map[int]bool{}
		for _, d := range p.dead {
			for _, i := range d {
				seen[i] = true
			}
		}
		for i, o := range objs {
			if seen[i] {
				names = append(names, p.name+"."+o.Name)
			}
		}
	}
	return "reset where dead: " + strings.Join(names, ", ")
}
