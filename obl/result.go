package obl

import (
	"fmt"
	"strings"
	"time"
)

// A Verdict is the outcome of checking one assert.
type Verdict int

// The verdicts. The zero Verdict is Unknown.
const (
	Unknown Verdict = iota // no answer: timeout, cancellation, incompleteness, error
	Proven                 // the assert holds on every execution
	Failed                 // some execution fails the assert
)

func (v Verdict) String() string {
	switch v {
	case Proven:
		return "proven"
	case Failed:
		return "failed"
	}
	return "unknown"
}

// A Result is the verdict on one assert.
type Result struct {
	Assert  *Assert
	Verdict Verdict
	Cex     *Counterexample // for Failed
	// Reason explains Unknown: "resource limit", the cause of the
	// caller's cancellation ("canceled" by default), "incomplete
	// quantifiers", or an error text.
	Reason  string
	Elapsed time.Duration // solver time spent deciding this assert
	// Cached says that the verdict (Proven) comes from a cache of the
	// obligations proven in earlier runs, not from a solver now.
	Cached bool
	// Resources is the work Z3 did to decide this assert, in its
	// resource units (what Options.RLimit bounds).
	Resources uint64
}

// AnswerWitnesses turns the verdicts of the witness asserts of one
// obligation (Assert.Witness) from "E holds wherever the assert is
// reached" into the answer to the one question they ask together, "some
// execution reaches one of them and falsifies its E": a counterexample
// to any of them is the witness (Proven, kept in the first one's Cex); a
// proof of all of them means there is none (Failed, without a
// counterexample); otherwise Unknown. Every witness assert gets the same
// verdict. A decider calls it once on the results of an obligation.
func AnswerWitnesses(rs []Result) {
	first, found, undecided := -1, -1, ""
	for i := range rs {
		if !rs[i].Assert.Witness {
			continue
		}
		if first < 0 {
			first = i
		}
		switch rs[i].Verdict {
		case Failed:
			if found < 0 {
				found = i
			}
		case Unknown:
			undecided = rs[i].Reason
		}
	}
	if first < 0 {
		return
	}
	answer := Result{Verdict: Failed}
	switch {
	case found >= 0:
		answer = Result{Verdict: Proven, Cex: rs[found].Cex}
	case undecided != "":
		answer = Result{Verdict: Unknown, Reason: undecided}
	}
	for i := range rs {
		if rs[i].Assert.Witness {
			a, d, n := rs[i].Assert, rs[i].Elapsed, rs[i].Resources
			rs[i], rs[i].Assert, rs[i].Elapsed, rs[i].Resources = answer, a, d, n
			answer.Cex = nil // shown once
		}
	}
}

// An ObligationResult holds the results of one obligation's asserts, in
// program order (Obligation.Asserts).
type ObligationResult struct {
	Obligation *Obligation
	Results    []Result
	// Err is set when the obligation could not be checked as a whole (it
	// is malformed, or Z3 failed); every Result is then Unknown with
	// Err's text as Reason.
	Err     error
	Elapsed time.Duration
}

// Verdict summarizes the results: Failed if some assert failed, else
// Unknown if some assert is unknown, else Proven.
func (r ObligationResult) Verdict() Verdict {
	v := Proven
	for _, res := range r.Results {
		switch res.Verdict {
		case Failed:
			return Failed
		case Unknown:
			v = Unknown
		}
	}
	if r.Err != nil {
		return Unknown
	}
	return v
}

// A Counterexample is a failing execution of an obligation, read back from
// the solver's model.
type Counterexample struct {
	// Vars holds, for each variable of the obligation in declaration
	// order, its value in the initial state and at the failing assert.
	Vars []VarValues
	// Branches lists the choice branches the failing execution took, in
	// program order.
	Branches []BranchTaken
}

// VarValues are the values of one variable in a counterexample.
type VarValues struct {
	Var           *Var
	Before, After Value
}

// A BranchTaken records that an execution took branch Branch (0-based) of
// a Choice.
type BranchTaken struct {
	Choice *Choice
	Branch int
}

// Lookup returns the values of the variable named name.
func (c *Counterexample) Lookup(name string) (VarValues, bool) {
	for _, vv := range c.Vars {
		if vv.Var.Name == name {
			return vv, true
		}
	}
	return VarValues{}, false
}

// String prints one line per variable, "x = 1" if unchanged and
// "x = 1 -> 2" otherwise, and the branches taken.
func (c *Counterexample) String() string {
	var b strings.Builder
	for _, vv := range c.Vars {
		fmt.Fprintf(&b, "%s = %s", vv.Var.Name, vv.Before)
		if !ValueEqual(vv.Before, vv.After) {
			fmt.Fprintf(&b, " -> %s", vv.After)
		}
		b.WriteByte('\n')
	}
	if len(c.Branches) > 0 {
		b.WriteString("branches:")
		for _, br := range c.Branches {
			fmt.Fprintf(&b, " %d", br.Branch+1)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
