package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// Thread binds the frame of the thread that executes step s: new
// variables named with suffix, shown under title.
func (b *Builder) Thread(env *Env, s *Step, suffix, title string) *Env {
	return b.Frame(env, s.Signature(), suffix, title)
}

// Body translates the transition of step s for the thread bound in env.
func (b *Builder) Body(s *Step, env *Env, m Mode) obl.Cmd {
	if s.Action != nil {
		return b.ActionBody(s.Action.Decl, env, m)
	}
	return b.Stmt(s.Stmt, env, m)
}

// Gate translates the gate of step s for the thread bound in env: the
// states from which the step cannot fail, and what is known to hold when
// it runs. For an action: its requires and asserts. For an inline step:
// its asserts, the conjuncts of the procedure's requires that read only
// parameters (parameters never change), and the annotation of the yields
// it directly follows (DESIGN §3).
func (b *Builder) Gate(s *Step, env *Env) obl.Expr {
	if s.Action != nil {
		return obl.WLP(b.ActionBody(s.Action.Decl, env, Mode{Check: true}), obl.Bool(true))
	}
	body := obl.WLP(b.Stmt(s.Stmt, env, Mode{Check: true}), obl.Bool(true))
	return obl.And(b.ParamFacts(s.Proc, env), b.Context(s, env), body)
}

// ParamFacts returns the conjuncts of p's requires that read only its
// parameters and constants: they hold throughout p.
func (b *Builder) ParamFacts(p *Proc, env *Env) obl.Expr {
	params := map[*obl.Var]bool{}
	for _, prm := range p.Decl.Params {
		params[env.Var(prm.Name.Obj)] = true
	}
	var keep []obl.Expr
	for _, c := range obl.Conjuncts(b.Conj(p.Decl.Requires, env)) {
		if b.OnlyVars(c, params) {
			keep = append(keep, c)
		}
	}
	return obl.And(keep...)
}

// OnlyVars reports whether every state variable e reads is in allowed.
// Uninterpreted constants are state variables of the obligation too, but
// they never change, so they are allowed.
func (b *Builder) OnlyVars(e obl.Expr, allowed map[*obl.Var]bool) bool {
	for _, v := range obl.FreeVars(e) {
		if !allowed[v] && !b.consts[v] {
			return false
		}
	}
	return true
}

// Context translates the annotation part of an inline step's gate: the
// disjunction, over the paths from yield points to the step, of the
// yield's annotation and the branch conditions, without the conjuncts
// about locals that private statements on the path overwrote.
func (b *Builder) Context(s *Step, env *Env) obl.Expr {
	if s.Context == nil {
		return obl.Bool(true)
	}
	var alts []obl.Expr
	for _, p := range s.Context.Paths {
		stale := map[*obl.Var]bool{}
		for o := range p.Assigned {
			stale[env.Var(o)] = true
		}
		facts := obl.Conjuncts(b.AnnotationAfter(p.Yield, env))
		for _, n := range p.Conds {
			if n.Cond != nil {
				facts = append(facts, b.condition(n, env))
			}
		}
		var fresh []obl.Expr
		for _, f := range facts {
			if !mentionsAny(f, stale) {
				fresh = append(fresh, f)
			}
		}
		alts = append(alts, obl.And(fresh...))
	}
	return obl.Or(alts...)
}

func (b *Builder) condition(n *Node, env *Env) obl.Expr {
	c := b.Expr(n.Cond, env)
	if n.Negated {
		return obl.Not(c)
	}
	return c
}

func mentionsAny(e obl.Expr, vs map[*obl.Var]bool) bool {
	for _, v := range obl.FreeVars(e) {
		if vs[v] {
			return true
		}
	}
	return false
}

// AnnotationAt translates what must hold when a thread reaches yield
// point y: its annotation and the layer's invariants; at a call, the
// callee's requires for the call's arguments.
func (b *Builder) AnnotationAt(y *YieldPoint, env *Env) obl.Expr {
	return obl.And(b.OwnAnnotationAt(y, env), b.Conj(InvariantsAt(y), env))
}

// InvariantsAt returns the layer's invariants that hold at yield point
// y: all of them, except at the entry and exit of a mover procedure,
// which are not yield points of the real program. A mover procedure is
// called inside its caller's fragment, where a step of the caller or a
// mover of another thread may have broken an invariant (it holds only
// where every thread waits at a yield point): assuming it at the entry
// would give the body's first steps a gate that does not hold there
// (proofs/moverproc/broken/entry-invariant.lip).
func InvariantsAt(y *YieldPoint) []lang.Expr {
	if y.Proc.Decl.Mover != lang.MoverNone {
		return nil
	}
	return y.Proc.Layer.Invariants
}

// OwnAnnotationAt is AnnotationAt without the layer's invariants: the
// yield point's own annotation (a callee's requires at a call).
func (b *Builder) OwnAnnotationAt(y *YieldPoint, env *Env) obl.Expr {
	if calls := y.Calls(); calls != nil {
		var es []obl.Expr
		for _, c := range calls {
			es = append(es, b.Conj(calleeOf(c).Requires, b.calleeEnvOf(c, env)))
		}
		return obl.And(append(es, b.yieldArmConj(y, env))...)
	}
	return b.Conj(y.Ann, env)
}

// AnnotationAfter translates what holds when a thread resumes after
// yield point y: like AnnotationAt, but after a call the callee's
// ensures (for the call's arguments and outputs), and at the entry the
// procedure holds what its linear_in parameters passed (the body starts
// in the step of the call).
func (b *Builder) AnnotationAfter(y *YieldPoint, env *Env) obl.Expr {
	if calls := y.Calls(); calls != nil {
		es := []obl.Expr{}
		for _, c := range calls {
			es = append(es, b.Conj(calleeOf(c).Ensures, b.calleeEnvOf(c, env)))
		}
		return obl.And(append(es, b.yieldArmConj(y, env), b.Conj(InvariantsAt(y), env))...)
	}
	if y.Kind == YieldEntry {
		return obl.And(b.AnnotationAt(y, env), heldAtEntry(&y.Proc.Decl.Signature, env))
	}
	return b.AnnotationAt(y, env)
}

// calleeEnv binds the callee's parameters to the call's arguments and
// its outputs to the call's targets. Arguments read only locals that the
// call does not assign (the checker ensures it), so they mean the same
// before and after the call; the one exception is a variable given to a
// linear_in parameter, which may receive an output (`call a := p(a)`):
// after the call that parameter is bound to the output, but no ensures
// reads a linear_in parameter (the checker rejects it), so only the
// requires, translated before the call, reads the value passed.
func (b *Builder) calleeEnv(y *YieldPoint, env *Env) *Env {
	return b.calleeEnvOf(y.Stmt.(*lang.CallStmt), env)
}

// calleeEnvOf is calleeEnv for one call, an arm of a parallel call with
// several procedure arms included.
func (b *Builder) calleeEnvOf(call *lang.CallStmt, env *Env) *Env {
	q := calleeOf(call)
	inner := env.Child()
	for i, p := range q.Params {
		inner.Set(p.Name.Obj, b.Expr(call.Args[i], env))
	}
	for i, r := range q.Returns {
		inner.Set(r.Name.Obj, env.Lookup(call.Outs[i].Obj))
	}
	// The callee's body starts after the call's yield, in a state the
	// caller does not know: its snapshots are arbitrary values.
	for _, s := range q.Olds {
		inner.Set(s.Snap, obl.Ref(b.NewVar(fmt.Sprintf("%s.%s.%d", s.Snap.Name, q.Name.Name, call.P.Line), SortOf(s.Snap.Type))))
	}
	return inner
}
