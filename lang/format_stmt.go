package lang

import "strings"

// maxInlineStep is the widest line a [ ] group of simple statements is
// printed on; a longer group gets one statement per line.
const maxInlineStep = 100

func (p *printer) stmts(ss []Stmt) {
	for _, s := range ss {
		p.stmt(s)
	}
}

func moverPrefix(s Stmt) string {
	if m := s.base().Mover; m != MoverNone {
		return m.String() + " "
	}
	return ""
}

func (p *printer) stmt(s Stmt) {
	pre := moverPrefix(s)
	switch s := s.(type) {
	case *StepStmt:
		if text, ok := inlineGroup(s.Body); ok && len(pre)+len(text)+2+2*p.indent <= maxInlineStep {
			p.line(s.P, "%s[%s]", pre, text)
			return
		}
		p.line(s.P, "%s[", pre)
		p.indent++
		p.stmts(s.Body)
		p.indent--
		p.line(Pos{}, "]")
	case *IfStmt:
		p.ifStmt(s, pre)
	case *WhileStmt:
		p.whileStmt(s, pre)
	case *ChoiceStmt:
		p.line(s.P, "%schoice {", pre)
		for i, b := range s.Branches {
			if i > 0 {
				p.closeAnd(b, "} or {")
			}
			p.indent++
			p.stmts(b.Stmts)
			p.indent--
		}
		p.closeBrace1(s.Branches[len(s.Branches)-1].End)
	default:
		p.line(s.Pos(), "%s%s", pre, simpleString(s))
	}
}

// closeAnd prints the comments of the previous branch and a line like
// "} else {" that closes one block and opens the next, b.
func (p *printer) closeAnd(b *Block, text string) {
	p.indent++
	p.flushComments(b.P.Offset)
	p.indent--
	p.blank = false
	p.line(b.P, "%s", text)
}

// closeBrace1 closes a block whose contents were printed one level in.
func (p *printer) closeBrace1(end Pos) {
	p.indent++
	p.closeBrace(end)
}

func (p *printer) ifStmt(s *IfStmt, pre string) {
	p.line(s.P, "%sif (%s) {", pre, condString(s.Cond))
	p.ifRest(s)
}

func (p *printer) ifRest(s *IfStmt) {
	p.indent++
	p.stmts(s.Then.Stmts)
	p.indent--
	switch e := s.Else.(type) {
	case nil:
		p.closeBrace1(s.Then.End)
	case *IfStmt:
		p.closeAnd(&Block{P: e.P}, "} else if ("+condString(e.Cond)+") {")
		p.ifRest(e)
	case *BlockStmt:
		p.closeAnd(e.Block, "} else {")
		p.indent++
		p.stmts(e.Block.Stmts)
		p.indent--
		p.closeBrace1(e.Block.End)
	}
}

func (p *printer) whileStmt(s *WhileStmt, pre string) {
	if len(s.Invariants) == 0 {
		p.line(s.P, "%swhile (%s) {", pre, condString(s.Cond))
	} else {
		p.line(s.P, "%swhile (%s)", pre, condString(s.Cond))
		p.indent++
		for _, inv := range s.Invariants {
			p.line(inv.Pos(), "invariant %s;", ExprString(inv))
		}
		p.indent--
		p.line(s.Body.P, "{")
	}
	p.indent++
	p.stmts(s.Body.Stmts)
	p.indent--
	p.closeBrace1(s.Body.End)
}

func condString(e Expr) string {
	if e == nil {
		return "*"
	}
	return ExprString(e)
}

// inlineGroup renders the statements of a [ ] group on one line if they
// are simple statements, or ifs and choices of such, as in a CAS:
// [if (h == H) { H := h + 1; ok := true; } else { ok := false; }].
func inlineGroup(ss []Stmt) (string, bool) {
	var parts []string
	for _, s := range ss {
		text, ok := inlineStmt(s)
		if !ok {
			return "", false
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, " "), true
}

func inlineStmt(s Stmt) (string, bool) {
	switch s := s.(type) {
	case *AssignStmt, *HavocStmt, *AssumeStmt, *AssertStmt:
		return moverPrefix(s) + simpleString(s), true
	case *IfStmt:
		then, ok := inlineGroup(s.Then.Stmts)
		if !ok || moverPrefix(s) != "" {
			return "", false
		}
		text := "if (" + condString(s.Cond) + ") " + braced(then)
		switch e := s.Else.(type) {
		case nil:
			return text, true
		case *BlockStmt:
			els, ok := inlineGroup(e.Block.Stmts)
			return text + " else " + braced(els), ok
		default:
			els, ok := inlineStmt(e)
			return text + " else " + els, ok
		}
	}
	return "", false
}

func braced(text string) string {
	if text == "" {
		return "{ }"
	}
	return "{ " + text + " }"
}

// simpleOnly reports whether a step holds only simple statements, so
// that it fits on one line.
func simpleOnly(ss []Stmt) bool {
	for _, s := range ss {
		switch s.(type) {
		case *AssignStmt, *HavocStmt, *AssumeStmt, *AssertStmt:
		default:
			return false
		}
	}
	return true
}

func inlineStmts(ss []Stmt) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, moverPrefix(s)+simpleString(s))
	}
	return strings.Join(parts, " ")
}

// simpleString prints a statement that fits on one line.
func simpleString(s Stmt) string {
	switch s := s.(type) {
	case *AssignStmt:
		var lhs, rhs []string
		for _, lv := range s.Lhs {
			t := lv.Name.Name
			for _, sel := range lv.Sels {
				if sel.Field != nil {
					t += "." + sel.Field.Name
				} else {
					t += "[" + ExprString(sel.Index) + "]"
				}
			}
			lhs = append(lhs, t)
		}
		for _, e := range s.Rhs {
			rhs = append(rhs, ExprString(e))
		}
		return strings.Join(lhs, ", ") + " := " + strings.Join(rhs, ", ") + ";"
	case *HavocStmt:
		return "havoc " + identList(s.Vars) + ";"
	case *AssumeStmt:
		return "assume " + ExprString(s.Cond) + ";"
	case *AssertStmt:
		return "assert " + ExprString(s.Cond) + ";"
	case *YieldStmt:
		if s.Ann == nil {
			return "yield;"
		}
		return "yield " + ExprString(s.Ann) + ";"
	case *ReturnStmt:
		return "return;"
	case *BreakStmt:
		return "break;"
	case *FenceStmt:
		return "fence;"
	case *CallStmt:
		return "call " + armString(s) + ";"
	case *ParCallStmt:
		arms := make([]string, len(s.Written))
		for i, a := range s.Written {
			arms[i] = armString(a)
		}
		return "call " + strings.Join(arms, " | ") + ";"
	}
	return ""
}

// armString renders a call without its keyword and semicolon, as it
// appears in a call or in an arm of a parallel call: x, y := f(a, b).
func armString(s *CallStmt) string {
	var args []string
	for _, a := range s.Args {
		args = append(args, ExprString(a))
	}
	outs := ""
	if len(s.Outs) > 0 {
		outs = identList(s.Outs) + " := "
	}
	return outs + s.Callee.Name + "(" + strings.Join(args, ", ") + ")"
}
