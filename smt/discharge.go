package smt

import (
	"context"
	"fmt"
	"github.com/lipton-dev/lipton/obl"
	"runtime"
	"sync/atomic"
	"time"
)

// Discharge decides obligations with a pool of opts.Jobs workers, each
// with its own Z3 context, and returns their results in the order of obs.
// Cancelling ctx makes every undecided assert Unknown ("canceled"); the
// call still returns one result per obligation.
func Discharge(ctx context.Context, obs []*obl.Obligation, opts Options) []obl.ObligationResult {
	b := Start(ctx, obs, opts)
	<-b.Done()
	return b.Results()
}

// A Batch is a Discharge in progress. Its workers write each result into
// its slot and tell nobody but the Batch's counters: a channel send per
// result woke the waiting goroutine on another thread for every
// obligation, which cost some 3 % of a check's CPU (Chase-Lev, one
// worker) in futex calls and scheduling; the caller now wakes once, when
// the last result is in, or when it polls.
type Batch struct {
	results []obl.ObligationResult
	decided []atomic.Bool // decided[i] is set after results[i] is written
	count   atomic.Int64  // how many are decided
	done    chan struct{} // closed when every result is in
}

// Start starts the workers of a Discharge of obs and returns at once.
func Start(ctx context.Context, obs []*obl.Obligation, opts Options) *Batch {
	b := &Batch{
		results: make([]obl.ObligationResult, len(obs)),
		decided: make([]atomic.Bool, len(obs)),
		done:    make(chan struct{}),
	}
	if len(obs) == 0 {
		close(b.done)
		return b
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
		go work(ctx, obs, opts, w, n, b)
	}
	return b
}

// Done is closed when every obligation is decided.
func (b *Batch) Done() <-chan struct{} { return b.done }

// Decided returns how many obligations are decided so far.
func (b *Batch) Decided() int { return int(b.count.Load()) }

// Results returns the results in the order of the obligations; call it
// after Done is closed.
func (b *Batch) Results() []obl.ObligationResult { return b.results }

// Prefix returns a copy of the results of the longest run of decided
// obligations from the first: what is known in order while workers may
// still be running.
func (b *Batch) Prefix() []obl.ObligationResult {
	n := 0
	for n < len(b.decided) && b.decided[n].Load() {
		n++
	}
	return append([]obl.ObligationResult(nil), b.results[:n]...)
}

// put records the result of obligation i.
func (b *Batch) put(i int, r obl.ObligationResult) {
	b.results[i] = r
	b.decided[i].Store(true)
	if int(b.count.Add(1)) == len(b.results) {
		close(b.done)
	}
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
func work(ctx context.Context, obs []*obl.Obligation, opts Options, w, n int, b *Batch) {
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
			b.put(i, failAll(obl.ObligationResult{Obligation: obs[i]}, err, start))
			continue
		}
		res, ok := proveSafely(ctx, p, obs[i], opts)
		if !ok { // the Prover's state is unknown after a panic
			p.Close()
			p = nil
		}
		b.put(i, res)
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
