package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/vcgen"
)

var binaryOps = map[lang.Op]vcgen.BinaryOp{
	lang.OpIff: vcgen.OpIff, lang.OpImplies: vcgen.OpImplies, lang.OpOr: vcgen.OpOr, lang.OpAnd: vcgen.OpAnd,
	lang.OpEq: vcgen.OpEq, lang.OpNe: vcgen.OpNe, lang.OpLt: vcgen.OpLt, lang.OpLe: vcgen.OpLe,
	lang.OpGt: vcgen.OpGt, lang.OpGe: vcgen.OpGe, lang.OpAdd: vcgen.OpAdd, lang.OpSub: vcgen.OpSub,
	lang.OpMul: vcgen.OpMul, lang.OpDiv: vcgen.OpDiv, lang.OpMod: vcgen.OpMod,
}

// Expr translates a checked expression in env. Calls of functions are
// inlined: the body is translated with the parameters bound to the
// arguments.
func (b *Builder) Expr(e lang.Expr, env *Env) vcgen.Expr {
	switch e := e.(type) {
	case *lang.IntLit:
		return vcgen.Int(e.Val)
	case *lang.BoolLit:
		return vcgen.Bool(e.Val)
	case *lang.Ident:
		if v := env.Lookup(e.Obj); v != nil {
			return v
		}
		if v := b.root.Lookup(e.Obj); v != nil {
			return v
		}
		panic(fmt.Sprintf("layers: %s %s is not bound at %s", e.Obj.Kind, e.Name, e.P))
	case *lang.UnaryExpr:
		if e.Op == lang.OpNeg {
			return vcgen.Neg(b.Expr(e.X, env))
		}
		return vcgen.Not(b.Expr(e.X, env))
	case *lang.BinaryExpr:
		return vcgen.BinaryOf(binaryOps[e.Op], b.Expr(e.X, env), b.Expr(e.Y, env))
	case *lang.IndexExpr:
		return vcgen.Index(b.Expr(e.Map, env), b.Expr(e.Key, env))
	case *lang.UpdateExpr:
		return vcgen.Update(b.Expr(e.Map, env), b.Expr(e.Key, env), b.Expr(e.Val, env))
	case *lang.CondExpr:
		return vcgen.IfThenElse(b.Expr(e.Cond, env), b.Expr(e.Then, env), b.Expr(e.Else, env))
	case *lang.QuantExpr:
		inner := env.Child()
		var bound []*vcgen.Var
		for _, p := range e.Vars {
			v := b.bound(p.Name.Name, SortOf(p.Name.Obj.Type))
			inner.Set(p.Name.Obj, &vcgen.VarRef{V: v})
			bound = append(bound, v)
		}
		if e.Exists {
			return vcgen.Exists(bound, b.Expr(e.Body, inner))
		}
		return vcgen.Forall(bound, b.Expr(e.Body, inner))
	case *lang.CallExpr:
		fn := e.Func.Obj.Decl.(*lang.FuncDecl)
		inner := env.Child()
		for i, p := range fn.Params {
			inner.Set(p.Name.Obj, b.Expr(e.Args[i], env))
		}
		return b.Expr(fn.Body, inner)
	}
	panic(fmt.Sprintf("layers: unexpected expression %T", e))
}

// Conj translates the conjunction of expressions (true if none).
func (b *Builder) Conj(es []lang.Expr, env *Env) vcgen.Expr {
	var parts []vcgen.Expr
	for _, e := range es {
		parts = append(parts, b.Expr(e, env))
	}
	return vcgen.And(parts...)
}

// conjuncts splits a formula at its top-level conjunctions.
func conjuncts(e vcgen.Expr) []vcgen.Expr {
	if b, ok := e.(*vcgen.Binary); ok && b.Op == vcgen.OpAnd {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	if l, ok := e.(*vcgen.BoolLit); ok && l.V {
		return nil
	}
	return []vcgen.Expr{e}
}
