package smt

import (
	"context"
	"strings"
	"time"

	"github.com/lipton-dev/lipton/smt/z3"
)

// check checks f together with the definitions; on sat it loads the model
// into the reader and calls onSat while the model is current. A query
// with quantifiers is settled by the shared solver only if it is unsat;
// otherwise it is asked again of fresh solvers (see session). It returns
// the resource units the query used.
func (s *session) check(f z3.Term, onSat func() error) (z3.Status, uint64, error) {
	if s.parent.Err() != nil {
		return z3.Unknown, 0, nil
	}
	st, used, err := s.checkShared(f, onSat)
	if err == nil && st != z3.Unsat && s.v.quantified && s.parent.Err() == nil {
		var more uint64
		st, more, err = s.checkFresh(f, onSat)
		used += more
	}
	return st, used, err
}

// checkShared checks f in a scope of the shared solver. The last query
// needs no scope of its own, since the obligation's scope is popped right
// after it; that saves a push/pop per obligation, about a tenth of a
// typical obligation's time. (Checking under a fresh selector assumption
// instead of a scope measured no faster in CPU time and twice as slow in
// wall time.)
func (s *session) checkShared(f z3.Term, onSat func() error) (z3.Status, uint64, error) {
	solver := s.solver
	if !s.final {
		if err := solver.Push(); err != nil {
			return z3.Unknown, 0, err
		}
		defer solver.Pop(1)
	}
	if err := solver.Assert(f); err != nil {
		return z3.Unknown, 0, err
	}
	limit := s.rlimit
	if s.v.quantified {
		limit = min(limit, quantifiedTry)
	}
	if err := s.setSharedRLimit(limit); err != nil {
		return z3.Unknown, 0, err
	}
	s.last = solver
	before := solver.ResourceCount()
	if queryStartHook != nil {
		queryStartHook()
	}
	st, err := solver.Check(s.parent)
	used := solver.ResourceCount() - before
	s.spent = used >= limit
	if s.v.quantified && st == z3.Sat {
		// Models found by incremental quantifier instantiation can be
		// pathological: evaluating one ran out of memory. Let the fresh
		// solver find the counterexample.
		return z3.Unknown, used, err
	}
	st, err = s.answer(solver, st, err, onSat)
	return st, used, err
}

// checkFresh decides f on solvers of a fresh Z3 context, into which the
// definitions and f are parsed from their SMT-LIB2 text, with a portfolio
// of random seeds. Both matter for quantifiers (proofs/TOOL-ISSUES.md
// #5): Z3 4.8.12's instantiation heuristics depend on the order terms
// were created in and on the seed. In the long-lived worker context it
// gave up ("incomplete quantifiers", or a timeout after minutes) on
// queries that a fresh parse decides, and on one such query seeds 0 to 5
// took from 0.013 s to more than 30 s. So each attempt gets a slice of
// the query's resource limit with the next seed, the slices growing,
// until the limit is spent. Resource units, not time, make the outcome
// the same on every run. A model is translated back into the worker
// context (the parsed constants have the worker's names and sorts), where
// the counterexample is read.
func (s *session) checkFresh(f z3.Term, onSat func() error) (z3.Status, uint64, error) {
	text, err := s.queryText(f)
	if err != nil {
		return z3.Unknown, 0, err
	}
	s.last = nil
	var spent uint64
	for attempt := 0; attempt < maxFreshAttempts && spent < s.rlimit; attempt++ {
		slice := min(freshSlice(s.rlimit, attempt), s.rlimit-spent)
		st, reason, used, err := s.freshAttempt(text, uint(attempt), slice, onSat)
		spent += used
		switch {
		case err != nil:
			return z3.Unknown, spent, err
		case st != z3.Unknown:
			return st, spent, nil
		case s.parent.Err() != nil:
			return z3.Unknown, spent, nil
		}
		s.lastReason = reason
	}
	return z3.Unknown, spent, nil
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
	return orderDatatypes(tmp.String()), nil
}

// queryStartHook, if set by a test, runs as a query of the shared solver
// starts, so that a test can cancel a run at a known point rather than
// after some time.
var queryStartHook func()

// maxFreshAttempts is the number of seeds tried.
const maxFreshAttempts = 12

// freshSlice is the resource limit of fresh attempt n out of a query's
// limit: the first four seeds get 1/28 of it each, the next four 2/28,
// the last four 4/28, which adds up to the whole limit.
func freshSlice(limit uint64, n int) uint64 { return max(limit/28, 1) << (n / 4) }

// freshAttempt parses text into a new context and checks it there with
// the given seed and resource limit. On sat, the model is translated into
// the worker context and read by onSat. It returns the resource units
// used.
func (s *session) freshAttempt(text string, seed uint, limit uint64, onSat func() error) (z3.Status, string, uint64, error) {
	fresh, err := z3.NewContext()
	if err != nil {
		return z3.Unknown, "", 0, err
	}
	defer fresh.Close()
	fresh.SetTask(s.p.ctx.Task())
	solver, err := fresh.NewSolver()
	if err != nil {
		return z3.Unknown, "", 0, err
	}
	if err := solver.AssertText(text); err != nil {
		return z3.Unknown, "", 0, err
	}
	if err := solver.SetSeed(seed); err != nil {
		return z3.Unknown, "", 0, err
	}
	if err := solver.SetRLimit(limit); err != nil {
		return z3.Unknown, "", 0, err
	}
	before := solver.ResourceCount()
	st, err := solver.Check(s.parent)
	used := solver.ResourceCount() - before
	s.spent = used >= limit
	if err != nil || st != z3.Sat {
		return st, solver.ReasonUnknown(), used, err
	}
	m, err := solver.Model()
	if err != nil {
		return z3.Unknown, "", used, err
	}
	back, err := m.TranslateTo(s.en.ctx)
	if err != nil {
		return z3.Unknown, "", used, err
	}
	st, err = s.readModel(back, onSat)
	return st, "", used, err
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
// fails; only whether the report shows the counterexample's values may.
// Models of quantified queries can be huge, and evaluating every variable
// in them can take minutes, and Z3 counts no resources while it does.
const cexBudget = 3 * time.Second

// readModel loads a model of the worker context into the reader and calls
// onSat to read the counterexample. If that takes more than cexBudget, or
// fails, the answer is still sat, without a counterexample; s.cexNote
// says why.
func (s *session) readModel(m *z3.Model, onSat func() error) (z3.Status, error) {
	var err error
	s.reader.m = m
	s.cexNote = ""
	ctx, stop := context.WithTimeout(s.parent, cexBudget)
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

// setSharedRLimit gives the shared solver the rlimit parameter limit,
// only when it changes: updating a solver's parameters costs about a
// millisecond, more than a typical query.
func (s *session) setSharedRLimit(limit uint64) error {
	if s.p.rlimit == limit {
		return nil
	}
	if err := s.solver.SetRLimit(limit); err != nil {
		return err
	}
	s.p.rlimit = limit
	return nil
}

// reason explains an Unknown answer: the cause of the caller's
// cancellation ("canceled" if none was given), "resource limit", or Z3's
// reason.
func (s *session) reason() string {
	if s.parent.Err() != nil {
		return context.Cause(s.parent).Error()
	}
	if s.spent {
		// Z3 says "canceled" or "max. resource limit exceeded",
		// depending on where the limit stopped it.
		return "resource limit"
	}
	r := s.lastReason
	if s.last != nil {
		r = s.last.ReasonUnknown()
	}
	if r == "" {
		return "unknown"
	}
	return strings.Trim(r, "()")
}
