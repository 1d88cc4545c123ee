package layers

import "github.com/lipton-dev/lipton/lang"

// maxGatePaths bounds the paths collected for a gate context. Beyond it
// the annotation part of the gate is dropped, which only weakens the gate
// (sound: gates are assumptions of the mover checks).
const maxGatePaths = 32

// gateContext computes the annotation part of the gate of the step at
// node n: the paths from yield points to n that pass no other step. If
// some path to n comes from another step, nothing is known.
func gateContext(n *Node) *GateContext {
	ctx := &GateContext{}
	complete := true
	var walk func(n *Node, conds []*Node, assigned map[*lang.Object]bool)
	walk = func(n *Node, conds []*Node, assigned map[*lang.Object]bool) {
		for _, p := range n.Preds {
			if !complete {
				return
			}
			switch {
			case p.IsYield():
				ctx.Paths = append(ctx.Paths, &GatePath{Yield: p.Yield, Conds: conds, Assigned: assigned})
				complete = len(ctx.Paths) <= maxGatePaths
			case p.Kind == NodeCond:
				walk(p, append([]*Node{p}, conds...), assigned)
			case p.Kind == NodeJoin:
				walk(p, conds, assigned)
			case p.Kind == NodePrivate || p.Kind == NodePrivateLoop:
				walk(p, conds, union(assigned, WrittenVars([]lang.Stmt{p.Stmt})))
			default:
				complete = false
			}
		}
	}
	walk(n, nil, nil)
	if !complete || len(ctx.Paths) == 0 {
		return nil
	}
	return ctx
}

func union(a, b map[*lang.Object]bool) map[*lang.Object]bool {
	if len(b) == 0 {
		return a
	}
	out := make(map[*lang.Object]bool, len(a)+len(b))
	for o := range a {
		out[o] = true
	}
	for o := range b {
		out[o] = true
	}
	return out
}

// WrittenVars returns the variables that statements may write:
// assignment targets, havoced variables and call outputs, and the
// linear variables that moves and calls empty (the source of b := a, an
// argument for a linear_in parameter): a fact about them from before
// the statement is stale after it.
func WrittenVars(ss []lang.Stmt) map[*lang.Object]bool {
	w := map[*lang.Object]bool{}
	lang.Inspect(ss, func(s lang.Stmt) bool {
		switch s := s.(type) {
		case *lang.AssignStmt:
			for _, lv := range s.Lhs {
				w[lv.Name.Obj] = true
			}
			if s.Move {
				w[s.Rhs[0].(*lang.Ident).Obj] = true
			}
		case *lang.HavocStmt:
			for _, id := range s.Vars {
				w[id.Obj] = true
			}
		case *lang.CallStmt:
			for _, id := range s.Outs {
				w[id.Obj] = true
			}
			for _, o := range givenAway(s) {
				w[o] = true
			}
		}
		return true
	})
	return w
}

// ReadVars returns the variables an expression reads, including the
// globals read by the functions it calls.
func ReadVars(e lang.Expr) map[*lang.Object]bool {
	r := map[*lang.Object]bool{}
	lang.InspectExpr(e, func(x lang.Expr) bool {
		switch x := x.(type) {
		case *lang.Ident:
			if x.Obj != nil && x.Obj.IsVar() {
				r[x.Obj] = true
			}
		case *lang.CallExpr:
			if fn := x.Func.Obj; fn != nil && fn.Func != nil {
				for _, g := range fn.Func.Globals {
					r[g] = true
				}
			}
		}
		return true
	})
	return r
}

// givenAway returns the caller's variables that call s passes to
// linear_in parameters, which the call empties.
func givenAway(s *lang.CallStmt) []*lang.Object {
	if s.Callee == nil || s.Callee.Obj == nil {
		return nil
	}
	m, ok := s.Callee.Obj.Decl.(lang.Member)
	if !ok || len(m.Sig().Params) != len(s.Args) {
		return nil
	}
	var out []*lang.Object
	for i, p := range m.Sig().Params {
		if id, ok := s.Args[i].(*lang.Ident); ok && p.LinearIn && id.Obj != nil {
			out = append(out, id.Obj)
		}
	}
	return out
}
