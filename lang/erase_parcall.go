package lang

import (
	"bytes"
	"strconv"
)

// eraser carries what erasing one file needs beyond the statement at
// hand: the empty yield invariant that stands for erased invariant arms
// written between two arms of a parallel call.
type eraser struct {
	src       []byte
	yieldName string // the empty yield invariant's name, once one is needed
}

// emptyYieldDecl returns the declaration of the empty yield invariant
// that the erased program's parallel calls use, or nil if none does.
func (er *eraser) emptyYieldDecl() *FuncDecl {
	if er.yieldName == "" {
		return nil
	}
	name := &Ident{Name: er.yieldName}
	t := &BoolLit{ExprBase: ExprBase{T: Bool}, Val: true}
	return &FuncDecl{Name: name, YieldInv: true, Result: &NamedType{Name: &Ident{Name: "bool"}},
		Conjuncts: []Expr{t}, Body: t}
}

// emptyYield returns the name of the empty yield invariant, choosing on
// first use a name that no identifier of the source has.
func (er *eraser) emptyYield() string {
	if er.yieldName == "" {
		er.yieldName = "Yield"
		for n := 1; bytes.Contains(er.src, []byte(er.yieldName)); n++ {
			er.yieldName = "Yield" + strconv.Itoa(n)
		}
	}
	return er.yieldName
}

// eraseParCall erases a parallel call: its arms lose their ghost
// arguments and outputs, and its yield-invariant arms, which are proof
// text, give way to plain yield points, so that the erased program has
// the proof's yield points (dropping them would merge the fragments on
// both sides: `call a() | Inv(); call b();` would check as `call a();
// call b();`). With procedure arms, the invariant arms are part of the
// procedures' yield point, which stays: they go. Without, a run of
// invariant arms before all arms or after all arms becomes a `yield;`
// before or after the call, and a run between two arms becomes a call of
// an empty yield invariant, the plainest yield among arms the language
// has.
func (er *eraser) eraseParCall(s *ParCallStmt) []Stmt {
	c := *s
	c.Arms, c.Yields, c.Written = nil, nil, nil
	for _, a := range s.Arms {
		c.Arms = append(c.Arms, eraseCall(a).(*CallStmt))
	}
	if len(c.Arms) == 0 {
		return []Stmt{&YieldStmt{StmtBase: s.StmtBase}} // only invariant arms: a yield
	}
	procs := procArms(s) > 0
	yieldAt := map[int]bool{}
	for _, y := range s.Yields {
		yieldAt[y.At] = !procs
	}
	var before, after []Stmt
	for i, a := range c.Arms {
		if yieldAt[i] && i > 0 {
			callee := &Ident{P: a.P, Name: er.emptyYield()}
			c.Written = append(c.Written, &CallStmt{StmtBase: StmtBase{P: a.P, End: a.P}, Callee: callee})
		}
		c.Written = append(c.Written, a)
	}
	if yieldAt[0] {
		before = []Stmt{&YieldStmt{StmtBase: s.StmtBase}}
	}
	if yieldAt[len(c.Arms)] {
		after = []Stmt{&YieldStmt{StmtBase: StmtBase{P: s.End, End: s.End}}}
	}
	return append(append(before, &c), after...)
}
