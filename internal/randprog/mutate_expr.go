package randprog

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
)

// scope is what a new conjunct may mention at a place: the int and bool
// variables visible there (globals of the layer, and the member's
// parameters, outputs and locals).
type scope struct {
	intGlobals, ints, bools []string
}

// globalScope is the scope of a declaration over layers lo..hi: the
// globals visible at all of them.
func (mu *mutator) globalScope(lo, hi int) *scope {
	sc := &scope{}
	for _, g := range mu.info.Globals {
		if g.Layers.Lo > lo || g.Layers.Hi < hi {
			continue
		}
		switch {
		case lang.Identical(g.Type, lang.Int):
			sc.intGlobals = append(sc.intGlobals, g.Name)
			sc.ints = append(sc.ints, g.Name)
		case lang.Identical(g.Type, lang.Bool):
			sc.bools = append(sc.bools, g.Name)
		}
	}
	return sc
}

// memberScope is the scope inside an action or procedure of a layer:
// its parameters, and its outputs and locals where the place may read
// them (not in a requires).
func (mu *mutator) memberScope(layer int, sig *lang.Signature, outputs, locals bool) *scope {
	sc := mu.globalScope(layer, layer)
	add := func(id *lang.Ident) {
		if id.Obj == nil {
			return
		}
		switch {
		case lang.Identical(id.Obj.Type, lang.Int):
			sc.ints = append(sc.ints, id.Name)
		case lang.Identical(id.Obj.Type, lang.Bool):
			sc.bools = append(sc.bools, id.Name)
		}
	}
	for _, p := range sig.Params {
		add(p.Name)
	}
	for _, p := range sig.Returns {
		if outputs {
			add(p.Name)
		}
	}
	for _, d := range sig.Locals {
		for _, id := range d.Names {
			if locals {
				add(id)
			}
		}
	}
	return sc
}

// atom is a random condition over the scope: a comparison of an int
// variable with a global or a small constant, or a bool variable.
func (mu *mutator) atom(sc *scope) lang.Expr {
	r := mu.r
	if len(sc.bools) > 0 && (len(sc.ints) == 0 || r.Intn(4) == 0) {
		b := ident(sc.bools[r.Intn(len(sc.bools))])
		if r.Intn(2) == 0 {
			return &lang.UnaryExpr{Op: lang.OpNot, X: b}
		}
		return b
	}
	if len(sc.ints) == 0 {
		return &lang.BoolLit{Val: r.Intn(2) == 0}
	}
	x := ident(sc.ints[r.Intn(len(sc.ints))])
	var y lang.Expr = &lang.IntLit{Val: int64(r.Intn(3))}
	if len(sc.intGlobals) > 0 && r.Intn(2) == 0 {
		y = ident(sc.intGlobals[r.Intn(len(sc.intGlobals))])
		if r.Intn(3) == 0 {
			y = &lang.BinaryExpr{Op: lang.OpSub, X: y, Y: &lang.IntLit{Val: 1}}
		}
	}
	ops := []lang.Op{lang.OpLt, lang.OpLe, lang.OpEq, lang.OpNe, lang.OpGe, lang.OpGt}
	return &lang.BinaryExpr{Op: ops[r.Intn(len(ops))], X: x, Y: y}
}

// ident is a reference to a variable by name (the formatter needs no
// more).
func ident(name string) *lang.Ident { return &lang.Ident{Name: name} }

// and is the conjunction a && b.
func and(a, b lang.Expr) lang.Expr { return &lang.BinaryExpr{Op: lang.OpAnd, X: a, Y: b} }

// conjuncts splits a conjunction into its conjuncts.
func conjuncts(e lang.Expr) []lang.Expr {
	if b, ok := e.(*lang.BinaryExpr); ok && b.Op == lang.OpAnd {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []lang.Expr{e}
}

// weaken drops one conjunct of the condition in slot, or the whole
// condition (true) if it has one; it says what it dropped.
func (mu *mutator) weaken(slot *lang.Expr) string {
	cs := conjuncts(*slot)
	i := mu.r.Intn(len(cs))
	dropped := lang.ExprString(cs[i])
	if len(cs) == 1 {
		*slot = &lang.BoolLit{Val: true}
		return "condition " + dropped + " dropped"
	}
	cs = append(cs[:i:i], cs[i+1:]...)
	e := cs[0]
	for _, c := range cs[1:] {
		e = and(e, c)
	}
	*slot = e
	return "conjunct " + dropped + " dropped"
}

// exprSites records the mutations of the literals and operators in e.
func (mu *mutator) exprSites(e lang.Expr, where string) {
	lang.InspectExpr(e, func(x lang.Expr) bool {
		switch x := x.(type) {
		case *lang.IntLit:
			mu.add(MutConstant, func() string {
				old := x.Val
				x.Val += []int64{-1, 1}[mu.r.Intn(2)]
				return fmt.Sprintf("%s (line %d): constant %d changed to %d", where, x.P.Line, old, x.Val)
			})
		case *lang.BinaryExpr:
			mu.operatorSites(x, where)
		}
		return true
	})
}

// operatorSites records replacing a binary operator by a related one of
// the same type: a comparison by another, + by -, && by ||.
func (mu *mutator) operatorSites(b *lang.BinaryExpr, where string) {
	swap := func(kind string, ops ...lang.Op) {
		mu.add(kind, func() string {
			old := b.Op
			for b.Op == old {
				b.Op = ops[mu.r.Intn(len(ops))]
			}
			return fmt.Sprintf("%s (line %d): %s changed to %s in %s", where, b.OpPos.Line, old, b.Op, lang.ExprString(b))
		})
	}
	switch b.Op {
	case lang.OpLt, lang.OpLe:
		swap(MutLessEq, lang.OpLt, lang.OpLe)
	case lang.OpGt, lang.OpGe:
		swap(MutLessEq, lang.OpGt, lang.OpGe)
	}
	switch b.Op {
	case lang.OpLt, lang.OpLe, lang.OpGt, lang.OpGe, lang.OpEq, lang.OpNe:
		if t := b.X.Type(); t != nil && lang.Identical(t, lang.Int) {
			swap(MutOperator, lang.OpLt, lang.OpLe, lang.OpGt, lang.OpGe, lang.OpEq, lang.OpNe)
		} else {
			swap(MutOperator, lang.OpEq, lang.OpNe)
		}
	case lang.OpAdd, lang.OpSub:
		swap(MutOperator, lang.OpAdd, lang.OpSub)
	case lang.OpAnd, lang.OpOr:
		swap(MutOperator, lang.OpAnd, lang.OpOr)
	}
}
