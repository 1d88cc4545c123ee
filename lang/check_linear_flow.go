package lang

import "fmt"

// Availability of a procedure's linear variables (docs/language.md,
// "Moves and linear_in on procedures"). A linear local or output, or the
// held local of a linear_in parameter, is available where it holds the
// identities it last received: from a call's linear output, a move into
// it, or (a linear_in parameter) from the caller. It is unavailable at
// the start (a local or output), and after it gives its identities away
// (to a linear_in parameter, or moved out). The checks, on every path:
//
//   - a variable is read only where it is available (it would hold no
//     identities: the value was moved or given away);
//   - a variable receives identities only where it is unavailable on
//     every path (it would lose the ones it holds).
//
// The VCs and explore do not rely on these rules: an unavailable
// variable is empty in both. The rules turn a use of an emptied
// variable, which the VCs would report as a failed requires or an
// unprovable annotation, into an error at the use.

// availState is what is known at a point of a procedure's body: the
// variables available on some path (may) and on every path (must), and
// where each last became unavailable. A dead state is unreachable (after
// a return or break).
type availState struct {
	dead      bool
	may, must map[*Object]bool
	lost      map[*Object]Pos // where it gave its identities away (invalid: never received)
}

func (s *availState) copy() *availState {
	c := &availState{dead: s.dead, may: map[*Object]bool{}, must: map[*Object]bool{}, lost: map[*Object]Pos{}}
	for o := range s.may {
		c.may[o] = true
	}
	for o := range s.must {
		c.must[o] = true
	}
	for o, p := range s.lost {
		c.lost[o] = p
	}
	return c
}

// join merges the states of two paths into one.
func join(a, b *availState) *availState {
	switch {
	case a.dead:
		return b.copy()
	case b.dead:
		return a.copy()
	}
	c := a.copy()
	for o := range b.may {
		c.may[o] = true
	}
	for o := range c.must {
		if !b.must[o] {
			delete(c.must, o)
		}
	}
	for o, p := range b.lost {
		if _, ok := c.lost[o]; !ok {
			c.lost[o] = p
		}
	}
	return c
}

func sameAvail(a, b *availState) bool {
	if a.dead != b.dead || len(a.may) != len(b.may) || len(a.must) != len(b.must) {
		return false
	}
	for o := range a.may {
		if !b.may[o] {
			return false
		}
	}
	for o := range a.must {
		if !b.must[o] {
			return false
		}
	}
	return true
}

// availFlow walks one procedure's body.
type availFlow struct {
	c       *checker
	tracked map[*Object]bool
	report  bool            // errors are reported in the last pass over a loop only
	seen    map[Pos]bool    // errors already reported
	breaks  [][]*availState // per enclosing loop, the states at its breaks
	recv    map[*Object]Pos // where a variable last received identities
}

// checkLinearFlow checks the availability rules in procedure p.
func (c *checker) checkLinearFlow(p *Proc) {
	f := &availFlow{c: c, tracked: map[*Object]bool{}, report: true, seen: map[Pos]bool{}, recv: map[*Object]Pos{}}
	st := &availState{may: map[*Object]bool{}, must: map[*Object]bool{}, lost: map[*Object]Pos{}}
	for _, r := range p.Returns {
		if o := r.Name.Obj; o != nil && o.Linear {
			f.tracked[o] = true
		}
	}
	for _, d := range p.Locals {
		for _, n := range d.Names {
			if n.Obj != nil && n.Obj.Linear {
				f.tracked[n.Obj] = true
			}
		}
	}
	for _, h := range p.Held {
		f.tracked[h], st.may[h], st.must[h] = true, true, true
	}
	if len(f.tracked) == 0 || p.Body == nil {
		return
	}
	f.stmts(p.Body.Stmts, st)
}

func (f *availFlow) errorf(pos Pos, format string, args ...any) {
	if f.report && !f.seen[pos] {
		f.seen[pos] = true
		f.c.errorf(pos, format, args...)
	}
}

// read checks that every tracked variable e reads is available.
func (f *availFlow) read(e Expr, st *availState) {
	if st.dead {
		return
	}
	InspectExpr(e, func(x Expr) bool {
		if id, ok := x.(*Ident); ok && f.tracked[id.Obj] && !st.must[id.Obj] {
			f.unavailable(id, st)
		}
		return true
	})
}

func (f *availFlow) unavailable(id *Ident, st *availState) {
	if p, ok := st.lost[id.Obj]; ok && p.IsValid() {
		f.errorf(id.P, "linear variable %s is read where it may have given its identities away (at %d:%d): it holds none until it receives some again", id.Name, p.Line, p.Col)
		return
	}
	f.errorf(id.P, "linear variable %s is read where it may not have received identities yet (a linear local or output starts empty): call an action or procedure whose linear output it receives, or move identities into it, on every path to here", id.Name)
}

// give makes o unavailable at pos (it gave its identities away).
func (f *availFlow) give(o *Object, pos Pos, st *availState) {
	if !f.tracked[o] || st.dead {
		return
	}
	delete(st.may, o)
	delete(st.must, o)
	st.lost[o] = pos
}

// receive makes o available at id (it receives identities), after
// checking that it holds none on any path.
func (f *availFlow) receive(id *Ident, st *availState) {
	o := id.Obj
	if !f.tracked[o] || st.dead {
		return
	}
	if st.may[o] {
		where := ""
		if p, ok := f.recv[o]; ok {
			where = fmt.Sprintf(" (received at %d:%d)", p.Line, p.Col)
		}
		f.errorf(id.P, "linear variable %s may still hold identities here%s: receiving more would lose them; give them away or move them out first", id.Name, where)
	}
	st.may[o], st.must[o] = true, true
	f.recv[o] = id.P
}

func (f *availFlow) stmts(ss []Stmt, st *availState) *availState {
	for _, s := range ss {
		st = f.stmt(s, st)
	}
	return st
}

func (f *availFlow) stmt(s Stmt, st *availState) *availState {
	switch s := s.(type) {
	case *AssignStmt:
		f.assign(s, st)
	case *AssumeStmt:
		f.read(s.Cond, st)
	case *AssertStmt:
		f.read(s.Cond, st)
	case *YieldStmt:
		f.read(s.Ann, st)
	case *StepStmt:
		return f.stmts(s.Body, st)
	case *BlockStmt:
		return f.stmts(s.Block.Stmts, st)
	case *CallStmt:
		f.call(s, st)
	case *ParCallStmt:
		for _, arm := range s.Arms {
			f.call(arm, st)
		}
		for _, y := range s.Yields {
			f.read(y.Yield.Ann, st)
		}
	case *IfStmt:
		f.read(s.Cond, st)
		then := f.stmts(s.Then.Stmts, st.copy())
		els := st
		if s.Else != nil {
			els = f.stmt(s.Else, st.copy())
		}
		return join(then, els)
	case *ChoiceStmt:
		out := &availState{dead: true}
		for _, b := range s.Branches {
			out = join(out, f.stmts(b.Stmts, st.copy()))
		}
		return out
	case *WhileStmt:
		return f.loop(s, st)
	case *ReturnStmt:
		return &availState{dead: true}
	case *BreakStmt:
		if n := len(f.breaks); n > 0 {
			f.breaks[n-1] = append(f.breaks[n-1], st)
		}
		return &availState{dead: true}
	}
	return st
}

func (f *availFlow) assign(s *AssignStmt, st *availState) {
	for _, lv := range s.Lhs {
		for _, sel := range lv.Sels {
			f.read(sel.Index, st)
		}
	}
	for _, r := range s.Rhs {
		f.read(r, st)
	}
	if s.Move {
		src := s.Rhs[0].(*Ident)
		f.give(src.Obj, src.P, st)
		f.receive(s.Lhs[0].Name, st)
	}
}

func (f *availFlow) call(s *CallStmt, st *availState) {
	for _, a := range s.Args {
		f.read(a, st)
	}
	var sig *Signature
	if m, ok := memberOfCall(s); ok {
		sig = m.Sig()
	}
	if sig != nil && len(sig.Params) == len(s.Args) {
		for i, p := range sig.Params {
			if id, ok := s.Args[i].(*Ident); ok && p.LinearIn && id.Obj != nil {
				f.give(id.Obj, id.P, st)
			}
		}
	}
	for _, out := range s.Outs {
		if out.Obj != nil {
			f.receive(out, st)
		}
	}
}

// memberOfCall returns the action or procedure that s calls.
func memberOfCall(s *CallStmt) (Member, bool) {
	if s.Callee == nil || s.Callee.Obj == nil {
		return nil, false
	}
	m, ok := s.Callee.Obj.Decl.(Member)
	return m, ok
}

// loop walks while loop w from state in: the head's state is the join
// of the entry and of every iteration's end, found by iterating (the
// sets only grow or shrink, so this ends); errors are reported in the
// last pass, from the head's final state.
func (f *availFlow) loop(w *WhileStmt, in *availState) *availState {
	report := f.report
	f.report = false
	head := in.copy()
	for {
		f.breaks = append(f.breaks, nil)
		end := f.stmts(w.Body.Stmts, head.copy())
		f.breaks = f.breaks[:len(f.breaks)-1]
		next := join(in, end)
		if sameAvail(next, head) {
			break
		}
		head = next
	}
	f.report = report
	if w.Cond != nil {
		f.read(w.Cond, head)
	}
	for _, inv := range w.Invariants {
		f.read(inv, head)
	}
	f.breaks = append(f.breaks, nil)
	f.stmts(w.Body.Stmts, head.copy())
	out := head.copy()
	for _, b := range f.breaks[len(f.breaks)-1] {
		out = join(out, b)
	}
	f.breaks = f.breaks[:len(f.breaks)-1]
	return out
}
