package layers

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/obl"
)

// Findings is what a check generator (og, movers, refine) returns for a
// layer: the one shape in which package check runs them all.
type Findings struct {
	// Obligations are for a decider (smt, or mc by enumeration); each
	// carries its kind and layer.
	Obligations []*obl.Obligation
	// Skipped are pairs that need no obligation because their footprints
	// make the check hold; reported with --verbose.
	Skipped []Skip
	// Diagnostics are checks decided without a solver that failed (or
	// could not be built: Unknown).
	Diagnostics []*Diagnostic
	// Passed are checks decided without a solver that hold.
	Passed []Passed
}

// Skip records a check that needs no obligation, and why.
type Skip struct {
	Check  obl.Kind
	Layer  int
	Reason string
}

// Passed records a check decided without a solver that holds, for the
// counts: Subject names what it is about (a procedure).
type Passed struct {
	Check   obl.Kind
	Layer   int
	Subject string
}

// Add appends g to f.
func (f *Findings) Add(g Findings) {
	f.Obligations = append(f.Obligations, g.Obligations...)
	f.Skipped = append(f.Skipped, g.Skipped...)
	f.Diagnostics = append(f.Diagnostics, g.Diagnostics...)
	f.Passed = append(f.Passed, g.Passed...)
}

// InLayer sets the layer of f's obligations to n and returns f.
func (f Findings) InLayer(n int) Findings {
	for _, ob := range f.Obligations {
		ob.Layer = n
	}
	return f
}

// ImpossiblePair reports why a two-thread obligation needs no solver:
// the facts it opens with (each thread's requires and gate, and the
// distinctness of linear parameters) contradict each other by equalities
// alone, so no two distinct threads can be where it puts them (both
// owners, say: tid.1 == ptTid, tid.2 == ptTid, tid.1 != tid.2). The
// obligation holds vacuously, as the solver would find.
func ImpossiblePair(ob *obl.Obligation) (reason string, ok bool) {
	return ImpossibleOpening(ob.Body)
}

// ImpossibleOpening is ImpossiblePair for the body of an obligation, or
// its opening alone: a check can decide the pair before it builds the
// code that follows the facts (the decision only grows with the body:
// facts added after the opening never remove a contradiction).
func ImpossibleOpening(body obl.Cmd) (reason string, ok bool) {
	conflict, eqs, ok := obl.AssumedContradiction(body)
	if !ok {
		return "", false
	}
	return ContradictionReason(conflict, eqs), true
}

// ContradictionReason is the reason ImpossibleOpening gives for the
// conflict and equations obl.AssumedContradiction found.
func ContradictionReason(conflict obl.Expr, eqs []obl.Expr) string {
	var why []string
	for _, e := range eqs {
		why = append(why, e.String())
	}
	if len(why) == 0 {
		return fmt.Sprintf("no two threads can be there: %s is assumed", conflict)
	}
	return fmt.Sprintf("no two threads can be there: %s contradicts %s", conflict, strings.Join(why, ", "))
}
