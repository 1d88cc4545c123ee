package mc

import (
	"context"
	"fmt"
	"time"

	"github.com/lipton-dev/lipton/obl"
)

// Domain is a finite range of integers Lo..Hi, both included.
type Domain struct{ Lo, Hi int64 }

// String prints the domain as Lo..Hi.
func (d Domain) String() string { return fmt.Sprintf("%d..%d", d.Lo, d.Hi) }

func (d Domain) internal() domain { return domain{d.Lo, d.Hi} }

// Verdict is the outcome of deciding one assert by enumeration.
type Verdict int

// Verdicts of Decide. Holds never means proven: it means that no
// execution from a valuation in the domain fails the assert.
const (
	Holds     Verdict = iota // no execution over the domain fails the assert
	Fails                    // some execution over the domain fails it
	Undecided                // the enumeration could not finish
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case Holds:
		return "holds"
	case Fails:
		return "fails"
	}
	return "undecided"
}

// AssertDecision is the verdict on one assert of an obligation.
type AssertDecision struct {
	Assert  *obl.Assert
	Verdict Verdict
	Cex     *obl.Counterexample // for Fails
	Reason  string              // for Undecided
}

// Decision is the outcome of Decide: one AssertDecision per assert of the
// obligation, in program order.
type Decision struct {
	Obligation *obl.Obligation
	Domain     Domain
	Results    []AssertDecision
	// Valuations is the number of initial valuations executed.
	Valuations int64
	// Quantified is set when the obligation has quantifiers: they were
	// evaluated over the domain only, so a failure may not be a failure
	// over all integers.
	Quantified bool
	Elapsed    time.Duration
}

// DecideLimits bound the work of Decide.
type DecideLimits struct {
	// MaxValuations bounds the number of initial valuations (0: 10^8).
	MaxValuations int64
}

// Decide decides ob by enumeration: it runs the body from every valuation
// of ob.Vars (integers in dom, both booleans, and for maps every map of
// the bounded class: a value in the domain for each key in the domain and
// one default value for all other keys), with havoc enumerating the same
// values, every branch of every choice, and quantifiers ranging over the
// domain. An assert fails if some run reaches it with its condition
// false; as in smt, later asserts on that run are checked assuming it
// held, so the run stops there. Integer arithmetic is exact within 64
// bits; overflow or division by zero makes the undecided asserts
// Undecided. Cancelling ctx does the same.
func Decide(ctx context.Context, ob *obl.Obligation, dom Domain, lim DecideLimits) (dec *Decision) {
	start := time.Now()
	asserts := ob.Asserts()
	dec = &Decision{Obligation: ob, Domain: dom, Quantified: hasQuant(ob.Body)}
	for _, a := range asserts {
		dec.Results = append(dec.Results, AssertDecision{Assert: a, Verdict: Holds})
	}
	defer func() { dec.Elapsed = time.Since(start) }()
	d := &decider{dec: dec, index: map[*obl.Assert]int{}, open: len(asserts)}
	for i, a := range asserts {
		d.index[a] = i
	}
	if err := d.run(ctx, ob, dom, lim); err != nil {
		for i := range dec.Results {
			if dec.Results[i].Verdict == Holds {
				dec.Results[i] = AssertDecision{Assert: asserts[i], Verdict: Undecided, Reason: err.Error()}
			}
		}
	}
	return dec
}

type decider struct {
	dec   *Decision
	index map[*obl.Assert]int
	open  int // asserts not yet failed
	c     *compiler
	vars  []*obl.Var
	init  []int64 // the current initial valuation
}

func (d *decider) run(ctx context.Context, ob *obl.Obligation, dom Domain, lim DecideLimits) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(evalError)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	d.c = newCompiler(dom.internal(), newMapTable())
	d.vars = ob.Vars
	var domains [][]int64
	total := int64(1)
	max := lim.MaxValuations
	if max <= 0 {
		max = 1e8
	}
	for _, v := range ob.Vars {
		d.c.slot(v)
		vals := d.c.values(v.Sort)
		domains = append(domains, vals)
		if total > max/int64(len(vals)) {
			return fmt.Errorf("more than %d valuations of the obligation's variables over %s", max, dom)
		}
		total *= int64(len(vals))
	}
	body := d.c.cmd(ob.Body, func(*exec) {})
	x := &exec{r: make([]int64, d.c.nreg), onFail: d.failed}
	d.init = make([]int64, len(ob.Vars))
	return d.enumerate(ctx, x, body, domains)
}

// enumerate runs body for every valuation, in lexicographic order.
func (d *decider) enumerate(ctx context.Context, x *exec, body code, domains [][]int64) error {
	idx := make([]int, len(domains))
	for {
		if d.dec.Valuations&1023 == 0 && ctx.Err() != nil {
			return fmt.Errorf("canceled after %d valuations", d.dec.Valuations)
		}
		for i, vals := range domains {
			d.init[i] = vals[idx[i]]
			x.r[d.c.reg[d.vars[i]]] = d.init[i]
		}
		d.dec.Valuations++
		body(x)
		if d.open == 0 {
			return nil
		}
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(domains[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return nil
		}
	}
}

// failed records the first failure of an assert with its counterexample.
func (d *decider) failed(x *exec, a *obl.Assert) {
	i := d.index[a]
	if d.dec.Results[i].Verdict == Fails {
		return
	}
	cex := &obl.Counterexample{}
	for j, v := range d.vars {
		cex.Vars = append(cex.Vars, obl.VarValues{Var: v,
			Before: d.c.value(d.init[j], v.Sort), After: d.c.value(x.r[d.c.reg[v]], v.Sort)})
	}
	d.dec.Results[i] = AssertDecision{Assert: a, Verdict: Fails, Cex: cex}
	d.open--
	if d.open == 0 {
		x.stop = true
	}
}

// value converts a slot to a obl.Value of sort s.
func (c *compiler) value(n int64, s obl.Sort) obl.Value {
	switch s := s.(type) {
	case *obl.MapSort:
		mv := obl.MapVal{Default: c.value(c.maps.defaultOf(n), s.Val)}
		for _, e := range c.maps.entriesOf(n) {
			mv.Entries = append(mv.Entries, obl.MapEntry{Key: c.value(e.k, s.Key), Val: c.value(e.v, s.Val)})
		}
		return mv
	}
	if es, ok := s.(*obl.EnumSort); ok {
		return obl.EnumVal{S: es, I: int(n)}
	}
	if ss, ok := s.(*obl.SeqSort); ok {
		return c.seqValue(n, ss)
	}
	if rs, ok := s.(*obl.RecordSort); ok {
		rv := obl.RecordVal{S: rs}
		for i, f := range rs.Fields {
			rv.Fields = append(rv.Fields, c.value(c.maps.get(n, int64(i)), f.Sort))
		}
		return rv
	}
	if s == obl.BoolSort {
		return obl.BoolVal(n != 0)
	}
	return obl.Int64Val(n)
}

// hasQuant reports whether a command contains a quantifier.
func hasQuant(c obl.Cmd) bool {
	found := false
	obl.InspectCmd(c, func(c obl.Cmd) {
		for _, e := range obl.Exprs(c) {
			found = found || exprHasQuant(e)
		}
	})
	return found
}

func exprHasQuant(e obl.Expr) bool {
	found := false
	obl.WalkExpr(e, func(x obl.Expr) {
		_, q := x.(*obl.Quant)
		found = found || q
	})
	return found
}

// Summary describes a decision in one line: "holds for ints in 0..3 (81
// valuations)" or "fails for ints in 0..3".
func (d *Decision) Summary() string {
	var holds, fails, undecided int
	for _, r := range d.Results {
		switch r.Verdict {
		case Holds:
			holds++
		case Fails:
			fails++
		default:
			undecided++
		}
	}
	switch {
	case fails > 0:
		return fmt.Sprintf("fails for ints in %s", d.Domain)
	case undecided > 0:
		return fmt.Sprintf("undecided by enumeration over ints in %s", d.Domain)
	}
	return fmt.Sprintf("holds for ints in %s (%d valuations)", d.Domain, d.Valuations)
}
