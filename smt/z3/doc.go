// Package z3 is lipton's own small cgo binding to libz3 (the Z3 SMT solver).
//
// It covers what lipton's verification conditions need: the sorts Bool, Int
// and Array, uninterpreted constants, integer and boolean literals, linear
// and nonlinear integer arithmetic, comparisons, the boolean connectives,
// if-then-else, array select/store, quantifiers over constants, and an
// incremental solver with per-query resource limits, cancellation and models.
//
// # Lifetime of Z3 objects
//
// Contexts are created with Z3_mk_context_rc, so every Z3 object lipton holds
// is reference counted. The binding takes one reference on every object it
// hands out and records it in the Context's arena, a stack of owned
// references. Nothing is released by the garbage collector: finalizers would
// run on the finalizer goroutine, concurrently with the goroutine that owns
// the context, and Z3 contexts are not thread-safe. Instead references are
// released explicitly, in scopes:
//
//	m := ctx.Mark()
//	defer ctx.Release(m)
//	... build terms, solve, read the model into Go values ...
//
// Release drops every reference taken since the mark, in reverse order.
// Using a Term, Sort, Solver or Model after the scope that created it was
// released is a programming error and panics with a clear message (the
// binding checks a serial number on each use) instead of touching freed
// memory. Sorts returned by IntSort, BoolSort and ArraySort are cached and
// live until Close. Close releases everything and deletes the context.
//
// Z3 4.8.12's incremental solver itself retains some 50-80 bytes per
// push/pop cycle until the solver is released, so a long-running user
// should replace its solver now and then (smt does every few hundred
// obligations).
//
// # Errors
//
// Every context has an error handler installed (a C shim that records the
// error code of the failing call), so a Z3 error never aborts the process.
// Term constructors return a Term and record the first error on the Context
// (see Context.Err), in the manner of bufio.Scanner: a constructor given a
// zero Term, or whose Z3 call fails, returns the zero Term. Operations that
// produce results for Go (Solver.Assert, Solver.Check, Model.Eval and the
// value accessors) return errors directly, including a pending context
// error. ClearErr forgets a recorded error.
//
// # Concurrency
//
// A Context and everything created from it must be used by one goroutine at
// a time; use one Context per worker goroutine. The only cross-goroutine
// operation is the cancellation built into Solver.Check: it starts a helper
// goroutine that calls Z3_interrupt (which Z3 permits from any thread) when
// the context.Context is done, and waits for that goroutine to finish before
// Check returns, so no interrupt outlives the query it was meant for.
// Distinct Contexts may be used in parallel.
package z3
