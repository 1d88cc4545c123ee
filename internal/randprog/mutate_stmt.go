package randprog

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
)

// block records the mutations of a statement list and of the statements
// in it. inStep is true in actions and in [ ] groups, where conditions
// may read globals and statements carry no mover tags.
func (mu *mutator) block(sc *scope, where string, stmts *[]lang.Stmt, inStep bool) {
	for i, s := range *stmts {
		i, s := i, s
		line := s.Pos().Line
		at := fmt.Sprintf("%s line %d", where, line)
		if i+1 < len(*stmts) {
			mu.add(MutReorder, func() string {
				(*stmts)[i], (*stmts)[i+1] = (*stmts)[i+1], (*stmts)[i]
				return fmt.Sprintf("%s: swapped with the next statement (line %d)", at, (*stmts)[i].Pos().Line)
			})
		}
		remove := func() string {
			*stmts = append((*stmts)[:i:i], (*stmts)[i+1:]...)
			return at + ": removed " + lang.StmtString(s)
		}
		switch s.(type) {
		case *lang.AssumeStmt:
			mu.add(MutDropAssume, remove)
		case *lang.AssertStmt:
			mu.add(MutDropAssert, remove)
		case *lang.YieldStmt:
			mu.add(MutDropYield, remove)
		}
		if isSimple(s) {
			mu.add(MutDropStmt, remove)
		}
		if !inStep && lang.Base(s).Class == lang.ClassStep {
			mu.stepTag(at, lang.Base(s))
		}
		mu.stmt(sc, where, stmts, i, inStep)
	}
}

// isSimple reports whether s is a simple statement or a [ ] group.
func isSimple(s lang.Stmt) bool {
	switch s.(type) {
	case *lang.AssignStmt, *lang.HavocStmt, *lang.AssumeStmt, *lang.AssertStmt, *lang.StepStmt:
		return true
	}
	return false
}

// stepTag records changing the mover tag of a step.
func (mu *mutator) stepTag(at string, b *lang.StmtBase) {
	mu.add(MutMover, func() string {
		old := b.Mover
		b.Mover = mu.otherMover(old)
		return fmt.Sprintf("%s: step tagged %s instead of %s", at, moverWord(b.Mover), moverWord(old))
	})
}

// stmt records the mutations inside the statement (*stmts)[i] of the
// member where: its expressions, annotations and nested blocks, and
// dropping the test of a compare-and-swap.
func (mu *mutator) stmt(sc *scope, where string, stmts *[]lang.Stmt, i int, inStep bool) {
	s := (*stmts)[i]
	at := fmt.Sprintf("%s line %d", where, s.Pos().Line)
	for _, e := range lang.StmtExprs(s) {
		mu.exprSites(e, at)
	}
	switch s := s.(type) {
	case *lang.StepStmt:
		mu.block(sc, where, &s.Body, true)
	case *lang.YieldStmt:
		mu.annotation(sc, at+" yield", &s.Ann)
	case *lang.WhileStmt:
		for j := range s.Invariants {
			mu.annotation(sc, at+" loop invariant", &s.Invariants[j])
		}
		mu.block(sc, where, &s.Body.Stmts, inStep)
	case *lang.ChoiceStmt:
		for _, b := range s.Branches {
			mu.block(sc, where, &b.Stmts, inStep)
		}
	case *lang.IfStmt:
		mu.ifStmt(sc, where, s, inStep, func(then []lang.Stmt) {
			rest := append([]lang.Stmt{}, (*stmts)[i+1:]...)
			*stmts = append(append((*stmts)[:i:i], then...), rest...)
		})
	}
}

// ifStmt records the mutations of an if: its branches, and, when its
// condition reads shared state inside an atomic step (a compare-and-swap
// or a test of an action), replacing it by its then branch, which
// replace does.
func (mu *mutator) ifStmt(sc *scope, where string, s *lang.IfStmt, inStep bool, replace func([]lang.Stmt)) {
	at := fmt.Sprintf("%s line %d", where, s.Pos().Line)
	mu.block(sc, where, &s.Then.Stmts, inStep)
	switch e := s.Else.(type) {
	case *lang.BlockStmt:
		mu.block(sc, where, &e.Block.Stmts, inStep)
	case *lang.IfStmt:
		if e.Cond != nil {
			mu.exprSites(e.Cond, at)
		}
		mu.ifStmt(sc, where, e, inStep, func(then []lang.Stmt) {
			s.Else = &lang.BlockStmt{Block: &lang.Block{Stmts: then}}
		})
	}
	if !inStep || s.Cond == nil || !readsGlobal(s.Cond) {
		return
	}
	mu.add(MutDropCAS, func() string {
		replace(s.Then.Stmts)
		return fmt.Sprintf("%s: if (%s) replaced by its then branch", at, lang.ExprString(s.Cond))
	})
}

// readsGlobal reports whether e reads a global variable, directly or
// through a function.
func readsGlobal(e lang.Expr) bool {
	found := false
	lang.InspectExpr(e, func(x lang.Expr) bool {
		switch x := x.(type) {
		case *lang.Ident:
			found = found || (x.Obj != nil && x.Obj.Kind == lang.ObjGlobal)
		case *lang.CallExpr:
			found = found || (x.Func.Obj != nil && x.Func.Obj.Func != nil && len(x.Func.Obj.Func.Globals) > 0)
		}
		return !found
	})
	return found
}
