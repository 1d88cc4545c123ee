package z3

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// A Func is a function declaration: an uninterpreted unary function, or
// the constructor or a projection of a tuple sort. The zero Func is
// invalid.
type Func struct {
	r ref
	f C.Z3_func_decl
}

// Func declares the uninterpreted function name from dom to rng.
// Functions with equal names and signatures are the same function.
func (ctx *Context) Func(name string, dom, rng Sort) Func {
	if !ctx.sortArg(dom) || !ctx.sortArg(rng) {
		return Func{}
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	r := ctx.own(C.lz_mk_func1(ctx.c, cname, dom.s, rng.s), C.LZ_KIND_AST)
	return Func{r, C.Z3_func_decl(ctx.rawPtr(r))}
}

// FuncN declares the uninterpreted function name from the sorts dom (at
// least one) to rng.
func (ctx *Context) FuncN(name string, dom []Sort, rng Sort) Func {
	if len(dom) == 0 || !ctx.sortArg(rng) {
		return Func{}
	}
	sorts := make([]C.Z3_sort, len(dom))
	for i, d := range dom {
		if !ctx.sortArg(d) {
			return Func{}
		}
		sorts[i] = d.s
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	r := ctx.own(C.lz_mk_func(ctx.c, cname, C.uint(len(sorts)), &sorts[0], rng.s), C.LZ_KIND_AST)
	return Func{r, C.Z3_func_decl(ctx.rawPtr(r))}
}

// funcArg validates a function argument, recording an error for a zero
// Func.
func (ctx *Context) funcArg(f Func) bool {
	if f.r.ctx == nil {
		if ctx.err == nil {
			ctx.err = errZeroTerm
		}
		return false
	}
	ctx.check(f.r)
	return true
}

// Apply returns the application f(x).
func (ctx *Context) Apply(f Func, x Term) Term {
	if !ctx.funcArg(f) || !ctx.arg(x) {
		return Term{}
	}
	return ctx.term(C.lz_mk_apply1(ctx.c, f.f, x.a))
}

// App returns the application f(xs...), for a function of any arity
// (a tuple constructor or projection).
func (ctx *Context) App(f Func, xs ...Term) Term {
	if !ctx.funcArg(f) {
		return Term{}
	}
	a := make([]C.Z3_ast, len(xs)+1) // never empty, so &a[0] is valid
	for i, x := range xs {
		if !ctx.arg(x) {
			return Term{}
		}
		a[i] = x.a
	}
	return ctx.term(C.lz_mk_app(ctx.c, f.f, C.uint(len(xs)), &a[0]))
}

// AsArray returns the array whose element at i is f(i).
func (ctx *Context) AsArray(f Func) Term {
	if !ctx.funcArg(f) {
		return Term{}
	}
	return ctx.term(C.lz_mk_as_array(ctx.c, f.f))
}
