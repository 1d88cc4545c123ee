package randprog

import "github.com/lipton-dev/lipton/lang"

// AccessAtomic reports whether layer 0 of a checked file respects access
// atomicity: every simple statement of a layer-0 procedure outside a
// [ ] group accesses at most one global once. Ghost variables do not
// count (they do not exist in the implementation), and a call of a
// function that reads globals counts as two accesses, since the model
// checker reads them once per use. The language claims such statements
// atomic, so only for files where it holds is a violation that
// `explore --atomicity access` finds a violation of the proof.
func AccessAtomic(f *lang.File) bool {
	if len(f.Layers) == 0 {
		return true
	}
	ok := true
	for _, m := range f.Layers[0].Members {
		p, isProc := m.(*lang.Proc)
		if !isProc {
			continue
		}
		lang.Inspect(p.Body.Stmts, func(s lang.Stmt) bool {
			if _, group := s.(*lang.StepStmt); group {
				return false // one access, whatever it contains
			}
			if accesses(s) > 1 {
				ok = false
			}
			return true
		})
	}
	return ok
}

// accesses counts the accesses of globals a simple statement makes
// (structured statements count none of their own).
func accesses(s lang.Stmt) int {
	n := 0
	switch s := s.(type) {
	case *lang.AssignStmt:
		for _, lv := range s.Lhs {
			n += globalRef(lv.Name)
		}
	case *lang.HavocStmt:
		for _, id := range s.Vars {
			n += globalRef(id)
		}
	case *lang.AssumeStmt, *lang.AssertStmt:
	default:
		return 0
	}
	for _, e := range lang.StmtExprs(s) {
		lang.InspectExpr(e, func(x lang.Expr) bool {
			switch x := x.(type) {
			case *lang.Ident:
				n += globalRef(x)
			case *lang.CallExpr:
				if readsRealGlobal(x.Func.Obj) {
					n += 2
				}
			}
			return true
		})
	}
	return n
}

// globalRef is 1 for a reference to a non-ghost global variable, else 0.
func globalRef(id *lang.Ident) int {
	if id.Obj != nil && id.Obj.Kind == lang.ObjGlobal && !id.Obj.Ghost {
		return 1
	}
	return 0
}

// readsRealGlobal reports whether a function reads a non-ghost global.
func readsRealGlobal(fn *lang.Object) bool {
	if fn == nil || fn.Func == nil {
		return false
	}
	for _, g := range fn.Func.Globals {
		if !g.Ghost {
			return true
		}
	}
	return false
}
