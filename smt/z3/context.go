package z3

/*
#cgo LDFLAGS: -lz3
#include "shim.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// A Context is a Z3 context together with the arena of references the
// binding holds in it. It must be used by one goroutine at a time.
type Context struct {
	c      C.Z3_context
	arena  []owned // scoped references, released by Release
	pinned []owned // cached sorts, released by Close
	serial uint64  // serial number of the most recent arena entry
	err    error   // first recorded error, see Err
	task   string  // what the context's checks are for (SetTask)
	// operands is the array of an n-ary application's operands, reused.
	operands []C.Z3_ast

	intSort, boolSort Sort
	arraySorts        map[[2]unsafe.Pointer]Sort
	seqSorts          map[unsafe.Pointer]Sort
	enumSorts         map[string]enumSort
	tupleSorts        map[string]tupleSort
}

// owned is one reference held by the binding.
type owned struct {
	p      unsafe.Pointer
	kind   C.int
	serial uint64
}

// ref identifies an owned reference: a slot in the arena (or -1 for a
// pinned one) and the serial number it had when created, so that a stale
// handle is detected when its slot has been released or reused.
type ref struct {
	ctx    *Context
	slot   int
	serial uint64
}

// A Mark is a position in a Context's arena; see Context.Release.
type Mark struct{ n int }

// NewContext creates a Z3 context with reference counting and lipton's error
// handler installed. The first call also installs the crash guard: a
// segmentation fault or bus error inside libz3 ends the process with one
// line naming the task (SetTask) and exit code 3, not with the Go
// runtime's dump; faults elsewhere reach the Go runtime as before.
func NewContext() (*Context, error) {
	C.lz_install_crash_guard()
	c := C.lz_mk_context()
	if c == nil {
		return nil, errors.New("z3: cannot create context")
	}
	ctx := &Context{c: c, arraySorts: make(map[[2]unsafe.Pointer]Sort), seqSorts: make(map[unsafe.Pointer]Sort), enumSorts: make(map[string]enumSort), tupleSorts: make(map[string]tupleSort)}
	ctx.intSort = ctx.pinSort(C.lz_int_sort(c))
	ctx.boolSort = ctx.pinSort(C.lz_bool_sort(c))
	if ctx.err != nil {
		err := ctx.err
		ctx.Close()
		return nil, err
	}
	return ctx, nil
}

// Close releases every reference held in ctx and deletes the Z3 context.
// Close is idempotent.
func (ctx *Context) Close() {
	if ctx.c == nil {
		return
	}
	ctx.Release(Mark{0})
	for i := len(ctx.pinned) - 1; i >= 0; i-- {
		C.lz_dec_ref(ctx.c, ctx.pinned[i].kind, ctx.pinned[i].p)
	}
	ctx.pinned = nil
	C.Z3_del_context(ctx.c)
	ctx.c = nil
}

// Mark returns the current position of the arena. Pass it to Release to
// drop every reference taken after it.
func (ctx *Context) Mark() Mark {
	ctx.checkOpen()
	return Mark{len(ctx.arena)}
}

// Release drops every reference taken since m, newest first. Handles created
// after m become invalid; using one panics.
func (ctx *Context) Release(m Mark) {
	if ctx.c == nil {
		return
	}
	for i := len(ctx.arena) - 1; i >= m.n; i-- {
		C.lz_dec_ref(ctx.c, ctx.arena[i].kind, ctx.arena[i].p)
		ctx.arena[i] = owned{}
	}
	if m.n < len(ctx.arena) {
		ctx.arena = ctx.arena[:m.n]
	}
}

// Live reports how many scoped references ctx currently holds. It is meant
// for tests and leak diagnostics.
func (ctx *Context) Live() int { return len(ctx.arena) }

// Err returns the first error recorded by a term constructor since the
// context was created or ClearErr was last called.
func (ctx *Context) Err() error { return ctx.err }

// ClearErr forgets the recorded error.
func (ctx *Context) ClearErr() { ctx.err = nil }

// MemoryInUse reports the number of bytes Z3 estimates it has allocated,
// over all contexts of the process. It is meant for leak tests.
func MemoryInUse() uint64 { return uint64(C.Z3_get_estimated_alloc_size()) }

// own records a reference returned by a shim call in the arena, or records
// the call's error and returns the zero ref.
func (ctx *Context) own(r C.lz_result, kind C.int) ref {
	if r.err != C.Z3_OK || r.p == nil {
		ctx.recordCode(r.err)
		return ref{}
	}
	ctx.serial++
	ctx.arena = append(ctx.arena, owned{p: r.p, kind: kind, serial: ctx.serial})
	return ref{ctx: ctx, slot: len(ctx.arena) - 1, serial: ctx.serial}
}

// rawPtr returns the Z3 pointer of a freshly owned ref, or nil for the
// zero ref.
func (ctx *Context) rawPtr(r ref) unsafe.Pointer {
	if r.ctx == nil {
		return nil
	}
	return ctx.arena[r.slot].p
}

// pinSort records a sort reference that lives until Close.
func (ctx *Context) pinSort(r C.lz_result) Sort {
	if r.err != C.Z3_OK || r.p == nil {
		ctx.recordCode(r.err)
		return Sort{}
	}
	ctx.pinned = append(ctx.pinned, owned{p: r.p, kind: C.LZ_KIND_AST})
	return Sort{ref{ctx: ctx, slot: -1}, C.Z3_sort(r.p)}
}

// check panics unless r is a live handle of ctx. Use after release and
// mixing contexts are programming errors that would otherwise corrupt
// memory, so they are not reported as errors.
func (ctx *Context) check(r ref) {
	if r.ctx != ctx {
		panic("z3: handle used with a context that did not create it")
	}
	ctx.checkOpen()
	if r.slot >= 0 && (r.slot >= len(ctx.arena) || ctx.arena[r.slot].serial != r.serial) {
		panic("z3: use of a handle after its scope was released")
	}
}

func (ctx *Context) checkOpen() {
	if ctx.c == nil {
		panic("z3: use of a closed context")
	}
}

// recordCode records the Z3 error code of a failed call as ctx's error,
// unless an earlier error is pending.
func (ctx *Context) recordCode(code C.int) {
	if ctx.err == nil {
		ctx.err = ctx.codeError(code)
	}
}

// codeError turns a Z3 error code into an *Error with Z3's message.
func (ctx *Context) codeError(code C.int) error {
	if code == C.Z3_OK {
		code = C.Z3_INVALID_ARG
	}
	msg := C.GoString(C.lz_error_msg(ctx.c, code))
	return &Error{Code: int(code), Msg: msg}
}

// An Error is an error reported by Z3.
type Error struct {
	Code int    // the Z3_error_code
	Msg  string // Z3's message
}

func (e *Error) Error() string { return "z3: " + e.Msg }

// errZeroTerm is recorded when a constructor is given the zero Term and no
// earlier error explains it.
var errZeroTerm = errors.New("z3: use of a zero Term (the result of a failed constructor)")

// Version returns the full version of the Z3 library lipton runs with
// ("Z3 4.8.12.0").
func Version() string { return C.GoString(C.lz_full_version()) }

// SetTask records what the context's checks are solving, for the crash
// guard's line ("while solving obligation X"). A fault inside a check is
// named by the task of the context being checked on that thread; a fault
// elsewhere in libz3 by the task set last in the process.
func (ctx *Context) SetTask(task string) {
	ctx.task = task
	ct := C.CString(task)
	defer C.free(unsafe.Pointer(ct))
	C.lz_set_task(ct)
}

// Task returns what SetTask recorded.
func (ctx *Context) Task() string { return ctx.task }

// crashForTest faults inside libz3, for the crash guard's test; inCheck
// makes the fault look like one inside a check on ctx.
func (ctx *Context) crashForTest(inCheck bool) {
	var task *C.char
	if inCheck {
		task = C.CString(ctx.task)
		defer C.free(unsafe.Pointer(task))
	}
	C.lz_crash_for_test(ctx.c, task)
}
