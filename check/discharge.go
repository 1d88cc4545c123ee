package check

import (
	"context"
	"time"

	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt"
)

// stopGrace is how long a run waits for the solvers to stop after its
// context ended (the run's --timeout, a signal). Z3 answers an interrupt
// at its next check of the cancel flag, which some of its procedures
// (quantifier instantiation in 4.8) do rarely; after the grace the run
// gives up on them and reports them as not decided, so that a time limit
// or Ctrl-C is kept even when Z3 is not listening. The workers left
// behind end with the process.
const stopGrace = 500 * time.Millisecond

// progressEvery is how often a run reports its progress.
const progressEvery = 250 * time.Millisecond

// discharge decides obs and returns one result per obligation, in order.
// When ctx ends, the obligations not decided within stopGrace get
// Unknown results whose reason is ctx's cause. If progress is set, it is
// called every progressEvery with the number decided so far.
func discharge(ctx context.Context, obs []*obl.Obligation, opts smt.Options, progress func(done, total int)) []obl.ObligationResult {
	batch := smt.Start(ctx, obs, opts)
	done := ctx.Done()
	var grace <-chan time.Time
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		select {
		case <-batch.Done():
			return batch.Results()
		case <-done:
			done, grace = nil, time.After(stopGrace)
		case <-grace:
			out := batch.Prefix()
			for _, ob := range obs[len(out):] {
				out = append(out, notDecided(ob, context.Cause(ctx).Error()))
			}
			return out
		case <-tick.C:
			if progress != nil {
				progress(batch.Decided(), len(obs))
			}
		}
	}
}

// notDecided is the result of an obligation the solvers did not finish.
func notDecided(ob *obl.Obligation, reason string) obl.ObligationResult {
	res := obl.ObligationResult{Obligation: ob}
	for _, a := range ob.Asserts() {
		res.Results = append(res.Results, obl.Result{Assert: a, Reason: reason})
	}
	return res
}
