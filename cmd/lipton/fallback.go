package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strconv"

	"github.com/lipton-dev/lipton/mc"
	"github.com/lipton-dev/lipton/obl"
)

// The enumeration fallback of lipton check (DESIGN §5): obligations that
// Z3 leaves unknown are decided by mc.Decide over a finite integer
// domain. Policy: an assert that holds for every valuation in the domain
// is reported as "holds for ints in A..B", never as proven; it still
// counts as unknown in the tally, the run exits with 1 (not everything
// is proven), and the last line of the report says how many asserts hold
// only by enumeration. An assert that fails by enumeration is a failure
// with the enumeration's counterexample.

// fallbackOptions are the flags of the fallback.
type fallbackOptions struct {
	on   bool
	ints domainFlag
}

// domainFlag is an integer range A..B.
type domainFlag struct{ d mc.Domain }

var domainRE = regexp.MustCompile(`^(-?[0-9]+)\.\.(-?[0-9]+)$`)

// String implements flag.Value.
func (f *domainFlag) String() string { return f.d.String() }

// Set implements flag.Value: a range A..B. The range is checked here,
// before anything is allocated for it: a domain larger than the
// fallback's valuation cap could not be enumerated even for one integer
// variable.
func (f *domainFlag) Set(s string) error {
	m := domainRE.FindStringSubmatch(s)
	if m == nil {
		return fmt.Errorf("want a range A..B")
	}
	lo, err1 := strconv.ParseInt(m[1], 10, 64)
	hi, err2 := strconv.ParseInt(m[2], 10, 64)
	if err1 != nil || err2 != nil || lo > hi {
		return fmt.Errorf("want a non-empty range A..B of 64-bit integers")
	}
	// hi-lo wraps around for the widest ranges, but as an unsigned
	// number it is exact.
	if width := uint64(hi) - uint64(lo); width >= fallbackMaxValuations {
		return fmt.Errorf("the range has %s values, more than the %d valuations an enumeration may run",
			new(big.Int).Add(new(big.Int).SetUint64(width), big.NewInt(1)), fallbackMaxValuations)
	}
	f.d = mc.Domain{Lo: lo, Hi: hi}
	return nil
}

// fallbackMaxValuations is the cap on the valuations one obligation's
// enumeration runs (mc.DecideLimits.MaxValuations): beyond it the
// fallback leaves the obligation unknown.
const fallbackMaxValuations = 100_000_000

// addFallbackFlags registers --fallback and --ints.
func addFallbackFlags(fs *flag.FlagSet, o *fallbackOptions) {
	o.ints.d = mc.DefaultInts
	fs.BoolVar(&o.on, "fallback", false, "decide obligations Z3 leaves unknown by enumeration over --ints; they are reported as holding for those ints, never as proven")
	fs.Var(&o.ints, "ints", "the integer domain `A..B` of --fallback")
}

// fallbackTally counts the asserts the fallback decided.
type fallbackTally struct {
	domain                mc.Domain
	holds, fails, unknown int
	valuations            int64
}

// addFallback handles an obligation with unknown asserts by enumeration;
// it reports false (leaving the obligation to addResult) if Z3 decided
// every assert or the fallback is off.
func (r *checkRun) addFallback(ctx context.Context, layer int, res obl.ObligationResult, o checkOptions) bool {
	if !o.fallback.on || res.Verdict() != obl.Unknown || hasWitness(res) || ctx.Err() != nil {
		return false
	}
	dom := o.fallback.ints.d
	dec := mc.Decide(ctx, res.Obligation, dom, mc.DecideLimits{MaxValuations: fallbackMaxValuations})
	if r.fallback == nil {
		r.fallback = &fallbackTally{domain: dom}
	}
	r.fallback.valuations += dec.Valuations
	for i, a := range res.Results {
		c := r.count(layer, a.Assert.Kind)
		if a.Verdict != obl.Unknown {
			r.addOne(layer, res, a)
			continue
		}
		d := dec.Results[i]
		f := &finding{check: a.Assert.Kind, layer: layer, unknown: true, msg: a.Assert.Msg,
			pos: langPositions(a.Assert.Pos), ob: res.Obligation}
		switch d.Verdict {
		case mc.Holds:
			c.unknown++
			r.fallback.holds++
			f.reason = fmt.Sprintf("%s; by enumeration it holds for ints in %s (%d valuations), which is not a proof", a.Reason, dec.Domain, dec.Valuations)
		case mc.Fails:
			c.failed++
			r.fallback.fails++
			f.unknown, f.cex = false, d.Cex
			f.notes = append(f.notes, fmt.Sprintf("Z3 could not decide it (%s); enumeration over ints in %s found this counterexample", a.Reason, dec.Domain))
			if dec.Quantified {
				f.notes = append(f.notes, "the obligation has quantifiers, which the enumeration evaluates over the domain only: check that the counterexample is real")
			}
		default:
			c.unknown++
			r.fallback.unknown++
			f.reason = fmt.Sprintf("%s; enumeration over ints in %s: %s", a.Reason, dec.Domain, d.Reason)
		}
		r.verbose = append(r.verbose, fmt.Sprintf("%s by enumeration  %s [%s]: %s", d.Verdict, a.Assert.Kind, res.Obligation.Name, a.Assert.Msg))
		r.findings = append(r.findings, f)
	}
	return true
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
func (r *checkRun) addOne(layer int, res obl.ObligationResult, a obl.Result) {
	one := res
	one.Results = []obl.Result{a}
	r.addResult(layer, one)
}

// printFallback prints the fallback's tally as the report's last line.
func printFallback(w io.Writer, r *checkRun) {
	t := r.fallback
	if t == nil {
		return
	}
	fmt.Fprintf(w, "%s %s that Z3 could not decide %s for ints in %s by enumeration (not proven), %d %s, %d %s unknown\n",
		unknownLabel.Sprint("fallback:"), plural(t.holds, "assert"), verb(t.holds, "holds", "hold"), t.domain,
		t.fails, verb(t.fails, "fails", "fail"), t.unknown, verb(t.unknown, "remains", "remain"))
}
