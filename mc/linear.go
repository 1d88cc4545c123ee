package mc

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// poolClash checks the environment's side of linear types at a call of
// cc by thread ti, whose frame is in ru.x.r: the thread's linear values
// (its identity and its linear sets, as the instance gives them) are
// held by no linear global of the same domain. The static checks assume
// it at every call (docs/checks.md, "Linear values"); an instance that
// breaks it describes clients outside the contract, which is reported
// as an error rather than explored.
func (ru *run) poolClash(ti *threadInfo, cc *callChoice) *Failure {
	m := ru.m
	for gi, g := range m.globals {
		if !g.Linear {
			continue
		}
		dom, _, _ := lang.LinearDomain(g.Type)
		pool := ru.x.r[gi]
		for i, p := range cc.m.proc.sig.Params {
			if !p.Linear {
				continue
			}
			pd, _, _ := lang.LinearDomain(p.Name.Obj.Type)
			if pd == nil || dom == nil || !lang.Identical(pd, dom) {
				continue
			}
			for _, v := range ru.linearValues(ti, cc, i) {
				if m.maps.get(pool, v) != 0 {
					return &Failure{Kind: "error", Thread: ru.t, Pos: []lang.Pos{ti.role.decl.Role.P, g.Decl.Pos()}, Msg: fmt.Sprintf(
						"%s calls %s with %s holding %d, which the linear global %s holds: the instance must give its threads identities that no linear global holds",
						ti, cc.m.name, p.Name.Name, v, g.Name)}
				}
			}
		}
	}
	return nil
}

// linearValues returns the identities that parameter i of cc's method
// receives from thread ti: its identity, or the members of its set.
func (ru *run) linearValues(ti *threadInfo, cc *callChoice, i int) []int64 {
	if i == cc.tid {
		return []int64{ti.tid}
	}
	for _, s := range cc.sets {
		if s.param == i {
			td := ti.role.decl
			return td.Sets[s.set].Sets[ti.tid-td.Tids.Lo].Values()
		}
	}
	return nil
}

// linearItem is a linear value held in a state: by a variable of a
// thread's frame, or by a linear global (thread -1).
type linearItem struct {
	thread, frame int
	// arm is the path of the sub-thread that holds the item, in the
	// forks of the thread (mc/fork.go): "" for the thread's own stack,
	// "0/" for the first arm of its fork, "0/1/" for the second arm of
	// that arm's fork.
	arm  string
	obj  *lang.Object
	proc string // the frame's procedure; "" for a global
	typ  lang.Type
	val  int64
	pos  lang.Pos
}

// name says who holds the item, for a failure's message: built only
// then, since checkLinear runs in every state.
func (it linearItem) name(m *model) string {
	if it.thread < 0 {
		return "the linear global " + it.obj.Name
	}
	if it.arm != "" {
		return fmt.Sprintf("%s's %s (in %s, an arm of a parallel call)", m.threads[it.thread], it.obj.Name, it.proc)
	}
	return fmt.Sprintf("%s's %s (in %s)", m.threads[it.thread], it.obj.Name, it.proc)
}

// usesLinear reports whether the model has linear globals or linear
// sets in frames, which checkLinear then checks in every state. Linear
// identities alone are not checked: they are read-only parameters that
// a callee receives as they are, and the instance's identities are
// distinct (checked when the instance is read), so no run can
// duplicate one; checking them in every state cost several times the
// search itself.
func (m *model) usesLinear() bool {
	for _, g := range m.globals {
		if g.Linear {
			return true
		}
	}
	for _, p := range m.procs {
		for _, o := range p.sig.Frame() {
			if _, isSet, _ := lang.LinearDomain(o.Type); o.Linear && isSet {
				return true
			}
		}
	}
	return false
}

// checkLinear checks, independently of the static checks, what they
// assume of linear values (docs/checks.md, "Linear values") in the
// successor of s where thread ru.t has record rec and the globals are
// g: no identity is held by two threads, by two variables of one frame,
// or by a thread and a linear global. Frames of one thread may share
// (a callee borrows its caller's values). Not under access atomicity,
// where an action's moves are seen half done, nor for the identities of
// a role under symmetry reduction.
func (e *explorer) checkLinear(ru *run, s *dstate, g []int64, rec *dthread) *Failure {
	m := e.m
	if !m.linear || m.access {
		return nil
	}
	var items []linearItem
	for gi, o := range m.globals {
		if o.Linear {
			items = append(items, linearItem{thread: -1, obj: o, typ: o.Type, val: g[gi], pos: o.Decl.Pos()})
		}
	}
	for u := range s.th {
		th := &s.th[u]
		if u == ru.t {
			th = rec
		}
		// Under symmetry reduction a symmetric role's identities are
		// stored as its first one: they cannot be compared. They are the
		// instance's distinct identities, read-only, never computed.
		sym := e.sym && m.threads[u].role.sym
		items = stackLinearItems(items, u, "", th.frames, th.arms, sym)
	}
	for i, a := range items {
		for _, b := range items[i+1:] {
			if a.thread == b.thread && (a.thread < 0 || mayShare(a, b)) {
				continue
			}
			if v, ok := e.sharedIdentity(a, b); ok {
				return &Failure{Kind: "linearity", Thread: ru.t, Pos: []lang.Pos{b.pos, a.pos}, Msg: fmt.Sprintf(
					"after a step of %s, %s and %s both hold %d: an identity was duplicated", m.threads[ru.t], b.name(m), a.name(m), v)}
			}
		}
	}
	return nil
}

// stackLinearItems appends to items the linear values held by the
// frames of the stack at arm path arm of thread u, and by the stacks of
// the arms of the fork its top frame waits at, if any.
func stackLinearItems(items []linearItem, u int, arm string, frames []dframe, arms []armState, sym bool) []linearItem {
	for fi := range frames {
		f := &frames[fi]
		for i, o := range f.p.sig.Frame() {
			if _, isSet, _ := lang.LinearDomain(o.Type); sym && !isSet {
				continue
			}
			if o.Linear && o.Kind != lang.ObjGlobal && o.Held == nil { // a linear_in parameter: its held local holds its identities
				items = append(items, linearItem{thread: u, frame: fi, arm: arm, obj: o, proc: f.p.name, typ: o.Type, val: f.vals[i], pos: f.p.sig.Name.P})
			}
		}
	}
	for ai := range arms {
		if arms[ai].frames != nil {
			items = stackLinearItems(items, u, fmt.Sprintf("%s%d/", arm, ai), arms[ai].frames, arms[ai].arms, sym)
		}
	}
	return items
}

// mayShare reports whether two items of one thread may hold the same
// identity: they are in different frames of one chain of calls (a
// callee, or an arm of a fork, borrows its caller's values). Items of
// two arms that are not one the other's caller are like two threads'
// (the front end gives each linear value to one arm), and two
// variables of one frame never share.
func mayShare(a, b linearItem) bool {
	if a.arm == b.arm {
		return a.frame != b.frame
	}
	return strings.HasPrefix(a.arm, b.arm) || strings.HasPrefix(b.arm, a.arm)
}

// sharedIdentity returns an identity that linear values a and b both
// hold, if they are of one domain and share one.
func (e *explorer) sharedIdentity(a, b linearItem) (int64, bool) {
	da, setA, _ := lang.LinearDomain(a.typ)
	db, setB, _ := lang.LinearDomain(b.typ)
	if da == nil || db == nil || !lang.Identical(da, db) {
		return 0, false
	}
	t := e.m.maps
	switch {
	case !setA && !setB:
		return a.val, a.val == b.val
	case !setA:
		return a.val, t.get(b.val, a.val) != 0
	case !setB:
		return b.val, t.get(a.val, b.val) != 0
	}
	var keys []int64
	if n := finiteKeys(layers.SortOf(da)); n > 0 {
		keys = countTo(n)
	} else {
		if t.defaultOf(a.val) != 0 && t.defaultOf(b.val) != 0 {
			// Both hold all but finitely many ints: a common one beyond
			// their entries.
			return outsideEntries(t, a.val, b.val), true
		}
		for _, m := range []int64{a.val, b.val} {
			for _, kv := range t.entriesOf(m) {
				keys = append(keys, kv.k)
			}
		}
	}
	for _, k := range keys {
		if t.get(a.val, k) != 0 && t.get(b.val, k) != 0 {
			return k, true
		}
	}
	return 0, false
}

// outsideEntries returns an int that is a key of neither map's entries.
func outsideEntries(t *mapTable, a, b int64) int64 {
	k := int64(0)
	for _, m := range []int64{a, b} {
		for _, kv := range t.entriesOf(m) {
			k = max(k, kv.k+1)
		}
	}
	return k
}

// givenSlot is a caller's frame slot that a call of a procedure empties:
// a linear set passed to a linear_in parameter.
type givenSlot struct {
	slot  int
	empty int64 // the empty set
}

// giveAway returns frames with the caller's (the top frame's) slots in
// gives emptied: the callee owns their identities from the call on. The
// caller's values are copied, since states share them.
func giveAway(frames []dframe, gives []givenSlot) []dframe {
	if len(gives) == 0 {
		return frames
	}
	out := append([]dframe(nil), frames...)
	top := &out[len(out)-1]
	top.vals = append([]int64(nil), top.vals...)
	for _, g := range gives {
		top.vals[g.slot] = g.empty
	}
	return out
}
