package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

var binaryOps = map[lang.Op]obl.BinaryOp{
	lang.OpIff: obl.OpIff, lang.OpImplies: obl.OpImplies, lang.OpOr: obl.OpOr, lang.OpAnd: obl.OpAnd,
	lang.OpEq: obl.OpEq, lang.OpNe: obl.OpNe, lang.OpLt: obl.OpLt, lang.OpLe: obl.OpLe,
	lang.OpGt: obl.OpGt, lang.OpGe: obl.OpGe, lang.OpAdd: obl.OpAdd, lang.OpSub: obl.OpSub,
	lang.OpMul: obl.OpMul, lang.OpDiv: obl.OpDiv, lang.OpMod: obl.OpMod,
}

// Expr translates a checked expression in env. Calls of functions are
// inlined: the body is translated with the parameters bound to the
// arguments.
func (b *Builder) Expr(e lang.Expr, env *Env) obl.Expr {
	switch e := e.(type) {
	case *lang.IntLit:
		return obl.Int(e.Val)
	case *lang.BoolLit:
		return obl.Bool(e.Val)
	case *lang.Ident:
		if e.Obj.Kind == lang.ObjEnumMember {
			t := e.Obj.Type.(*lang.EnumType)
			return obl.Enum(EnumSortOf(t), t.Index(e.Obj))
		}
		if v := env.Lookup(e.Obj); v != nil {
			return v
		}
		if v := b.root.Lookup(e.Obj); v != nil {
			return v
		}
		panic(fmt.Sprintf("layers: %s %s is not bound at %s", e.Obj.Kind, e.Name, e.P))
	case *lang.UnaryExpr:
		if e.Op == lang.OpNeg {
			return obl.Neg(b.Expr(e.X, env))
		}
		return obl.Not(b.Expr(e.X, env))
	case *lang.BinaryExpr:
		return obl.BinaryOf(binaryOps[e.Op], b.Expr(e.X, env), b.Expr(e.Y, env))
	case *lang.IndexExpr:
		if st, ok := e.Map.Type().(*lang.SeqType); ok {
			return obl.SeqElem(b.Expr(e.Map, env), SortOf(st).(*obl.SeqSort), b.Expr(e.Key, env))
		}
		return obl.Index(b.Expr(e.Map, env), b.Expr(e.Key, env))
	case *lang.SeqLitExpr:
		return obl.SeqOf(SortOf(e.Type()).(*obl.SeqSort), b.exprs(e.Elems, env)...)
	case *lang.SliceExpr:
		return b.slice(e, env)
	case *lang.UpdateExpr:
		return obl.Update(b.Expr(e.Map, env), b.Expr(e.Key, env), b.Expr(e.Val, env))
	case *lang.CondExpr:
		return obl.IfThenElse(b.Expr(e.Cond, env), b.Expr(e.Then, env), b.Expr(e.Else, env))
	case *lang.QuantExpr:
		inner := env.Child()
		var bound []*obl.Var
		for _, p := range e.Vars {
			v := b.bound(p.Name.Name, SortOf(p.Name.Obj.Type))
			inner.Set(p.Name.Obj, &obl.VarRef{V: v})
			bound = append(bound, v)
		}
		if e.Exists {
			return obl.Exists(bound, b.Expr(e.Body, inner))
		}
		return obl.Forall(bound, b.Expr(e.Body, inner))
	case *lang.OldExpr:
		inner := env.Child()
		for _, s := range e.Snaps {
			inner.Set(s.Global, b.Expr(&lang.Ident{P: e.P, Name: s.Snap.Name, Obj: s.Snap}, env))
		}
		return b.Expr(e.X, inner)
	case *lang.FieldExpr:
		rt := e.X.Type().(*lang.RecordType)
		return obl.FieldOf(b.Expr(e.X, env), RecordSortOf(rt), e.Index)
	case *lang.ConstMapExpr:
		return obl.MapOf(SortOf(e.Type()).(*obl.MapSort), b.Expr(e.Val, env))
	case *lang.CallExpr:
		if e.Builtin != lang.NotBuiltin {
			return b.builtin(e, env)
		}
		if mt, ok := e.Func.Obj.Type.(*lang.MapType); ok && e.Func.Obj.Kind == lang.ObjType {
			return obl.MapOf(SortOf(mt).(*obl.MapSort), b.Expr(e.Args[0], env))
		}
		if rt, ok := e.Func.Obj.Type.(*lang.RecordType); ok && e.Func.Obj.Kind == lang.ObjType {
			return obl.MkRecord(RecordSortOf(rt), b.exprs(e.Args, env)...)
		}
		fn := e.Func.Obj.Decl.(*lang.FuncDecl)
		inner := env.Child()
		for i, p := range fn.Params {
			inner.Set(p.Name.Obj, b.Expr(e.Args[i], env))
		}
		return b.Expr(fn.Body, inner)
	}
	panic(fmt.Sprintf("layers: unexpected expression %T", e))
}

// TakeOld is the command that starts the body of a procedure: it copies
// the globals that the procedure's old(e) expressions read into their
// snapshots, and the linear_in parameters into their held locals
// (nothing if there are none).
func (b *Builder) TakeOld(sig *lang.Signature, env *Env) obl.Cmd {
	a := &obl.Assign{}
	for _, s := range sig.Olds {
		a.Lhs = append(a.Lhs, env.Var(s.Snap))
		a.Rhs = append(a.Rhs, b.Expr(&lang.Ident{Name: s.Global.Name, Obj: s.Global}, env))
	}
	if len(a.Lhs) == 0 {
		return b.takeHeld(sig, env)
	}
	return obl.Sequence(a, b.takeHeld(sig, env))
}

// Conj translates the conjunction of expressions (true if none).
func (b *Builder) Conj(es []lang.Expr, env *Env) obl.Expr {
	var parts []obl.Expr
	for _, e := range es {
		parts = append(parts, b.Expr(e, env))
	}
	return obl.And(parts...)
}

// exprs translates a list of expressions.
func (b *Builder) exprs(es []lang.Expr, env *Env) []obl.Expr {
	out := make([]obl.Expr, len(es))
	for i, e := range es {
		out[i] = b.Expr(e, env)
	}
	return out
}

// slice translates s[lo:hi]; an omitted bound is 0 or len(s).
func (b *Builder) slice(e *lang.SliceExpr, env *Env) obl.Expr {
	s := b.Expr(e.Seq, env)
	st := SortOf(e.Seq.Type()).(*obl.SeqSort)
	lo, hi := obl.Expr(obl.Int(0)), obl.SeqLength(s, st)
	if e.Lo != nil {
		lo = b.Expr(e.Lo, env)
	}
	if e.Hi != nil {
		hi = b.Expr(e.Hi, env)
	}
	return obl.SeqSliceOf(s, st, lo, hi)
}

// builtin translates a call of len, append or concat.
func (b *Builder) builtin(e *lang.CallExpr, env *Env) obl.Expr {
	args := b.exprs(e.Args, env)
	st := SortOf(e.Args[0].Type()).(*obl.SeqSort)
	switch e.Builtin {
	case lang.BuiltinLen:
		return obl.SeqLength(args[0], st)
	case lang.BuiltinAppend:
		return obl.SeqAppendOf(args[0], st, args[1])
	}
	return obl.SeqConcatOf(args[0], args[1], st)
}
