package lang

// StmtString renders a statement on one line, for messages: simple
// statements and calls as in the source, [ ] groups with their contents,
// compound statements by their header.
func StmtString(s Stmt) string {
	pre := moverPrefix(s)
	switch s := s.(type) {
	case *StepStmt:
		if simpleOnly(s.Body) {
			return pre + "[" + inlineStmts(s.Body) + "]"
		}
		return pre + "[ ... ]"
	case *IfStmt:
		return "if (" + condString(s.Cond) + ")"
	case *WhileStmt:
		return "while (" + condString(s.Cond) + ")"
	case *ChoiceStmt:
		return "choice"
	case *BlockStmt:
		return "{ ... }"
	}
	return pre + simpleString(s)
}

// FormatStmt renders a statement in full canonical form (several lines
// for compound statements), without comments. Two statements with the
// same FormatStmt are the same code.
func FormatStmt(s Stmt) string {
	p := &printer{}
	p.stmt(s)
	return p.out.String()
}
