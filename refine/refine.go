package refine

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Check kinds of the refinement obligations.
const (
	StepAbstraction   obl.Kind = "step abstraction"
	ActionAbstraction obl.Kind = "action abstraction"
	MethodAbstraction obl.Kind = "method abstraction"
	Structure         obl.Kind = "refinement structure"
)

// Check returns the findings of layer l that are about more than one
// layer: the vacuity checks (vacuity.go) and, below the top layer, the
// refinement of layer l by layer l+1 with the client contract.
func Check(l *layers.Layer) layers.Findings {
	var f layers.Findings
	f.Obligations, f.Diagnostics = vacuityChecks(l)
	if l.Num == 0 {
		f.Diagnostics = append(f.Diagnostics, derivedAtBottom(l)...)
	}
	if prog := l.Program; l.Num+1 < len(prog.Layers) {
		obs, skipped, diags := refinement(prog, l.Num)
		f.Obligations = append(f.Obligations, obs...)
		f.Skipped = append(f.Skipped, skipped...)
		f.Diagnostics = append(f.Diagnostics, diags...)
	}
	return f.InLayer(l.Num)
}

// refinement returns the obligations and diagnostics that link layer l
// to layer l+1 (DESIGN §4.3): members are paired by name, and each pair
// gets the check its kinds call for.
func refinement(prog *layers.Program, l int) ([]*obl.Obligation, []layers.Skip, []*layers.Diagnostic) {
	r := &refiner{prog: prog, lower: prog.Layers[l], upper: prog.Layers[l+1]}
	copies := r.splitCopies()
	for _, up := range r.upper.Procs {
		if up.Decl.Peel && r.lower.Proc(up.Name()) == nil {
			r.fail(Peel, fmt.Sprintf("%s is declared peel, but layer %d has no procedure %s whose retry loop it peels", up.Name(), r.lower.Num, up.Name()), up.Decl.PeelPos)
		}
	}
	for _, p := range r.lower.Procs {
		if up := r.upper.Proc(p.Name()); up != nil {
			if !r.sameShape(p.Name(), &p.Decl.Signature, &up.Decl.Signature, p.Decl.P, up.Decl.P) {
				continue
			}
			if cs := copies[p.Name()]; len(cs) > 0 {
				r.splitProc(p, up, cs)
			} else if up.Decl.Peel {
				r.peelProc(p, up)
			} else {
				r.procToProc(p, up)
			}
		} else if a := r.upper.Action(p.Name()); a != nil {
			if r.sameShape(p.Name(), &p.Decl.Signature, &a.Decl.Signature, p.Decl.P, a.Decl.P) {
				r.procToAction(p, a)
			}
		}
	}
	for _, a := range r.lower.Actions {
		if up := r.upper.Action(a.Name()); up != nil {
			if r.sameShape(a.Name(), &a.Decl.Signature, &up.Decl.Signature, a.Decl.P, up.Decl.P) {
				r.actionToAction(a, up)
			}
		} else if p := r.upper.Proc(a.Name()); p != nil {
			r.fail(Structure, fmt.Sprintf("%s is an action at layer %d but a procedure at layer %d: an atomic action can only be refined by an action",
				a.Name(), r.lower.Num, r.upper.Num), a.Decl.P, p.Decl.P)
		}
	}
	r.clientContracts()
	return r.obs, r.skipped, r.diags
}

// derivedAtBottom reports split and peel clauses at layer 0, which has
// no layer below to derive a procedure from.
func derivedAtBottom(l *layers.Layer) []*layers.Diagnostic {
	var ds []*layers.Diagnostic
	for _, p := range l.Procs {
		switch {
		case p.Decl.Split != nil:
			ds = append(ds, &layers.Diagnostic{Check: Split, Layer: 0, Pos: []lang.Pos{p.Decl.Split.P},
				Msg: fmt.Sprintf("%s at layer 0 is declared a copy of %s, but layer 0 has no layer below to split", p.Name(), p.Decl.Split.Of.Name)})
		case p.Decl.Peel:
			ds = append(ds, &layers.Diagnostic{Check: Peel, Layer: 0, Pos: []lang.Pos{p.Decl.PeelPos},
				Msg: fmt.Sprintf("%s at layer 0 is declared peel, but layer 0 has no layer below whose loop it peels", p.Name())})
		}
	}
	return ds
}

type refiner struct {
	prog         *layers.Program
	lower, upper *layers.Layer
	obs          []*obl.Obligation
	skipped      []layers.Skip // obligations that hold by construction
	diags        []*layers.Diagnostic
}

func (r *refiner) fail(check obl.Kind, msg string, pos ...lang.Pos) {
	r.diags = append(r.diags, &layers.Diagnostic{Check: check, Layer: r.lower.Num, Msg: msg, Pos: pos})
}

// Variables introduced at the upper layer (visible there but not at the
// lower one) are abstract state that the implementation does not have:
// the refinement checks quantify their values at the lower layer's steps
// (any value before, some value after, DESIGN §4.3), so the layer that
// introduces a variable may assign it but not assume anything about it,
// and the layers above may. Ghost or not, they vanish from the ghost-
// erased implementation, which is layer 0.

// newAtUpper reports whether a global is visible at the upper layer but
// not at the lower one.
func (r *refiner) newAtUpper(g *lang.Object) bool { return g.Layers.Lo > r.lower.Num }

// bothGlobals returns the globals visible at either layer, in
// declaration order.
func (r *refiner) bothGlobals() []*lang.Object {
	var gs []*lang.Object
	for _, g := range r.prog.Info.Globals {
		lo, hi := g.Layers.Lo, g.Layers.Hi
		if lo <= r.upper.Num && hi >= r.lower.Num {
			gs = append(gs, g)
		}
	}
	return gs
}

// visibleAtUpper reports whether a global is visible at the upper layer.
func (r *refiner) visibleAtUpper(g *lang.Object) bool {
	return g.Layers.Lo <= r.upper.Num && r.upper.Num <= g.Layers.Hi
}

// frames binds the globals of both layers, the lower member's frame, and
// the upper member's frame with its variables matched by name to the
// lower ones (new variables for the others). It reports locals of the
// same name with different types.
func (r *refiner) frames(b *layers.Builder, lowerSig, upperSig *lang.Signature) (lower, upper *layers.Env, newVars map[*obl.Var]bool, ok bool) {
	env := b.GlobalsOf(r.bothGlobals(), "", "globals")
	lower = b.Frame(env, lowerSig, "", fmt.Sprintf("locals of %s (layer %d)", lowerSig.Name.Name, r.lower.Num))
	upper, newVars, ok = r.upperFrame(b, lower, lowerSig, upperSig)
	for _, g := range r.bothGlobals() {
		if r.newAtUpper(g) {
			newVars[env.Var(g)] = true
		}
	}
	return lower, upper, newVars, ok
}

// upperFrame binds the upper member's frame in a child of the lower
// frame, its variables matched by name to the lower ones (new variables
// for the others), and reports locals of the same name with different
// types.
func (r *refiner) upperFrame(b *layers.Builder, lower *layers.Env, lowerSig, upperSig *lang.Signature) (upper *layers.Env, newVars map[*obl.Var]bool, ok bool) {
	upper = lower.Child()
	newVars = map[*obl.Var]bool{}
	byName := map[string]*lang.Object{}
	for _, o := range lowerSig.Frame() {
		byName[o.Name] = o
	}
	ok = true
	for _, o := range upperSig.Frame() {
		if lo := byName[o.Name]; lo != nil {
			if !lang.Identical(lo.Type, o.Type) {
				r.fail(Structure, fmt.Sprintf("%s has type %s at layer %d but %s at layer %d", o.Name, lo.Type, r.lower.Num, o.Type, r.upper.Num), o.Pos, lo.Pos)
				ok = false
			}
			upper.Set(o, lower.Lookup(lo))
			continue
		}
		v := b.NewVar(o.Name+"@"+fmt.Sprint(r.upper.Num), layers.SortOf(o.Type))
		upper.Set(o, obl.Ref(v))
		newVars[v] = true
	}
	return upper, newVars, ok
}

// upperVars returns the IR variables visible at the upper layer: its
// globals and the upper frame.
func (r *refiner) upperVars(upper *layers.Env, sig *lang.Signature) []*obl.Var {
	var vs []*obl.Var
	for _, g := range r.bothGlobals() {
		if r.visibleAtUpper(g) {
			vs = append(vs, upper.Var(g))
		}
	}
	for _, o := range sig.Frame() {
		vs = append(vs, upper.Var(o))
	}
	return vs
}

// abstraction builds g_l(s) ∧ τ_l(s) ⇒ ∃ post-values of variables new
// at l+1. τ_{l+1}(s'): assume the gate, snapshot the upper variables, run
// the lower code, and assert the relation of the upper code between the
// snapshot and the current values of all but the new variables.
func (r *refiner) abstraction(b *layers.Builder, kind obl.Kind, msg string, gate obl.Expr, lowerCode, upperCode obl.Cmd,
	vars []*obl.Var, newVars map[*obl.Var]bool, pos []lang.Pos) (*obl.Obligation, error) {
	pre := map[*obl.Var]obl.Expr{}
	post := map[*obl.Var]obl.Expr{}
	snap := &obl.Assign{}
	for _, v := range vars {
		old := b.NewVar(v.Name+".old", v.Sort)
		snap.Lhs, snap.Rhs = append(snap.Lhs, old), append(snap.Rhs, obl.Ref(v))
		pre[v] = obl.Ref(old)
		if !newVars[v] {
			post[v] = obl.Ref(v)
		}
	}
	rel, err := obl.Relation(upperCode, pre, post)
	if err != nil {
		return nil, err
	}
	body := obl.Sequence(&obl.Assume{E: gate}, snap, lowerCode, layers.Check(kind, rel, msg, pos...))
	return b.Obligation(r.obName(kind, pos), kind, body), nil
}

func (r *refiner) obName(kind obl.Kind, pos []lang.Pos) string {
	name := fmt.Sprintf("l%d-%s", r.lower.Num, strings.ReplaceAll(string(kind), " ", "-"))
	for _, p := range pos {
		name += fmt.Sprintf("-%d", p.Line)
	}
	return name
}

// actionToAction checks that the upper action abstracts the lower one.
func (r *refiner) actionToAction(a, up *layers.Action) {
	if d := a.Step.TooComplex(ActionAbstraction); d != nil {
		r.diags = append(r.diags, d)
		return
	}
	b := layers.NewBuilder(r.prog)
	lower, upper, newVars, ok := r.frames(b, &a.Decl.Signature, &up.Decl.Signature)
	if !ok {
		return
	}
	// As for steps: both gates assumed, transitions compared without them.
	gate := obl.And(b.Gate(a.Step, lower), b.Gate(up.Step, upper))
	msg := fmt.Sprintf("action %s at layer %d does not abstract action %s at layer %d: from a state satisfying the lower gate, the lower action makes a move the upper one cannot",
		up.Name(), r.upper.Num, a.Name(), r.lower.Num)
	ob, err := r.abstraction(b, ActionAbstraction, msg, gate,
		b.Stmts(a.Decl.Body.Stmts, lower, layers.Transition), b.Stmts(up.Decl.Body.Stmts, upper, layers.Transition),
		r.upperVars(upper, &up.Decl.Signature), newVars, []lang.Pos{up.Decl.P, a.Decl.P})
	r.add(ob, err, ActionAbstraction, up.Decl.P)
	if k := r.procBelow(a.Name()); a.Public && k >= 0 && len(up.Decl.Requires) > 0 {
		r.obs = append(r.obs, r.upperGateHolds(a, up, k))
	}
}

// procBelow returns the highest layer below the lower one at which name
// is a procedure, or -1.
func (r *refiner) procBelow(name string) int {
	for k := r.lower.Num - 1; k >= 0; k-- {
		if r.prog.Layers[k].Proc(name) != nil {
			return k
		}
	}
	return -1
}

// upperGateHolds checks that the upper action's requires holds wherever
// the lower action happens, for a public action that is a procedure at
// layer k below. Action abstraction assumes the upper gate, and for an
// action that is atomic down to layer 0 rightly so: it happens at the
// client's call, where the top layer's requires, and by the client
// contract every layer's, holds. But this action happens at the
// linearization point of the procedure at layer k, which may come after
// the call, when only what method abstraction proved there holds: the
// lower action's gate. So that gate must imply the upper requires.
func (r *refiner) upperGateHolds(a, up *layers.Action, k int) *obl.Obligation {
	b := layers.NewBuilder(r.prog)
	lower, upper, _, _ := r.frames(b, &a.Decl.Signature, &up.Decl.Signature)
	facts := obl.And(b.Gate(a.Step, lower), b.Conj(r.lower.Invariants, lower), b.Conj(r.upper.Invariants, upper))
	msg := fmt.Sprintf("the requires of action %s at layer %d may not hold where %s happens: %s is a procedure at layer %d, whose linearization point may come after the client's call, and there only the gate of %s at layer %d is known to hold",
		up.Name(), r.upper.Num, a.Name(), a.Name(), k, a.Name(), r.lower.Num)
	body := obl.Sequence(&obl.Assume{E: facts}, layers.Check(ActionAbstraction, b.Conj(up.Decl.Requires, upper), msg, up.Decl.Requires[0].Pos(), a.Decl.P))
	return b.Obligation(fmt.Sprintf("l%d-upper-gate-%s", r.lower.Num, a.Name()), ActionAbstraction, body)
}

func (r *refiner) add(ob *obl.Obligation, err error, check obl.Kind, pos lang.Pos) {
	if err != nil {
		r.diags = append(r.diags, &layers.Diagnostic{Check: check, Layer: r.lower.Num, Unknown: true,
			Msg: fmt.Sprintf("cannot build the check: %v", err), Pos: []lang.Pos{pos}})
		return
	}
	r.obs = append(r.obs, ob)
}
