package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// MaxStepPaths bounds the paths through a step (or action) whose gate
// and transition relation lipton computes by path enumeration: a step
// with more paths is not checked by the mover and abstraction checks,
// which report it as unknown. Split such a step into smaller steps.
const MaxStepPaths = 256

// pathCap stops counting long before overflow.
const pathCap = 1 << 20

// Paths returns the number of paths through the step's code (capped at
// 2^20): branches of if and choice multiply along a sequence.
func (s *Step) Paths() int {
	if s.paths == 0 {
		if s.Action != nil {
			s.paths = CountPaths(s.Action.Decl.Body.Stmts)
		} else {
			s.paths = CountPaths([]lang.Stmt{s.Stmt})
		}
	}
	return s.paths
}

// TooComplex returns a diagnostic if the step has more than MaxStepPaths
// paths, for a check of kind check at layer l.
func (s *Step) TooComplex(check obl.Kind) *Diagnostic {
	n := s.Paths()
	if n <= MaxStepPaths {
		return nil
	}
	count := fmt.Sprint(n)
	if n >= pathCap {
		count = fmt.Sprintf("more than %d", pathCap)
	}
	return &Diagnostic{Check: check, Layer: s.Layer.Num, Unknown: true, Subject: s.Name(),
		Msg: fmt.Sprintf("%s has %s paths (more than %d): lipton does not compute its gate and transition relation, so no %s check involving it is made; split it into smaller steps",
			s.Name(), count, MaxStepPaths, check),
		Pos: []lang.Pos{s.Pos}}
}

func CountPaths(ss []lang.Stmt) int {
	n := 1
	for _, s := range ss {
		n = capMul(n, stmtPaths(s))
	}
	return n
}

func stmtPaths(s lang.Stmt) int {
	switch s := s.(type) {
	case *lang.StepStmt:
		return CountPaths(s.Body)
	case *lang.BlockStmt:
		return CountPaths(s.Block.Stmts)
	case *lang.ParCallStmt:
		return CountPaths(s.ArmStmts())
	case *lang.IfStmt:
		els := 1
		if s.Else != nil {
			els = stmtPaths(s.Else)
		}
		return capAdd(CountPaths(s.Then.Stmts), els)
	case *lang.ChoiceStmt:
		n := 0
		for _, b := range s.Branches {
			n = capAdd(n, CountPaths(b.Stmts))
		}
		return n
	case *lang.CallStmt:
		if a := lang.CalledAction(s); a != nil {
			return CountPaths(a.Body.Stmts)
		}
	}
	return 1
}

func capMul(a, b int) int {
	if a >= pathCap || b >= pathCap || a*b >= pathCap {
		return pathCap
	}
	return a * b
}

func capAdd(a, b int) int {
	if a+b >= pathCap {
		return pathCap
	}
	return a + b
}
