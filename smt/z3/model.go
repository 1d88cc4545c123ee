package z3

/*
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math/big"
)

// A Model is a satisfying assignment found by a Solver.
type Model struct {
	r ref
	m C.Z3_model
}

// Eval evaluates t in the model. With complete set, constants the model
// leaves unconstrained get an arbitrary value of their sort (model
// completion), so ground terms evaluate to values.
func (m *Model) Eval(t Term, complete bool) (Term, error) {
	ctx := m.r.ctx
	ctx.check(m.r)
	if ctx.err != nil {
		return Term{}, ctx.err
	}
	if !ctx.arg(t) {
		return Term{}, ctx.err
	}
	c := C.int(0)
	if complete {
		c = 1
	}
	res := C.lz_model_eval(ctx.c, m.m, t.a, c)
	if res.err != C.Z3_OK {
		return Term{}, ctx.codeError(res.err)
	}
	return ctx.term(res), nil
}

// Int evaluates the integer term t, with model completion.
func (m *Model) Int(t Term) (*big.Int, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return nil, err
	}
	return v.BigInt()
}

// Bool evaluates the boolean term t, with model completion.
func (m *Model) Bool(t Term) (bool, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return false, err
	}
	return v.BoolValue()
}

// An Array is the value of an array term in a model: finitely many entries
// that differ from the default, and the default value of every other index.
type Array struct {
	Entries []ArrayEntry
	// Default is the value at indices not listed in Entries. It is the zero
	// Term when the model's default is not a constant (for instance a
	// function of the index introduced by quantifier instantiation).
	Default Term
}

// An ArrayEntry is one index of an Array and the value stored there. Value
// may itself be an array value: decode it with Model.Array.
type ArrayEntry struct {
	Key, Value Term
}

// ErrNotFinite is returned by Model.Array for an array value that is not a
// finite map with a constant default, such as (lambda ((i Int)) (ite (<= 11
// i) 7 4)). Evaluate the array at chosen indices instead.
var ErrNotFinite = errors.New("z3: array value is not a finite map")

// Array evaluates the array term t, with model completion, into entries and
// a default. It understands the shapes Z3 uses for array values: chains of
// store over a constant array, (_ as-array f) with f's interpretation, and
// lambdas whose body is a chain of (ite (= i k) v ...) ending in a constant.
// Other values yield an error wrapping ErrNotFinite.
func (m *Model) Array(t Term) (*Array, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return nil, err
	}
	return m.decodeArray(v)
}

// decodeArray decodes an array value. Z3 4.8.12 evaluates (_ as-array f)
// to a store chain under model completion, so the as-array case serves
// other versions of libz3.
func (m *Model) decodeArray(v Term) (*Array, error) {
	ctx := m.r.ctx
	arr := &Array{}
	seen := make(map[C.Z3_ast]bool)
	add := func(k, x Term) {
		if !seen[k.a] { // an outer store overrides inner ones
			seen[k.a] = true
			arr.Entries = append(arr.Entries, ArrayEntry{k, x})
		}
	}
	for {
		if C.lz_is_lambda1(ctx.c, v.a) != 0 {
			if err := decodeLambda(v, add, arr); err != nil {
				return nil, err
			}
			return arr, ctx.err
		}
		switch C.lz_app_kind(ctx.c, v.a) {
		case C.Z3_OP_STORE:
			add(v.arg(1), v.arg(2))
			v = v.arg(0)
			continue
		case C.Z3_OP_CONST_ARRAY:
			arr.Default = v.arg(0)
		case C.Z3_OP_AS_ARRAY:
			if err := m.funcInterp(v, add, arr); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%w: %s", ErrNotFinite, v)
		}
		return arr, ctx.err
	}
}

// funcInterp decodes the interpretation of the function behind an
// (_ as-array f) value into arr.
func (m *Model) funcInterp(v Term, add func(k, x Term), arr *Array) error {
	ctx := m.r.ctx
	res := C.lz_model_array_interp(ctx.c, m.m, v.a)
	if res.err != C.Z3_OK {
		return ctx.codeError(res.err)
	}
	if res.p == nil {
		return fmt.Errorf("z3: no interpretation for %s", v)
	}
	ctx.own(res, C.LZ_KIND_FUNC_INTERP)
	fi := C.Z3_func_interp(res.p)
	n := C.lz_func_interp_num_entries(ctx.c, fi)
	for i := C.uint(0); i < n; i++ {
		eres := C.lz_func_interp_entry(ctx.c, fi, i)
		if ctx.own(eres, C.LZ_KIND_FUNC_ENTRY).ctx == nil {
			return ctx.err
		}
		e := C.Z3_func_entry(eres.p)
		if C.lz_func_entry_num_args(ctx.c, e) != 1 {
			return errors.New("z3: array interpretation with several indices")
		}
		add(ctx.term(C.lz_func_entry_arg(ctx.c, e, 0)), ctx.term(C.lz_func_entry_value(ctx.c, e)))
	}
	els := C.lz_func_interp_else(ctx.c, fi)
	if els.err != C.Z3_OK {
		return ctx.codeError(els.err)
	}
	if els.p != nil {
		if d := ctx.term(els); d.isValue() {
			arr.Default = d
		}
	}
	return nil
}

// decodeLambda decodes a lambda array value whose body is a chain of
// (ite (= i k) v rest), with literal keys and values, ending in a
// constant.
func decodeLambda(lam Term, add func(k, x Term), arr *Array) error {
	ctx := lam.r.ctx
	body := ctx.term(C.lz_quantifier_body(ctx.c, lam.a))
	for !body.IsZero() && C.lz_app_kind(ctx.c, body.a) == C.Z3_OP_ITE {
		cond := body.arg(0)
		if C.lz_app_kind(ctx.c, cond.a) != C.Z3_OP_EQ {
			break
		}
		l, r := cond.arg(0), cond.arg(1)
		if C.lz_is_var0(ctx.c, r.a) != 0 {
			l, r = r, l
		}
		// An entry whose value is not a literal (a bool lambda may
		// branch to a formula of the index) is not a finite map: the
		// caller probes the array instead of reading the formula.
		if C.lz_is_var0(ctx.c, l.a) == 0 || !r.isValue() || !body.arg(1).isValue() {
			break
		}
		add(r, body.arg(1))
		body = body.arg(2)
	}
	if body.IsZero() || !body.isValue() {
		return fmt.Errorf("%w: %s", ErrNotFinite, lam)
	}
	arr.Default = body
	return nil
}

// arg returns the i-th argument of the application t.
func (t Term) arg(i int) Term {
	return t.r.ctx.term(C.lz_app_arg(t.r.ctx.c, t.a, C.uint(i)))
}

// isValue reports whether t is a literal: a numeral, true, false, or an
// array value.
func (t Term) isValue() bool {
	ctx := t.r.ctx
	if C.lz_is_numeral(ctx.c, t.a) != 0 || C.lz_is_lambda1(ctx.c, t.a) != 0 {
		return true
	}
	switch C.lz_app_kind(ctx.c, t.a) {
	case C.Z3_OP_TRUE, C.Z3_OP_FALSE, C.Z3_OP_CONST_ARRAY, C.Z3_OP_AS_ARRAY:
		return true
	case C.Z3_OP_STORE:
		return t.arg(0).isValue() && t.arg(1).isValue() && t.arg(2).isValue()
	case C.Z3_OP_UMINUS:
		return t.arg(0).isValue()
	}
	return false
}

// ErrOverflow is returned by Term.Int64 for an integer outside int64.
var ErrOverflow = errors.New("z3: integer value overflows int64")

// BigInt returns the value of an integer numeral.
func (t Term) BigInt() (*big.Int, error) {
	if t.IsZero() {
		return nil, errZeroTerm
	}
	ctx := t.r.ctx
	ctx.check(t.r)
	if C.lz_app_kind(ctx.c, t.a) == C.Z3_OP_UMINUS {
		v, err := t.arg(0).BigInt()
		if err != nil {
			return nil, err
		}
		return v.Neg(v), nil
	}
	if C.lz_is_numeral(ctx.c, t.a) == 0 {
		return nil, fmt.Errorf("z3: %s is not an integer numeral", t)
	}
	s := C.GoString(C.lz_numeral_string(ctx.c, t.a))
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("z3: %s is not an integer numeral", s)
	}
	return v, nil
}

// Int64 returns the value of an integer numeral, or ErrOverflow if it does
// not fit in an int64.
func (t Term) Int64() (int64, error) {
	v, err := t.BigInt()
	if err != nil {
		return 0, err
	}
	if !v.IsInt64() {
		return 0, ErrOverflow
	}
	return v.Int64(), nil
}

// BoolValue returns the value of the literal true or false.
func (t Term) BoolValue() (bool, error) {
	if t.IsZero() {
		return false, errZeroTerm
	}
	t.r.ctx.check(t.r)
	switch C.lz_bool_value(t.r.ctx.c, t.a) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	return false, fmt.Errorf("z3: %s is not a boolean literal", t)
}
