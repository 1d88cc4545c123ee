package obl

// WLP computes the weakest liberal precondition of a command for q by
// substitution. It is used for gates (q = true), where only the asserts
// of a step contribute; steps are small, so the formula stays small.
func WLP(c Cmd, q Expr) Expr {
	switch c := c.(type) {
	case *Assume:
		return Implies(c.E, q)
	case *Assert:
		return And(c.E, q)
	case *Assign:
		sub := map[*Var]Expr{}
		for i, v := range c.Lhs {
			sub[v] = c.Rhs[i]
		}
		return Subst(q, sub)
	case *Havoc:
		var touched []*Var
		free := map[*Var]bool{}
		for _, v := range FreeVars(q) {
			free[v] = true
		}
		for _, v := range c.Vars {
			if free[v] {
				touched = append(touched, v)
			}
		}
		if len(touched) == 0 {
			return q
		}
		// Quantify over fresh copies: a quantifier must not bind a
		// variable of the obligation.
		sub := map[*Var]Expr{}
		var bound []*Var
		for _, v := range touched {
			fresh := &Var{Name: v.Name + "'", Sort: v.Sort}
			sub[v] = Ref(fresh)
			bound = append(bound, fresh)
		}
		return Forall(bound, Subst(q, sub))
	case *Choice:
		var parts []Expr
		for _, br := range c.Branches {
			parts = append(parts, WLP(br, q))
		}
		return And(parts...)
	case *Seq:
		for i := len(c.Cmds) - 1; i >= 0; i-- {
			q = WLP(c.Cmds[i], q)
		}
		return q
	}
	return q
}
