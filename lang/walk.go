package lang

// Inspect visits the statements of stmts in depth-first order, entering
// blocks, steps, branches and loop bodies. If f returns false, the
// children of that statement are not visited.
func Inspect(stmts []Stmt, f func(Stmt) bool) {
	for _, s := range stmts {
		inspectStmt(s, f)
	}
}

func inspectStmt(s Stmt, f func(Stmt) bool) {
	if !f(s) {
		return
	}
	switch s := s.(type) {
	case *StepStmt:
		Inspect(s.Body, f)
	case *IfStmt:
		Inspect(s.Then.Stmts, f)
		if s.Else != nil {
			inspectStmt(s.Else, f)
		}
	case *BlockStmt:
		Inspect(s.Block.Stmts, f)
	case *ParCallStmt:
		Inspect(s.ArmStmts(), f)
		for _, y := range s.Yields {
			inspectStmt(y.Yield, f)
		}
	case *WhileStmt:
		Inspect(s.Body.Stmts, f)
	case *ChoiceStmt:
		for _, b := range s.Branches {
			Inspect(b.Stmts, f)
		}
	}
}

// InspectExpr visits e and its subexpressions in depth-first order. If f
// returns false, the children of that expression are not visited.
func InspectExpr(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *UnaryExpr:
		InspectExpr(e.X, f)
	case *BinaryExpr:
		InspectExpr(e.X, f)
		InspectExpr(e.Y, f)
	case *IndexExpr:
		InspectExpr(e.Map, f)
		InspectExpr(e.Key, f)
	case *UpdateExpr:
		InspectExpr(e.Map, f)
		InspectExpr(e.Key, f)
		InspectExpr(e.Val, f)
	case *CondExpr:
		InspectExpr(e.Cond, f)
		InspectExpr(e.Then, f)
		InspectExpr(e.Else, f)
	case *QuantExpr:
		InspectExpr(e.Body, f)
	case *OldExpr:
		InspectExpr(e.X, f)
	case *FieldExpr:
		InspectExpr(e.X, f)
	case *ConstMapExpr:
		InspectExpr(e.Val, f)
	case *SeqLitExpr:
		for _, x := range e.Elems {
			InspectExpr(x, f)
		}
	case *SliceExpr:
		InspectExpr(e.Seq, f)
		InspectExpr(e.Lo, f)
		InspectExpr(e.Hi, f)
	case *CallExpr:
		for _, a := range e.Args {
			InspectExpr(a, f)
		}
	}
}

// StmtExprs returns the expressions a statement contains directly (not
// those of nested statements).
func StmtExprs(s Stmt) []Expr {
	var es []Expr
	switch s := s.(type) {
	case *AssignStmt:
		for _, lv := range s.Lhs {
			es = append(es, lv.Indices()...)
		}
		es = append(es, s.Rhs...)
	case *AssumeStmt:
		es = append(es, s.Cond)
	case *AssertStmt:
		es = append(es, s.Cond)
	case *CallStmt:
		es = append(es, s.Args...)
	case *YieldStmt:
		if s.Ann != nil {
			es = append(es, s.Ann)
		}
	case *IfStmt:
		if s.Cond != nil {
			es = append(es, s.Cond)
		}
	case *WhileStmt:
		if s.Cond != nil {
			es = append(es, s.Cond)
		}
		es = append(es, s.Invariants...)
	}
	return es
}

// Conjuncts splits e at its top-level && operators (the parser keeps no
// parentheses, so (a && b) && c splits too).
func Conjuncts(e Expr) []Expr {
	if b, ok := e.(*BinaryExpr); ok && b.Op == OpAnd {
		return append(Conjuncts(b.X), Conjuncts(b.Y)...)
	}
	return []Expr{e}
}
