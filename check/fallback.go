package check

import (
	"context"
	"fmt"

	"github.com/lipton-dev/lipton/mc"
	"github.com/lipton-dev/lipton/obl"
)

// The enumeration fallback (DESIGN §5): obligations that Z3 leaves
// unknown are decided by mc.Decide over a finite integer domain. Policy:
// an assert that holds for every valuation in the domain is reported as
// "holds for ints in A..B", never as proven; it still counts as unknown
// in the tally, so the run is not a proof. An assert that fails by
// enumeration is a failure with the enumeration's counterexample.

// MaxFallbackValuations caps the valuations of one obligation's
// enumeration: a domain whose size makes even one variable exceed it is
// refused before any work (DecideLimits documents the cap).
const MaxFallbackValuations = 100_000_000

// FallbackTally counts the asserts the fallback decided.
type FallbackTally struct {
	Domain                mc.Domain
	Holds, Fails, Unknown int
	Valuations            int64
}

// addFallback handles an obligation with unknown asserts by enumeration
// over dom; it reports false (leaving the obligation to addResult) if
// there is no domain, Z3 decided every assert, or the run was stopped.
func (r *Result) addFallback(ctx context.Context, res obl.ObligationResult, dom *mc.Domain) bool {
	if dom == nil || res.Verdict() != obl.Unknown || hasWitness(res) || ctx.Err() != nil {
		return false
	}
	dec := mc.Decide(ctx, res.Obligation, *dom, mc.DecideLimits{MaxValuations: MaxFallbackValuations})
	if r.Fallback == nil {
		r.Fallback = &FallbackTally{Domain: *dom}
	}
	r.Fallback.Valuations += dec.Valuations
	for i, a := range res.Results {
		if a.Verdict != obl.Unknown {
			r.addOne(res, a)
			continue
		}
		r.Findings = append(r.Findings, r.enumerated(res, a, dec, dec.Results[i]))
		r.Log = append(r.Log, fmt.Sprintf("%s by enumeration  %s [%s]: %s", dec.Results[i].Verdict, a.Assert.Kind, res.Obligation.Name, a.Assert.Msg))
	}
	return true
}

// enumerated tallies one assert decided by enumeration and returns its
// finding.
func (r *Result) enumerated(res obl.ObligationResult, a obl.Result, dec *mc.Decision, d mc.AssertDecision) *Finding {
	layer := res.Obligation.Layer
	c := r.count(layer, a.Assert.Kind)
	f := &Finding{Check: a.Assert.Kind, Layer: layer, Unknown: true, Msg: a.Assert.Msg,
		Pos: langPositions(a.Assert.Pos), Obligation: res.Obligation}
	switch d.Verdict {
	case mc.Holds:
		c.Unknown++
		r.Fallback.Holds++
		f.Reason = fmt.Sprintf("%s; by enumeration it holds for ints in %s (%d valuations), which is not a proof", a.Reason, dec.Domain, dec.Valuations)
	case mc.Fails:
		c.Failed++
		r.Fallback.Fails++
		f.Unknown, f.Cex = false, d.Cex
		f.Notes = append(f.Notes, fmt.Sprintf("Z3 could not decide it (%s); enumeration over ints in %s found this counterexample", a.Reason, dec.Domain))
		if dec.Quantified {
			f.Notes = append(f.Notes, "the obligation has quantifiers, which the enumeration evaluates over the domain only: check that the counterexample is real")
		}
	default:
		c.Unknown++
		r.Fallback.Unknown++
		f.Reason = fmt.Sprintf("%s; enumeration over ints in %s: %s", a.Reason, dec.Domain, d.Reason)
	}
	return f
}

// hasWitness reports whether an obligation asks for a witness (a
// vacuity check): the enumeration could find one, but not finding one on
// a finite domain says nothing, so the fallback leaves such checks alone.
func hasWitness(res obl.ObligationResult) bool {
	for _, a := range res.Results {
		if a.Assert.Witness {
			return true
		}
	}
	return false
}

// addOne adds one assert's result as addResult does.
func (r *Result) addOne(res obl.ObligationResult, a obl.Result) {
	one := res
	one.Results = []obl.Result{a}
	r.addResult(one)
}
