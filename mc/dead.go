package mc

import (
	"strings"

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
// outputs, the exit reads the outputs. Reads are over-approximated (a
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
// The reduction is off under access atomicity (and so weak memory),
// where a thread also waits at pause points inside a step. The stored
// form must be a function of the concrete state that the search's
// decoded states agree with: a variable reset at a yield point and not
// written since must be reset wherever the thread waits next, which
// needs liveness inside the cut steps; this analysis stops at nodes.
// At yield points it holds: if v is dead at y and no node on the way to
// the next yield point y' must write it, v is dead at y' (live(n) ⊇
// live(succ) − writes(n)), so both forms reset it.
//
// Traces are unaffected: they are rebuilt on concrete states, which
// keep every value, and matched with the stored states by their stored
// form.

// findDead computes, for every node of a procedure, the frame slots dead
// there (cp.dead, nil where none is).
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
	live := m.liveIn(cp, func(v *obl.Var) bool { _, ok := tracked[v]; return ok })
	cp.dead = make([][]int, len(p.Nodes))
	for _, n := range p.Nodes {
		if !n.IsYield() {
			continue // not a place where a frame waits
		}
		for i, o := range objs {
			if v := cp.frame[i]; !o.Linear && tracked[v] == i && !live[n.ID][v] {
				cp.dead[n.ID] = append(cp.dead[n.ID], i)
			}
		}
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
		defs[n.ID] = m.nodeDefUse(cp, n, du, varSet{})
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
			for _, s := range succs[n.ID] {
				for v := range live[s.ID] {
					if !defs[n.ID][v] {
						in[v] = true
					}
				}
			}
			if !in.equal(live[n.ID]) {
				live[n.ID], changed = in, true
			}
		}
	}
	return live
}

// deadAt returns the slots of p's frame dead at node (nil: none, or a
// pause point of access atomicity, where every slot is live).
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
