package lang

import "strings"

// Checks of mover procedures (docs/language.md, "Mover procedures"): a
// procedure with a mover type is one step of that type for its callers,
// so its body must be something one step can be: no yield points, no
// loops (a left mover must not block, and a loop might not end), no
// return or break, calls of actions and mover procedures only, and no
// recursion among mover procedures (the summary inlines the callees).

// moverProcBody reports what a mover procedure's body may not contain
// and makes its summary action.
func (c *checker) moverProcBody(p *Proc) {
	if p.Split != nil {
		c.errorf(p.Split.P, "mover procedure %s cannot be a split copy: a split copy has the yields of its original", p.Name.Name)
	}
	if p.Peel {
		c.errorf(p.PeelPos, "mover procedure %s cannot peel a loop: its body has no loops", p.Name.Name)
	}
	c.moverProcLinear(p)
	Inspect(p.Body.Stmts, func(s Stmt) bool {
		if why := notInMoverProc(s); why != "" {
			c.errorf(s.Pos(), "%s is not allowed in mover procedure %s: %s", stmtName(s), p.Name.Name, why)
		}
		if _, ok := s.(*WhileStmt); ok {
			return false // reported: its invariants and body do not matter
		}
		for _, e := range StmtExprs(s) {
			InspectExpr(e, func(x Expr) bool {
				if o, ok := x.(*OldExpr); ok {
					c.errorf(o.Pos(), "old is not allowed in the body of mover procedure %s: its body is one step, which reads the state before it directly (old may appear in its ensures)", p.Name.Name)
					return false
				}
				return true
			})
		}
		return true
	})
	sum := &Action{P: p.P, Mover: p.Mover, MoverPos: p.MoverPos, Signature: p.Signature, Body: p.Body, Of: p}
	// The ensures is proven of the procedure's body; callers run the
	// summary, which says exactly what the body does.
	sum.Ensures, sum.Preserves, sum.Public = nil, nil, false
	p.Summary = sum
}

// moverProcLinear reports linear locals and outputs of a mover procedure:
// they hold identities the procedure takes (linear outputs of actions)
// or gives away (linear_in), and a summary that moves identities is not
// supported (the linearity check covers actions, whose moves the
// summary would only compose).
func (c *checker) moverProcLinear(p *Proc) {
	for _, d := range p.Locals {
		if d.Linear {
			c.errorf(d.P, "a linear local is not allowed in mover procedure %s: mover procedures do not move identities (borrow them through linear parameters)", p.Name.Name)
		}
	}
	for _, prm := range p.Params {
		if prm.LinearIn {
			c.errorf(prm.Name.P, "linear_in parameter %s is not allowed in mover procedure %s: mover procedures do not move identities (borrow them through linear parameters)", prm.Name.Name, p.Name.Name)
		}
	}
	for _, r := range p.Returns {
		if r.Linear {
			c.errorf(r.Name.P, "linear output %s is not allowed in mover procedure %s: mover procedures do not move identities (borrow them through linear parameters)", r.Name.Name, p.Name.Name)
		}
	}
}

// notInMoverProc says why s cannot be in a mover procedure's body, or "".
func notInMoverProc(s Stmt) string {
	switch s.(type) {
	case *YieldStmt:
		return "its body is one step for its callers, so it has no yield points"
	case *WhileStmt:
		return "its body is one step, which must end (a left mover must never block), so it has no loops"
	case *ReturnStmt:
		return "its body is one step that runs to its end; use if/else instead of return"
	case *BreakStmt:
		return "its body has no loops"
	}
	return ""
}

// moverProcCall reports a call that a mover procedure may not make: of a
// procedure that yields.
func (c *checker) moverProcCall(s *CallStmt, callee Member) {
	caller, ok := c.member.(*Proc)
	if !ok || caller.Mover == MoverNone {
		return
	}
	if q, ok := callee.(*Proc); ok && q.Mover == MoverNone {
		c.errorf(s.Callee.P, "mover procedure %s cannot call procedure %s, which yields: a mover procedure may call actions and mover procedures only", caller.Name.Name, q.Name.Name)
	}
}

// isMoverProc reports whether m is a mover procedure.
func isMoverProc(m Member) bool {
	p, ok := m.(*Proc)
	return ok && p.Mover != MoverNone
}

// checkMoverRecursion reports mover procedures of layer li that call
// themselves, directly or through other mover procedures: the summary of
// a call inlines the callee's body, which must be finite.
func (c *checker) checkMoverRecursion(l *Layer) {
	calls := map[*Proc][]*Proc{}
	var movers []*Proc
	for _, m := range l.Members {
		p, ok := m.(*Proc)
		if !ok || p.Mover == MoverNone {
			continue
		}
		movers = append(movers, p)
		Inspect(p.Body.Stmts, func(s Stmt) bool {
			if cs, ok := s.(*CallStmt); ok && cs.Callee.Obj != nil {
				if q, ok := cs.Callee.Obj.Decl.(*Proc); ok && q.Mover != MoverNone {
					calls[p] = append(calls[p], q)
				}
			}
			return true
		})
	}
	state := map[*Proc]int{} // 0 new, 1 on the path, 2 done
	var path []string
	var visit func(p *Proc) bool
	visit = func(p *Proc) bool {
		state[p] = 1
		path = append(path, p.Name.Name)
		for _, q := range calls[p] {
			if state[q] == 1 {
				c.errorf(q.Name.P, "mover procedure %s is recursive (%s -> %s): a call of a mover procedure is one step made of its body, which must be finite",
					q.Name.Name, strings.Join(path, " -> "), q.Name.Name)
				return true
			}
			if state[q] == 0 && visit(q) {
				return true
			}
		}
		path = path[:len(path)-1]
		state[p] = 2
		return false
	}
	for _, p := range movers {
		if state[p] == 0 {
			path = path[:0]
			visit(p)
		}
	}
}

// CalledAction returns the action a call executes as one step: the
// callee if it is an action, its summary if it is a mover procedure, and
// nil for a call of a procedure that yields (or an unresolved call).
func CalledAction(s *CallStmt) *Action {
	if s.Callee.Obj == nil {
		return nil
	}
	switch d := s.Callee.Obj.Decl.(type) {
	case *Action:
		return d
	case *Proc:
		return d.Summary
	}
	return nil
}

// isMoverCallStmt reports whether s is a call of a mover procedure.
func isMoverCallStmt(s Stmt) bool {
	cs, ok := s.(*CallStmt)
	return ok && cs.Callee.Obj != nil && isMoverProc(memberOf(cs.Callee.Obj))
}

func memberOf(o *Object) Member {
	m, _ := o.Decl.(Member)
	return m
}
