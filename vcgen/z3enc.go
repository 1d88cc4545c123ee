package vcgen

import (
	"fmt"

	"github.com/lipton-dev/lipton/vcgen/z3"
)

// An encoder translates expressions of one vc into Z3 terms. Constants are
// named as in the SMT-LIB2 dump; every *Var gets a distinct name, which
// matters for quantifiers: Z3 binds a constant by name and sort.
type encoder struct {
	ctx    *z3.Context
	names  *printer
	consts map[*Var]z3.Term
	memo   map[Expr]z3.Term
}

func newEncoder(ctx *z3.Context, v *vc) *encoder {
	return &encoder{
		ctx:    ctx,
		names:  v.printer(),
		consts: make(map[*Var]z3.Term),
		memo:   make(map[Expr]z3.Term),
	}
}

func (en *encoder) sort(s Sort) z3.Sort {
	switch s := s.(type) {
	case BasicSort:
		if s == IntSort {
			return en.ctx.IntSort()
		}
		return en.ctx.BoolSort()
	case *MapSort:
		return en.ctx.ArraySort(en.sort(s.Key), en.sort(s.Val))
	}
	panic(fmt.Sprintf("vcgen: unknown sort %v", s))
}

// constant returns the Z3 constant standing for v.
func (en *encoder) constant(v *Var) z3.Term {
	t, ok := en.consts[v]
	if !ok {
		t = en.ctx.Const(en.names.name(v), en.sort(v.Sort))
		en.consts[v] = t
	}
	return t
}

// term translates e; errors are recorded on the z3.Context (see
// z3.Context.Err) and surface when the term is asserted.
func (en *encoder) term(e Expr) z3.Term {
	if t, ok := en.memo[e]; ok {
		return t
	}
	t := en.translate(e)
	en.memo[e] = t
	return t
}

func (en *encoder) translate(e Expr) z3.Term {
	ctx := en.ctx
	switch e := e.(type) {
	case *IntLit:
		return ctx.BigInt(e.V)
	case *BoolLit:
		return ctx.Bool(e.V)
	case *VarRef:
		return en.constant(e.V)
	case *Unary:
		if e.Op == OpNot {
			return ctx.Not(en.term(e.X))
		}
		return ctx.Neg(en.term(e.X))
	case *Binary:
		return en.binary(e)
	case *Ite:
		return ctx.Ite(en.term(e.Cond), en.term(e.Then), en.term(e.Else))
	case *Select:
		return ctx.Select(en.term(e.Map), en.term(e.Key))
	case *Store:
		return ctx.Store(en.term(e.Map), en.term(e.Key), en.term(e.Val))
	case *Quant:
		bound := make([]z3.Term, len(e.Bound))
		for i, v := range e.Bound {
			bound[i] = en.constant(v)
		}
		if e.Exists {
			return ctx.Exists(bound, en.term(e.Body))
		}
		return ctx.Forall(bound, en.term(e.Body))
	}
	panic(fmt.Sprintf("vcgen: unknown expression %T", e))
}

func (en *encoder) binary(e *Binary) z3.Term {
	ctx := en.ctx
	switch e.Op {
	case OpAnd, OpOr, OpAdd, OpMul:
		ops := flattenOp(e)
		args := make([]z3.Term, len(ops))
		for i, x := range ops {
			args[i] = en.term(x)
		}
		switch e.Op {
		case OpAnd:
			return ctx.And(args...)
		case OpOr:
			return ctx.Or(args...)
		case OpAdd:
			return ctx.Add(args...)
		}
		return ctx.Mul(args...)
	}
	x, y := en.term(e.X), en.term(e.Y)
	switch e.Op {
	case OpSub:
		return ctx.Sub(x, y)
	case OpDiv:
		return ctx.Div(x, y)
	case OpMod:
		return ctx.Mod(x, y)
	case OpLt:
		return ctx.Lt(x, y)
	case OpLe:
		return ctx.Le(x, y)
	case OpGt:
		return ctx.Gt(x, y)
	case OpGe:
		return ctx.Ge(x, y)
	case OpEq:
		return ctx.Eq(x, y)
	case OpNe:
		return ctx.Not(ctx.Eq(x, y))
	case OpImplies:
		return ctx.Implies(x, y)
	case OpIff:
		return ctx.Iff(x, y)
	}
	panic(fmt.Sprintf("vcgen: unknown operator %d", e.Op))
}
