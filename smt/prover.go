package smt

import (
	"context"
	"time"

	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt/z3"
)

// Encoding selects how the asserts of an obligation are put to Z3. Both
// give the same verdicts; they differ in speed.
type Encoding int

// The encodings.
//
// Measured on the benchmark batch (bench_test.go: 240 obligations, 80
// commutativity checks with one assert, 80 gate preservations with three,
// 80 refinement checks with four; 60 of the 640 asserts fail), one Prover,
// 12 alternating rounds, CPU time per obligation (Z3 4.8.12, 2-core VM,
// two runs of TestMeasureEncodings):
//
//	per-assert  640 checks  median 542µs, 592µs  best 495µs, 487µs
//	labelled    280 checks  median 533µs, 616µs  best 504µs, 470µs
//
// Labelled needs fewer checks but each is on a disjunction of failures,
// and the fixed cost of an obligation (encoding, asserting the
// definitions, its push/pop scope) dominates these small queries: the two
// are equally fast within the noise. The default is per-assert, which
// also times each assert separately and keeps one hard assert from making
// its neighbours unknown.
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
	// RLimit bounds the work of each query in Z3's resource units, a
	// deterministic measure (unlike time, it does not depend on the
	// machine's load): an assert is one query, and a query with
	// quantifiers that the shared solver does not settle gets a portfolio
	// of fresh solvers that share one more RLimit. An assert still
	// undecided when its limit runs out is Unknown with reason "resource
	// limit". 0 means DefaultRLimit. The wall-clock limit of a run is the
	// caller's: cancel the context (its cause is the reason given).
	RLimit uint64
	// Encoding selects the query strategy.
	Encoding Encoding
}

// solverLife is the number of obligations a Prover's solver serves before
// it is replaced: Z3's incremental solver keeps some 50-80 bytes per
// push/pop cycle (measured with Z3 4.8.12), which a new solver releases.
const solverLife = 256

// DefaultRLimit is the resource limit of a query when Options.RLimit is
// 0. See docs/checks.md ("Solver limits") for how it was chosen.
const DefaultRLimit = 10_000_000

// Limit returns the resource limit of a query: RLimit, or DefaultRLimit.
func (o Options) Limit() uint64 {
	if o.RLimit == 0 {
		return DefaultRLimit
	}
	return o.RLimit
}

// A Prover decides obligations with its own Z3 context. It must be used by
// one goroutine at a time; use one Prover per worker.
type Prover struct {
	ctx        *z3.Context
	solver     *z3.Solver
	solverMark z3.Mark
	uses       int
	// rlimit is the rlimit parameter of solver (0 for none).
	rlimit uint64
	// suspect is set when a query failed with a Z3 error, after which
	// the solver is not trusted.
	suspect bool
	// spare holds the maps of the last encoder for the next.
	spare encoderMaps
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
	p.solver, p.uses, p.rlimit = s, 1, 0
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

// Prove decides every assert of ob. Cancellation of ctx, or an assert
// running out of opts.RLimit, makes the undecided asserts Unknown.
func (p *Prover) Prove(ctx context.Context, ob *obl.Obligation, opts Options) obl.ObligationResult {
	start := time.Now()
	res := obl.ObligationResult{Obligation: ob}
	shape, err := ob.Inspect()
	if err != nil {
		return failAll(res, err, start)
	}
	asserts := ob.Asserts()
	res.Results = make([]obl.Result, len(asserts))
	for i, a := range asserts {
		res.Results[i] = obl.Result{Assert: a}
	}
	if len(asserts) == 0 {
		res.Elapsed = time.Since(start)
		return res
	}
	if ctx.Err() != nil {
		for i := range res.Results {
			res.Results[i].Reason = context.Cause(ctx).Error()
		}
		return res
	}
	// Z3 4.8.12's incremental solver crashes (a segmentation fault in
	// Z3_solver_check) after some push/pop cycles of queries with
	// sequences, in a solver that served other queries before: an
	// obligation with sequences gets a solver of its own, used once.
	p.ctx.SetTask("solving obligation " + ob.Name)
	if shape.Sequences {
		p.dropSolver()
	}
	err = p.prove(ctx, passify(ob, shape), opts, start, res.Results)
	if err != nil || shape.Sequences {
		p.dropSolver()
	}
	if err != nil {
		return failAll(res, err, start)
	}
	obl.AnswerWitnesses(res.Results)
	res.Elapsed = time.Since(start)
	return res
}

// failAll marks every assert Unknown because of err.
func failAll(r obl.ObligationResult, err error, start time.Time) obl.ObligationResult {
	r.Err = err
	r.Results = nil
	if r.Obligation != nil && r.Obligation.Body != nil {
		for _, a := range r.Obligation.Asserts() {
			r.Results = append(r.Results, obl.Result{Assert: a, Reason: err.Error()})
		}
	}
	r.Elapsed = time.Since(start)
	return r
}
