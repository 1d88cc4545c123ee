package smt

import (
	"context"
	"time"

	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt/z3"
)

// A session holds the state of one obligation's queries.
//
// The definitions of the vc are asserted once, in a push/pop scope of the
// Prover's long-lived solver, and each query is a nested scope: a trivial
// query then costs about 45µs of CPU in all, against some 3ms for a fresh
// solver. Z3 4.8.12's model-based quantifier instantiation is weaker in
// this incremental mode, though: without push/pop Z3 first runs its
// preprocessing tactics (solving equations, eliminating variables), which
// some quantified queries need. For example "forall i :: i > 10 ==> m[i]
// == 7" with m1 == m[3 := 4] and m1[3] == 4 is sat at once from scratch
// but gives up after a minute after push. Worse, a model found after push
// can be pathological: reading a counterexample from one ran out of memory
// (a broken Treiber stack proof). So a query with quantifiers gets
// quantifiedTry incrementally, which settles it only if the answer is
// unsat (proven); otherwise it is asked again of a fresh solver, which
// also provides the counterexample. Measured on lipton's proofs (two-lock
// queue, Treiber stack), trying incrementally first cut the solver time of
// their quantified obligations from 3.3s to 0.45s and from 4.1s to 0.65s.
type session struct {
	p          *Prover
	rlimit     uint64          // opts.RLimit: the work of one query
	solver     *z3.Solver      // the Prover's shared solver
	last       *z3.Solver      // the solver of the latest query
	lastReason string          // why the last fresh-context query was unknown
	cexNote    string          // why the last sat answer has no counterexample
	spent      bool            // the last query ran out of its resource limit
	defs       []z3.Term       // the vc's definitions
	parent     context.Context // the caller's context: cancellation
	v          *vc
	en         *encoder
	reader     *modelReader
	fails      []z3.Term // failure formula of each goal
	results    []obl.Result
	final      bool // the next query is the obligation's last
}

// quantifiedTry bounds the incremental attempt at a query with
// quantifiers before it is asked of a fresh solver: 500,000 resource
// units, about a quarter of a second of Z3 4.8.12 on the corpus.
const quantifiedTry = 500_000

// prove runs the queries of one obligation inside its own arena scope and
// its own scope of the shared solver.
func (p *Prover) prove(ctx context.Context, v *vc, opts Options, start time.Time, results []obl.Result) error {
	solver, err := p.acquireSolver()
	if err != nil {
		return err
	}
	s := &session{p: p, rlimit: opts.Limit(), solver: solver, parent: ctx, v: v, results: results}
	mark := p.ctx.Mark()
	defer p.ctx.Release(mark)
	defer func() {
		if s.en != nil {
			p.spare.keep(s.en)
		}
	}()
	if err := s.encode(); err != nil {
		return err
	}
	if err := solver.Push(); err != nil {
		return err
	}
	defer solver.Pop(1)
	for _, d := range s.defs {
		if err := solver.Assert(d); err != nil {
			return err
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
	s.en = newEncoder(s.p.ctx, s.v, &s.p.spare)
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

// perAssert decides the goals idx one query each.
func (s *session) perAssert(idx []int) {
	for k, i := range idx {
		r := &s.results[i]
		s.final = k == len(idx)-1
		start := time.Now()
		st, used, err := s.check(s.fails[i], func() error {
			return s.fail(i, r)
		})
		r.Elapsed, r.Resources = time.Since(start), used
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
		start := time.Now()
		st, used, err := s.check(s.en.ctx.Or(disj...), func() error {
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
			d := time.Since(start)
			switch {
			case st == z3.Unsat:
				r.Verdict, r.Elapsed, r.Resources = obl.Proven, d, used
			case failed[i]:
				r.Verdict, r.Elapsed, r.Resources = obl.Failed, d, used
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
func (s *session) fail(i int, r *obl.Result) error {
	cex, err := s.reader.counterexample(s.v.goals[i])
	if err != nil {
		return err
	}
	r.Cex = cex
	return nil
}

// settle sets a result's verdict from a query's answer.
func (s *session) settle(r *obl.Result, st z3.Status, err error) {
	switch {
	case err != nil:
		r.Verdict, r.Reason, r.Cex = obl.Unknown, "z3 error: "+err.Error(), nil
		s.p.suspect = true
	case st == z3.Unsat:
		r.Verdict = obl.Proven
	case st == z3.Sat:
		r.Verdict = obl.Failed
		if r.Cex == nil {
			r.Reason = s.cexNote
		}
	default:
		r.Verdict, r.Reason = obl.Unknown, s.reason()
	}
}
