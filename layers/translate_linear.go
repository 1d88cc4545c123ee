package layers

import (
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// Moves of linear values in a procedure (docs/language.md, "Moves and
// linear_in on procedures"): a variable that gives its identities away,
// to a linear_in parameter of a call or by a move b := a, is empty after.
// A procedure's linear_in parameter keeps its value; in the body its name
// denotes its held local (lang.Signature.Held), which moves.

// GiveAway empties, after call s, the caller's variables passed to the
// linear_in parameters among params: the callee took their identities.
func GiveAway(s *lang.CallStmt, params []*lang.Param, env *Env) obl.Cmd {
	var cmds []obl.Cmd
	for i, p := range params {
		if !p.LinearIn || i >= len(s.Args) {
			continue
		}
		if id, ok := s.Args[i].(*lang.Ident); ok && !receives(s, id.Obj) {
			cmds = append(cmds, empty(id.Obj, env))
		}
	}
	return obl.Sequence(cmds...)
}

// GiveAwayAt is GiveAway for the calls of procedures at yield point y
// (the procedure arms of a parallel call, each), or nothing if y is not
// a call.
func GiveAwayAt(y *YieldPoint, env *Env) obl.Cmd {
	var cmds []obl.Cmd
	for _, c := range y.Calls() {
		cmds = append(cmds, GiveAway(c, calleeOf(c).Params, env))
	}
	return obl.Sequence(cmds...)
}

// move translates the move b := a: b receives what the procedure owns of
// a, and a is empty.
func (b *Builder) move(s *lang.AssignStmt, env *Env) obl.Cmd {
	src := s.Rhs[0].(*lang.Ident).Obj
	dst := env.Var(s.Lhs[0].Name.Obj)
	return obl.Sequence(obl.AssignOne(dst, env.Lookup(src)), empty(src, env))
}

// empty assigns the empty set to linear set o, or the empty domain to
// linear map o (its values are then no one's: they are not read, see
// docs/language.md, "Availability").
func empty(o *lang.Object, env *Env) obl.Cmd {
	if r, _, ok := lang.LinearMap(o.Type); ok {
		rs, i := RecordSortOf(r), r.FieldIndex("dom")
		none := obl.MapOf(rs.Fields[i].Sort.(*obl.MapSort), obl.Bool(false))
		return obl.AssignOne(env.Var(o), obl.WithField(env.Lookup(o), rs, i, none))
	}
	return obl.AssignOne(env.Var(o), obl.MapOf(SortOf(o.Type).(*obl.MapSort), obl.Bool(false)))
}

// takeHeld starts a procedure's held locals as the values of their
// linear_in parameters.
func (b *Builder) takeHeld(sig *lang.Signature, env *Env) obl.Cmd {
	a := &obl.Assign{}
	for _, p := range sig.Params {
		if h := p.Name.Obj.Held; h != nil {
			a.Lhs = append(a.Lhs, env.Var(h))
			a.Rhs = append(a.Rhs, env.Lookup(p.Name.Obj))
		}
	}
	if len(a.Lhs) == 0 {
		return obl.Sequence()
	}
	return a
}

// heldAtEntry is the fact that, at the entry of a procedure, its held
// locals hold the values of their linear_in parameters: the caller gave
// them at the call, and the body starts in the same step.
func heldAtEntry(sig *lang.Signature, env *Env) obl.Expr {
	var facts []obl.Expr
	for _, p := range sig.Params {
		if h := p.Name.Obj.Held; h != nil {
			facts = append(facts, obl.Eq(env.Lookup(h), env.Lookup(p.Name.Obj)))
		}
	}
	return obl.And(facts...)
}

// receives reports whether o is a target of call s's outputs, which the
// call sets after it takes the arguments: a variable given to a
// linear_in parameter and refilled by an output (`call a := p(a)`) holds
// the output after the call, not the empty set.
func receives(s *lang.CallStmt, o *lang.Object) bool {
	for _, out := range s.Outs {
		if out.Obj == o {
			return true
		}
	}
	return false
}

// HeldAtEntry is, at the entry yield point y of a procedure, the fact
// that its held locals hold the values of its linear_in parameters
// (heldAtEntry), and true at any other yield point. A thread waiting at
// the entry owns what its caller passed: until the body starts the set
// is in the caller's variable, the same thread's, so it is disjoint from
// every other thread's values and the pools, which is what this fact
// gives the obligations that open with the thread there.
func HeldAtEntry(y *YieldPoint, env *Env) obl.Expr {
	if y.Kind != YieldEntry {
		return obl.True()
	}
	return heldAtEntry(&y.Proc.Decl.Signature, env)
}
