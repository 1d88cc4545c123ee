package refine

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Path splitting (Rule 1 of Appendix B of the Chase-Lev paper).
//
// A procedure P of layer l may be replaced at layer l+1 by a dispatcher
// of the same name that calls, by a nondeterministic choice, one copy of
// P per case: each copy is declared `split P when c_i` and is P's code
// with `assume c_i` added to one step, the split point, where P's
// execution is cut into the cases. The check is:
//
//   - the dispatcher's body is a nondeterministic choice (if (*) chain or
//     choice) whose every branch is one call of a copy, with P's
//     parameters and outputs, and every copy is called once;
//   - each copy is P's code (matched as refinement structure matches
//     namesakes: yields, annotations, mover tags and ghost code may
//     differ, steps are checked by step abstraction), except that its
//     step at the split point abstracts P's step followed by
//     `assume c_i`, and that after the split point, while the variables
//     of c_i are not written, an `if` of P that c_i decides may be
//     replaced by the branch it takes (one obligation per such if);
//   - all copies split at the same step of P, which is in no loop (so
//     each execution of P passes it at most once);
//   - c_1 || ... || c_n is valid (an obligation).
//
// Then every execution of P is an execution of the copy whose condition
// holds at the split point (or of any copy, if it never gets there), so
// the dispatcher has every behaviour of P.

// Split is the kind of the checks of path splitting.
const Split obl.Kind = "path splitting"

// splitState is what the match of a copy against its original knows.
type splitState struct {
	cond     lang.Expr       // the copy's condition, in the copy's scope
	condVars map[string]bool // the names of the variables cond reads
	point    lang.Stmt       // P's step at the split point, once found
	loops    int             // how many loops of P the match is inside
	// known says that cond holds here: the match is after the split
	// point, in its statement list or one nested in it, and no statement
	// since wrote a variable of cond.
	known     bool
	decisions []decision
	// trials counts the trial matches of dropped ifs, shared by every
	// trial of one copy: each dropped if doubles the matches to try.
	trials *int
}

// maxSplitTrials bounds the trial matches of one copy.
const maxSplitTrials = 1 << 12

// decision is an if of P that a copy replaced by one of its branches.
type decision struct {
	ifStmt *lang.IfStmt
	then   bool
	copyAt lang.Stmt // the copy's statement where the branch begins
}

// splitCopies returns, per original procedure name, the procedures of
// the upper layer declared as its copies, and reports misplaced ones.
func (r *refiner) splitCopies() map[string][]*layers.Proc {
	out := map[string][]*layers.Proc{}
	for _, c := range r.upper.Procs {
		sp := c.Decl.Split
		if sp == nil {
			continue
		}
		switch {
		case r.lower.Proc(c.Name()) != nil:
			r.fail(Split, fmt.Sprintf("%s is declared a copy of %s, but layer %d has a member %s: a copy made by path splitting is new at layer %d",
				c.Name(), sp.Of.Name, r.lower.Num, c.Name(), r.upper.Num), sp.P)
		case r.lower.Proc(sp.Of.Name) == nil:
			r.fail(Split, fmt.Sprintf("%s is declared a copy of %s, but layer %d has no procedure %s", c.Name(), sp.Of.Name, r.lower.Num, sp.Of.Name), sp.Of.P)
		case r.upper.Proc(sp.Of.Name) == nil:
			r.fail(Split, fmt.Sprintf("%s is declared a copy of %s, but layer %d has no procedure %s that chooses among the copies", c.Name(), sp.Of.Name, r.upper.Num, sp.Of.Name), sp.Of.P)
		default:
			out[sp.Of.Name] = append(out[sp.Of.Name], c)
		}
	}
	return out
}

// splitProc checks that the dispatcher up, with the copies, has every
// behaviour of the original p.
func (r *refiner) splitProc(p, up *layers.Proc, copies []*layers.Proc) {
	if !r.dispatcherOK(p, up, copies) {
		return
	}
	var point lang.Stmt
	var first *layers.Proc
	for _, c := range copies {
		if !r.sameShape(c.Name(), &p.Decl.Signature, &c.Decl.Signature, p.Decl.P, c.Decl.P) {
			return
		}
		m := r.matchCopy(p, c)
		if m == nil {
			return
		}
		if point == nil {
			point, first = m.split.point, c
		} else if point != m.split.point {
			r.fail(Split, fmt.Sprintf("copies %s and %s of %s split at different steps of %s (lines %d and %d): all copies must assume their cases at the same step",
				first.Name(), c.Name(), p.Name(), p.Name(), point.Pos().Line, m.split.point.Pos().Line), c.Decl.Split.P, point.Pos(), m.split.point.Pos())
			return
		}
		r.decisionChecks(m)
		for _, pr := range m.pairs {
			m.stepPair(pr[0], pr[1])
		}
	}
	r.exhaustive(p, up, copies)
}

// matchCopy matches copy c against its original p; it reports a
// mismatch, or a copy without its assumption, and returns nil then.
func (r *refiner) matchCopy(p, c *layers.Proc) *matcher {
	sp := c.Decl.Split
	st := &splitState{cond: sp.Cond, condVars: map[string]bool{}, trials: new(int)}
	for o := range layers.ReadVars(sp.Cond) {
		st.condVars[o.Name] = true
	}
	m := &matcher{r: r, lower: p, upper: c, split: st}
	m.splitRest(withoutYields(p.Decl.Body.Stmts), withoutYields(c.Decl.Body.Stmts), p.Decl.Body.End, c.Decl.Body.End, true, false)
	if m.failed && st.point != nil {
		m.report()
		return nil
	}
	if st.point == nil {
		r.fail(Split, fmt.Sprintf("copy %s of %s has no step that assumes its case %s: the split point is the step of %s that contains assume %s in the copy",
			c.Name(), p.Name(), lang.ExprString(sp.Cond), p.Name(), lang.ExprString(sp.Cond)), sp.P)
		return nil
	}
	return m
}

// splitBlock matches a nested statement list of a copy.
func (m *matcher) splitBlock(ls, us []lang.Stmt, lEnd, uEnd lang.Pos) {
	m.splitRest(withoutYields(ls), withoutYields(us), lEnd, uEnd, false, false)
}

// loopBody matches the bodies of two corresponding loops. Inside a loop
// of the original, the split condition is known only if the loop does
// not write its variables, and the split point may not be there.
func (m *matcher) loopBody(l, u *lang.WhileStmt) {
	sp := m.split
	if sp == nil {
		m.block(l.Body.Stmts, u.Body.Stmts, l.Body.End, u.Body.End)
		return
	}
	sp.loops++
	sp.known = sp.known && !m.writesCond(l)
	m.block(l.Body.Stmts, u.Body.Stmts, l.Body.End, u.Body.End)
	sp.loops--
}

// writesCond reports whether s may write a variable of the condition.
func (m *matcher) writesCond(s lang.Stmt) bool {
	for o := range layers.WrittenVars([]lang.Stmt{s}) {
		if m.split.condVars[o.Name] {
			return true
		}
	}
	return false
}

// splitRest matches what is left of a statement list of the original
// (ls) and of the copy (us). top says that the lists are the procedures'
// bodies, where a final return is the same as none; owner that the split
// point was found in this list, so cond stops being known at its end.
func (m *matcher) splitRest(ls, us []lang.Stmt, lEnd, uEnd lang.Pos, top, owner bool) {
	sp := m.split
	for !m.failed {
		if len(ls) > 0 {
			if ifs, ok := ls[0].(*lang.IfStmt); ok && sp.known && ifs.Cond != nil && (len(us) == 0 || !sameIf(ifs, us[0])) {
				m.decide(ifs, ls[1:], us, lEnd, uEnd, top, owner)
				return
			}
		}
		if len(ls) == 0 || len(us) == 0 {
			m.splitEnd(ls, us, lEnd, uEnd, top)
			break
		}
		l, u := ls[0], us[0]
		if simpleKind(l) && simpleKind(u) && sp.point == nil && assumesCase(u, sp.cond) {
			if sp.loops > 0 {
				sp.point, m.kind = l, Split
				m.mismatch(fmt.Sprintf("the split point of %s (its step at line %d, where it assumes %s) is inside a loop of %s: an execution may pass it more than once",
					m.upper.Name(), u.Pos().Line, lang.ExprString(sp.cond), m.lower.Name()), u.Pos(), l.Pos())
				return
			}
			sp.point, sp.known, owner = l, true, true
			m.pairs = append(m.pairs, [2]lang.Stmt{l, u})
		} else {
			before := sp.known
			m.stmt(l, u)
			sp.known = before && !m.writesCond(l)
		}
		ls, us = ls[1:], us[1:]
	}
	if owner {
		sp.known = false
	}
}

// splitEnd matches the end of two statement lists: both must end at
// once, but for a final return of a procedure's body.
func (m *matcher) splitEnd(ls, us []lang.Stmt, lEnd, uEnd lang.Pos, top bool) {
	finalReturn := func(ss []lang.Stmt) bool {
		_, ok := ss[0].(*lang.ReturnStmt)
		return top && len(ss) == 1 && ok
	}
	switch {
	case len(ls) > 0 && !finalReturn(ls):
		m.mismatch(fmt.Sprintf("%s has no statement for %s's %s at %s", m.layerName(true), m.layerName(false), describeStmt(ls[0]), ls[0].Pos()), ls[0].Pos(), uEnd)
	case len(us) > 0 && !finalReturn(us):
		m.mismatch(fmt.Sprintf("%s has no statement for %s's %s at %s", m.layerName(false), m.layerName(true), describeStmt(us[0]), us[0].Pos()), us[0].Pos(), lEnd)
	}
}

// sameIf reports whether u is an if with the same condition as l, which
// the copy then keeps.
func sameIf(l *lang.IfStmt, u lang.Stmt) bool {
	uif, ok := u.(*lang.IfStmt)
	return ok && condText(l.Cond) == condText(uif.Cond)
}

// assumesCase reports whether the copy's step u assumes cond at its top
// level: the mark of the split point.
func assumesCase(u lang.Stmt, cond lang.Expr) bool {
	ss := []lang.Stmt{u}
	if g, ok := u.(*lang.StepStmt); ok {
		ss = g.Body
	}
	for _, s := range ss {
		if a, ok := s.(*lang.AssumeStmt); ok && lang.ExprString(a.Cond) == lang.ExprString(cond) {
			return true
		}
	}
	return false
}

// decide matches the copy's rest us against the original's if l, which
// the copy does not keep, replaced by one of its branches: the then
// branch if that matches, else the else branch. The choice becomes an
// obligation (decisionChecks): the split condition decides l.
func (m *matcher) decide(l *lang.IfStmt, rest, us []lang.Stmt, lEnd, uEnd lang.Pos, top, owner bool) {
	var elseStmts []lang.Stmt
	switch e := l.Else.(type) {
	case *lang.BlockStmt:
		elseStmts = e.Block.Stmts
	case *lang.IfStmt:
		elseStmts = []lang.Stmt{e}
	}
	// Both branches may match the copy's code structurally (simple
	// statements correspond whatever their form); the one with more
	// statements the same as the copy's is the one meant.
	var best *matcher
	if *m.split.trials += 2; *m.split.trials > maxSplitTrials {
		m.mismatch(fmt.Sprintf("%s drops too many ifs of %s to try every way they may be decided (more than %d trials): keep some of them in the copy",
			m.layerName(true), m.layerName(false), maxSplitTrials), l.Pos())
		return
	}
	for _, then := range []bool{true, false} {
		branch := elseStmts
		if then {
			branch = l.Then.Stmts
		}
		trial := m.clone()
		at := lang.Stmt(l)
		if len(us) > 0 {
			at = us[0]
		}
		trial.split.decisions = append(trial.split.decisions, decision{ifStmt: l, then: then, copyAt: at})
		trial.splitRest(spliced(withoutYields(branch), rest), us, lEnd, uEnd, top, owner)
		if !trial.failed && (best == nil || samePairs(trial) > samePairs(best)) {
			best = trial
		}
	}
	if best != nil {
		*m = *best
		return
	}
	at := uEnd
	if len(us) > 0 {
		at = us[0].Pos()
	}
	m.mismatch(fmt.Sprintf("%s at %s has neither %s's if at %s nor the code of one of its branches",
		m.layerName(true), at, m.layerName(false), l.Pos()), at, l.Pos())
}

// samePairs counts the corresponding statements that are the same.
func samePairs(m *matcher) int {
	n := 0
	for _, pr := range m.pairs {
		if stripMover(pr[0]) == stripMover(pr[1]) {
			n++
		}
	}
	return n
}

// spliced is a branch followed by the rest of its list, which is dead
// code if the branch ends with a return or break.
func spliced(branch, rest []lang.Stmt) []lang.Stmt {
	if n := len(branch); n > 0 {
		switch branch[n-1].(type) {
		case *lang.ReturnStmt, *lang.BreakStmt:
			return branch
		}
	}
	return append(append([]lang.Stmt{}, branch...), rest...)
}

// clone copies a matcher in a split match, for a trial.
func (m *matcher) clone() *matcher {
	c := *m
	c.pairs = append([][2]lang.Stmt{}, m.pairs...)
	sp := *m.split
	sp.decisions = append([]decision{}, m.split.decisions...)
	c.split = &sp
	return &c
}

// dispatcherOK checks the shape of the dispatcher's body: a
// nondeterministic choice whose branches each call one copy once, with
// the procedure's parameters and outputs.
func (r *refiner) dispatcherOK(p, up *layers.Proc, copies []*layers.Proc) bool {
	body := withoutYields(up.Decl.Body.Stmts)
	var calls []*lang.CallStmt
	ok := len(body) == 1 && choiceCalls(body[0], &calls)
	if !ok {
		r.fail(Split, fmt.Sprintf("%s at layer %d has copies made by path splitting, so its body must be one nondeterministic choice (if (*) ... else ... or choice) whose every branch is one call of a copy",
			up.Name(), r.upper.Num), up.Decl.P)
		return false
	}
	called := map[string]bool{}
	for _, c := range calls {
		if msg := r.dispatchCall(c, up, called); msg != "" {
			r.fail(Split, msg, c.Pos())
			return false
		}
	}
	for _, c := range copies {
		if !called[c.Name()] {
			r.fail(Split, fmt.Sprintf("%s at layer %d never calls its copy %s: every copy must be a branch of the choice", up.Name(), r.upper.Num, c.Name()), up.Decl.P, c.Decl.P)
			return false
		}
	}
	return true
}

// dispatchCall checks one call of the dispatcher and returns what is
// wrong with it, or "".
func (r *refiner) dispatchCall(c *lang.CallStmt, up *layers.Proc, called map[string]bool) string {
	callee := r.upper.Proc(c.Callee.Name)
	sig := &up.Decl.Signature
	switch {
	case callee == nil || callee.Decl.Split == nil || callee.Decl.Split.Of.Name != up.Name():
		return fmt.Sprintf("%s calls %s, which is not a copy of %s (declared split %s when ...)", up.Name(), c.Callee.Name, up.Name(), up.Name())
	case called[c.Callee.Name]:
		return fmt.Sprintf("%s calls its copy %s twice", up.Name(), c.Callee.Name)
	case !sameNames(argNames(c.Args), paramNames(sig.Params)) || !sameNames(identNames(c.Outs), paramNames(sig.Returns)):
		return fmt.Sprintf("%s must call %s with its own parameters (%s) and outputs (%s), in order", up.Name(), c.Callee.Name,
			strings.Join(paramNames(sig.Params), ", "), strings.Join(paramNames(sig.Returns), ", "))
	}
	called[c.Callee.Name] = true
	return ""
}

// choiceCalls collects the calls of a nondeterministic choice whose
// every branch is one call, and reports whether s is one.
func choiceCalls(s lang.Stmt, calls *[]*lang.CallStmt) bool {
	one := func(ss []lang.Stmt) bool {
		ss = withoutYields(ss)
		if len(ss) != 1 {
			return false
		}
		c, ok := ss[0].(*lang.CallStmt)
		if ok {
			*calls = append(*calls, c)
		}
		return ok
	}
	switch s := s.(type) {
	case *lang.IfStmt:
		if s.Cond != nil || !one(s.Then.Stmts) {
			return false
		}
		switch e := s.Else.(type) {
		case *lang.BlockStmt:
			return one(e.Block.Stmts)
		case *lang.IfStmt:
			return choiceCalls(e, calls)
		}
	case *lang.ChoiceStmt:
		for _, b := range s.Branches {
			if !one(b.Stmts) {
				return false
			}
		}
		return true
	}
	return false
}

func argNames(es []lang.Expr) []string {
	var out []string
	for _, e := range es {
		id, ok := e.(*lang.Ident)
		if !ok {
			return nil
		}
		out = append(out, id.Name)
	}
	return out
}

func identNames(ids []*lang.Ident) []string {
	var out []string
	for _, id := range ids {
		out = append(out, id.Name)
	}
	return out
}

func paramNames(ps []*lang.Param) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name.Name)
	}
	return out
}

func sameNames(a, b []string) bool {
	return strings.Join(a, ",") == strings.Join(b, ",") && len(a) == len(b)
}

// exhaustive adds the obligation that the copies' conditions cover every
// case: their disjunction is valid.
func (r *refiner) exhaustive(p, up *layers.Proc, copies []*layers.Proc) {
	b := layers.NewBuilder(r.prog)
	env := b.GlobalsOf(r.bothGlobals(), "", "globals")
	lower := b.Frame(env, &p.Decl.Signature, "", fmt.Sprintf("locals of %s (layer %d)", p.Name(), r.lower.Num))
	var cases []obl.Expr
	var names []string
	for _, c := range copies {
		upper, _, _ := r.upperFrame(b, lower, &p.Decl.Signature, &c.Decl.Signature)
		cases = append(cases, b.Expr(c.Decl.Split.Cond, upper))
		names = append(names, fmt.Sprintf("%s (%s)", lang.ExprString(c.Decl.Split.Cond), c.Name()))
	}
	msg := fmt.Sprintf("the cases of %s's copies do not cover every state at the split point: %s may all be false",
		p.Name(), strings.Join(names, ", "))
	body := layers.Check(Split, obl.Or(cases...), msg, up.Decl.P, p.Decl.P)
	r.obs = append(r.obs, b.Obligation(fmt.Sprintf("l%d-split-cases-%s", r.lower.Num, p.Name()), Split, body))
}

// decisionChecks adds, for each if of the original that copy m.upper
// replaced by a branch, the obligation that its condition decides the
// if that way. The variables of the condition have kept their values
// since the split point (splitRest checked it), and the others are
// arbitrary in the obligation.
func (r *refiner) decisionChecks(m *matcher) {
	for i, d := range m.split.decisions {
		b := layers.NewBuilder(r.prog)
		lower, upper, _, ok := r.frames(b, &m.lower.Decl.Signature, &m.upper.Decl.Signature)
		if !ok {
			return
		}
		want, branch := b.Expr(d.ifStmt.Cond, lower), "then"
		if !d.then {
			want, branch = obl.Not(want), "else"
		}
		msg := fmt.Sprintf("copy %s takes the %s branch of %s's if (%s) at line %d, but its case %s does not decide that",
			m.upper.Name(), branch, m.lower.Name(), lang.ExprString(d.ifStmt.Cond), d.ifStmt.Pos().Line, lang.ExprString(m.split.cond))
		body := obl.Sequence(&obl.Assume{E: b.Expr(m.split.cond, upper)}, layers.Check(Split, want, msg, d.copyAt.Pos(), d.ifStmt.Pos()))
		r.obs = append(r.obs, b.Obligation(fmt.Sprintf("l%d-split-if-%s-%d", r.lower.Num, m.upper.Name(), i), Split, body))
	}
}
