package smt

import (
	"context"
	"fmt"
	"github.com/lipton-dev/lipton/obl"
	"runtime"
	"time"
)

// Discharge decides obligations with a pool of opts.Jobs workers, each
// with its own Z3 context, and returns their results in the order of obs.
// Cancelling ctx makes every undecided assert Unknown ("canceled"); the
// call still returns one result per obligation.
func Discharge(ctx context.Context, obs []*obl.Obligation, opts Options) []obl.ObligationResult {
	out := make([]obl.ObligationResult, len(obs))
	for i, c := range startWorkers(ctx, obs, opts) {
		out[i] = <-c
	}
	return out
}

// DischargeStream is Discharge delivering each result as soon as it and
// all results before it are known, in the order of obs. The channel is
// closed after the last result; the caller must drain it (cancel ctx to
// finish early).
func DischargeStream(ctx context.Context, obs []*obl.Obligation, opts Options) <-chan obl.ObligationResult {
	done := startWorkers(ctx, obs, opts)
	out := make(chan obl.ObligationResult)
	go func() {
		defer close(out)
		for _, c := range done {
			out <- <-c
		}
	}()
	return out
}

// startWorkers starts the workers and returns one buffered channel per
// obligation, which receives its result.
func startWorkers(ctx context.Context, obs []*obl.Obligation, opts Options) []chan obl.ObligationResult {
	done := make([]chan obl.ObligationResult, len(obs))
	for i := range done {
		done[i] = make(chan obl.ObligationResult, 1)
	}
	// Worker w of n decides obligations w, w+n, w+2n, ... in order. A
	// fixed assignment makes every worker's solver see the same sequence
	// of queries on every run, and Z3's resource counts depend on the
	// solver's history, so the verdicts are the same on every run, however
	// loaded the machine is. (Claiming obligations dynamically balanced
	// the load better but made the history, and so the work of a query,
	// depend on timing.) Workers index into obs rather than receive from a
	// feeder goroutine: with as many workers as Ps, the feeder would wait
	// for a P at every handoff, which halved the throughput of two
	// workers on two cores.
	n := opts.workers(len(obs))
	for w := 0; w < n; w++ {
		go work(ctx, obs, opts, w, n, done)
	}
	return done
}

// workers returns the number of workers to start for n obligations.
func (o Options) workers(n int) int {
	j := o.Jobs
	if j <= 0 {
		j = runtime.NumCPU()
	}
	if j > n {
		j = n
	}
	return j
}

// work is worker w of n: it proves obligations w, w+n, ... with its own
// Prover.
func work(ctx context.Context, obs []*obl.Obligation, opts Options, w, n int, done []chan obl.ObligationResult) {
	var p *Prover
	defer func() {
		if p != nil {
			p.Close()
		}
	}()
	for i := w; i < len(obs); i += n {
		start := time.Now()
		var err error
		if p == nil {
			p, err = NewProver()
		}
		if err != nil {
			done[i] <- failAll(obl.ObligationResult{Obligation: obs[i]}, err, start)
			continue
		}
		res, ok := proveSafely(ctx, p, obs[i], opts)
		if !ok { // the Prover's state is unknown after a panic
			p.Close()
			p = nil
		}
		done[i] <- res
	}
}

// proveSafely runs p.Prove, turning a panic (a bug in lipton) into an
// error result for the obligation, so one bad obligation cannot hang
// Discharge or lose the results of the others. It reports whether Prove
// returned normally.
func proveSafely(ctx context.Context, p *Prover, ob *obl.Obligation, opts Options) (res obl.ObligationResult, ok bool) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			res = failAll(obl.ObligationResult{Obligation: ob}, fmt.Errorf("internal error: %v", r), start)
		}
	}()
	return p.Prove(ctx, ob, opts), true
}
