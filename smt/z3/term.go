package z3

/*
#include "shim.h"
*/
import "C"

import (
	"math/big"
	"unsafe"
)

// A Term is a Z3 expression (an AST of non-sort kind). The zero Term is
// invalid; it results from a failed constructor (see Context.Err).
type Term struct {
	r ref
	a C.Z3_ast
}

// IsZero reports whether t is the zero Term.
func (t Term) IsZero() bool { return t.r.ctx == nil }

// term wraps the result of a shim call that returns an AST.
func (ctx *Context) term(res C.lz_result) Term {
	r := ctx.own(res, C.LZ_KIND_AST)
	return Term{r, C.Z3_ast(ctx.rawPtr(r))}
}

// arg validates a term argument, recording an error for a zero Term.
func (ctx *Context) arg(t Term) bool {
	if t.r.ctx == nil {
		if ctx.err == nil {
			ctx.err = errZeroTerm
		}
		return false
	}
	ctx.check(t.r)
	return true
}

// Const returns an uninterpreted constant of sort s named name. Constants
// with equal names and sorts are the same constant.
func (ctx *Context) Const(name string, s Sort) Term {
	if !ctx.sortArg(s) {
		return Term{}
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return ctx.term(C.lz_mk_const(ctx.c, cname, s.s))
}

// Int returns the integer literal v.
func (ctx *Context) Int(v int64) Term {
	ctx.checkOpen()
	return ctx.term(C.lz_mk_int64(ctx.c, C.int64_t(v), ctx.intSort.s))
}

// BigInt returns the integer literal v.
func (ctx *Context) BigInt(v *big.Int) Term {
	ctx.checkOpen()
	if v.IsInt64() {
		return ctx.Int(v.Int64())
	}
	cs := C.CString(v.String())
	defer C.free(unsafe.Pointer(cs))
	return ctx.term(C.lz_mk_numeral(ctx.c, cs, ctx.intSort.s))
}

// Bool returns the boolean literal v.
func (ctx *Context) Bool(v bool) Term {
	ctx.checkOpen()
	b := C.int(0)
	if v {
		b = 1
	}
	return ctx.term(C.lz_mk_bool(ctx.c, b))
}

// op builds a unary, binary or ternary application; unused operands are
// the zero Term.
func (ctx *Context) op(op C.int, xs ...Term) Term {
	var a [3]C.Z3_ast
	for i, x := range xs {
		if !ctx.arg(x) {
			return Term{}
		}
		a[i] = x.a
	}
	return ctx.term(C.lz_mk_op(ctx.c, op, a[0], a[1], a[2]))
}

// opn builds an n-ary application (n >= 1).
// The operands are passed in ctx.operands, which Z3 copies: one array
// for all applications instead of one each.
func (ctx *Context) opn(op C.int, xs []Term) Term {
	a := ctx.operands[:0]
	for _, x := range xs {
		if !ctx.arg(x) {
			return Term{}
		}
		a = append(a, x.a)
	}
	ctx.operands = a
	return ctx.term(C.lz_mk_opn(ctx.c, op, C.uint(len(a)), &a[0]))
}

// Add returns the sum of xs (0 if xs is empty).
func (ctx *Context) Add(xs ...Term) Term {
	if len(xs) == 0 {
		return ctx.Int(0)
	}
	return ctx.opn(C.LZ_ADD, xs)
}

// Sub returns xs[0] - xs[1] - ... (left associative); xs must not be empty.
func (ctx *Context) Sub(xs ...Term) Term {
	if len(xs) == 0 {
		ctx.recordCode(C.Z3_INVALID_ARG)
		return Term{}
	}
	return ctx.opn(C.LZ_SUB, xs)
}

// Mul returns the product of xs (1 if xs is empty).
func (ctx *Context) Mul(xs ...Term) Term {
	if len(xs) == 0 {
		return ctx.Int(1)
	}
	return ctx.opn(C.LZ_MUL, xs)
}

// Div returns the SMT-LIB integer quotient of a by b: Euclidean division,
// so that a == b*(a div b) + (a mod b) and 0 <= a mod b < |b|. Division
// by zero is an uninterpreted function of a.
func (ctx *Context) Div(a, b Term) Term { return ctx.op(C.LZ_DIV, a, b) }

// Mod returns the SMT-LIB (Euclidean, non-negative) remainder of a by b.
func (ctx *Context) Mod(a, b Term) Term { return ctx.op(C.LZ_MOD, a, b) }

// Neg returns -a.
func (ctx *Context) Neg(a Term) Term { return ctx.op(C.LZ_NEG, a) }

// Lt returns a < b.
func (ctx *Context) Lt(a, b Term) Term { return ctx.op(C.LZ_LT, a, b) }

// Le returns a <= b.
func (ctx *Context) Le(a, b Term) Term { return ctx.op(C.LZ_LE, a, b) }

// Gt returns a > b.
func (ctx *Context) Gt(a, b Term) Term { return ctx.op(C.LZ_GT, a, b) }

// Ge returns a >= b.
func (ctx *Context) Ge(a, b Term) Term { return ctx.op(C.LZ_GE, a, b) }

// Eq returns a = b; a and b must have the same sort.
func (ctx *Context) Eq(a, b Term) Term { return ctx.op(C.LZ_EQ, a, b) }

// Distinct returns the formula that xs are pairwise different (true if
// there are fewer than two).
func (ctx *Context) Distinct(xs ...Term) Term {
	if len(xs) < 2 {
		return ctx.Bool(true)
	}
	return ctx.opn(C.LZ_DISTINCT, xs)
}

// And returns the conjunction of xs (true if xs is empty).
func (ctx *Context) And(xs ...Term) Term {
	if len(xs) == 0 {
		return ctx.Bool(true)
	}
	return ctx.opn(C.LZ_AND, xs)
}

// Or returns the disjunction of xs (false if xs is empty).
func (ctx *Context) Or(xs ...Term) Term {
	if len(xs) == 0 {
		return ctx.Bool(false)
	}
	return ctx.opn(C.LZ_OR, xs)
}

// Not returns the negation of a.
func (ctx *Context) Not(a Term) Term { return ctx.op(C.LZ_NOT, a) }

// Implies returns a ⇒ b.
func (ctx *Context) Implies(a, b Term) Term { return ctx.op(C.LZ_IMPLIES, a, b) }

// Iff returns a ⇔ b.
func (ctx *Context) Iff(a, b Term) Term { return ctx.op(C.LZ_IFF, a, b) }

// Ite returns if c then a else b.
func (ctx *Context) Ite(c, a, b Term) Term { return ctx.op(C.LZ_ITE, c, a, b) }

// Select returns the element of array a at index i.
func (ctx *Context) Select(a, i Term) Term { return ctx.op(C.LZ_SELECT, a, i) }

// Store returns array a with the element at index i replaced by v.
func (ctx *Context) Store(a, i, v Term) Term { return ctx.op(C.LZ_STORE, a, i, v) }

// Forall returns the universal closure of body over the constants bound:
// each is replaced by a bound variable.
func (ctx *Context) Forall(bound []Term, body Term) Term {
	return ctx.quantifier(false, bound, body)
}

// Exists returns the existential closure of body over the constants bound.
func (ctx *Context) Exists(bound []Term, body Term) Term {
	return ctx.quantifier(true, bound, body)
}

func (ctx *Context) quantifier(exists bool, bound []Term, body Term) Term {
	if !ctx.arg(body) {
		return Term{}
	}
	if len(bound) == 0 {
		return body
	}
	a := make([]C.Z3_ast, len(bound))
	for i, x := range bound {
		if !ctx.arg(x) {
			return Term{}
		}
		a[i] = x.a
	}
	ex := C.int(0)
	if exists {
		ex = 1
	}
	return ctx.term(C.lz_mk_quantifier(ctx.c, ex, C.uint(len(a)), &a[0], body.a))
}

// Sort returns the sort of t.
func (t Term) Sort() Sort {
	if t.IsZero() {
		return Sort{}
	}
	ctx := t.r.ctx
	ctx.check(t.r)
	r := ctx.own(C.lz_get_sort(ctx.c, t.a), C.LZ_KIND_AST)
	return Sort{r, C.Z3_sort(ctx.rawPtr(r))}
}

// String returns t in SMT-LIB2 syntax.
func (t Term) String() string {
	if t.IsZero() {
		return "<invalid term>"
	}
	t.r.ctx.check(t.r)
	return C.GoString(C.lz_ast_string(t.r.ctx.c, t.a))
}

// ConstArray returns the array over dom that is v at every index.
func (ctx *Context) ConstArray(dom Sort, v Term) Term {
	if !ctx.sortArg(dom) || !ctx.arg(v) {
		return Term{}
	}
	return ctx.term(C.lz_mk_const_array(ctx.c, dom.s, v.a))
}

// SeqEmpty returns the empty sequence of sequence sort s.
func (ctx *Context) SeqEmpty(s Sort) Term {
	if !ctx.sortArg(s) {
		return Term{}
	}
	return ctx.term(C.lz_mk_seq_empty(ctx.c, s.s))
}

// SeqUnit returns the sequence of one element v.
func (ctx *Context) SeqUnit(v Term) Term { return ctx.op(C.LZ_SEQ_UNIT, v) }

// SeqLen returns the length of sequence s.
func (ctx *Context) SeqLen(s Term) Term { return ctx.op(C.LZ_SEQ_LEN, s) }

// SeqNth returns element i of sequence s (unspecified outside 0..len-1).
func (ctx *Context) SeqNth(s, i Term) Term { return ctx.op(C.LZ_SEQ_NTH, s, i) }

// SeqExtract returns the n elements of s from offset on (Z3 clamps them
// to s).
func (ctx *Context) SeqExtract(s, offset, n Term) Term {
	return ctx.op(C.LZ_SEQ_EXTRACT, s, offset, n)
}

// SeqConcat returns the concatenation of xs (at least one).
func (ctx *Context) SeqConcat(xs ...Term) Term {
	if len(xs) == 1 {
		return xs[0]
	}
	return ctx.opn(C.LZ_SEQ_CONCAT, xs)
}
