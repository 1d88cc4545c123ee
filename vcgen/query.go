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

// checkFresh decides f on solvers of a fresh Z3 context, into which the
// definitions and f are parsed from their SMT-LIB2 text, with a portfolio
// of random seeds. Both matter for quantifiers (proofs/TOOL-ISSUES.md
// #5): Z3 4.8.12's instantiation heuristics depend on the order terms
// were created in and on the seed. In the long-lived worker context it
// gave up ("incomplete quantifiers", or a timeout after minutes) on
// queries that a fresh parse decides, and on one such query seeds 0 to 5
// took from 0.013 s to more than 30 s. So each attempt gets a short slice
// with the next seed, the slices growing, until the obligation's time is
// up. A model is translated back into the worker context (the parsed
// constants have the worker's names and sorts), where the counterexample
// is read.
func (s *session) checkFresh(f z3.Term, onSat func() error) (z3.Status, error) {
	text, err := s.queryText(f)
	if err != nil {
		return z3.Unknown, err
	}
	s.last = nil
	for attempt := 0; ; attempt++ {
		slice := freshSlice(attempt)
		last := !s.deadline.IsZero() && time.Until(s.deadline) <= slice
		st, reason, err := s.freshAttempt(text, uint(attempt), slice, last, onSat)
		switch {
		case err != nil:
			return z3.Unknown, err
		case st != z3.Unknown:
			return st, nil
		case last || s.expired() || s.parent.Err() != nil || attempt >= maxFreshAttempts:
			s.lastReason = reason
			return z3.Unknown, nil
		}
	}
}

// queryText prints the definitions and f as SMT-LIB2 declarations and
// assertions.
func (s *session) queryText(f z3.Term) (string, error) {
	tmp, err := s.en.ctx.NewSimpleSolver()
	if err != nil {
		return "", err
	}
	for _, d := range append(s.defs, f) {
		if err := tmp.Assert(d); err != nil {
			return "", err
		}
	}
	return tmp.String(), nil
}

// maxFreshAttempts bounds the seeds tried when there is no deadline.
const maxFreshAttempts = 12

// freshSlice is the time given to fresh attempt n: 1 s for the first
// four seeds, then doubling every four attempts.
func freshSlice(n int) time.Duration { return time.Second << (n / 4) }

// freshAttempt parses text into a new context and checks it there with
// the given seed, for slice (or up to the deadline if last). On sat, the
// model is translated into the worker context and read by onSat.
func (s *session) freshAttempt(text string, seed uint, slice time.Duration, last bool, onSat func() error) (z3.Status, string, error) {
	fresh, err := z3.NewContext()
	if err != nil {
		return z3.Unknown, "", err
	}
	defer fresh.Close()
	solver, err := fresh.NewSolver()
	if err != nil {
		return z3.Unknown, "", err
	}
	if err := solver.AssertText(text); err != nil {
		return z3.Unknown, "", err
	}
	if err := solver.SetSeed(seed); err != nil {
		return z3.Unknown, "", err
	}
	timeout := slice
	if last && !s.deadline.IsZero() {
		timeout = time.Until(s.deadline)
	}
	if err := solver.SetTimeout(timeout); err != nil {
		return z3.Unknown, "", err
	}
	st, err := solver.Check(s.cancel)
	if err != nil || st != z3.Sat {
		return st, solver.ReasonUnknown(), err
	}
	m, err := solver.Model()
	if err != nil {
		return z3.Unknown, "", err
	}
	back, err := m.TranslateTo(s.en.ctx)
	if err != nil {
		return z3.Unknown, "", err
	}
	st, err = s.readModel(back, onSat)
	return st, "", err
}

// answer reads the model of a sat answer and passes it to onSat.
func (s *session) answer(solver *z3.Solver, st z3.Status, err error, onSat func() error) (z3.Status, error) {
	if err != nil || st != z3.Sat {
		return st, err
	}
	m, err := solver.Model()
	if err != nil {
		return z3.Unknown, err
	}
	return s.readModel(m, onSat)
}

// cexBudget bounds the time spent reading a counterexample from a model.
// The verdict does not depend on it: the query was sat, so the assert
// fails. Models of quantified queries can be huge, and evaluating every
// variable in them can take minutes.
const cexBudget = 3 * time.Second

// readModel loads a model of the worker context into the reader and calls
// onSat to read the counterexample. If that takes more than cexBudget (or
// the obligation's remaining time), or fails, the answer is still sat,
// without a counterexample; s.cexNote says why.
func (s *session) readModel(m *z3.Model, onSat func() error) (z3.Status, error) {
	var err error
	s.reader.m = m
	s.cexNote = ""
	budget := cexBudget
	if !s.deadline.IsZero() && time.Until(s.deadline) < budget {
		budget = max(time.Until(s.deadline), 0)
	}
	ctx, stop := context.WithTimeout(s.cancel, budget)
	defer stop()
	if s.en.ctx.Interruptible(ctx, func() { err = onSat() }) {
		if s.parent.Err() != nil {
			return z3.Unknown, nil // canceled by the caller
		}
		s.cexNote = "the solver found a counterexample, but reading its values from the model took too long"
		return z3.Sat, nil
	}
	if err != nil {
		s.cexNote = "the solver found a counterexample, but its values could not be read: " + err.Error()
		return z3.Sat, nil
	}
	return z3.Sat, nil
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
	r := s.lastReason
	if s.last != nil {
		r = s.last.ReasonUnknown()
	}
	if r == "" {
		return "unknown"
	}
	r = strings.Trim(r, "()")
	if r == "canceled" || r == "interrupted" {
		return "timeout" // our deadline context fired just before Z3's timer
	}
	return r
}

// errCanceled is the reason given to obligations not started because the
// context was canceled.
var errCanceled = errors.New("canceled")
