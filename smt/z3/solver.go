package z3

/*
#include "shim.h"
*/
import "C"

import (
	"context"
	"time"
	"unsafe"
)

// A Solver is an incremental Z3 solver. It lives in the scope of the
// Context that was current when NewSolver was called.
type Solver struct {
	r ref
	s C.Z3_solver
	// canceled is set when the last Check was refused or interrupted
	// because its context.Context was done; Z3's own reason then varies
	// ("canceled", "interrupted"), so the binding reports "canceled".
	canceled bool
}

// Status is the answer of a satisfiability check.
type Status int

// The answers of Solver.Check.
const (
	Unknown Status = iota
	Sat
	Unsat
)

func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// NewSolver returns a fresh general-purpose solver (Z3_mk_solver), or nil
// and the error. A check made before any Push runs Z3's preprocessing
// tactics first, which costs milliseconds even on a trivial problem but
// helps with quantifiers; after a Push the solver works incrementally.
func (ctx *Context) NewSolver() (*Solver, error) { return ctx.newSolver(0) }

// NewSimpleSolver returns a fresh incremental solver that runs Z3's SMT
// kernel directly, without preprocessing tactics (Z3_mk_simple_solver).
// Its first check is some ten times cheaper than a fresh NewSolver's.
func (ctx *Context) NewSimpleSolver() (*Solver, error) { return ctx.newSolver(1) }

// NewTacticSolver returns a fresh, non-incremental solver that runs Z3's
// "default" tactic, as the z3 command line's check-sat does. On some
// quantified problems it succeeds quickly where NewSolver's combination
// of tactics reports "incomplete quantifiers" after a long search.
func (ctx *Context) NewTacticSolver() (*Solver, error) { return ctx.newSolver(2) }

func (ctx *Context) newSolver(simple C.int) (*Solver, error) {
	ctx.checkOpen()
	res := C.lz_mk_solver(ctx.c, simple)
	if res.err != C.Z3_OK || res.p == nil {
		return nil, ctx.codeError(res.err)
	}
	r := ctx.own(res, C.LZ_KIND_SOLVER)
	return &Solver{r: r, s: C.Z3_solver(res.p)}, nil
}

// ctx returns the solver's context after checking the solver is live.
func (s *Solver) ctx() *Context {
	s.r.ctx.check(s.r)
	return s.r.ctx
}

// result turns the error code of a shim call into a Go error.
func (ctx *Context) result(code C.int) error {
	if code != C.Z3_OK {
		return ctx.codeError(code)
	}
	return nil
}

// Assert adds the boolean formula t to the solver. It reports a pending
// context error (see Context.Err) instead of asserting.
func (s *Solver) Assert(t Term) error {
	ctx := s.ctx()
	if ctx.err != nil {
		return ctx.err
	}
	if !ctx.arg(t) {
		return ctx.err
	}
	return ctx.result(C.lz_solver_assert(ctx.c, s.s, t.a))
}

// Push opens a backtracking scope.
func (s *Solver) Push() error {
	ctx := s.ctx()
	return ctx.result(C.lz_solver_push(ctx.c, s.s))
}

// Pop removes the n most recent backtracking scopes and their assertions.
func (s *Solver) Pop(n int) error {
	ctx := s.ctx()
	return ctx.result(C.lz_solver_pop(ctx.c, s.s, C.uint(n)))
}

// Reset removes every assertion and scope.
func (s *Solver) Reset() error {
	ctx := s.ctx()
	return ctx.result(C.lz_solver_reset(ctx.c, s.s))
}

// SetRLimit limits each later Check to n units of Z3's resource count, a
// deterministic measure of work (unlike time, it does not depend on the
// machine's load); 0 removes the limit. A check that runs out answers
// Unknown with reason "max. resource limit exceeded" (ReasonUnknown).
// Z3 4.8.12 takes the parameter as a 32-bit number: larger n are
// capped. Setting a parameter costs about a millisecond.
func (s *Solver) SetRLimit(n uint64) error {
	ctx := s.ctx()
	if n > uint64(^C.uint(0)) {
		n = uint64(^C.uint(0))
	}
	return ctx.result(C.lz_solver_set_rlimit(ctx.c, s.s, C.uint(n)))
}

// ResourceCount returns the resource count of the solver's context so
// far: the difference around a Check is the work the check did.
func (s *Solver) ResourceCount() uint64 {
	ctx := s.ctx()
	return uint64(C.lz_solver_rlimit_count(ctx.c, s.s))
}

// Check decides the satisfiability of the asserted formulas. If cancel is
// done before or during the check, the check is interrupted and answers
// Unknown, with ReasonUnknown "canceled". A Z3 error is returned as an
// error. A check that exceeds the solver's resource limit (SetRLimit)
// answers Unknown too.
func (s *Solver) Check(cancel context.Context) (Status, error) {
	return s.CheckAssuming(cancel)
}

// CheckAssuming is Check with the boolean constants (or their negations)
// in assumptions taken as true for this check only. Checking under
// assumptions is cheaper than a push/assert/pop round trip.
func (s *Solver) CheckAssuming(cancel context.Context, assumptions ...Term) (Status, error) {
	ctx := s.ctx()
	if ctx.err != nil {
		return Unknown, ctx.err
	}
	var lits []C.Z3_ast
	var litp *C.Z3_ast
	for _, a := range assumptions {
		if !ctx.arg(a) {
			return Unknown, ctx.err
		}
		lits = append(lits, a.a)
	}
	if len(lits) > 0 {
		litp = &lits[0]
	}
	s.canceled = cancel.Err() != nil
	if s.canceled {
		return Unknown, nil
	}
	stop := ctx.interruptWhenDone(cancel)
	if beforeCheckHook != nil {
		beforeCheckHook()
	}
	var code C.int
	task := C.CString(ctx.task)
	lb := C.lz_solver_check(ctx.c, s.s, C.uint(len(lits)), litp, task, &code)
	C.free(unsafe.Pointer(task))
	if afterCheckHook != nil {
		afterCheckHook()
	}
	s.canceled = stop()
	if s.canceled && lb == C.Z3_L_UNDEF {
		return Unknown, nil
	}
	if code != C.Z3_OK {
		return Unknown, ctx.codeError(code)
	}
	switch lb {
	case C.Z3_L_TRUE:
		return Sat, nil
	case C.Z3_L_FALSE:
		return Unsat, nil
	}
	return Unknown, nil
}

// Interruptible runs f, which uses ctx, and interrupts the Z3 operation f
// is in when cancel is done; the interrupted operation fails with an
// error. It reports whether it interrupted. Check and CheckAssuming do
// this by themselves; Interruptible bounds other long operations, such as
// evaluating terms in a large model.
func (ctx *Context) Interruptible(cancel context.Context, f func()) (interrupted bool) {
	ctx.checkOpen()
	stop := ctx.interruptWhenDone(cancel)
	defer func() { interrupted = stop() }()
	f()
	return false
}

// interruptWhenDone starts a goroutine that interrupts Z3 when cancel is
// done. The returned stop function ends the goroutine, waits for it, so
// that no interrupt outlives the query, and reports whether it
// interrupted; if so, it clears the interrupt, which Z3 would otherwise
// keep pending when it arrived after the check had finished.
//
// Z3 4.8 does not always act on an interrupt at once: some phases of a
// check ignore it (measured on the nonlinear query of the tests: one
// interrupt sent just before the check stopped it after about 2 s, a
// repeated one after 0.05 s; on a loaded machine a single interrupt once
// left a check running for 10 minutes). So the goroutine repeats the
// interrupt until stop is called.
func (ctx *Context) interruptWhenDone(cancel context.Context) (stop func() bool) {
	done := cancel.Done()
	if done == nil {
		return func() bool { return false }
	}
	quit := make(chan struct{})
	interrupted := make(chan bool, 1)
	go func() {
		select {
		case <-done:
		case <-quit:
			interrupted <- false
			return
		}
		repeat := time.NewTicker(interruptRepeat)
		defer repeat.Stop()
		for first := true; ; first = false {
			C.Z3_interrupt(ctx.c)
			if first && afterInterruptHook != nil {
				afterInterruptHook()
			}
			select {
			case <-quit:
				interrupted <- true
				return
			case <-repeat.C:
			}
		}
	}()
	return func() bool {
		close(quit)
		if <-interrupted {
			C.lz_clear_interrupt(ctx.c)
			return true
		}
		return false
	}
}

// interruptRepeat is how often an interrupt is repeated until the check
// it is meant for ends.
const interruptRepeat = 20 * time.Millisecond

// beforeCheckHook, if set by a test, runs between the start of the
// interrupt watcher and the start of Z3's check, to make an interrupt
// arrive early; afterCheckHook, if set, runs between the end of Z3's check
// and the stop of the interrupt watcher, to make an interrupt arrive late;
// afterInterruptHook, if set, runs in the watcher right after it
// interrupted Z3, so that a test can wait for the interrupt instead of
// sleeping.
var beforeCheckHook, afterCheckHook, afterInterruptHook func()

// ReasonUnknown explains the most recent Unknown answer, in Z3's words
// ("max. resource limit exceeded", "canceled", "(incomplete
// quantifiers)", ...).
func (s *Solver) ReasonUnknown() string {
	ctx := s.ctx()
	if s.canceled {
		return "canceled"
	}
	return C.GoString(C.lz_solver_reason_unknown(ctx.c, s.s))
}

// Model returns the model of the most recent Sat answer.
func (s *Solver) Model() (*Model, error) {
	ctx := s.ctx()
	res := C.lz_solver_model(ctx.c, s.s)
	if res.err != C.Z3_OK || res.p == nil {
		return nil, ctx.codeError(res.err)
	}
	r := ctx.own(res, C.LZ_KIND_MODEL)
	return &Model{r, C.Z3_model(res.p)}, nil
}

// String returns the solver's assertions in SMT-LIB2 syntax.
func (s *Solver) String() string {
	ctx := s.ctx()
	return C.GoString(C.lz_solver_string(ctx.c, s.s))
}

// sigintOnStack reports whether the process's SIGINT handler still has
// SA_ONSTACK (see lz_no_ctrl_c); -1 if it cannot tell.
func sigintOnStack() int { return int(C.lz_sigint_onstack()) }
