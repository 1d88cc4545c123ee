package layers

import "github.com/lipton-dev/lipton/lang"

// NodeKind is the kind of a control-flow graph node.
type NodeKind int

// Kinds of nodes.
const (
	NodeEntry       NodeKind = iota // procedure entry (a yield point)
	NodeExit                        // procedure exit (a yield point)
	NodeStep                        // an inline step or a call of an action
	NodePrivate                     // a private statement
	NodeCond                        // a branch taken: Cond (or its negation) holds; Cond nil for *
	NodeYield                       // yield e;
	NodeLoopHead                    // head of a loop whose body yields (a yield point)
	NodeCall                        // call of a procedure (a yield point)
	NodePrivateLoop                 // a loop of private statements only, summarized
	NodeJoin                        // where branches meet; no effect
	// NodeFork is a parallel call with a procedure arm in explore's graph
	// (ForExplore): the thread waits there while its arms run as
	// sub-threads, and continues with the successor once all returned.
	NodeFork
)

// Node is a node of a procedure's control-flow graph.
type Node struct {
	ID      int
	Kind    NodeKind
	Stmt    lang.Stmt
	Cond    lang.Expr // NodeCond: the branch condition, nil for *
	Negated bool      // NodeCond: the branch where Cond is false
	Step    *Step
	Yield   *YieldPoint
	Arm     bool // NodeStep: an arm of a parallel call
	// Arms, at a NodeFork, are the nodes of the fork's arms in textual
	// order: a NodeStep for an arm that calls an action, nil for one that
	// calls a procedure (its CallStmt is the fork's Stmt's arm).
	Arms []*Node
	// Par, at a NodeCall that is an arm of a parallel call, is that call.
	Par *lang.ParCallStmt

	Succs []*Node
	Preds []*Node
}

// IsYield reports whether the node is a yield point.
func (n *Node) IsYield() bool { return n.Yield != nil }

// ReturnsInside reports whether n is a private loop with a return
// inside: control then also goes from n to the procedure's exit, an
// edge the graph does not have (a private loop's successors are where
// the loop ends), which analyses of the graph must add.
func (n *Node) ReturnsInside() bool {
	if n.Kind != NodePrivateLoop {
		return false
	}
	found := false
	lang.Inspect([]lang.Stmt{n.Stmt}, func(s lang.Stmt) bool {
		_, ok := s.(*lang.ReturnStmt)
		found = found || ok
		return !found
	})
	return found
}

// Pos returns the source position of the node.
func (n *Node) Pos() lang.Pos {
	if n.Stmt != nil {
		return n.Stmt.Pos()
	}
	if n.Yield != nil {
		return n.Yield.Pos
	}
	return lang.Pos{}
}

// cfgBuilder builds the control-flow graph of one procedure.
type cfgBuilder struct {
	proc *Proc
	// allOrders makes a parallel call branch over every order of its
	// arms (explore's graph) instead of running them in textual order.
	allOrders bool
	// breaks collects, for each loop being built (innermost last), the
	// nodes that leave it by a break.
	breaks [][]*Node
}

func (b *cfgBuilder) node(kind NodeKind, s lang.Stmt) *Node {
	n := &Node{ID: len(b.proc.Nodes), Kind: kind, Stmt: s}
	b.proc.Nodes = append(b.proc.Nodes, n)
	return n
}

func link(from []*Node, to *Node) {
	for _, f := range from {
		f.Succs = append(f.Succs, to)
		to.Preds = append(to.Preds, f)
	}
}

// buildCFG builds p's graph: entry, the body, exit.
func (b *cfgBuilder) buildCFG() {
	p := b.proc
	p.Entry = b.node(NodeEntry, nil)
	p.Exit = &Node{Kind: NodeExit}
	ends := b.stmts(p.Decl.Body.Stmts, []*Node{p.Entry})
	p.Exit.ID = len(p.Nodes)
	p.Nodes = append(p.Nodes, p.Exit)
	link(ends, p.Exit)
}

// stmts adds the nodes of a statement list after the nodes in preds and
// returns the nodes that fall through to what follows.
func (b *cfgBuilder) stmts(ss []lang.Stmt, preds []*Node) []*Node {
	for _, s := range ss {
		preds = b.stmt(s, preds)
	}
	return preds
}

func (b *cfgBuilder) simple(kind NodeKind, s lang.Stmt, preds []*Node) []*Node {
	n := b.node(kind, s)
	link(preds, n)
	return []*Node{n}
}

func (b *cfgBuilder) stmt(s lang.Stmt, preds []*Node) []*Node {
	switch s := s.(type) {
	case *lang.YieldStmt:
		return b.simple(NodeYield, s, preds)
	case *lang.ReturnStmt:
		link(preds, b.proc.Exit)
		return nil
	case *lang.BreakStmt:
		top := len(b.breaks) - 1
		b.breaks[top] = append(b.breaks[top], preds...)
		return nil
	case *lang.CallStmt:
		if s.Class == lang.ClassProcCall || b.proc.Layer.Program.Exec && IsMoverCall(s) {
			return b.simple(NodeCall, s, preds)
		}
		return b.simple(NodeStep, s, preds)
	case *lang.IfStmt:
		return b.ifStmt(s, preds)
	case *lang.BlockStmt:
		return b.stmts(s.Block.Stmts, preds)
	case *lang.ParCallStmt:
		return b.parCall(s, preds)
	case *lang.ChoiceStmt:
		var ends []*Node
		for _, br := range s.Branches {
			ends = append(ends, b.stmts(br.Stmts, preds)...)
		}
		return b.join(ends)
	case *lang.WhileStmt:
		return b.whileStmt(s, preds)
	}
	if lang.IsStep(s) {
		return b.simple(NodeStep, s, preds)
	}
	return b.simple(NodePrivate, s, preds)
}

// parCall adds the arms of a parallel call. The static checks run them
// in textual order, the order that the arms' mover pattern lets every
// run be reduced to (docs/checks.md, "Parallel calls"). Explore's graph
// does not rely on that argument: it runs the arms in every order, over a
// graph of the sets of arms done so far (one join node per set).
//
// A parallel call with a procedure arm is, for the static checks, its
// left-moving action arms, the call of the procedure (a yield point),
// and its right-moving action arms, in textual order, which is the order
// the front end requires (docs/checks.md). Explore's graph has one fork
// node for it instead (forkNode).
func (b *cfgBuilder) parCall(s *lang.ParCallStmt, preds []*Node) []*Node {
	if !b.allOrders {
		for _, st := range StaticArms(s) {
			arm, ok := st.(*lang.CallStmt)
			if !ok { // a run of invariant arms: a yield point
				preds = b.simple(NodeYield, st, preds)
				continue
			}
			if arm.Class == lang.ClassProcCall {
				preds = b.simple(NodeCall, arm, preds)
				preds[0].Par = s
				continue
			}
			preds = b.simple(NodeStep, arm, preds)
			preds[0].Arm = true
		}
		return preds
	}
	if HasProcArm(s) || b.proc.Layer.Program.Exec && hasMoverArm(s) {
		return b.forkNode(s, preds)
	}
	n := len(s.Arms)
	after := make([][]*Node, 1<<n) // after[done]: where the arms in done have run
	after[0] = preds
	// A superset of done is a larger number, so it comes later.
	for done := 0; done < 1<<n; done++ {
		if done != 0 {
			after[done] = b.join(after[done])
		}
		for _, y := range s.Yields {
			// invariant arms: a yield point where exactly the arms
			// written before them have run
			if done == 1<<y.At-1 {
				after[done] = b.simple(NodeYield, y.Yield, after[done])
			}
		}
		for i, arm := range s.Arms {
			if done&(1<<i) == 0 {
				next := done | 1<<i
				n := b.simple(NodeStep, arm, after[done])[0]
				n.Arm = true
				after[next] = append(after[next], n)
			}
		}
	}
	return after[1<<n-1]
}

// forkNode adds the fork node of a parallel call with a procedure arm,
// for explore: its arms are sub-threads of the caller (mc). An action
// arm gets a step node of its own, outside the flow of the graph: its
// code runs when the arm is scheduled.
func (b *cfgBuilder) forkNode(s *lang.ParCallStmt, preds []*Node) []*Node {
	f := b.simple(NodeFork, s, preds)[0]
	for _, arm := range s.Arms {
		if arm.Class == lang.ClassProcCall || IsMoverCall(arm) {
			// explore runs a mover procedure as a call (docs/explore.md)
			f.Arms = append(f.Arms, nil)
			continue
		}
		n := b.node(NodeStep, arm)
		n.Arm = true
		f.Arms = append(f.Arms, n)
	}
	return []*Node{f}
}

// StaticArms returns the arms of a parallel call as the static checks
// run them, in textual order: with several procedure arms, the first
// stands for all of them (one yield point, YieldPoint.Calls), and the
// others are left out. Without procedure arms, each run of invariant
// arms is a yield statement among the others; with them, the invariant
// arms are part of the procedures' yield point (YieldPoint.Par).
func StaticArms(s *lang.ParCallStmt) []lang.Stmt {
	var out []lang.Stmt
	procs := 0
	withProcs := HasProcArm(s)
	for i, arm := range s.Arms {
		out = appendYieldArms(out, s, i, withProcs)
		if arm.Class == lang.ClassProcCall {
			procs++
			if procs > 1 {
				continue
			}
		}
		out = append(out, arm)
	}
	return appendYieldArms(out, s, len(s.Arms), withProcs)
}

// appendYieldArms appends to out the yield statement of the invariant
// arms of s written before its arm at, if any and if s has no procedure
// arms.
func appendYieldArms(out []lang.Stmt, s *lang.ParCallStmt, at int, withProcs bool) []lang.Stmt {
	if withProcs {
		return out
	}
	for _, y := range s.Yields {
		if y.At == at {
			out = append(out, y.Yield)
		}
	}
	return out
}

// hasMoverArm reports whether a parallel call has an arm that calls a
// mover procedure.
func hasMoverArm(s *lang.ParCallStmt) bool {
	for _, arm := range s.Arms {
		if IsMoverCall(arm) {
			return true
		}
	}
	return false
}

// HasProcArm reports whether a parallel call has an arm that calls a
// procedure that yields.
func HasProcArm(s *lang.ParCallStmt) bool {
	for _, arm := range s.Arms {
		if arm.Class == lang.ClassProcCall {
			return true
		}
	}
	return false
}

func (b *cfgBuilder) cond(s lang.Stmt, c lang.Expr, negated bool, preds []*Node) []*Node {
	n := b.node(NodeCond, s)
	n.Cond, n.Negated = c, negated
	link(preds, n)
	return []*Node{n}
}

func (b *cfgBuilder) ifStmt(s *lang.IfStmt, preds []*Node) []*Node {
	ends := b.stmts(s.Then.Stmts, b.cond(s, s.Cond, false, preds))
	elsePreds := b.cond(s, s.Cond, true, preds)
	if s.Else != nil {
		elsePreds = b.stmt(s.Else, elsePreds)
	}
	return b.join(append(ends, elsePreds...))
}

// join merges several fall-through nodes into one, to keep graphs small.
func (b *cfgBuilder) join(ends []*Node) []*Node {
	if len(ends) <= 1 {
		return ends
	}
	n := b.node(NodeJoin, nil)
	link(ends, n)
	return []*Node{n}
}

// whileStmt builds a loop. A loop whose body yields (contains a step, a
// yield or a call of a procedure) has a head that is a yield point; any
// other loop is private code, summarized by one node.
func (b *cfgBuilder) whileStmt(s *lang.WhileStmt, preds []*Node) []*Node {
	if !Yields(s.Body.Stmts) {
		return b.simple(NodePrivateLoop, s, preds)
	}
	head := b.node(NodeLoopHead, s)
	link(preds, head)
	b.breaks = append(b.breaks, nil)
	bodyEnds := b.stmts(s.Body.Stmts, b.cond(s, s.Cond, false, []*Node{head}))
	breaks := b.breaks[len(b.breaks)-1]
	b.breaks = b.breaks[:len(b.breaks)-1]
	link(bodyEnds, head)
	return b.join(append(b.cond(s, s.Cond, true, []*Node{head}), breaks...))
}

// Yields reports whether statements contain a step, a yield or a call of
// a procedure: a loop with such a body has a yield point at its head.
func Yields(ss []lang.Stmt) bool {
	found := false
	lang.Inspect(ss, func(s lang.Stmt) bool {
		switch s.(type) {
		case *lang.YieldStmt:
			found = true
		}
		c := lang.Base(s).Class
		found = found || lang.IsStep(s) || c == lang.ClassProcCall
		return !found
	})
	return found
}
