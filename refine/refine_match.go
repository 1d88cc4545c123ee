package refine

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// procToProc checks a procedure against its namesake at the upper layer:
// the same control structure, and each step or private statement
// abstracted by the corresponding one (DESIGN §4.3). Yields, annotations
// and mover tags may differ.
func (r *refiner) procToProc(p, up *layers.Proc) {
	m := &matcher{r: r, lower: p, upper: up}
	m.block(p.Decl.Body.Stmts, up.Decl.Body.Stmts, p.Decl.Body.End, up.Decl.Body.End)
	if m.failed {
		m.report() // the structural mismatch is the root cause; say only that
		return
	}
	for _, pr := range m.pairs {
		m.stepPair(pr[0], pr[1])
	}
}

type matcher struct {
	r            *refiner
	lower, upper *layers.Proc
	failed       bool
	pairs        [][2]lang.Stmt // corresponding steps and private statements
	// msg and pos are the first mismatch, which report turns into a
	// finding: a trial match (split.go) may fail without one.
	msg  string
	pos  []lang.Pos
	kind obl.Kind // of the first mismatch: Structure unless set
	// split, if set, is the state of the match of a copy made by path
	// splitting against its original (split.go).
	split *splitState
}

func (m *matcher) mismatch(msg string, pos ...lang.Pos) {
	if !m.failed {
		m.msg, m.pos = msg, pos
	}
	m.failed = true
}

// report turns the first mismatch into a refinement structure finding.
func (m *matcher) report() {
	if m.failed {
		kind := m.kind
		if kind == "" {
			kind = Structure
		}
		m.r.fail(kind, m.msg, m.pos...)
	}
}

// withoutYields drops yield statements, which may differ between layers,
// and fences, which the static checks treat as no-ops (sequential
// consistency) and which a layer above 0 need not repeat.
func withoutYields(ss []lang.Stmt) []lang.Stmt {
	var out []lang.Stmt
	for _, s := range ss {
		switch s.(type) {
		case *lang.YieldStmt, *lang.FenceStmt:
		default:
			out = append(out, s)
		}
	}
	return out
}

func (m *matcher) layerName(upper bool) string {
	if upper {
		return fmt.Sprintf("layer %d %s", m.r.upper.Num, m.upper.Name())
	}
	return fmt.Sprintf("layer %d %s", m.r.lower.Num, m.lower.Name())
}

// block matches two statement lists; lEnd and uEnd are where the lists
// end, for messages about missing statements.
func (m *matcher) block(ls, us []lang.Stmt, lEnd, uEnd lang.Pos) {
	if m.split != nil {
		m.splitBlock(ls, us, lEnd, uEnd)
		return
	}
	ls, us = withoutYields(ls), withoutYields(us)
	for i := 0; i < len(ls) || i < len(us); i++ {
		switch {
		case m.failed:
			return
		case i >= len(us):
			m.mismatch(fmt.Sprintf("%s has no statement for %s's %s at %s", m.layerName(true), m.layerName(false), describeStmt(ls[i]), ls[i].Pos()), ls[i].Pos(), uEnd)
		case i >= len(ls):
			m.mismatch(fmt.Sprintf("%s has no statement for %s's %s at %s", m.layerName(false), m.layerName(true), describeStmt(us[i]), us[i].Pos()), us[i].Pos(), lEnd)
		default:
			m.stmt(ls[i], us[i])
		}
	}
}

func describeStmt(s lang.Stmt) string {
	if lang.IsStep(s) {
		return "step"
	}
	switch s.(type) {
	case *lang.IfStmt:
		return "if"
	case *lang.WhileStmt:
		return "loop"
	case *lang.ChoiceStmt:
		return "choice"
	case *lang.CallStmt:
		return "call"
	case *lang.ParCallStmt:
		return "parallel call"
	case *lang.ReturnStmt:
		return "return"
	case *lang.BreakStmt:
		return "break"
	}
	return "statement"
}

// withArticle prefixes a statement kind with its indefinite article.
func withArticle(kind string) string {
	if kind == "if" {
		return "an if"
	}
	return "a " + kind
}

// simpleKind reports whether s is a simple statement or [ ] group: such
// statements correspond to each other whatever their form.
func simpleKind(s lang.Stmt) bool {
	switch s.(type) {
	case *lang.AssignStmt, *lang.HavocStmt, *lang.AssumeStmt, *lang.AssertStmt, *lang.StepStmt:
		return true
	}
	return false
}

func (m *matcher) differ(l, u lang.Stmt, what string) {
	m.mismatch(fmt.Sprintf("%s at %s and %s at %s differ: %s", m.layerName(false), l.Pos(), m.layerName(true), u.Pos(), what), u.Pos(), l.Pos())
}

func (m *matcher) stmt(l, u lang.Stmt) {
	if simpleKind(l) && simpleKind(u) {
		m.pairs = append(m.pairs, [2]lang.Stmt{l, u})
		return
	}
	switch l := l.(type) {
	// In each case the upper statement of the same kind is uif, uw, ...:
	// u itself stays the statement of any kind, for the messages.
	case *lang.IfStmt:
		uif, ok := u.(*lang.IfStmt)
		switch {
		case !ok:
			m.differ(l, u, "an if statement corresponds to "+withArticle(describeStmt(u)))
		case condText(l.Cond) != condText(uif.Cond):
			m.differ(l, u, fmt.Sprintf("the conditions (%s) and (%s) are not the same", condText(l.Cond), condText(uif.Cond)))
		default:
			m.block(l.Then.Stmts, uif.Then.Stmts, l.Then.End, uif.Then.End)
			m.elses(l, uif)
		}
	case *lang.WhileStmt:
		uw, ok := u.(*lang.WhileStmt)
		switch {
		case !ok:
			m.differ(l, u, "a loop corresponds to "+withArticle(describeStmt(u)))
		case condText(l.Cond) != condText(uw.Cond):
			m.differ(l, u, fmt.Sprintf("the loop conditions (%s) and (%s) are not the same", condText(l.Cond), condText(uw.Cond)))
		default:
			m.loopBody(l, uw)
		}
	case *lang.ChoiceStmt:
		uc, ok := u.(*lang.ChoiceStmt)
		if !ok {
			m.differ(l, u, "a choice corresponds to "+withArticle(describeStmt(u)))
			return
		}
		if len(l.Branches) != len(uc.Branches) {
			m.differ(l, u, fmt.Sprintf("the choices have %d and %d branches", len(l.Branches), len(uc.Branches)))
			return
		}
		for i := range l.Branches {
			m.block(l.Branches[i].Stmts, uc.Branches[i].Stmts, l.Branches[i].End, uc.Branches[i].End)
		}
	case *lang.BlockStmt:
		ub, ok := u.(*lang.BlockStmt)
		if !ok {
			m.differ(l, u, "an else block corresponds to "+withArticle(describeStmt(u)))
			return
		}
		m.block(l.Block.Stmts, ub.Block.Stmts, l.Block.End, ub.Block.End)
	case *lang.CallStmt:
		if lang.FormatStmt(l) != lang.FormatStmt(u) {
			m.differ(l, u, fmt.Sprintf("the calls %q and %q are not the same", lang.StmtString(l), lang.StmtString(u)))
		}
	case *lang.ParCallStmt:
		if lang.FormatStmt(l) != lang.FormatStmt(u) {
			m.differ(l, u, fmt.Sprintf("the parallel calls %q and %q are not the same", lang.StmtString(l), lang.StmtString(u)))
		}
	case *lang.ReturnStmt:
		if _, ok := u.(*lang.ReturnStmt); !ok {
			m.differ(l, u, "a return corresponds to "+withArticle(describeStmt(u)))
		}
	case *lang.BreakStmt:
		if _, ok := u.(*lang.BreakStmt); !ok {
			m.differ(l, u, "a break corresponds to "+withArticle(describeStmt(u)))
		}
	default:
		m.differ(l, u, fmt.Sprintf("%s corresponds to %s", withArticle(describeStmt(l)), withArticle(describeStmt(u))))
	}
}

func (m *matcher) elses(l, u *lang.IfStmt) {
	switch {
	case l.Else == nil && u.Else == nil:
	case l.Else == nil || u.Else == nil:
		m.differ(l, u, "one if has an else branch and the other does not")
	default:
		m.stmt(l.Else, u.Else)
	}
}

func condText(e lang.Expr) string {
	if e == nil {
		return "*"
	}
	return lang.ExprString(e)
}

// stepPair checks that the upper statement abstracts the lower one; a
// statement that is the same at both layers (mover tags aside) needs no
// check.
func (m *matcher) stepPair(l, u lang.Stmt) {
	if stripMover(l) == stripMover(u) {
		return
	}
	r := m.r
	if n := layers.CountPaths([]lang.Stmt{l}); n > layers.MaxStepPaths {
		r.diags = append(r.diags, &layers.Diagnostic{Check: StepAbstraction, Layer: r.lower.Num, Unknown: true,
			Msg: fmt.Sprintf("the step at line %d has %d paths (more than %d): its abstraction is not checked; split it into smaller steps", l.Pos().Line, n, layers.MaxStepPaths),
			Pos: []lang.Pos{l.Pos(), u.Pos()}})
		return
	}
	b := layers.NewBuilder(r.prog)
	lower, upper, newVars, ok := r.frames(b, &m.lower.Decl.Signature, &m.upper.Decl.Signature)
	if !ok {
		return
	}
	// Both gates are assumed: the lower one (the lower step runs only
	// where it holds) and the upper one, which the upper layer's own checks
	// prove wherever its step runs; every lower execution is, step by
	// step, an upper one, so the upper step runs here too. The transitions
	// are compared without their gates.
	gate := obl.And(stepGate(b, m.lower, l, lower), stepGate(b, m.upper, u, upper))
	msg := fmt.Sprintf("the step at line %d of layer %d does not abstract the step at line %d of layer %d: from a state satisfying its gate, the lower step makes a move the upper one cannot",
		u.Pos().Line, r.upper.Num, l.Pos().Line, r.lower.Num)
	lowerCode := b.Stmt(l, lower, layers.Transition)
	if sp := m.split; sp != nil && sp.point == l {
		// The split point: the copy's step is the original's followed by
		// the copy's assumption (Rule 1: [s1; assume p;]).
		lowerCode = obl.Sequence(lowerCode, &obl.Assume{E: b.Expr(sp.cond, upper)})
		msg = fmt.Sprintf("the step at line %d of layer %d does not abstract the step at line %d of layer %d followed by assume %s (the split point): from a state satisfying its gate, the lower step makes a move the upper one cannot",
			u.Pos().Line, r.upper.Num, l.Pos().Line, r.lower.Num, lang.ExprString(sp.cond))
	}
	ob, err := r.abstraction(b, StepAbstraction, msg, gate, lowerCode, b.Stmt(u, upper, layers.Transition),
		r.upperVars(upper, &m.upper.Decl.Signature), newVars, []lang.Pos{u.Pos(), l.Pos()})
	r.add(ob, err, StepAbstraction, u.Pos())
}

// stepGate is the gate of statement s of procedure p: its full gate if
// it is a step, else what its asserts require.
func stepGate(b *layers.Builder, p *layers.Proc, s lang.Stmt, env *layers.Env) obl.Expr {
	if st := p.StepOf(s); st != nil {
		return b.Gate(st, env)
	}
	return obl.WLP(b.Stmt(s, env, layers.Mode{Check: true}), obl.Bool(true))
}

// stripMover prints a statement in full without its mover tag.
func stripMover(s lang.Stmt) string {
	text := lang.FormatStmt(s)
	if m := lang.Base(s).Mover; m != lang.MoverNone {
		text = strings.TrimPrefix(text, m.String()+" ")
	}
	return text
}
