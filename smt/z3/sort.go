package z3

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// A Sort is a Z3 sort. The zero Sort is invalid; it results from a failed
// constructor.
type Sort struct {
	r ref
	s C.Z3_sort
}

// SortKind classifies sorts.
type SortKind int

// The sort kinds the binding distinguishes.
const (
	OtherKind SortKind = iota
	BoolKind
	IntKind
	ArrayKind
	SeqKind
)

// IntSort returns the sort of mathematical integers.
func (ctx *Context) IntSort() Sort { return ctx.intSort }

// BoolSort returns the sort of booleans.
func (ctx *Context) BoolSort() Sort { return ctx.boolSort }

// ArraySort returns the sort of total maps from dom to rng. Array sorts are
// cached and live until Close.
func (ctx *Context) ArraySort(dom, rng Sort) Sort {
	if !ctx.sortArg(dom) || !ctx.sortArg(rng) {
		return Sort{}
	}
	key := [2]unsafe.Pointer{unsafe.Pointer(dom.s), unsafe.Pointer(rng.s)}
	if s, ok := ctx.arraySorts[key]; ok {
		return s
	}
	s := ctx.pinSort(C.lz_array_sort(ctx.c, dom.s, rng.s))
	if !s.IsZero() {
		ctx.arraySorts[key] = s
	}
	return s
}

// EnumSort returns the enumeration sort name with the given members, and
// the members' constants, in order. Enumeration sorts are cached by name
// (a second call with the same name returns the first sort, whatever the
// members) and live until Close, as their constants do.
func (ctx *Context) EnumSort(name string, members []string) (Sort, []Term) {
	ctx.checkOpen()
	if e, ok := ctx.enumSorts[name]; ok {
		return e.sort, e.consts
	}
	if len(members) == 0 {
		if ctx.err == nil {
			ctx.err = &Error{Msg: "an enumeration sort needs members"}
		}
		return Sort{}, nil
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	cnames := C.malloc(C.size_t(len(members)) * C.size_t(unsafe.Sizeof(uintptr(0))))
	defer C.free(cnames)
	names := unsafe.Slice((**C.char)(cnames), len(members))
	for i, m := range members {
		names[i] = C.CString(m)
		defer C.free(unsafe.Pointer(names[i]))
	}
	raw := make([]C.Z3_ast, len(members))
	s := ctx.pinSort(C.lz_enum_sort(ctx.c, cname, C.uint(len(members)), (**C.char)(cnames), &raw[0]))
	if s.IsZero() {
		return Sort{}, nil
	}
	consts := make([]Term, len(members))
	for i, a := range raw {
		ctx.pinned = append(ctx.pinned, owned{p: unsafe.Pointer(a), kind: C.LZ_KIND_AST})
		consts[i] = Term{ref{ctx: ctx, slot: -1}, a}
	}
	ctx.enumSorts[name] = enumSort{s, consts}
	return s, consts
}

// TupleSort returns the record sort name whose values are built by the
// constructor of the same name from the given fields, with the
// constructor and the fields' projections. Tuple sorts are cached by name (a second call
// returns the first sort) and live until Close, as their functions do.
func (ctx *Context) TupleSort(name string, fields []string, sorts []Sort) (Sort, Func, []Func) {
	ctx.checkOpen()
	if t, ok := ctx.tupleSorts[name]; ok {
		return t.sort, t.mk, t.proj
	}
	if len(fields) == 0 || len(fields) != len(sorts) {
		if ctx.err == nil {
			ctx.err = &Error{Msg: "a tuple sort needs one sort per field, and fields"}
		}
		return Sort{}, Func{}, nil
	}
	cs := make([]C.Z3_sort, len(sorts))
	for i, s := range sorts {
		if !ctx.sortArg(s) {
			return Sort{}, Func{}, nil
		}
		cs[i] = s.s
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	cfields := C.malloc(C.size_t(len(fields)) * C.size_t(unsafe.Sizeof(uintptr(0))))
	defer C.free(cfields)
	names := unsafe.Slice((**C.char)(cfields), len(fields))
	for i, f := range fields {
		names[i] = C.CString(f)
		defer C.free(unsafe.Pointer(names[i]))
	}
	decls := make([]C.Z3_func_decl, len(fields)+1)
	s := ctx.pinSort(C.lz_tuple_sort(ctx.c, cname, C.uint(len(fields)), (**C.char)(cfields), &cs[0], &decls[0]))
	if s.IsZero() {
		return Sort{}, Func{}, nil
	}
	funcs := make([]Func, len(decls))
	for i, d := range decls {
		ctx.pinned = append(ctx.pinned, owned{p: unsafe.Pointer(d), kind: C.LZ_KIND_AST})
		funcs[i] = Func{ref{ctx: ctx, slot: -1}, d}
	}
	ctx.tupleSorts[name] = tupleSort{s, funcs[0], funcs[1:]}
	return s, funcs[0], funcs[1:]
}

// tupleSort is a cached tuple sort and its functions.
type tupleSort struct {
	sort Sort
	mk   Func
	proj []Func
}

// enumSort is a cached enumeration sort and its constants.
type enumSort struct {
	sort   Sort
	consts []Term
}

// sortArg validates a sort argument, recording an error for a zero Sort.
func (ctx *Context) sortArg(s Sort) bool {
	if s.r.ctx == nil {
		if ctx.err == nil {
			ctx.err = errZeroTerm
		}
		return false
	}
	ctx.check(s.r)
	return true
}

// IsZero reports whether s is the zero Sort.
func (s Sort) IsZero() bool { return s.r.ctx == nil }

// Kind returns the kind of s.
func (s Sort) Kind() SortKind {
	if s.IsZero() {
		return OtherKind
	}
	s.r.ctx.check(s.r)
	switch C.lz_sort_kind(s.r.ctx.c, s.s) {
	case C.Z3_BOOL_SORT:
		return BoolKind
	case C.Z3_INT_SORT:
		return IntKind
	case C.Z3_ARRAY_SORT:
		return ArrayKind
	case C.Z3_SEQ_SORT:
		return SeqKind
	}
	return OtherKind
}

// Domain returns the index sort of an array sort.
func (s Sort) Domain() Sort {
	if s.IsZero() {
		return Sort{}
	}
	ctx := s.r.ctx
	ctx.check(s.r)
	r := ctx.own(C.lz_array_domain(ctx.c, s.s), C.LZ_KIND_AST)
	return Sort{r, C.Z3_sort(ctx.rawPtr(r))}
}

// SeqSort returns the sort of finite sequences of elem. Sequence sorts
// are cached and live until Close.
func (ctx *Context) SeqSort(elem Sort) Sort {
	if !ctx.sortArg(elem) {
		return Sort{}
	}
	key := unsafe.Pointer(elem.s)
	if s, ok := ctx.seqSorts[key]; ok {
		return s
	}
	s := ctx.pinSort(C.lz_seq_sort(ctx.c, elem.s))
	if !s.IsZero() {
		ctx.seqSorts[key] = s
	}
	return s
}

// Basis returns the element sort of a sequence sort.
func (s Sort) Basis() Sort {
	if s.IsZero() {
		return Sort{}
	}
	ctx := s.r.ctx
	ctx.check(s.r)
	r := ctx.own(C.lz_seq_basis(ctx.c, s.s), C.LZ_KIND_AST)
	return Sort{r, C.Z3_sort(ctx.rawPtr(r))}
}

// Range returns the element sort of an array sort.
func (s Sort) Range() Sort {
	if s.IsZero() {
		return Sort{}
	}
	ctx := s.r.ctx
	ctx.check(s.r)
	r := ctx.own(C.lz_array_range(ctx.c, s.s), C.LZ_KIND_AST)
	return Sort{r, C.Z3_sort(ctx.rawPtr(r))}
}

// String returns the SMT-LIB2 name of s.
func (s Sort) String() string {
	if s.IsZero() {
		return "<invalid sort>"
	}
	s.r.ctx.check(s.r)
	return C.GoString(C.lz_ast_string(s.r.ctx.c, C.Z3_ast(unsafe.Pointer(s.s))))
}
