package layers

import (
	"fmt"
	"sort"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// location is where a statement sits: in block at index, where block is
// the body of owner (nil for the procedure body).
type location struct {
	block []lang.Stmt
	index int
	owner lang.Stmt
}

// locate records, for every statement of p, its locations from the
// procedure body inward, and maps yield statements, loops and calls to
// their yield points.
func (p *Proc) locate() {
	p.locs = map[lang.Stmt][]location{}
	p.yieldOf = map[lang.Stmt]*YieldPoint{}
	for _, y := range p.Yields {
		if y.Stmt != nil {
			p.yieldOf[y.Stmt] = y
		}
	}
	var walk func(block []lang.Stmt, owner lang.Stmt, outer []location)
	walk = func(block []lang.Stmt, owner lang.Stmt, outer []location) {
		for i, s := range block {
			here := append(append([]location(nil), outer...), location{block, i, owner})
			p.locs[s] = here
			for _, inner := range childBlocks(s) {
				walk(inner, s, here)
			}
		}
	}
	walk(p.Decl.Body.Stmts, nil, nil)
}

// childBlocks returns the statement lists directly inside s.
func childBlocks(s lang.Stmt) [][]lang.Stmt {
	switch s := s.(type) {
	case *lang.IfStmt:
		bs := [][]lang.Stmt{s.Then.Stmts}
		if s.Else != nil {
			bs = append(bs, []lang.Stmt{s.Else})
		}
		return bs
	case *lang.BlockStmt:
		return [][]lang.Stmt{s.Block.Stmts}
	case *lang.ParCallStmt:
		return [][]lang.Stmt{StaticArms(s)}
	case *lang.WhileStmt:
		return [][]lang.Stmt{s.Body.Stmts}
	case *lang.ChoiceStmt:
		var bs [][]lang.Stmt
		for _, b := range s.Branches {
			bs = append(bs, b.Stmts)
		}
		return bs
	}
	return nil
}

// Fragments generates the IR of a thread's code between yield points.
type Fragments struct {
	B    *Builder
	Env  *Env // the globals and the thread's frame
	Proc *Proc
	Mode Mode // how asserts inside steps are treated
	// End is what happens when the code reaches yield point y; after it
	// the path stops (the fragment is over). A call of a procedure is a
	// yield point too: it ends the caller's fragment.
	End func(y *YieldPoint) obl.Cmd
	// Break, if set, is the code that a break out of the private loop
	// w runs (the rest of the procedure's code after w, ending the
	// path); by default it is what follows w up to the next yield point.
	Break func(w *lang.WhileStmt) obl.Cmd
}

// From returns the code of the fragments that start at yield point y.
// The caller assumes what holds at y first.
func (g *Fragments) From(y *YieldPoint) obl.Cmd {
	switch y.Kind {
	case YieldEntry:
		body, ended := g.seq(g.Proc.Decl.Body.Stmts)
		body = obl.Sequence(g.B.TakeOld(&g.Proc.Decl.Signature, g.Env), body)
		if ended {
			return body
		}
		return obl.Sequence(body, g.end(g.Proc.Exit.Yield))
	case YieldLoop:
		w := y.Stmt.(*lang.WhileStmt)
		body, ended := g.seq(w.Body.Stmts)
		if !ended {
			body = obl.Sequence(body, g.end(y))
		}
		return &obl.Choice{Branches: []obl.Cmd{
			obl.Sequence(g.guard(w.Cond, false), body),
			obl.Sequence(g.guard(w.Cond, true), g.after(y.Stmt)),
		}}
	case YieldExit:
		return &obl.Assume{E: obl.Bool(false)}
	}
	// After a call, the caller's variables passed to linear_in
	// parameters are empty.
	return obl.Sequence(GiveAwayAt(y, g.Env), g.after(y.Stmt))
}

// end runs End at y and stops the path.
func (g *Fragments) end(y *YieldPoint) obl.Cmd {
	return obl.Sequence(g.End(y), &obl.Assume{E: obl.Bool(false)})
}

// after returns the code that follows statement s, up to the procedure
// exit or the head of the enclosing loop.
func (g *Fragments) after(s lang.Stmt) obl.Cmd {
	return g.Proc.continuation(s, g.seq, g.loopEnd, func() obl.Cmd { return g.end(g.Proc.Exit.Yield) })
}

// loopEnd is the end of an iteration of w's body: the head again, a
// yield point that ends the fragment, or for a private loop the check
// that the iteration keeps its invariants.
func (g *Fragments) loopEnd(w *lang.WhileStmt) obl.Cmd {
	if y := g.Proc.yieldOf[w]; y != nil {
		return g.end(y)
	}
	return g.privateBackEdge(w)
}

// breakOut is the code of a break out of loop w: what follows w.
func (g *Fragments) breakOut(w *lang.WhileStmt) obl.Cmd {
	if g.Break != nil && g.Proc.yieldOf[w] == nil {
		return g.Break(w)
	}
	return g.after(w)
}

// continuation is the code that follows statement s when control leaves
// it normally: the rest of each enclosing block from s outward, up to
// the end of the body of the innermost loop around s (loopEnd) or the
// end of the procedure (exit). seq translates a statement list and
// reports whether every path through it ends.
func (p *Proc) continuation(s lang.Stmt, seq func([]lang.Stmt) (obl.Cmd, bool),
	loopEnd func(*lang.WhileStmt) obl.Cmd, exit func() obl.Cmd) obl.Cmd {
	locs := p.locs[s]
	var cmds []obl.Cmd
	for i := len(locs) - 1; i >= 0; i-- {
		loc := locs[i]
		rest, ended := seq(loc.block[loc.index+1:])
		cmds = append(cmds, rest)
		if ended {
			return obl.Sequence(cmds...)
		}
		if w, ok := loc.owner.(*lang.WhileStmt); ok {
			return obl.Sequence(append(cmds, loopEnd(w))...)
		}
	}
	return obl.Sequence(append(cmds, exit())...)
}

// LoopOf returns the loop that a break statement leaves: the innermost
// while loop around it.
func (p *Proc) LoopOf(s *lang.BreakStmt) *lang.WhileStmt {
	locs := p.locs[s]
	for i := len(locs) - 1; i >= 0; i-- {
		if w, ok := locs[i].owner.(*lang.WhileStmt); ok {
			return w
		}
	}
	panic("layers: break outside a loop")
}

// seq translates a statement list. It stops after a statement that ends
// every path (a yield, a return, a loop whose head yields), and reports
// whether that happened: code after it is unreachable within the
// fragment, and translating it would only add vacuous asserts.
func (g *Fragments) seq(ss []lang.Stmt) (obl.Cmd, bool) {
	var cmds []obl.Cmd
	for _, s := range ss {
		c, ended := g.stmt(s)
		cmds = append(cmds, c)
		if ended {
			return obl.Sequence(cmds...), true
		}
	}
	return obl.Sequence(cmds...), false
}

// block is seq without the flag, for branches.
func (g *Fragments) block(ss []lang.Stmt) obl.Cmd {
	c, _ := g.seq(ss)
	return c
}

// stmt translates one statement and reports whether every path through
// it ends the fragment.
func (g *Fragments) stmt(s lang.Stmt) (obl.Cmd, bool) {
	switch s := s.(type) {
	case *lang.YieldStmt:
		return g.end(g.Proc.yieldOf[s]), true
	case *lang.ReturnStmt:
		return g.end(g.Proc.Exit.Yield), true
	case *lang.BreakStmt:
		return g.breakOut(g.Proc.LoopOf(s)), true
	case *lang.WhileStmt:
		if y := g.Proc.yieldOf[s]; y != nil {
			return g.end(y), true
		}
		return g.privateLoop(s), false
	case *lang.CallStmt:
		if y := g.Proc.yieldOf[s]; y != nil {
			return g.end(y), true
		}
	case *lang.IfStmt:
		return g.ifStmt(s)
	case *lang.BlockStmt:
		return g.seq(s.Block.Stmts)
	case *lang.ParCallStmt:
		return g.seq(StaticArms(s))
	case *lang.ChoiceStmt:
		var brs []obl.Cmd
		all := true
		for _, b := range s.Branches {
			c, ended := g.seq(b.Stmts)
			brs = append(brs, c)
			all = all && ended
		}
		return &obl.Choice{Branches: brs}, all
	}
	return g.B.Stmt(s, g.Env, g.Mode), false
}

// ifStmt translates an if; it ends every path if both branches do.
func (g *Fragments) ifStmt(s *lang.IfStmt) (obl.Cmd, bool) {
	thenEnds, elseEnds := false, false
	cmd := g.B.ifStmt(s, g.Env, g.Mode,
		func(ss []lang.Stmt, _ *Env, _ Mode) obl.Cmd {
			c, ended := g.seq(ss)
			thenEnds = ended
			return c
		},
		func(e lang.Stmt) obl.Cmd {
			c, ended := g.stmt(e)
			elseEnds = ended
			return c
		})
	return cmd, thenEnds && s.Else != nil && elseEnds
}

// guard assumes a branch condition (nothing for *).
func (g *Fragments) guard(c lang.Expr, negated bool) obl.Cmd {
	if c == nil {
		return obl.Sequence()
	}
	e := g.B.Expr(c, g.Env)
	d := g.B.defined(g.Mode, c.Pos(), e)
	if negated {
		e = obl.Not(e)
	}
	return obl.Sequence(d, &obl.Assume{E: e})
}

// privateLoop summarizes a loop of private statements by its
// invariants: they must hold on entry and be maintained by the body; the
// loop's effect is to havoc what it writes, keeping the invariants.
func (g *Fragments) privateLoop(w *lang.WhileStmt) obl.Cmd {
	inv := g.B.Conj(w.Invariants, g.Env)
	var written []*obl.Var
	for o := range WrittenVars(w.Body.Stmts) {
		written = append(written, g.Env.Var(o))
	}
	sortVars(written)
	line := w.P.Line
	return obl.Sequence(
		assertion(g.Mode, inv, fmt.Sprintf("the invariant of the loop at line %d may not hold on entry", line), w.P),
		&obl.Havoc{Vars: written},
		&obl.Assume{E: inv},
		&obl.Choice{Branches: []obl.Cmd{
			obl.Sequence(g.guard(w.Cond, false), g.block(w.Body.Stmts), g.privateBackEdge(w)),
			g.guard(w.Cond, true),
		}},
	)
}

// privateBackEdge ends an iteration of the private loop w: its
// invariants must hold again, and the path stops (the summary covers
// the following iterations).
func (g *Fragments) privateBackEdge(w *lang.WhileStmt) obl.Cmd {
	inv := g.B.Conj(w.Invariants, g.Env)
	return obl.Sequence(
		assertion(g.Mode, inv, fmt.Sprintf("the invariant of the loop at line %d may not be maintained", w.P.Line), w.P),
		&obl.Assume{E: obl.Bool(false)})
}

// callThrough is a call of a procedure inside a whole procedure's code
// (see Walk): the callee's requires must hold; then other threads and the
// callee run (globals and outputs havoced) and the callee's ensures holds.
func (g *Fragments) callThrough(y *YieldPoint) obl.Cmd {
	call := y.Stmt.(*lang.CallStmt)
	var havoc []*obl.Var
	for _, gl := range g.Proc.Layer.Globals {
		havoc = append(havoc, g.Env.Var(gl))
	}
	calls := y.Calls()
	for _, c := range calls {
		for _, o := range c.Outs {
			havoc = append(havoc, g.Env.Var(o.Obj))
		}
	}
	msg := func(what string) string {
		for _, c := range calls {
			if what == describeCall(y, c) {
				return fmt.Sprintf("the requires of %s may not hold at this call", c.Callee.Name)
			}
		}
		return fmt.Sprintf("%s may not hold at this call", what)
	}
	return obl.Sequence(
		g.B.annotationAsserts(g.Mode, y, g.Env, msg, []lang.Pos{call.P, y.Callee().P}),
		&obl.Havoc{Vars: havoc},
		GiveAwayAt(y, g.Env),
		&obl.Assume{E: g.B.AnnotationAfter(y, g.Env)},
	)
}

func sortVars(vs []*obl.Var) {
	sort.Slice(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
}
