package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/movers"
	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/og"
	"github.com/lipton-dev/lipton/smt"
)

// run of the static checks of one file: what was asked, what came back.
type checkRun struct {
	file     *lang.File
	prog     *layers.Program
	findings []*finding // failures and unknowns, in order
	tally    map[tallyKey]*counts
	verbose  []string // every obligation and skipped pair, for --verbose
	times    phaseTimes
	claim    string // the refinement claim, if every layer checks

	// fallback is what --fallback decided (fallback.go).
	fallback *fallbackTally
	// stopped is why the run stopped before the solvers were done (the
	// cause of its context's end: --timeout, a signal), or ""; notDecided
	// counts the asserts left undecided then.
	stopped    string
	notDecided int
	// maxResources is the most resource units one query used: what
	// --rlimit must allow for this file's verdicts; rlimit is the limit
	// the run had.
	maxResources, rlimit uint64
}

type phaseTimes struct {
	frontEnd, generate, solve, total time.Duration
}

type tallyKey struct {
	layer int
	check string
}

type counts struct {
	proven, failed, unknown, skipped int
}

// finding is a failed or unknown check, with what a user needs to see.
type finding struct {
	check   string
	layer   int
	unknown bool
	msg     string
	pos     []lang.Pos
	notes   []string
	reason  string // why unknown
	cex     *obl.Counterexample
	ob      *obl.Obligation
	// resources is the work Z3 did on it (obl.Result.Resources).
	resources uint64
}

// checkOptions configure a run.
type checkOptions struct {
	layer   int // -1: every layer
	jobs    int
	rlimit  uint64        // Z3's resource limit per query (0: smt.DefaultRLimit)
	timeout time.Duration // wall-clock limit of the whole run (0: none)
	// ctx, if set, is the run's context: cancelling it (a signal, the
	// run's deadline) leaves the undecided obligations not decided, with
	// its cause as the reason.
	ctx context.Context
	// progress, if set, is where to show the solver's progress (on a
	// terminal by default, anywhere with --progress).
	progress     io.Writer
	showProgress bool
	dump         string
	json         bool
	format       string
	verbose      bool
	// maxInput is the size limit of an input file (--max-input).
	maxInput sizeFlag
	// fallback: --fallback and --ints (fallback.go).
	fallback fallbackOptions
}

// collected is the output of obligation generation for one file.
type collected struct {
	obs     []*obl.Obligation
	layerOf map[*obl.Obligation]int
	skipped []skip
	diags   []*layers.Diagnostic
	// structural counts the procedures whose yield sufficiency was
	// checked without a solver, per layer, to report the proven ones.
	structural map[int]int
}

type skip struct {
	check  string
	layer  int
	reason string
}

// collect generates every obligation and structural diagnostic of the
// selected layers.
func collect(prog *layers.Program, only int) *collected {
	c := &collected{layerOf: map[*obl.Obligation]int{}, structural: map[int]int{}}
	for _, l := range prog.Layers {
		if only >= 0 && l.Num != only {
			continue
		}
		c.diags = append(c.diags, movers.YieldSufficiency(l)...)
		c.structural[l.Num] = len(l.Procs)
		obs, sk := og.Obligations(l)
		for _, s := range sk {
			c.skipped = append(c.skipped, skip{s.Check, s.Layer, s.Reason})
		}
		c.add(l.Num, obs)
		mobs, msk, mdiags := movers.Obligations(l)
		for _, s := range msk {
			c.skipped = append(c.skipped, skip{s.Check, s.Layer, s.Reason})
		}
		c.diags = append(c.diags, mdiags...)
		c.add(l.Num, mobs)
		vobs, vdiags := layers.VacuityChecks(l)
		c.diags = append(c.diags, vdiags...)
		c.add(l.Num, vobs)
		if l.Num+1 < len(prog.Layers) {
			robs, rdiags := layers.Refinement(prog, l.Num)
			c.diags = append(c.diags, rdiags...)
			c.add(l.Num, robs)
		}
	}
	return c
}

// claim states what a successful check of every layer proves.
func claim(prog *layers.Program) string {
	top := len(prog.Layers) - 1
	if top <= 0 {
		return "layer 0 is safe"
	}
	public := prog.Info.PublicMethods()
	for _, name := range public {
		if prog.Layers[top].Action(name) == nil {
			return fmt.Sprintf("every layer is safe, and layer 0 refines layer %d (not an atomic specification: %s is a procedure there)", top, name)
		}
	}
	if len(public) == 0 {
		return fmt.Sprintf("every layer is safe, and layer 0 refines layer %d (no public methods)", top)
	}
	return fmt.Sprintf("layer 0 (ghost-erased) refines layer %d atomic spec for %s", top, strings.Join(public, ", "))
}

func (c *collected) add(layer int, obs []*obl.Obligation) {
	for _, ob := range obs {
		c.layerOf[ob] = layer
		c.obs = append(c.obs, ob)
	}
}

// runChecks runs every static check of a checked file.
func runChecks(f *lang.File, info *lang.Info, o checkOptions, frontEnd time.Duration) (*checkRun, error) {
	start := time.Now()
	r := &checkRun{file: f, tally: map[tallyKey]*counts{}, rlimit: smt.Options{RLimit: o.rlimit}.Limit()}
	r.times.frontEnd = frontEnd
	r.prog = layers.Build(f, info)
	col := collect(r.prog, o.layer)
	r.times.generate = time.Since(start)
	if o.dump != "" {
		if err := dump(o.dump, col.obs); err != nil {
			return nil, err
		}
	}
	for _, d := range col.diags {
		r.addDiagnostic(d)
	}
	for layer, procs := range col.structural {
		if procs > 0 {
			c := r.count(layer, movers.YieldSufficient)
			c.proven += procs - procsWithYieldFailures(col.diags, layer)
		}
	}
	for _, s := range col.skipped {
		r.count(s.layer, s.check).skipped++
		r.verbose = append(r.verbose, "skipped  "+s.check+": "+s.reason)
	}
	solveStart := time.Now()
	ctx, stop := o.runContext()
	defer stop()
	results := discharge(ctx, col.obs, smt.Options{Jobs: o.jobs, RLimit: o.rlimit}, o.progress)
	r.times.solve = time.Since(solveStart)
	if ctx.Err() != nil {
		r.stopped = context.Cause(ctx).Error()
	}
	for _, res := range results {
		if r.addFallback(ctx, col.layerOf[res.Obligation], res, o) { // --fallback (fallback.go)
			continue
		}
		r.addResult(col.layerOf[res.Obligation], res)
	}
	r.times.total = time.Since(start) + frontEnd
	if o.layer < 0 && !r.failed() {
		r.claim = claim(r.prog)
	}
	return r, nil
}

// runContext returns the context of the solver runs: o.ctx, bounded by
// o.timeout; the cause of its end is what undecided obligations report.
func (o checkOptions) runContext() (context.Context, context.CancelFunc) {
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if o.timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, o.timeout,
		fmt.Errorf("the time limit of the run (--timeout %s) was reached", o.timeout))
}

func (r *checkRun) count(layer int, check string) *counts {
	k := tallyKey{layer, check}
	if r.tally[k] == nil {
		r.tally[k] = &counts{}
	}
	return r.tally[k]
}

func (r *checkRun) addDiagnostic(d *layers.Diagnostic) {
	c := r.count(d.Layer, d.Check)
	if d.Unknown {
		c.unknown++
	} else {
		c.failed++
	}
	r.findings = append(r.findings, &finding{check: d.Check, layer: d.Layer, unknown: d.Unknown,
		msg: d.Msg, pos: d.Pos, notes: d.Notes})
}

func (r *checkRun) addResult(layer int, res obl.ObligationResult) {
	witnessSeen := false
	for _, a := range res.Results {
		if a.Assert.Witness {
			// The witness asserts of an obligation are one question
			// with one answer (obl.AnswerWitnesses): count it once.
			if witnessSeen {
				continue
			}
			witnessSeen = true
		}
		c := r.count(layer, a.Assert.Kind)
		verdict := a.Verdict
		r.verbose = append(r.verbose, fmt.Sprintf("%s  %s [%s]: %s (%d resource units)", verdict, a.Assert.Kind, res.Obligation.Name, a.Assert.Msg, a.Resources))
		r.maxResources = max(r.maxResources, a.Resources)
		switch {
		case verdict == obl.Proven:
			c.proven++
			continue
		case verdict == obl.Failed:
			c.failed++
		case r.stopped != "" && a.Reason == r.stopped:
			// Not decided because the run stopped: counted, and
			// summed up in one line rather than one finding each.
			c.unknown++
			r.notDecided++
			continue
		default:
			c.unknown++
		}
		r.findings = append(r.findings, &finding{check: a.Assert.Kind, layer: layer, unknown: verdict != obl.Failed,
			msg: a.Assert.Msg, pos: langPositions(a.Assert.Pos), reason: a.Reason, cex: a.Cex, ob: res.Obligation, resources: a.Resources})
	}
}

func langPositions(ps []obl.Pos) []lang.Pos {
	var out []lang.Pos
	for _, p := range ps {
		out = append(out, lang.Pos{File: p.File, Line: p.Line, Col: p.Col})
	}
	return out
}

// failed reports whether any check failed or is unknown.
func (r *checkRun) failed() bool {
	t := r.totals()
	return len(r.findings) > 0 || t.failed > 0 || t.unknown > 0
}

// totals sums the tally.
func (r *checkRun) totals() counts {
	var t counts
	for _, c := range r.tally {
		t.proven += c.proven
		t.failed += c.failed
		t.unknown += c.unknown
		t.skipped += c.skipped
	}
	return t
}

// sortedKeys returns the tally's keys by layer, then in a fixed order of
// check kinds.
func (r *checkRun) sortedKeys() []tallyKey {
	var keys []tallyKey
	for k := range r.tally {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].layer != keys[j].layer {
			return keys[i].layer < keys[j].layer
		}
		return checkOrder(keys[i].check) < checkOrder(keys[j].check)
	})
	return keys
}

var checkKinds = []string{og.Initial, og.Sequential, og.NonInterference, movers.YieldSufficient,
	movers.Commutativity, movers.GatePreservation, movers.FailurePreservation, movers.NonBlocking,
	layers.Structure, layers.StepAbstraction, layers.ActionAbstraction, layers.MethodAbstraction,
	layers.ClientContract, layers.Vacuity}

func checkOrder(kind string) int {
	for i, k := range checkKinds {
		if k == kind {
			return i
		}
	}
	return len(checkKinds)
}

func dump(dir string, obs []*obl.Obligation) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, ob := range obs {
		if err := smt.WriteDump(dir, ob); err != nil {
			return err
		}
	}
	return nil
}

// procsWithYieldFailures counts the procedures of a layer that failed
// yield sufficiency (a procedure may have several offending steps).
func procsWithYieldFailures(diags []*layers.Diagnostic, layer int) int {
	procs := map[string]bool{}
	for _, d := range diags {
		if d.Check == movers.YieldSufficient && d.Layer == layer {
			procs[d.Subject] = true
		}
	}
	return len(procs)
}
