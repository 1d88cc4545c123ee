package vcgen

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/lipton-dev/lipton/vcgen/z3"
)

// Encoding selects how the asserts of an obligation are put to Z3. Both
// give the same verdicts; they differ in speed.
type Encoding int

// The encodings.
//
// Measured on the benchmark batch (bench_test.go: 240 obligations, 80
// commutativity checks with one assert, 80 gate preservations with three,
// 80 refinement checks with four; 60 of the 640 asserts fail), one Prover,
// 12 alternating rounds, CPU time per obligation (Z3 4.8.12, 2-core VM):
//
//	per-assert  640 checks  median 654µs  best 502µs
//	labelled    280 checks  median 663µs  best 539µs
//
// Labelled needs fewer checks but each is on a disjunction of failures,
// and the fixed cost of an obligation (encoding, asserting the
// definitions, one push/pop scope) dominates these small queries. So the
// default is per-assert, which also times each assert separately and keeps
// one hard assert from making its neighbours unknown.
const (
	// DefaultEncoding is PerAssert.
	DefaultEncoding Encoding = iota
	// PerAssert asks one query per assert, with the earlier asserts
	// assumed.
	PerAssert
	// Labelled asks one query for the disjunction of all assert
	// failures; on sat the model tells which asserts fail, and the query
	// is repeated for the others.
	Labelled
)

// Options configure Prove and Discharge.
type Options struct {
	// Jobs is the number of worker goroutines of Discharge, each with its
	// own Z3 context; 0 means runtime.NumCPU().
	Jobs int
	// Timeout bounds the time spent on one obligation; asserts still
	// undecided when it runs out are Unknown with reason "timeout". 0
	// means no limit.
	Timeout time.Duration
	// Encoding selects the query strategy.
	Encoding Encoding
}

// solverLife is the number of obligations a Prover's solver serves before
// it is replaced: Z3's incremental solver keeps some 50-80 bytes per
// push/pop cycle (measured with Z3 4.8.12), which a new solver releases.
const solverLife = 256

// A Prover decides obligations with its own Z3 context. It must be used by
// one goroutine at a time; use one Prover per worker.
type Prover struct {
	ctx        *z3.Context
	solver     *z3.Solver
	solverMark z3.Mark
	uses       int
	// timeout is the Z3 timeout parameter of solver (0 for none).
	timeout time.Duration
	// suspect is set when a query failed with a Z3 error, after which
	// the solver is not trusted.
	suspect bool
}

// NewProver returns a Prover with a fresh Z3 context.
func NewProver() (*Prover, error) {
	ctx, err := z3.NewContext()
	if err != nil {
		return nil, err
	}
	return &Prover{ctx: ctx}, nil
}

// Close releases the Prover's Z3 context.
func (p *Prover) Close() { p.ctx.Close() }

// acquireSolver returns the solver, replacing it when it has served
// solverLife obligations or a Z3 error left it in doubt.
func (p *Prover) acquireSolver() (*z3.Solver, error) {
	if p.solver != nil && p.uses < solverLife && p.ctx.Err() == nil && !p.suspect {
		p.uses++
		return p.solver, nil
	}
	p.dropSolver()
	p.solverMark = p.ctx.Mark()
	s, err := p.ctx.NewSolver()
	if err != nil {
		return nil, err
	}
	p.solver, p.uses, p.timeout = s, 1, 0
	return s, nil
}

func (p *Prover) dropSolver() {
	if p.solver != nil {
		p.ctx.Release(p.solverMark)
		p.solver = nil
	}
	p.ctx.ClearErr()
	p.suspect = false
}

// Prove decides every assert of ob. Cancellation of ctx, or running out of
// opts.Timeout, makes the undecided asserts Unknown.
func (p *Prover) Prove(ctx context.Context, ob *Obligation, opts Options) ObligationResult {
	start := time.Now()
	res := ObligationResult{Obligation: ob}
	if err := ob.Validate(); err != nil {
		return res.failAll(err, start)
	}
	asserts := ob.Asserts()
	res.Results = make([]Result, len(asserts))
	for i, a := range asserts {
		res.Results[i] = Result{Assert: a}
	}
	if len(asserts) == 0 {
		res.Elapsed = time.Since(start)
		return res
	}
	if ctx.Err() != nil {
		for i := range res.Results {
			res.Results[i].Reason = errCanceled.Error()
		}
		return res
	}
	if err := p.prove(ctx, passify(ob), opts, start, res.Results); err != nil {
		p.dropSolver()
		return res.failAll(err, start)
	}
	res.Elapsed = time.Since(start)
	return res
}

// failAll marks every assert Unknown because of err.
func (r ObligationResult) failAll(err error, start time.Time) ObligationResult {
	r.Err = err
	r.Results = nil
	if r.Obligation != nil && r.Obligation.Body != nil {
		for _, a := range r.Obligation.Asserts() {
			r.Results = append(r.Results, Result{Assert: a, Reason: err.Error()})
		}
	}
	r.Elapsed = time.Since(start)
	return r
}

// prove runs the queries of one obligation inside its own arena scope.
func (p *Prover) prove(ctx context.Context, v *vc, opts Options, start time.Time, results []Result) error {
	s := &session{p: p, budget: opts.Timeout, parent: ctx, cancel: ctx, v: v, results: results, incremental: !v.quantified}
	if s.incremental {
		solver, err := p.acquireSolver()
		if err != nil {
			return err
		}
		s.solver = solver
	}
	mark := p.ctx.Mark()
	defer p.ctx.Release(mark)
	if opts.Timeout > 0 {
		s.deadline = start.Add(opts.Timeout)
		var stop context.CancelFunc
		s.cancel, stop = context.WithDeadline(ctx, s.deadline)
		defer stop()
	}
	if err := s.encode(); err != nil {
		return err
	}
	if s.incremental {
		if err := s.solver.Push(); err != nil {
			return err
		}
		defer s.solver.Pop(1)
		for _, d := range s.defs {
			if err := s.solver.Assert(d); err != nil {
				return err
			}
		}
	}
	if opts.Encoding == Labelled {
		s.labelled()
	} else {
		s.perAssert(allGoals(len(v.goals)))
	}
	return nil
}

// encode translates the vc's definitions and failure formulas to Z3.
func (s *session) encode() error {
	s.en = newEncoder(s.p.ctx, s.v)
	s.reader = &modelReader{en: s.en, v: s.v}
	for _, d := range s.v.defs() {
		s.defs = append(s.defs, s.en.term(d))
	}
	s.fails = make([]z3.Term, len(s.v.goals))
	for i, g := range s.v.goals {
		s.fails[i] = s.en.term(g.failure())
	}
	return s.p.ctx.Err()
}

func allGoals(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// A session holds the state of one obligation's queries.
//
// Quantifier-free obligations are solved incrementally: the definitions
// are asserted once on the Prover's long-lived solver and each query is a
// push/pop scope (a trivial query then costs about 45µs of CPU in all,
// against some 3ms for a fresh solver). Obligations with
// quantifiers get a fresh solver per query instead: without push/pop Z3
// runs its preprocessing tactics (solving equations, eliminating
// variables) before the SMT core, and in Z3 4.8.12 its model-based
// quantifier instantiation needs them. For example "forall i :: i > 10 ==>
// m[i] == 7" with m1 == m[3 := 4] and m1[3] == 4 is sat at once from
// scratch but times out after push.
type session struct {
	p           *Prover
	budget      time.Duration // opts.Timeout
	incremental bool
	solver      *z3.Solver      // the shared solver, if incremental
	last        *z3.Solver      // the solver of the latest query
	defs        []z3.Term       // the vc's definitions
	parent      context.Context // the caller's context: cancellation
	cancel      context.Context // parent, bounded by the deadline
	deadline    time.Time       // zero if no timeout
	v           *vc
	en          *encoder
	reader      *modelReader
	fails       []z3.Term // failure formula of each goal
	results     []Result
	final       bool // the next query is the obligation's last
}

// perAssert decides the goals idx one query each.
func (s *session) perAssert(idx []int) {
	for k, i := range idx {
		r := &s.results[i]
		s.final = k == len(idx)-1
		st, d, err := s.check(s.fails[i], func() error {
			return s.fail(i, r)
		})
		r.Elapsed = d
		s.settle(r, st, err)
	}
}

// labelled decides all goals with queries on the disjunction of their
// failures, falling back to perAssert when Z3 cannot answer.
func (s *session) labelled() {
	pending := allGoals(len(s.fails))
	for len(pending) > 0 {
		disj := make([]z3.Term, len(pending))
		for k, i := range pending {
			disj[k] = s.fails[i]
		}
		var failed map[int]bool
		st, d, err := s.check(s.en.ctx.Or(disj...), func() error {
			var err error
			failed, err = s.failing(pending)
			return err
		})
		if err != nil || st == z3.Unknown || (st == z3.Sat && len(failed) == 0) {
			s.perAssert(pending)
			return
		}
		var rest []int
		for _, i := range pending {
			r := &s.results[i]
			switch {
			case st == z3.Unsat:
				r.Verdict, r.Elapsed = Proven, d
			case failed[i]:
				r.Verdict, r.Elapsed = Failed, d
			default:
				rest = append(rest, i)
			}
		}
		pending = rest
	}
}

// failing evaluates the failure formulas of pending in the current model
// and records a counterexample for each that is true.
func (s *session) failing(pending []int) (map[int]bool, error) {
	failed := make(map[int]bool)
	for _, i := range pending {
		v, err := s.reader.m.Bool(s.fails[i])
		if err != nil {
			return nil, err
		}
		if v {
			if err := s.fail(i, &s.results[i]); err != nil {
				return nil, err
			}
			failed[i] = true
		}
	}
	return failed, nil
}

// fail records the counterexample of goal i from the current model.
func (s *session) fail(i int, r *Result) error {
	cex, err := s.reader.counterexample(s.v.goals[i])
	if err != nil {
		return err
	}
	r.Cex = cex
	return nil
}

// settle sets a result's verdict from a query's answer.
func (s *session) settle(r *Result, st z3.Status, err error) {
	switch {
	case err != nil:
		r.Verdict, r.Reason, r.Cex = Unknown, "z3 error: "+err.Error(), nil
		s.p.suspect = true
	case st == z3.Unsat:
		r.Verdict = Proven
	case st == z3.Sat:
		r.Verdict = Failed
	default:
		r.Verdict, r.Reason = Unknown, s.reason()
	}
}

// check checks f together with the definitions; on sat it loads the model
// into the reader and calls onSat while the model is current.
func (s *session) check(f z3.Term, onSat func() error) (z3.Status, time.Duration, error) {
	start := time.Now()
	var timeout time.Duration
	if !s.deadline.IsZero() {
		if timeout = time.Until(s.deadline); timeout <= 0 {
			return z3.Unknown, 0, nil
		}
	}
	solver, done, err := s.querySolver(f)
	if err != nil {
		return z3.Unknown, 0, err
	}
	defer done()
	s.last = solver
	if err := s.setTimeout(solver, timeout); err != nil {
		return z3.Unknown, 0, err
	}
	st, err := solver.Check(s.cancel)
	d := time.Since(start)
	if err != nil || st != z3.Sat {
		return st, d, err
	}
	m, err := solver.Model()
	if err != nil {
		return z3.Unknown, d, err
	}
	s.reader.m = m
	if err := onSat(); err != nil {
		return z3.Unknown, d, err
	}
	return st, d, nil
}

// querySolver prepares the solver for a query of f, with the definitions
// and f asserted, and returns it and the function that ends the query. On
// the shared solver a query is a push/pop scope; checking under a fresh
// selector assumption instead measured no faster in CPU time and twice as
// slow in wall time. A fresh solver lives in the obligation's arena scope,
// so the terms and models of all queries stay valid until the obligation
// is done.
func (s *session) querySolver(f z3.Term) (*z3.Solver, func(), error) {
	if s.incremental && s.final {
		// The last query needs no scope of its own: the obligation's
		// scope is popped right after it. This saves a push/pop per
		// obligation, about a tenth of a typical obligation's time.
		if err := s.solver.Assert(f); err != nil {
			return nil, nil, err
		}
		return s.solver, func() {}, nil
	}
	if s.incremental {
		if err := s.solver.Push(); err != nil {
			return nil, nil, err
		}
		if err := s.solver.Assert(f); err != nil {
			s.solver.Pop(1)
			return nil, nil, err
		}
		return s.solver, func() { s.solver.Pop(1) }, nil
	}
	solver, err := s.en.ctx.NewSolver()
	if err != nil {
		return nil, nil, err
	}
	for _, d := range append(s.defs, f) {
		if err := solver.Assert(d); err != nil {
			return nil, nil, err
		}
	}
	return solver, func() {}, nil
}

// setTimeout sets Z3's timeout parameter on the query's solver, a
// backstop to the deadline context, which interrupts Z3 at the exact
// deadline. A fresh solver gets the remaining time. The shared solver gets
// the whole budget, and only when that changes: updating a solver's
// parameters costs about a millisecond, more than a typical query.
func (s *session) setTimeout(solver *z3.Solver, remaining time.Duration) error {
	if !s.incremental {
		if remaining <= 0 {
			return nil
		}
		return solver.SetTimeout(remaining)
	}
	if s.p.timeout == s.budget {
		return nil
	}
	if err := solver.SetTimeout(s.budget); err != nil {
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
	if !s.deadline.IsZero() && !time.Now().Before(s.deadline) {
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
