package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// Mode says how the asserts of translated statements are treated.
type Mode struct {
	// Check keeps asserts (and the requires of called actions) as
	// asserts of kind Kind; otherwise they become assumes, for checks
	// where gates are known to hold.
	Check bool
	Kind  obl.Kind
	// Drop removes asserts altogether: the transition relation of a step
	// without its gate, as the commutativity check needs (gates are
	// assumed in the initial state only).
	Drop bool
}

// Assume is the mode for code whose gates are known to hold.
var Assume = Mode{}

// Transition is the mode for a step's transition relation without its
// gate.
var Transition = Mode{Drop: true}

// Pos converts a source position for the IR.
func Pos(p lang.Pos) obl.Pos { return obl.Pos{File: p.File, Line: p.Line, Col: p.Col} }

// assertion is an assert (in check mode), an assume of e, or nothing
// (in drop mode).
func assertion(m Mode, e obl.Expr, msg string, pos ...lang.Pos) obl.Cmd {
	if m.Drop {
		return obl.Sequence()
	}
	if !m.Check {
		return &obl.Assume{E: e}
	}
	a := &obl.Assert{E: e, Kind: m.Kind, Msg: msg}
	for _, p := range pos {
		a.Pos = append(a.Pos, Pos(p))
	}
	return a
}

// Stmts translates a statement list of an action body or a step.
func (b *Builder) Stmts(ss []lang.Stmt, env *Env, m Mode) obl.Cmd {
	var cmds []obl.Cmd
	for _, s := range ss {
		cmds = append(cmds, b.Stmt(s, env, m))
	}
	return obl.Sequence(cmds...)
}

// Stmt translates a statement that executes without yielding: a simple
// statement, a [ ] group, a branch or choice of such, or a call of an
// action (inlined).
func (b *Builder) Stmt(s lang.Stmt, env *Env, m Mode) obl.Cmd {
	switch s := s.(type) {
	case *lang.AssignStmt:
		if s.Move {
			return b.move(s, env)
		}
		a := b.assign(s, env)
		return obl.Sequence(b.defined(m, s.P, a.Rhs...), a)
	case *lang.HavocStmt:
		var vs []*obl.Var
		for _, id := range s.Vars {
			vs = append(vs, env.Var(id.Obj))
		}
		return &obl.Havoc{Vars: vs}
	case *lang.AssumeStmt:
		c := b.Expr(s.Cond, env)
		return obl.Sequence(b.defined(m, s.P, c), &obl.Assume{E: c})
	case *lang.AssertStmt:
		c := b.Expr(s.Cond, env)
		return obl.Sequence(b.defined(m, s.P, c), assertion(m, c, "this assertion may fail", s.P))
	case *lang.StepStmt:
		return b.Stmts(s.Body, env, m)
	case *lang.BlockStmt:
		return b.Stmts(s.Block.Stmts, env, m)
	case *lang.ParCallStmt:
		return b.Stmts(s.ArmStmts(), env, m) // textual order (docs/checks.md, "Parallel calls")
	case *lang.IfStmt:
		return b.ifStmt(s, env, m, b.Stmts, func(e lang.Stmt) obl.Cmd { return b.Stmt(e, env, m) })
	case *lang.ChoiceStmt:
		var brs []obl.Cmd
		for _, br := range s.Branches {
			brs = append(brs, b.Stmts(br.Stmts, env, m))
		}
		return &obl.Choice{Branches: brs}
	case *lang.CallStmt:
		return b.CallAction(s, env, m)
	case *lang.FenceStmt:
		return obl.Sequence() // sequential consistency: a fence does nothing
	}
	panic(fmt.Sprintf("layers: %T at %s cannot be translated as a non-yielding statement", s, s.Pos()))
}

// ifStmt translates an if with the given translations of its branches:
// a choice between the branches, each guarded by an assume.
func (b *Builder) ifStmt(s *lang.IfStmt, env *Env, m Mode,
	block func([]lang.Stmt, *Env, Mode) obl.Cmd, elseStmt func(lang.Stmt) obl.Cmd) obl.Cmd {
	then := block(s.Then.Stmts, env, m)
	var els obl.Cmd = obl.Sequence()
	if s.Else != nil {
		els = elseStmt(s.Else)
	}
	if s.Cond == nil {
		return &obl.Choice{Branches: []obl.Cmd{then, els}}
	}
	c := b.Expr(s.Cond, env)
	return obl.Sequence(b.defined(m, s.P, c), &obl.Choice{Branches: []obl.Cmd{
		obl.Sequence(&obl.Assume{E: c}, then),
		obl.Sequence(&obl.Assume{E: obl.Not(c)}, els),
	}})
}

// defined asserts, in check mode, that evaluating es divides by no zero
// and reads every sequence inside its bounds. Neither has a value in
// lipton's language (the model checker reports them as errors), so
// wherever a thread evaluates an expression the checks that follow its
// paths prove that they do not happen; the transition relations used
// elsewhere assume it.
func (b *Builder) defined(m Mode, pos lang.Pos, es ...obl.Expr) obl.Cmd {
	if !m.Check || m.Drop {
		return obl.Sequence()
	}
	var cmds []obl.Cmd
	for _, part := range obl.Partialities {
		var parts []obl.Expr
		for _, e := range es {
			parts = append(parts, part.Cond(e))
		}
		d := obl.And(parts...)
		if lit, ok := d.(*obl.BoolLit); ok && lit.V {
			continue
		}
		cmds = append(cmds, assertion(m, d, part.Msg, pos))
	}
	return obl.Sequence(cmds...)
}

func (b *Builder) assign(s *lang.AssignStmt, env *Env) *obl.Assign {
	a := &obl.Assign{}
	for i, lv := range s.Lhs {
		v := env.Var(lv.Name.Obj)
		val := b.Expr(s.Rhs[i], env)
		if len(lv.Sels) > 0 {
			val = b.updatePath(obl.Ref(v), lv.Name.Obj.Type, lv.Sels, val, env)
		}
		a.Lhs = append(a.Lhs, v)
		a.Rhs = append(a.Rhs, val)
	}
	return a
}

// updatePath is x, of type t, with the location the selectors reach
// (x[k1].f[k2]...) set to val: a map update for an index, a record
// built from x's other fields for a field.
func (b *Builder) updatePath(x obl.Expr, t lang.Type, sels []*lang.Selector, val obl.Expr, env *Env) obl.Expr {
	if len(sels) == 0 {
		return val
	}
	sel := sels[0]
	if sel.Field != nil {
		rt := t.(*lang.RecordType)
		rs := RecordSortOf(rt)
		inner := b.updatePath(obl.FieldOf(x, rs, sel.FieldIndex), rt.Fields[sel.FieldIndex].Type, sels[1:], val, env)
		return obl.WithField(x, rs, sel.FieldIndex, inner)
	}
	mt := t.(*lang.MapType)
	k := b.Expr(sel.Index, env)
	inner := b.updatePath(obl.Index(x, k), mt.Val, sels[1:], val, env)
	return obl.Update(x, k, inner)
}

// CallAction inlines a call of an action: the arguments are bound to
// fresh copies of the action's frame, the action's requires is checked
// (or assumed), its body runs, and its outputs are copied to the call's
// targets.
func (b *Builder) CallAction(s *lang.CallStmt, env *Env, m Mode) obl.Cmd {
	act := lang.CalledAction(s)
	inner := b.Frame(env, &act.Signature, "@"+act.Name.Name, "")
	var params []*obl.Var
	var args []obl.Expr
	for i, p := range act.Params {
		params = append(params, inner.Var(p.Name.Obj))
		args = append(args, b.Expr(s.Args[i], env))
	}
	cmds := []obl.Cmd{b.defined(m, s.P, args...), &obl.Assign{Lhs: params, Rhs: args}}
	if len(act.Requires) > 0 {
		msg := fmt.Sprintf("the requires of %s %s may not hold at this call", actionWord(act), act.Name.Name)
		cmds = append(cmds, assertion(m, b.Conj(act.Requires, inner), msg, s.P, act.Requires[0].Pos()))
	}
	body := b.Stmts(act.Body.Stmts, inner, m)
	if act.Of != nil {
		atCall(body, s, act.Name.Name)
	}
	cmds = append(cmds, body)
	cmds = append(cmds, GiveAway(s, act.Params, env))
	if len(s.Outs) > 0 {
		out := &obl.Assign{}
		for i, o := range s.Outs {
			out.Lhs = append(out.Lhs, env.Var(o.Obj))
			out.Rhs = append(out.Rhs, &obl.VarRef{V: inner.Var(act.Returns[i].Name.Obj)})
		}
		cmds = append(cmds, out)
	}
	return obl.Sequence(cmds...)
}

// atCall makes the asserts of a mover procedure's body, inlined at call
// s, point at the call first: the caller's check is what fails there,
// and the body's own check reports the assert where it is written.
func atCall(body obl.Cmd, s *lang.CallStmt, name string) {
	obl.InspectCmd(body, func(c obl.Cmd) {
		if a, ok := c.(*obl.Assert); ok {
			a.Pos = append([]obl.Pos{Pos(s.P)}, a.Pos...)
			a.Msg = fmt.Sprintf("%s (in mover procedure %s, called here)", a.Msg, name)
		}
	})
}

// actionWord names what a is in messages: an action, or the summary of
// a mover procedure.
func actionWord(a *lang.Action) string {
	if a.Of != nil {
		return "mover procedure"
	}
	return "action"
}

// ActionBody translates an action as a step executed by the thread whose
// frame is bound in env: its requires (checked or assumed) and its body.
func (b *Builder) ActionBody(a *lang.Action, env *Env, m Mode) obl.Cmd {
	var cmds []obl.Cmd
	if len(a.Requires) > 0 {
		msg := fmt.Sprintf("the requires of %s %s may not hold", actionWord(a), a.Name.Name)
		cmds = append(cmds, assertion(m, b.Conj(a.Requires, env), msg, a.Requires[0].Pos()))
	}
	cmds = append(cmds, b.Stmts(a.Body.Stmts, env, m))
	return obl.Sequence(cmds...)
}

// Check returns an assert of kind kind with a message and the source
// positions involved.
func Check(kind obl.Kind, e obl.Expr, msg string, pos ...lang.Pos) *obl.Assert {
	return assertion(Mode{Check: true, Kind: kind}, e, msg, pos...).(*obl.Assert)
}

// Distinct assumes that the linear values of two threads are disjoint,
// and disjoint from the linear globals among globals (the pools, which no
// thread holds): for every linear variable p of thread 1's frame
// (parameters, outputs, locals) and q of thread 2's of the same domain
// (lang.LinearDomain: an identity of type T and a set [T]bool are both
// of domain T), p != q for two identities, !q[p] for an identity and a
// set, and no common member for two sets; and the same between each
// thread's linear variables and each pool.
func Distinct(globals []*lang.Object, sig1 *lang.Signature, env1 *Env, sig2 *lang.Signature, env2 *Env) obl.Cmd {
	var facts []obl.Expr
	for _, p := range linearFrame(sig1) {
		for _, q := range linearFrame(sig2) {
			if f := disjoint(p.Type, env1.Lookup(p), q.Type, env2.Lookup(q)); f != nil {
				facts = append(facts, f)
			}
		}
	}
	facts = append(facts, poolFacts(globals, sig1, env1)...)
	facts = append(facts, poolFacts(globals, sig2, env2)...)
	return &obl.Assume{E: obl.And(facts...)}
}

// OwnLinearFacts is what one thread may assume of its linear variables
// at any point: they are pairwise disjoint, and disjoint from the linear
// globals (docs/checks.md, "Linear values").
func OwnLinearFacts(globals []*lang.Object, sig *lang.Signature, env *Env) obl.Expr {
	facts := poolFacts(globals, sig, env)
	own := linearFrame(sig)
	for i, p := range own {
		for _, q := range own[i+1:] {
			if f := disjoint(p.Type, env.Lookup(p), q.Type, env.Lookup(q)); f != nil {
				facts = append(facts, f)
			}
		}
	}
	return obl.And(facts...)
}

// poolFacts are the facts that the linear variables of sig's frame are
// disjoint from the linear globals among globals.
func poolFacts(globals []*lang.Object, sig *lang.Signature, env *Env) []obl.Expr {
	var facts []obl.Expr
	for _, g := range globals {
		pool := env.Lookup(g)
		if !g.Linear || pool == nil {
			continue
		}
		for _, p := range linearFrame(sig) {
			if f := disjoint(p.Type, env.Lookup(p), g.Type, pool); f != nil {
				facts = append(facts, f)
			}
		}
	}
	return facts
}

// linearFrame returns the linear variables of sig's frame that hold
// identities: not a procedure's linear_in parameters, whose identities
// their held locals (lang.Signature.Held) hold.
func linearFrame(sig *lang.Signature) []*lang.Object {
	var out []*lang.Object
	for _, o := range sig.Frame() {
		if o.Linear && o.Kind != lang.ObjGlobal && o.Held == nil {
			out = append(out, o)
		}
	}
	return out
}

// Disjoint is the fact that linear values a (of type ta) and b (of type
// tb) share no identity, or true if their domains differ.
func Disjoint(ta lang.Type, a obl.Expr, tb lang.Type, b obl.Expr) obl.Expr {
	if f := disjoint(ta, a, tb, b); f != nil {
		return f
	}
	return obl.True()
}

// Member is the fact that identity x is in linear value a of type t: x
// == a for an identity, a[x] for a set.
func Member(t lang.Type, a, x obl.Expr) obl.Expr {
	if _, isSet, _ := lang.LinearDomain(t); isSet {
		return obl.Index(IdentitySet(t, a), x)
	}
	return obl.Eq(a, x)
}

// IdentitySet is the set of identities that linear value a of type t
// holds when t is a set or a linear map: a itself, or a's dom.
func IdentitySet(t lang.Type, a obl.Expr) obl.Expr {
	if r, _, ok := lang.LinearMap(t); ok {
		return obl.FieldOf(a, RecordSortOf(r), r.FieldIndex("dom"))
	}
	return a
}

// disjoint is the fact that linear values a (of type ta) and b (of type
// tb) share no identity, or nil if their domains differ.
func disjoint(ta lang.Type, a obl.Expr, tb lang.Type, b obl.Expr) obl.Expr {
	if a == nil || b == nil {
		return nil
	}
	da, setA, okA := lang.LinearDomain(ta)
	db, setB, okB := lang.LinearDomain(tb)
	if !okA || !okB || !lang.Identical(da, db) {
		return nil
	}
	a, b = IdentitySet(ta, a), IdentitySet(tb, b)
	switch {
	case !setA && !setB:
		return obl.Ne(a, b)
	case !setA:
		return obl.Not(obl.Index(b, a))
	case !setB:
		return obl.Not(obl.Index(a, b))
	}
	x := &obl.Var{Name: "id", Sort: SortOf(da)}
	return obl.Forall([]*obl.Var{x}, obl.Not(obl.And(obl.Index(a, obl.Ref(x)), obl.Index(b, obl.Ref(x)))))
}
