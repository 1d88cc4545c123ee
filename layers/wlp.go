package layers

import "github.com/lipton-dev/lipton/vcgen"

// wlp computes the weakest liberal precondition of a command for q by
// substitution. It is used for gates (q = true), where only the asserts
// of a step contribute; steps are small, so the formula stays small.
func wlp(c vcgen.Cmd, q vcgen.Expr) vcgen.Expr {
	switch c := c.(type) {
	case *vcgen.Assume:
		return vcgen.Implies(c.E, q)
	case *vcgen.Assert:
		return vcgen.And(c.E, q)
	case *vcgen.Assign:
		sub := map[*vcgen.Var]vcgen.Expr{}
		for i, v := range c.Lhs {
			sub[v] = c.Rhs[i]
		}
		return vcgen.Subst(q, sub)
	case *vcgen.Havoc:
		var touched []*vcgen.Var
		free := map[*vcgen.Var]bool{}
		for _, v := range vcgen.FreeVars(q) {
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
		sub := map[*vcgen.Var]vcgen.Expr{}
		var bound []*vcgen.Var
		for _, v := range touched {
			fresh := &vcgen.Var{Name: v.Name + "'", Sort: v.Sort}
			sub[v] = vcgen.Ref(fresh)
			bound = append(bound, fresh)
		}
		return vcgen.Forall(bound, vcgen.Subst(q, sub))
	case *vcgen.Choice:
		var parts []vcgen.Expr
		for _, br := range c.Branches {
			parts = append(parts, wlp(br, q))
		}
		return vcgen.And(parts...)
	case *vcgen.Seq:
		for i := len(c.Cmds) - 1; i >= 0; i-- {
			q = wlp(c.Cmds[i], q)
		}
		return q
	}
	return q
}
