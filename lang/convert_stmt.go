package lang

func (c *converter) stmts(gs []*gStmt) []Stmt {
	var out []Stmt
	for _, g := range gs {
		if s := c.stmt(g); s != nil {
			out = append(out, s)
		}
	}
	return out
}

func (c *converter) block(g *gBlock) *Block {
	return &Block{P: posOf(g.Pos), End: posOf(g.End.Pos), Stmts: c.stmts(g.Stmts)}
}

// stmt converts one statement; a misplaced local declaration is reported
// and dropped.
func (c *converter) stmt(g *gStmt) Stmt {
	if g.Local != nil {
		c.errs.Add(posOf(g.Local.Pos), "local variables must be declared at the start of the body, before the first statement")
		return nil
	}
	s := c.stmtBody(g)
	b := s.base()
	b.P = posOf(g.Pos)
	b.End = posOf(g.EndPos)
	if g.Mover != nil {
		b.Mover, b.MoverPos = moverOf(g.Mover.Kind), posOf(g.Mover.Pos)
		b.P = posOf(g.Mover.Pos)
	}
	return s
}

func (c *converter) stmtBody(g *gStmt) Stmt {
	switch {
	case g.Yield != nil:
		return &YieldStmt{Ann: c.optExpr(g.Yield.Ann)}
	case g.If != nil:
		return c.ifStmt(g.If)
	case g.While != nil:
		w := g.While
		s := &WhileStmt{Body: c.block(w.Body)}
		if !w.Star {
			s.Cond = c.expr(w.Cond)
		}
		for _, inv := range w.Invs {
			s.Invariants = append(s.Invariants, c.expr(inv))
		}
		return s
	case g.Choice != nil:
		s := &ChoiceStmt{Branches: []*Block{c.block(g.Choice.First)}}
		for _, b := range g.Choice.Rest {
			s.Branches = append(s.Branches, c.block(b))
		}
		return s
	case g.Return != nil:
		return &ReturnStmt{}
	case g.Break != nil:
		return &BreakStmt{}
	case g.Fence:
		return &FenceStmt{}
	case g.Call != nil && len(g.Call.Arms) > 0:
		return c.parCall(g.Call)
	case g.Call != nil:
		return c.call(g.Call)
	case g.Step != nil:
		return &StepStmt{Body: c.stmts(g.Step.Stmts)}
	case g.Havoc != nil:
		s := &HavocStmt{}
		for _, id := range g.Havoc {
			s.Vars = append(s.Vars, c.ident(id))
		}
		return s
	case g.Assume != nil:
		return &AssumeStmt{Cond: c.expr(g.Assume)}
	case g.Assert != nil:
		return &AssertStmt{Cond: c.expr(g.Assert)}
	default:
		return c.assign(g.Assign)
	}
}

func (c *converter) ifStmt(g *gIf) *IfStmt {
	s := &IfStmt{Then: c.block(g.Then)}
	if !g.Star {
		s.Cond = c.expr(g.Cond)
	}
	switch {
	case g.ElseIf != nil:
		e := c.ifStmt(g.ElseIf.If)
		e.P, e.End = posOf(g.ElseIf.Pos), posOf(g.ElseIf.EndPos)
		s.Else = e
	case g.Else != nil:
		b := c.block(g.Else)
		s.Else = &BlockStmt{StmtBase: StmtBase{P: b.P, End: b.End}, Block: b}
	}
	return s
}

func (c *converter) call(g *gCall) *CallStmt {
	return c.callArm(g.First, g.More, g.Callee, g.Args)
}

// callArm converts one call: the first name is the callee, or the first
// output when a callee follows.
func (c *converter) callArm(first *gIdent, more []*gIdent, callee *gIdent, args []*gExpr) *CallStmt {
	s := &CallStmt{}
	if callee == nil {
		s.Callee = c.ident(first)
	} else {
		s.Callee = c.ident(callee)
		for _, o := range append([]*gIdent{first}, more...) {
			s.Outs = append(s.Outs, c.ident(o))
		}
	}
	for _, a := range args {
		s.Args = append(s.Args, c.expr(a))
	}
	return s
}

// parCall converts a parallel call. Every arm starts at its first name
// (the call keyword is the statement's) and ends where the next begins.
func (c *converter) parCall(g *gCall) *ParCallStmt {
	first := c.call(g)
	first.P = posOf(g.First.Pos)
	first.End = posOf(g.Arms[0].Pos)
	s := &ParCallStmt{Arms: []*CallStmt{first}}
	for _, a := range g.Arms {
		arm := c.callArm(a.First, a.More, a.Callee, a.Args)
		arm.P, arm.End = posOf(a.Pos), posOf(a.EndPos)
		s.Arms = append(s.Arms, arm)
	}
	s.Written = s.Arms
	return s
}

func (c *converter) assign(g *gAssign) *AssignStmt {
	s := &AssignStmt{}
	for _, l := range g.Lhs {
		lv := &LValue{Name: c.ident(l.Name)}
		for _, sel := range l.Sels {
			if sel.Field != nil {
				lv.Sels = append(lv.Sels, &Selector{Field: c.ident(sel.Field)})
			} else {
				lv.Sels = append(lv.Sels, &Selector{Index: c.expr(sel.Index)})
			}
		}
		s.Lhs = append(s.Lhs, lv)
	}
	for _, r := range g.Rhs {
		s.Rhs = append(s.Rhs, c.expr(r))
	}
	return s
}
