package vcgen

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/lipton-dev/lipton/vcgen/z3"
)

// check checks f together with the definitions; on sat it loads the model
// into the reader and calls onSat while the model is current. A query
// with quantifiers is settled by the shared solver only if it is unsat;
// otherwise it is asked again of a fresh solver (see session).
func (s *session) check(f z3.Term, onSat func() error) (z3.Status, time.Duration, error) {
	start := time.Now()
	if s.expired() {
		return z3.Unknown, 0, nil
	}
	st, err := s.checkShared(f, onSat)
	if err == nil && st != z3.Unsat && s.v.quantified && !s.expired() && s.parent.Err() == nil {
		st, err = s.checkFresh(f, onSat)
	}
	return st, time.Since(start), err
}

// expired reports whether the obligation's time is up.
func (s *session) expired() bool {
	return !s.deadline.IsZero() && !time.Now().Before(s.deadline)
}

// checkShared checks f in a scope of the shared solver. The last query
// needs no scope of its own, since the obligation's scope is popped right
// after it; that saves a push/pop per obligation, about a tenth of a
// typical obligation's time. (Checking under a fresh selector assumption
// instead of a scope measured no faster in CPU time and twice as slow in
// wall time.)
func (s *session) checkShared(f z3.Term, onSat func() error) (z3.Status, error) {
	solver := s.solver
	if !s.final {
		if err := solver.Push(); err != nil {
			return z3.Unknown, err
		}
		defer solver.Pop(1)
	}
	if err := solver.Assert(f); err != nil {
		return z3.Unknown, err
	}
	if err := s.setSharedTimeout(); err != nil {
		return z3.Unknown, err
	}
	cancel := s.cancel
	if s.v.quantified {
		var stop context.CancelFunc
		cancel, stop = context.WithTimeout(cancel, quantifiedTry)
		defer stop()
	}
	s.last = solver
	st, err := solver.Check(cancel)
	if s.v.quantified && st == z3.Sat {
		// Models found by incremental quantifier instantiation can be
		// pathological: evaluating one ran out of memory. Let the fresh
		// solver find the counterexample.
		return z3.Unknown, err
	}
	return s.answer(solver, st, err, onSat)
}

// checkFresh checks f on a fresh solver. The solver lives in the
// obligation's arena scope, so the terms and models of all queries stay
// valid until the obligation is done.
func (s *session) checkFresh(f z3.Term, onSat func() error) (z3.Status, error) {
	solver, err := s.en.ctx.NewSolver()
	if err != nil {
		return z3.Unknown, err
	}
	for _, d := range append(s.defs, f) {
		if err := solver.Assert(d); err != nil {
			return z3.Unknown, err
		}
	}
	if !s.deadline.IsZero() {
		if err := solver.SetTimeout(time.Until(s.deadline)); err != nil {
			return z3.Unknown, err
		}
	}
	s.last = solver
	st, err := solver.Check(s.cancel)
	return s.answer(solver, st, err, onSat)
}

// answer reads the model of a sat answer and passes it to onSat. Reading
// a counterexample evaluates terms in the model, which can take long on a
// large model, so it is interrupted at the obligation's deadline.
func (s *session) answer(solver *z3.Solver, st z3.Status, err error, onSat func() error) (z3.Status, error) {
	if err != nil || st != z3.Sat {
		return st, err
	}
	m, err := solver.Model()
	if err != nil {
		return z3.Unknown, err
	}
	s.reader.m = m
	if s.en.ctx.Interruptible(s.cancel, func() { err = onSat() }) {
		return z3.Unknown, nil // reported as timeout or canceled
	}
	if err != nil {
		return z3.Unknown, err
	}
	return st, nil
}

// setSharedTimeout gives the shared solver Z3's timeout parameter, a
// backstop to the deadline context, which interrupts Z3 at the exact
// deadline. It sets the whole budget, and only when that changes: updating
// a solver's parameters costs about a millisecond, more than a typical
// query.
func (s *session) setSharedTimeout() error {
	if s.p.timeout == s.budget {
		return nil
	}
	if err := s.solver.SetTimeout(s.budget); err != nil {
		return err
	}
	s.p.timeout = s.budget
	return nil
}

// reason explains an Unknown answer.
func (s *session) reason() string {
	if s.parent.Err() != nil {
		return "canceled"
	}
	if s.expired() {
		return "timeout"
	}
	if s.last == nil {
		return "unknown"
	}
	r := strings.Trim(s.last.ReasonUnknown(), "()")
	if r == "canceled" || r == "interrupted" {
		return "timeout" // our deadline context fired just before Z3's timer
	}
	return r
}

// errCanceled is the reason given to obligations not started because the
// context was canceled.
var errCanceled = errors.New("canceled")
