package check

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/mc"
	"github.com/lipton-dev/lipton/movers"
	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/og"
	"github.com/lipton-dev/lipton/refine"
	"github.com/lipton-dev/lipton/smt"
	"github.com/lipton-dev/lipton/vccache"
)

// A Generator returns the findings of one kind of check for a layer.
type Generator struct {
	Name string
	Run  func(*layers.Layer) layers.Findings
}

// Generators are the checks of every layer, in the order they run: the
// order of the obligations, hence of the findings, and of the solver's
// work.
var Generators = []Generator{
	{"og", og.Check},
	{"movers", movers.Check},
	{"refine", refine.Check},
}

// Kinds are the kinds of check in the order reports list them.
var Kinds = []obl.Kind{og.Initial, og.Sequential, og.NonInterference, movers.YieldSufficient,
	movers.Commutativity, movers.GatePreservation, movers.FailurePreservation, movers.NonBlocking, movers.Linearity,
	refine.Structure, refine.Split, refine.Peel, refine.StepAbstraction, refine.ActionAbstraction, refine.MethodAbstraction,
	refine.ClientContract, refine.Vacuity}

// DefaultRLimit is Z3's resource limit per query when Options.RLimit is
// 0 (docs/checks.md, "Solver limits", says how it was chosen).
const DefaultRLimit uint64 = smt.DefaultRLimit

// Options configure Run.
type Options struct {
	Layer  int    // the layer to check, or -1 for every layer
	Jobs   int    // solver workers (0: one per CPU)
	RLimit uint64 // Z3's resource limit per query (0: DefaultRLimit)
	// Dump, if set, is a directory that receives every obligation as
	// .obl and .smt2 files before they are decided.
	Dump string
	// Fallback, if set, is the integer domain over which the asserts Z3
	// leaves unknown are decided by enumeration (fallback.go).
	Fallback *mc.Domain
	// Progress, if set, is called now and then while the solver runs,
	// with the number of obligations decided and their total.
	Progress func(done, total int)
	// Cache, if set, answers the obligations Z3 proved in an earlier run
	// and stores those it proves now (cache.go).
	Cache *vccache.Dir
}

// Result is the outcome of a run.
type Result struct {
	File     *lang.File
	Program  *layers.Program
	Findings []*Finding // failed and unknown checks, in order
	Tally    map[Key]*Counts
	// Log has a line per decided assert and skipped pair (--verbose).
	Log   []string
	Times Times
	// Claim is what the run proves, when every layer was checked and
	// nothing failed or is unknown.
	Claim string
	// Fallback is what the enumeration decided, if it ran.
	Fallback *FallbackTally
	// Stopped is why the run stopped before the solvers were done (the
	// cause of its context's end), or ""; NotDecided counts the asserts
	// left undecided then (they are not findings).
	Stopped    string
	NotDecided int
	// MaxResources is the most resource units one query used; RLimit is
	// the limit of one query.
	MaxResources, RLimit uint64
	// Cached counts the obligations the cache answered.
	Cached int
}

// Times splits a run's wall time into its phases.
type Times struct {
	FrontEnd, Generate, Solve, Total time.Duration
}

// Key identifies a line of the tally.
type Key struct {
	Layer int
	Check obl.Kind
}

// Counts are the checks of one key, by outcome.
type Counts struct {
	Proven, Failed, Unknown, Skipped int
}

// Finding is a failed or unknown check, with what a user needs to see.
type Finding struct {
	Check      obl.Kind
	Layer      int
	Unknown    bool
	Msg        string
	Pos        []lang.Pos
	Notes      []string
	Reason     string // why unknown (or why a failure has no counterexample)
	Cex        *obl.Counterexample
	Obligation *obl.Obligation
	Resources  uint64 // the work Z3 did on it
}

// Run checks a parsed and type-checked file. frontEnd is the time the
// caller spent getting it there, for Times. When ctx ends (a signal, a
// time limit), the asserts not decided yet are left undecided with ctx's
// cause as the reason.
func Run(ctx context.Context, f *lang.File, info *lang.Info, opts Options, frontEnd time.Duration) (*Result, error) {
	start := time.Now()
	r := &Result{File: f, Tally: map[Key]*Counts{}, RLimit: smt.Options{RLimit: opts.RLimit}.Limit()}
	r.Times.FrontEnd = frontEnd
	r.Program = layers.Build(f, info)
	found := Generate(r.Program, opts.Layer)
	r.Times.Generate = time.Since(start)
	if opts.Dump != "" {
		if err := dump(opts.Dump, found.Obligations); err != nil {
			return nil, err
		}
	}
	r.addFindings(found)
	solveStart := time.Now()
	results := r.solve(ctx, found.Obligations, opts)
	r.Times.Solve = time.Since(solveStart)
	if ctx.Err() != nil {
		r.Stopped = context.Cause(ctx).Error()
	}
	for _, res := range results {
		if r.addFallback(ctx, res, opts.Fallback) {
			continue
		}
		r.addResult(res)
	}
	r.Times.Total = time.Since(start) + frontEnd
	if opts.Layer < 0 && !r.Failed() {
		r.Claim = claim(r.Program)
	}
	return r, nil
}

// solve decides obs: from the cache where it can, else with Z3.
func (r *Result) solve(ctx context.Context, obs []*obl.Obligation, opts Options) []obl.ObligationResult {
	sopts := smt.Options{Jobs: opts.Jobs, RLimit: opts.RLimit}
	if opts.Cache == nil {
		return discharge(ctx, obs, sopts, opts.Progress)
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	c := newCachedRun(opts.Cache, obs, r.RLimit, jobs)
	r.Cached = c.hits()
	r.Log = append(r.Log, fmt.Sprintf("cache    %d of %d obligations answered by %s", r.Cached, len(obs), opts.Cache.Root()))
	return c.merge(discharge(ctx, c.misses(obs), sopts, opts.Progress))
}

// Generate runs every generator on every layer (or only on layer only,
// if it is not negative) and returns their findings together.
func Generate(prog *layers.Program, only int) layers.Findings {
	var all layers.Findings
	for _, l := range prog.Layers {
		if only >= 0 && l.Num != only {
			continue
		}
		for _, g := range Generators {
			all.Add(g.Run(l))
		}
	}
	return all
}

// addFindings tallies what the generators decided themselves.
func (r *Result) addFindings(f layers.Findings) {
	for _, d := range f.Diagnostics {
		r.addDiagnostic(d)
	}
	for _, p := range f.Passed {
		r.count(p.Layer, p.Check).Proven++
	}
	for _, s := range f.Skipped {
		r.count(s.Layer, s.Check).Skipped++
		r.Log = append(r.Log, "skipped  "+string(s.Check)+": "+s.Reason)
	}
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

// sortedKeys orders tally keys by layer, then in the order of Kinds.
func sortedKeys(tally map[Key]*Counts) []Key {
	var keys []Key
	for k := range tally {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Layer != keys[j].Layer {
			return keys[i].Layer < keys[j].Layer
		}
		return kindOrder(keys[i].Check) < kindOrder(keys[j].Check)
	})
	return keys
}

func kindOrder(kind obl.Kind) int {
	for i, k := range Kinds {
		if k == kind {
			return i
		}
	}
	return len(Kinds)
}
