package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// An annotation is checked as one assert per part, so that a failure
// says which part failed: the conjuncts the yield point states directly
// together with the layer's invariants, and each yield invariant it calls
// (docs/language.md, "Yield invariants"). An annotation that calls no
// yield invariant is one part, checked by one assert as before.

// annotationPart is a part of the annotation of a yield point.
type annotationPart struct {
	what  string // "the requires of put", "yield invariant Owns(tid), called in ..."
	exprs []obl.Expr
	pos   []lang.Pos // the call and the yield invariant's declaration; nil for the direct part
	// at, if set, are all the positions of the part's asserts: the arm
	// and the callee of a parallel call with several procedure arms.
	at []lang.Pos
}

// AnnotationPart is a part of the annotation of a yield point, for the
// model checker's messages: What describes it ("yield invariant
// Outside(tid), called in ..."), E is its condition, Pos its positions
// (nil: the yield point's).
type AnnotationPart struct {
	What string
	E    obl.Expr
	Pos  []lang.Pos
}

// AnnotationParts returns the parts of the annotation of y in env, in the
// order CheckAnnotation asserts them.
func (b *Builder) AnnotationParts(y *YieldPoint, env *Env) []AnnotationPart {
	var out []AnnotationPart
	for _, p := range b.annotationParts(y, env) {
		out = append(out, AnnotationPart{What: p.what, E: obl.And(p.exprs...), Pos: p.pos})
	}
	return out
}

// CheckAnnotation asserts the annotation of y (AnnotationAt) in env, one
// assert per part. msg builds an assert's message from the description
// of its part; pos are the positions of the message, the yield point's
// first (a yield invariant's call and declaration replace it).
func (b *Builder) CheckAnnotation(kind obl.Kind, y *YieldPoint, env *Env, msg func(what string) string, pos ...lang.Pos) obl.Cmd {
	return b.annotationAsserts(Mode{Check: true, Kind: kind}, y, env, msg, pos)
}

func (b *Builder) annotationAsserts(m Mode, y *YieldPoint, env *Env, msg func(string) string, pos []lang.Pos) obl.Cmd {
	var cmds []obl.Cmd
	for _, part := range b.annotationParts(y, env) {
		ps := pos
		switch {
		case part.at != nil:
			ps = part.at
		case part.pos == nil:
		case y.Kind == YieldCall:
			// The call is where the callee's requires must hold: it stays
			// first, the part's positions follow it.
			ps = append(append(append([]lang.Pos(nil), pos[:min(1, len(pos))]...), part.pos...), pos[min(1, len(pos)):]...)
		default:
			ps = append(append([]lang.Pos(nil), part.pos...), pos[min(1, len(pos)):]...)
		}
		cmds = append(cmds, assertion(m, obl.And(part.exprs...), msg(part.what), ps...))
	}
	return obl.Sequence(cmds...)
}

// annotationParts splits the annotation of y into its parts. The direct
// part comes first; it is left out only if it is empty and some yield
// invariant is called.
func (b *Builder) annotationParts(y *YieldPoint, env *Env) []annotationPart {
	if calls := y.Calls(); len(calls) > 1 {
		return append(append(b.parCallParts(y, calls, env), b.yieldArmParts(y, env)...), b.lateArmParts(y, env)...)
	}
	anns, annEnv := y.Ann, env
	if q := y.Callee(); q != nil {
		anns, annEnv = q.Requires, b.calleeEnv(y, env)
	}
	return append(append(b.partsOf(y, y.Describe(), anns, annEnv, env, true), b.yieldArmParts(y, env)...), b.lateArmParts(y, env)...)
}

// lateArmParts returns, at the procedures' yield point of a parallel
// call, the gate of each action arm written after its first procedure
// arm: the static checks run it after the procedures have returned, but
// it may run before they have started, so its gate must hold there too
// (and every step keeps it: movers, "Arm order"; a left mover's gate is
// kept by every step already).
func (b *Builder) lateArmParts(y *YieldPoint, env *Env) []annotationPart {
	if y.Par == nil {
		return nil
	}
	var out []annotationPart
	proc := false
	for _, arm := range y.Par.Arms {
		proc = proc || arm.Class == lang.ClassProcCall
		act := lang.CalledAction(arm)
		if !proc || arm.Class == lang.ClassProcCall || act == nil {
			continue
		}
		gate := obl.WLP(b.CallAction(arm, env, Mode{Check: true}), obl.Bool(true))
		if lit, ok := gate.(*obl.BoolLit); ok && lit == obl.True() {
			continue
		}
		out = append(out, annotationPart{
			what:  fmt.Sprintf("the gate of arm %s, written after the procedure arms of the parallel call at line %d (it may run before they start),", arm.Callee.Name, y.Pos.Line),
			exprs: []obl.Expr{gate},
			pos:   []lang.Pos{arm.P, act.P},
			at:    []lang.Pos{arm.P, act.P},
		})
	}
	return out
}

// yieldArmParts returns the parts of the annotation at the procedures'
// yield point of a parallel call that are its invariant arms: one per
// yield invariant called, in the caller's frame.
func (b *Builder) yieldArmParts(y *YieldPoint, env *Env) []annotationPart {
	var out []annotationPart
	for _, call := range YieldArmCalls(y) {
		decl := call.Func.Obj.Decl.(*lang.FuncDecl)
		out = append(out, annotationPart{
			what:  fmt.Sprintf("yield invariant %s, an arm of the parallel call at line %d in %s,", lang.ExprString(call), y.Pos.Line, y.Proc.Name()),
			exprs: []obl.Expr{b.Expr(call, env)},
			pos:   []lang.Pos{call.P, decl.P},
			at:    []lang.Pos{call.P, decl.P},
		})
	}
	return out
}

// YieldArmCalls returns the invariant arms of the parallel call whose
// procedure arms yield point y stands for; nil at other yield points.
func YieldArmCalls(y *YieldPoint) []*lang.CallExpr {
	if y.Par == nil {
		return nil
	}
	var out []*lang.CallExpr
	for _, py := range y.Par.Yields {
		out = append(out, py.Calls...)
	}
	return out
}

// yieldArmConj is the conjunction of the invariant arms at y (true if
// none), in the caller's frame env.
func (b *Builder) yieldArmConj(y *YieldPoint, env *Env) obl.Expr {
	var es []obl.Expr
	for _, call := range YieldArmCalls(y) {
		es = append(es, b.Expr(call, env))
	}
	return obl.And(es...)
}

// parCallParts returns the parts of the annotation at a parallel call
// with several procedure arms: the requires of each callee, each with
// its own positions (the arm and the callee), and the layer's
// invariants once.
func (b *Builder) parCallParts(y *YieldPoint, calls []*lang.CallStmt, env *Env) []annotationPart {
	var out []annotationPart
	for i, c := range calls {
		q := calleeOf(c)
		parts := b.partsOf(y, describeCall(y, c), q.Requires, b.calleeEnvOf(c, env), env, i == len(calls)-1)
		for j := range parts {
			if parts[j].pos == nil {
				parts[j].at = []lang.Pos{c.P, q.P}
			}
		}
		out = append(out, parts...)
	}
	return out
}

// partsOf splits annotation anns (in annEnv) of yield point y into its
// parts; what describes the direct part; withInv conjoins the layer's
// invariants (in env) to it.
func (b *Builder) partsOf(y *YieldPoint, what string, anns []lang.Expr, annEnv, env *Env, withInv bool) []annotationPart {
	direct := annotationPart{what: what}
	var calls []annotationPart
	var directPos []lang.Pos // of the direct part's first conjunct, once an annotation is split
	for _, a := range anns {
		if !callsYieldInv(a) {
			direct.exprs = append(direct.exprs, b.Expr(a, annEnv))
			directPos = append(directPos, a.Pos())
			continue
		}
		for _, k := range lang.Conjuncts(a) {
			call, ok := k.(*lang.CallExpr)
			if !ok || !isYieldInvCall(call) {
				direct.exprs = append(direct.exprs, b.Expr(k, annEnv))
				directPos = append(directPos, k.Pos())
				continue
			}
			decl := call.Func.Obj.Decl.(*lang.FuncDecl)
			calls = append(calls, annotationPart{
				what:  fmt.Sprintf("yield invariant %s, called in %s,", lang.ExprString(call), y.Describe()),
				exprs: []obl.Expr{b.Expr(call, annEnv)},
				pos:   []lang.Pos{call.P, decl.P},
			})
		}
	}
	invs := InvariantsAt(y)
	if !withInv {
		invs = nil
	}
	for _, inv := range invs {
		direct.exprs = append(direct.exprs, b.Expr(inv, env))
	}
	switch {
	case len(calls) > 0 && len(directPos) > 0:
		direct.pos = directPos[:1] // the yield point's position may be a yield invariant's call
	case len(directPos) == 0 && len(direct.exprs) > 0:
		// Only the layer's invariants are left (the yield point's own
		// annotation is true, or all yield invariant calls): name them
		// and point at them, after the yield point.
		direct.what = fmt.Sprintf("the invariants of layer %d, conjoined to %s,", y.Proc.Layer.Num, what)
		direct.pos = []lang.Pos{y.Pos}
		for _, inv := range invs {
			direct.pos = append(direct.pos, inv.Pos())
		}
	}
	if len(direct.exprs) == 0 && len(calls) > 0 {
		return calls
	}
	return append([]annotationPart{direct}, calls...)
}

// callsYieldInv reports whether a conjunct of e calls a yield invariant.
func callsYieldInv(e lang.Expr) bool {
	for _, k := range lang.Conjuncts(e) {
		if call, ok := k.(*lang.CallExpr); ok && isYieldInvCall(call) {
			return true
		}
	}
	return false
}

// isYieldInvCall reports whether call calls a yield invariant (not a
// function, a constructor or a built-in).
func isYieldInvCall(call *lang.CallExpr) bool {
	fi := call.Func.Obj.Func
	return fi != nil && fi.YieldInv
}
