package main

import (
	"flag"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strconv"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/mc"
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

// printFallback prints the fallback's tally as the report's last line.
func printFallback(w io.Writer, r *check.Result) {
	t := r.Fallback
	if t == nil {
		return
	}
	fmt.Fprintf(w, "%s %s that Z3 could not decide %s for ints in %s by enumeration (not proven), %d %s, %d %s unknown\n",
		unknownLabel.Sprint("fallback:"), plural(t.Holds, "assert"), verb(t.Holds, "holds", "hold"), t.Domain,
		t.Fails, verb(t.Fails, "fails", "fail"), t.Unknown, verb(t.Unknown, "remains", "remain"))
}
