package lang

import "slices"

// Checks of linear variables beyond parameters (docs/language.md §11):
// linear globals (pools of identities no thread holds), linear locals
// and outputs (identities a thread owns), and linear_in parameters
// (identities an action takes from its caller). The rules keep every
// identity in one place at a time: only actions, whose moves lipton
// checks (docs/checks.md, "linearity"), change a pool or fill a linear
// output; a procedure's linear locals and outputs change only by calls,
// and a variable passed to a linear_in parameter is empty after the
// call.

// linearSet checks that a linear variable other than a parameter has a
// set type [T]bool or is a linear map (its dom a set): such a variable
// can be emptied.
func (c *checker) linearSet(id *Ident, t Type, what string) {
	if t == nil {
		return
	}
	if _, isSet, _ := LinearDomain(t); !isSet {
		c.errorf(id.P, "linear %s %s has type %s: it must be a set of identities ([T]bool, T int, bool or an enumeration) or a linear map (a record { dom: [T]bool, val: [T]V })", what, id.Name, t)
	}
}

// checkLinearGlobal checks a linear global: a set, not ghost.
func (c *checker) checkLinearGlobal(d *VarDecl) {
	if !d.Linear {
		return
	}
	d.Name.Obj.Linear = true
	if d.Ghost {
		c.errorf(d.Name.P, "a linear variable cannot be ghost")
	}
	c.linearSet(d.Name, d.Name.Obj.Type, "global")
}

// checkLinearSig checks the linear marks of a member's outputs, locals
// and linear_in parameters.
func (c *checker) checkLinearSig(m Member) {
	sig := m.Sig()
	_, isAction := m.(*Action)
	for _, p := range sig.Params {
		// A type that is no linear type at all is reported once, by
		// checkMember.
		if _, _, ok := LinearDomain(p.Name.Obj.Type); p.LinearIn && ok {
			c.linearSet(p.Name, p.Name.Obj.Type, "parameter")
		}
	}
	for _, p := range sig.Returns {
		if p.Linear {
			if p.Ghost {
				c.errorf(p.Name.P, "a linear output cannot be ghost")
			}
			c.linearSet(p.Name, p.Name.Obj.Type, "output")
		}
	}
	for _, d := range sig.Locals {
		if !d.Linear {
			continue
		}
		for _, n := range d.Names {
			switch {
			case isAction:
				c.errorf(n.P, "linear locals are allowed in procedures only")
			case d.Ghost:
				c.errorf(n.P, "a linear variable cannot be ghost")
			default:
				c.linearSet(n, n.Obj.Type, "local")
			}
		}
	}
}

// holdLinearIns gives each linear_in parameter a of procedure m its
// held local (Signature.Held), which the name a denotes in m's body: a
// linear local that starts with the identities passed and is empty once
// m gives them away (to a linear_in parameter, or by a move). The
// parameter keeps the value passed, which the requires and the action m
// refines read. Called after the contract is resolved, before the
// locals are declared.
func (c *checker) holdLinearIns(m Member) {
	sig := m.Sig()
	sig.Held = nil
	if _, isProc := m.(*Proc); !isProc {
		return
	}
	for _, p := range sig.Params {
		o := p.Name.Obj
		if !p.LinearIn || o == nil {
			continue
		}
		held := &Object{Kind: ObjLocal, Name: "held(" + p.Name.Name + ")", Pos: p.Name.P, Type: o.Type, Linear: true}
		o.Held = held
		sig.Held = append(sig.Held, held)
		c.scope.names[p.Name.Name] = held
	}
}

// checkEnsuresLinearIn rejects an ensures clause of a procedure that
// reads a linear_in parameter: after the call the caller no longer holds
// those identities (its variable is empty), so the clause could not be
// read in the caller's state. A preserves clause is an ensures too:
// preserves Y(a), with Y's body a[i], would let the caller assume b[i]
// of the variable b it emptied (broken/preserves-linear-in.lip).
func (c *checker) checkEnsuresLinearIn(sig *Signature) {
	for _, e := range sig.Ensures {
		clause := "ensures"
		if slices.Contains(sig.Preserves, e) {
			clause = "preserves"
		}
		InspectExpr(e, func(x Expr) bool {
			if id, ok := x.(*Ident); ok && id.Obj != nil && id.Obj.Held != nil {
				c.errorf(id.P, "the %s of %s reads linear_in parameter %s, which its caller gives away at the call: state what the procedure returns in an output", clause, sig.Name.Name, id.Name)
			}
			return true
		})
	}
}

// linearWrite checks an assignment or havoc of o: a linear local only
// by a move (checked by linearMove), a linear global or output only in
// an action.
func (c *checker) linearWrite(id *Ident, o *Object) {
	if o == nil || !o.Linear {
		return
	}
	_, inAction := c.member.(*Action)
	switch {
	case o.Kind == ObjLocal:
		c.errorf(id.P, "linear local %s changes by calls and moves only: as the output of an action or procedure, as the target of a move (%s := b, b a linear variable), or emptied when passed to a linear_in parameter or moved", id.Name, id.Name)
	case o.Kind == ObjGlobal && !inAction:
		c.errorf(id.P, "linear %s %s is written by actions only, whose moves of identities lipton checks; call an action", kindName(o), id.Name)
	case !inAction:
		c.errorf(id.P, "linear %s %s is written by actions and by moves only (%s := b, b a linear local, output or linear_in parameter); call an action", kindName(o), id.Name, id.Name)
	}
}

// isMove reports whether s has the shape of a move in a procedure: one
// linear local or output, without selectors, := one identifier.
func (c *checker) isMove(s *AssignStmt) bool {
	if _, inProc := c.member.(*Proc); !inProc || len(s.Lhs) != 1 || len(s.Rhs) != 1 || len(s.Lhs[0].Sels) > 0 {
		return false
	}
	o := c.scope.lookup(s.Lhs[0].Name.Name)
	_, isIdent := s.Rhs[0].(*Ident)
	return isIdent && o != nil && o.Linear && (o.Kind == ObjLocal || o.Kind == ObjReturn)
}

// linearMove checks the source of move s (resolved): a linear variable
// the procedure owns, other than the target: a linear local or output,
// or a linear_in parameter (a linear parameter is only lent).
func (c *checker) linearMove(s *AssignStmt) {
	src := s.Rhs[0].(*Ident)
	dst := s.Lhs[0].Name
	switch o := src.Obj; {
	case o == nil:
		return
	case !o.Linear || o.Kind == ObjGlobal:
		c.errorf(src.P, "%s is linear and receives only identities a thread owns: move a linear local, output or linear_in parameter into it (%s := b), or call an action", dst.Name, dst.Name)
	case o.Kind == ObjParam:
		c.errorf(src.P, "cannot move linear parameter %s: the caller lends it for the call (a linear_in parameter can be moved)", src.Name)
	case o == dst.Obj:
		c.errorf(src.P, "%s is moved into itself", src.Name)
	default:
		s.Move = true
	}
}

// linearArg checks the argument a for linear parameter p of sig: a
// linear variable of the caller that it may lend (a parameter, local or
// output) or, for a linear_in parameter, give away (a local or output).
func (c *checker) linearArg(a Expr, p *Param, sig *Signature, used map[*Object]bool) {
	id, ok := a.(*Ident)
	switch {
	case !ok || id.Obj == nil || !id.Obj.Linear || id.Obj.Kind == ObjGlobal:
		c.errorf(a.Pos(), "argument %s of %s is linear: pass a linear parameter of the caller", p.Name.Name, sig.Name.Name)
	case p.LinearIn && id.Obj.Kind == ObjParam:
		c.errorf(a.Pos(), "argument %s of %s is linear_in: pass a linear local or output of the caller, which the call empties, or a linear_in parameter of the calling procedure (a linear parameter is lent by the caller's caller and cannot be given away)", p.Name.Name, sig.Name.Name)
	case used[id.Obj]:
		// A linear value cannot be duplicated: two linear
		// parameters of one call must receive different values.
		c.errorf(a.Pos(), "linear %s is passed twice in one call; a linear value cannot be duplicated", id.Name)
	default:
		used[id.Obj] = true
	}
}

// linearOut checks that output r of sig goes to o: a linear output to a
// linear local or output, and only a linear output to one (a linear
// variable never receives identities from nowhere).
func (c *checker) linearOut(out *Ident, o *Object, r *Param, sig *Signature) {
	switch {
	case r.Linear && !o.Linear:
		c.errorf(out.P, "output %s of %s is linear: assign it to a linear local or output", r.Name.Name, sig.Name.Name)
	case !r.Linear && o.Linear:
		c.errorf(out.P, "%s is linear, but output %s of %s is not: a linear variable receives only linear outputs", o.Name, r.Name.Name, sig.Name.Name)
	}
}

// checkPublicLinearIn rejects linear_in parameters of public methods: a
// client's linear values are its own for each call, so a call cannot
// give them away.
func (c *checker) checkPublicLinearIn() {
	public := map[string]bool{}
	for _, name := range c.info.PublicMethods() {
		public[name] = true
	}
	for _, li := range c.info.Layers {
		for _, m := range li.Layer.Members {
			sig := m.Sig()
			if !public[sig.Name.Name] {
				continue
			}
			for _, p := range sig.Params {
				if p.LinearIn {
					c.errorf(p.Name.P, "public method %s has a linear_in parameter %s: a client lends its linear values to each call, it cannot give them away", sig.Name.Name, p.Name.Name)
				} else if _, _, isMap := LinearMap(p.Name.Obj.Type); p.Linear && isMap {
					c.errorf(p.Name.P, "public method %s has a linear map parameter %s: a client gives identities and sets of them, not maps; let the method take its keys and values from a linear global map (docs/language.md, \"Linear maps\")", sig.Name.Name, p.Name.Name)
				}
			}
		}
	}
}
