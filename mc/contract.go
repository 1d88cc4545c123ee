package mc

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// The client contract of a refinement check: in which state a client
// evaluates the specification's requires before it calls a method.
//
// The static checks (docs/checks.md, "client contract" and "The gate of
// the action") assume the top layer's requires in the real abstract state
// at the call: the one in which exactly the operations whose
// linearization point the implementation has passed have taken effect.
// The normalized specification state is a set of states, the real one
// among them, and the history of calls and returns does not tell which.
// Two rules that look only at the set are both wrong: allowing the call
// when some state allows it (angelic) lets a client call get() requiring
// C <= 1 while C is 2 and a pending set(0) has not happened yet, a false
// alarm; allowing it only when every state does (demonic) keeps a client
// from calling q() requiring y > x while an earlier q is pending but has
// not incremented x, and so hides a real violation
// (proofs/contract/broken/upper-gate-after-linearization.lip).
//
// So where the implementation lets us see the real state, we look:
//
//  1. The requires of method m is evaluated in the implementation's
//     current state, with the call's arguments, when
//     (a) everything it reads is visible at the explored layer: the same
//     global variables (the same lang.Object), constants, and m's
//     parameters, which every layer declares alike and are bound by
//     position (method.specGuard, compiled over the implementation's
//     registers); and
//     (b) no other thread is in the middle of a method that may write a
//     global the requires reads (quiet). A method in progress may have
//     left such a global in a state that no layer above has: Chase-Lev's
//     take decrements T and restores it, and at layer 0 H > T holds in
//     between, where the specification always has H <= T. With every
//     such method either finished or not started, the implementation's
//     values of what the requires reads are those of the real abstract
//     state: every operation that returned has taken effect, and none
//     that has not started has.
//     The client calls iff the requires holds there. The normalized
//     state is then narrowed to the states that allow the call; if none
//     does although the real state allows it, no linearization of the
//     history reaches a state where the call is allowed, and that is a
//     linearizability violation.
//  2. Otherwise (the requires reads a variable the layer does not have,
//     such as a lock's holder introduced at layer 1, or a method that may
//     write what it reads is in progress) the call is made only if every
//     state of the set allows it. This is conservative: it may leave out
//     calls that a client could make (a violation after them is then
//     missed), but it never makes a call that the real state might
//     forbid, so it raises no false alarm.
//
// Which rule applies depends on the method and on where the other
// threads are; specSide.step keys its memo on the rule too (real), and
// the implementation's state enters only through the decision to call,
// which run.clientCalls takes before it asks the specification.
//
// Partial-order reduction (por.go) sees the decision's dependencies: the
// globals the requires reads are in the footprint of the role's calls
// (guardReads), the normalized state changes only on calls and returns,
// which reduced sets exclude, and the only invisible transitions that
// change (b) are those that leave the entry of a method that may write
// what some requires of rule 1 reads (method.disturbing), which are
// never explored alone (explorer.ample). Symmetry reduction: (b) looks at
// every other thread alike, so it is the same for a state and its
// representative; restrictRealGates covers the requires itself.

// compileRealGates decides, for each method, whether the specification's
// requires can be evaluated in the implementation's state, and compiles
// it there if so (rule 1 above); the other methods get a note.
func (sp *specSide) compileRealGates() {
	impl := sp.impl
	var writes map[*cproc][]bool
	for _, mt := range impl.methods {
		smt := sp.methods[mt.idx]
		ir, why := sp.translateRequires(mt, smt)
		if ir == nil {
			impl.note("the requires of %s at layer %d reads %s, which layer %d does not have: a client calls %s only when every specification state the history can reach allows it (conservative: such calls may be left out)",
				mt.name, sp.m.layer.Num, why, impl.layer.Num, mt.name)
			continue
		}
		p := mt.proc
		mt.specIR = ir
		mt.specGuard = p.c.expr(ir)
		mt.specReads = impl.globalMask(ir)
		if len(p.regs) < p.c.nreg { // a quantifier's bound variables
			p.regs = make([]int64, p.c.nreg)
		}
		if writes == nil {
			writes = impl.globalWrites()
		}
		reads := impl.globalSlots(ir)
		mt.disturbedBy = make([]bool, len(impl.methods))
		for _, u := range impl.methods {
			for _, i := range reads {
				if writes[u.proc][i] {
					mt.disturbedBy[u.idx] = true
					u.disturbing = true
				}
			}
		}
	}
}

// translateRequires translates the requires of smt (the specification's
// method) over the frame of mt (the implementation's), or returns nil
// and the variables that the implementation's layer does not have.
func (sp *specSide) translateRequires(mt, smt *method) (obl.Expr, string) {
	impl := sp.impl
	sig, ssig := mt.proc.sig, smt.proc.sig
	visible := map[*lang.Object]bool{}
	for _, g := range impl.layer.Globals {
		visible[g] = true
	}
	env := mt.proc.env.Child()
	for i, p := range ssig.Params {
		if i < len(sig.Params) && sameParam(p, sig.Params[i]) {
			visible[p.Name.Obj] = true
			env.Set(p.Name.Obj, &obl.VarRef{V: mt.proc.frame[i]})
		}
	}
	var missing []string
	for _, e := range ssig.Requires {
		for o := range layers.ReadVars(e) {
			if !visible[o] {
				missing = append(missing, o.Name)
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, strings.Join(dedupStrings(missing), ", ")
	}
	ir := impl.b.Conj(ssig.Requires, env)
	own := map[*obl.Var]bool{}
	for _, v := range impl.gvars {
		own[v] = true
	}
	for _, v := range mt.proc.frame[:len(sig.Params)] {
		own[v] = true
	}
	for _, v := range obl.FreeVars(ir) {
		if !own[v] {
			return nil, v.Name
		}
	}
	return ir, ""
}

// globalSlots returns the global slots that e reads (any number of
// globals, unlike globalMask).
func (m *model) globalSlots(e obl.Expr) []int {
	slot := map[*obl.Var]int{}
	for i, v := range m.gvars {
		slot[v] = i
	}
	var out []int
	for _, v := range obl.FreeVars(e) {
		if i, ok := slot[v]; ok {
			out = append(out, i)
		}
	}
	return out
}

// globalWrites returns, per procedure, the global slots that it or a
// procedure it calls may write (actions called in steps are inlined in
// the steps).
func (m *model) globalWrites() map[*cproc][]bool {
	slot := map[*obl.Var]int{}
	for i, v := range m.gvars {
		slot[v] = i
	}
	own := map[*cproc][]bool{}
	for _, p := range m.procs {
		w := make([]bool, m.nglob())
		mark := func(c obl.Cmd) {
			for v := range obl.Assigned(c) {
				if i, ok := slot[v]; ok {
					w[i] = true
				}
			}
		}
		if p.lp == nil {
			mark(m.b.ActionBody(p.action, p.env, stepMode))
		}
		for _, n := range p.nodes {
			if n.Kind == layers.NodeStep || n.Kind == layers.NodePrivate {
				mark(m.b.Stmt(n.Stmt, p.env, stepMode))
			}
		}
		own[p] = w
	}
	all := map[*cproc][]bool{}
	for _, p := range m.procs {
		w := make([]bool, m.nglob())
		seen := map[*cproc]bool{p: true}
		work := []*cproc{p}
		for len(work) > 0 {
			q := work[len(work)-1]
			work = work[:len(work)-1]
			for i, b := range own[q] {
				w[i] = w[i] || b
			}
			for _, r := range q.callees() {
				if !seen[r] {
					seen[r] = true
					work = append(work, r)
				}
			}
		}
		all[p] = w
	}
	return all
}

// sameParam reports whether two parameters have the same name and type.
func sameParam(a, b *lang.Param) bool {
	return a.Name.Name == b.Name.Name &&
		layers.SortOf(a.Name.Obj.Type).String() == layers.SortOf(b.Name.Obj.Type).String()
}

func dedupStrings(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// callAllowed returns the states reached from ids by thread t's call of
// smt with args, or nil if the call is refused. Under rule 1 (real: the
// requires held in the implementation's state) the call keeps the states
// that allow it, and is refused only if none does, which the caller
// reports as a violation. Under rule 2 the client cannot tell which state
// of ids is the real one, and makes the call only if every one allows
// it. Every state of ids is tried even after one refuses: the states
// the tries meet are then the same whatever the numbering of ids (the
// order in which the workers of a parallel search met them), and so
// is the count of specification states reported.
func (sp *specSide) callAllowed(ids []uint32, t int, smt *method, args []int64, real bool) []uint32 {
	keep := func(e event) bool { return e.kind == evCall && e.m == smt && equal(e.args, args) }
	if real {
		if next := sp.apply(ids, t, keep); len(next) > 0 {
			return next
		}
		return nil
	}
	var next []uint32
	refused := false
	for _, id := range ids {
		out := sp.apply([]uint32{id}, t, keep)
		refused = refused || len(out) == 0
		next = append(next, out...)
	}
	if refused {
		return nil
	}
	return dedup(next)
}

// real reports whether thread t's call of mt from state s follows rule
// 1: the specification's requires is evaluated in s.
func (sp *specSide) real(s *dstate, t int, mt *method) bool {
	return mt.specGuard != nil && quiet(s, t, mt) && !othersBuffered(s, t)
}

// othersBuffered reports whether a thread other than t has buffered
// writes (weak memory): memory is then not the real state, so the
// specification's requires is not evaluated in the implementation's
// state.
func othersBuffered(s *dstate, t int) bool {
	for u := range s.th {
		if u != t && len(s.th[u].buf) > 0 {
			return true
		}
	}
	return false
}

// quiet reports whether no thread but t is in the middle of a method that
// may write a global that the specification's requires of mt reads.
func quiet(s *dstate, t int, mt *method) bool {
	for u := range s.th {
		th := &s.th[u]
		if u == t || th.idle() || notStarted(th) {
			continue
		}
		if mt.disturbedBy[th.frames[0].p.method.idx] {
			return false
		}
	}
	return true
}

// notStarted reports whether a thread waits at the entry of the method
// it called, before its first step.
func notStarted(th *dthread) bool {
	return len(th.frames) == 1 && th.frames[0].node == th.frames[0].p.entry
}

// specAllows reports whether a client makes the call of mt, whose frame
// is in ru.x.r, in a refinement check: whether the specification's
// requires allows it (see the rules above). A call that the
// implementation's state allows and no state of the normalized
// specification does is reported as a linearizability violation.
func (ru *run) specAllows(s *dstate, mt *method) bool {
	real := ru.spec.real(s, ru.t, mt)
	if real && mt.specGuard(ru.x.r) == 0 {
		return false
	}
	if ru.spec.step(s, ru.t, event{kind: evCall, m: mt, args: ru.ev.args}) != refused {
		return true
	}
	if real {
		ru.sink.fail(ru, ru.unexplainedCall(mt))
	}
	return false
}

// unexplainedCall describes a call that the specification's requires
// allows in the implementation's state and in no state the history can
// reach.
func (ru *run) unexplainedCall(mt *method) *Failure {
	m, sm := ru.m, ru.spec.methods[mt.idx]
	f := &Failure{Kind: "linearizability", Thread: ru.t, Msg: fmt.Sprintf(
		"%s calls %s(%s), which layer %d's requires allows in the implementation's state, but no linearization of the history so far reaches a state where it holds",
		m.threads[ru.t], mt.name, m.showArgs(mt, ru.ev.args), ru.spec.m.layer.Num)}
	if req := sm.proc.sig.Requires; len(req) > 0 {
		f.Pos = append(f.Pos, req[0].Pos())
	}
	f.Pos = append(f.Pos, mt.proc.sig.Name.P, sm.proc.sig.Name.P)
	return f
}

// restrictRealGates switches symmetry reduction off for a role of the
// implementation if the specification's requires, as evaluated in the
// implementation's state, could tell its threads apart. The requires is
// the one the specification's own symmetry analysis accepted
// (restrictSymmetry), translated with the same parameters, so this only
// repeats that verdict on the implementation's variables; it keeps the
// argument local: a symmetric role's identities appear in the guard only
// in comparisons with constants outside the role's range, the globals it
// reads are never permuted, so a thread and its image under a
// permutation of the role get the same decision.
func (sp *specSide) restrictRealGates() {
	for _, r := range sp.impl.roles {
		if !r.sym {
			continue
		}
		for _, cc := range r.calls {
			mt := cc.m
			if mt.specIR == nil {
				continue
			}
			tainted := map[*obl.Var]bool{}
			for i, v := range mt.proc.frame {
				if r.tainted[mt.proc][i] {
					tainted[v] = true
				}
			}
			if bad := badUse(mt.specIR, tainted, r); bad != "" {
				r.sym = false
				r.noSym = fmt.Sprintf("the requires of %s at layer %d uses its thread identity in %s", mt.name, sp.m.layer.Num, bad)
				break
			}
		}
	}
}
