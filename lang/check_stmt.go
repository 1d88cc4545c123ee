package lang

import "fmt"

// stmtCtx says where a statement appears.
type stmtCtx struct {
	action bool // in the body of an action
	inStep bool // inside [ ... ]
	inLoop bool // inside the body of a while loop (break is allowed)
}

// where names the place for error messages.
func (s stmtCtx) where() string {
	if s.action {
		return "an action (an action is one atomic step)"
	}
	return "a step [...] (a step is atomic)"
}

func (c *checker) block(b *Block, sc stmtCtx) {
	for _, s := range b.Stmts {
		c.stmt(s, sc)
	}
}

// stmt checks one statement. Simple statements of procedures outside
// steps are classified as steps or private statements here.
func (c *checker) stmt(s Stmt, sc stmtCtx) {
	b := s.base()
	simple := isSimple(s)
	if simple && !sc.action && !sc.inStep {
		c.globalSeen = false
	}
	c.stmt1(s, sc)
	if simple && !sc.action && !sc.inStep {
		b.Class = ClassPrivate
		if c.globalSeen {
			b.Class = ClassStep
		}
	}
	c.checkMoverTag(s, sc)
}

func isSimple(s Stmt) bool {
	switch s.(type) {
	case *AssignStmt, *HavocStmt, *AssumeStmt, *AssertStmt, *StepStmt:
		return true
	}
	return false
}

func (c *checker) checkMoverTag(s Stmt, sc stmtCtx) {
	b := s.base()
	if b.Mover == MoverNone {
		return
	}
	switch {
	case sc.action:
		c.errorf(b.MoverPos, "mover tags go on the action itself, not on its statements")
	case sc.inStep:
		c.errorf(b.MoverPos, "mover tag inside a step: tag the whole step, as in %s [ ... ]", b.Mover)
	case b.Class == ClassActionCall && isMoverCallStmt(s):
		c.errorf(b.MoverPos, "a call has the mover type of the mover procedure it calls: put the tag on the procedure")
	case b.Class == ClassActionCall:
		c.errorf(b.MoverPos, "a call has the mover type of the action it calls: put the tag on the action")
	case b.Class == ClassPrivate:
		c.errorf(b.MoverPos, "mover tag on a private statement: it touches no global variable, so it is not a step (private statements always move); remove the tag")
	case b.Class != ClassStep:
		c.errorf(b.MoverPos, "a mover tag can only prefix a step (a statement or [ ... ] group that touches a global)")
	}
}

func (c *checker) stmt1(s Stmt, sc stmtCtx) {
	switch s := s.(type) {
	case *AssignStmt:
		c.assign(s)
	case *HavocStmt:
		c.havoc(s)
	case *AssumeStmt:
		c.expect(s.Cond, Bool, &exprCtx{layers: c.here(), ghostBan: "an assume"}, "an assume")
	case *AssertStmt:
		c.expect(s.Cond, Bool, &exprCtx{layers: c.here(), oldOK: !sc.action}, "an assert")
	case *IfStmt:
		c.ifStmt(s, sc)
	case *ChoiceStmt:
		for _, b := range s.Branches {
			c.block(b, sc)
		}
	case *BlockStmt:
		c.block(s.Block, sc)
	default:
		c.procStmt(s, sc)
	}
}

// procStmt checks the statements that only procedures have, outside
// steps.
func (c *checker) procStmt(s Stmt, sc stmtCtx) {
	if sc.action || sc.inStep {
		c.errorf(s.Pos(), "%s is not allowed in %s", stmtName(s), sc.where())
		return
	}
	switch s := s.(type) {
	case *StepStmt:
		c.block(&Block{Stmts: s.Body}, stmtCtx{inStep: true})
	case *YieldStmt:
		if s.Ann != nil {
			c.expect(s.Ann, Bool, c.annotationCtx(s.Ann, true), "a yield annotation")
		}
	case *WhileStmt:
		c.whileStmt(s, sc)
	case *CallStmt:
		c.callStmt(s)
	case *ParCallStmt:
		c.parCall(s)
	case *ReturnStmt:
	case *BreakStmt:
		if !sc.inLoop {
			c.errorf(s.P, "break outside a loop: break leaves the innermost enclosing while loop")
		}
	case *FenceStmt:
		s.Class = ClassPrivate
	}
}

func stmtName(s Stmt) string {
	switch s := s.(type) {
	case *StepStmt:
		return "a nested step [...]"
	case *YieldStmt:
		if s.Arms {
			return "an invariant arm (a yield point)"
		}
		return "yield"
	case *WhileStmt:
		return "a loop"
	case *CallStmt:
		return "a call"
	case *ParCallStmt:
		return "a parallel call"
	case *ReturnStmt:
		return "return"
	case *BreakStmt:
		return "break"
	case *FenceStmt:
		return "fence"
	}
	return fmt.Sprintf("%T", s)
}

func (c *checker) ifStmt(s *IfStmt, sc stmtCtx) {
	if s.Cond != nil {
		ctx := &exprCtx{layers: c.here(), ghostBan: "a branch condition"}
		if !sc.action && !sc.inStep {
			ctx.globalBan = "the condition of an if in a procedure (it may read locals only; read the global into a local in a step first)"
		}
		c.expect(s.Cond, Bool, ctx, "an if condition")
	}
	c.block(s.Then, sc)
	if s.Else != nil {
		c.stmt(s.Else, sc)
	}
}

func (c *checker) whileStmt(s *WhileStmt, sc stmtCtx) {
	if s.Cond != nil {
		ctx := &exprCtx{layers: c.here(), ghostBan: "a loop condition",
			globalBan: "a loop condition (it may read locals only; read the global into a local in a step first)"}
		c.expect(s.Cond, Bool, ctx, "a loop condition")
	}
	for _, inv := range s.Invariants {
		c.expect(inv, Bool, c.annotationCtx(inv, true), "a loop invariant")
	}
	body := sc
	body.inLoop = true
	c.block(s.Body, body)
	// A mover procedure has no loops at all, which is reported once.
	if hasStep(s.Body.Stmts) && !hasYield(s.Body.Stmts) && !isMoverProc(c.member) {
		c.errorf(s.P, "this loop's body contains a step but no yield: every iteration must pass a yield point (add a yield to the body)")
	}
}

// hasStep reports whether the statements contain a step.
func hasStep(stmts []Stmt) bool {
	found := false
	Inspect(stmts, func(s Stmt) bool {
		found = found || IsStep(s)
		return !found
	})
	return found
}

// hasYield reports whether the statements contain a yield or a call of a
// procedure (which yields).
func hasYield(stmts []Stmt) bool {
	found := false
	Inspect(stmts, func(s Stmt) bool {
		_, isYield := s.(*YieldStmt)
		found = found || isYield || s.base().Class == ClassProcCall
		return !found
	})
	return found
}
