package layers

import "github.com/lipton-dev/lipton/obl"

// wlp computes the weakest liberal precondition of a command for q by
// substitution. It is used for gates (q = true), where only the asserts
// of a step contribute; steps are small, so the formula stays small.
func wlp(c obl.Cmd, q obl.Expr) obl.Expr {
	switch c := c.(type) {
	case *obl.Assume:
		return obl.Implies(c.E, q)
	case *obl.Assert:
		return obl.And(c.E, q)
	case *obl.Assign:
		sub := map[*obl.Var]obl.Expr{}
		for i, v := range c.Lhs {
			sub[v] = c.Rhs[i]
		}
		return obl.Subst(q, sub)
	case *obl.Havoc:
		var touched []*obl.Var
		free := map[*obl.Var]bool{}
		for _, v := range obl.FreeVars(q) {
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
		sub := map[*obl.Var]obl.Expr{}
		var bound []*obl.Var
		for _, v := range touched {
			fresh := &obl.Var{Name: v.Name + "'", Sort: v.Sort}
			sub[v] = obl.Ref(fresh)
			bound = append(bound, fresh)
		}
		return obl.Forall(bound, obl.Subst(q, sub))
	case *obl.Choice:
		var parts []obl.Expr
		for _, br := range c.Branches {
			parts = append(parts, wlp(br, q))
		}
		return obl.And(parts...)
	case *obl.Seq:
		for i := len(c.Cmds) - 1; i >= 0; i-- {
			q = wlp(c.Cmds[i], q)
		}
		return q
	}
	return q
}
