package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/internal/randprog"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/mc"
)

// The differential soundness test: the project's standing soundness
// oracle. For random layered programs (internal/randprog.Generate) and
// random mutants of the corpus proofs (randprog.Mutate), whenever
// `lipton check` proves a program (every obligation proven, no failure,
// no unknown, no structural diagnostic), the model checker must find no
// violation on the program's instance: not in safety mode at any layer,
// not in linearizability from layer 0 against the atomic specification,
// not in refinement of each layer by the next, and not with layer 0
// interleaved at every access to a global. Any disagreement is a wrong
// "proven" (or a bug of the model checker) and fails the test, printing
// the program and both verdicts.
//
// The short run, part of the normal test suite, checks a fixed set of
// seeds. The long run is selected by environment variables:
//
//	LIPTON_SOUNDNESS_N=100000 LIPTON_SOUNDNESS_OUT=/tmp/found \
//	    go test -v -run TestSoundness -timeout 0 ./cmd/lipton
//
// LIPTON_SOUNDNESS_SEED shifts the seeds (default 0),
// LIPTON_SOUNDNESS_JOBS sets the number of workers (default: the number
// of CPUs) and LIPTON_SOUNDNESS_MAX_STATES the bound of every exploration
// (default 100000; a run takes about 0.55 s of CPU per program with it).
// The long run writes every disagreement's program, with both verdicts
// in its header, and a summary to LIPTON_SOUNDNESS_OUT, every 500
// programs and at the end.

const (
	envSoundnessN    = "LIPTON_SOUNDNESS_N"
	envSoundnessOut  = "LIPTON_SOUNDNESS_OUT"
	envSoundnessSeed = "LIPTON_SOUNDNESS_SEED"
	envSoundnessJobs = "LIPTON_SOUNDNESS_JOBS"
	envSoundnessMax  = "LIPTON_SOUNDNESS_MAX_STATES"
)

// The short run: how many programs, and what it must see so that the
// oracle cannot silently become vacuous. Measured on its seeds (23 Nov
// 2026): 210 of 210 generated programs valid, 85 programs proven, about
// 690 explorations of proven programs without violation; the bounds leave
// a margin for the checkers' verdicts to move.
const (
	shortPrograms    = 240
	shortMinValid    = 200 // valid generated programs
	shortMinProven   = 60  // proven programs
	shortMinExplored = 300 // explorations of proven programs that end without violation
)

// soundnessConfig configures a run.
type soundnessConfig struct {
	programs    int   // how many programs
	mutantEvery int   // every mutantEvery-th program is a mutant of a corpus proof
	seed        int64 // added to every program's index to seed its generator
	jobs        int   // parallel workers
	out         string
	maxStates   int // bound of every exploration, so every run is short
}

// soundnessConfigFromEnv is the short run, or the long run the
// environment asks for.
func soundnessConfigFromEnv(t *testing.T) (soundnessConfig, bool) {
	cfg := soundnessConfig{programs: shortPrograms, mutantEvery: 8, jobs: min(2, runtime.NumCPU()), maxStates: 20_000}
	n := os.Getenv(envSoundnessN)
	if n == "" {
		return cfg, false
	}
	var err error
	if cfg.programs, err = strconv.Atoi(n); err != nil || cfg.programs <= 0 {
		t.Fatalf("%s=%q: want a positive number", envSoundnessN, n)
	}
	cfg.mutantEvery, cfg.jobs, cfg.maxStates = 5, runtime.NumCPU(), 100_000
	if s := os.Getenv(envSoundnessSeed); s != "" {
		if cfg.seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("%s=%q: want a number", envSoundnessSeed, s)
		}
	}
	for _, v := range []struct {
		name string
		dst  *int
	}{{envSoundnessJobs, &cfg.jobs}, {envSoundnessMax, &cfg.maxStates}} {
		if s := os.Getenv(v.name); s != "" {
			if *v.dst, err = strconv.Atoi(s); err != nil || *v.dst <= 0 {
				t.Fatalf("%s=%q: want a positive number", v.name, s)
			}
		}
	}
	cfg.out = os.Getenv(envSoundnessOut)
	return cfg, true
}

// TestSoundness is the oracle (see the comment at the top of the file):
// it fails on every disagreement and every panic of a checker, and, in
// the short run, when the programs give the oracle too little to test or
// no way to fail.
func TestSoundness(t *testing.T) {
	cfg, long := soundnessConfigFromEnv(t)
	if testing.Short() && !long {
		t.Skip("the soundness oracle runs Z3 and the model checker on a few hundred programs")
	}
	corpus := soundnessCorpus(t)
	st := runSoundness(cfg, corpus, func(done int, st *soundnessStats) {
		if long && done%500 == 0 {
			fmt.Fprintf(os.Stderr, "soundness: %d/%d programs: %s\n", done, cfg.programs, st.oneLine())
			if cfg.out != "" {
				// What was found so far survives a run that is stopped.
				writeSoundnessOutput(t, cfg.out, st, fmt.Sprintf("after %d of %d programs:\n%s", done, cfg.programs, st.summary()))
			}
		}
	})
	summary := st.summary()
	t.Log("\n" + summary)
	if cfg.out != "" {
		writeSoundnessOutput(t, cfg.out, st, summary)
	}
	for _, d := range st.disagreements {
		t.Errorf("%s", d.report())
	}
	for i, o := range st.internal {
		if i == 3 {
			t.Errorf("... and %d more programs a checker panicked on", len(st.internal)-i)
			break
		}
		t.Errorf("internal error: %s", o.report())
	}
	if long {
		return
	}
	if st.gen.valid < shortMinValid {
		t.Errorf("only %d of %d generated programs are valid; want at least %d", st.gen.valid, st.gen.programs, shortMinValid)
	}
	if proven := st.gen.proven + st.mut.proven; proven < shortMinProven {
		t.Errorf("only %d programs are proven; want at least %d: the oracle has too little to test", proven, shortMinProven)
	}
	if st.runs[exploreOK] < shortMinExplored {
		t.Errorf("only %d explorations of proven programs ended without violation; want at least %d", st.runs[exploreOK], shortMinExplored)
	}
	if st.unprovenViolations == 0 {
		t.Errorf("no program that check does not prove has a violation the model checker finds: the oracle could not fail")
	}
}

// corpusProof is a proof of the corpus that has an instance.
type corpusProof struct {
	path string
	src  string
}

// soundnessCorpus lists the corpus proofs to mutate: the base proofs
// (not the broken variants, which fail already) that declare an
// instance, in a fixed order.
func soundnessCorpus(t *testing.T) []corpusProof {
	var out []corpusProof
	err := filepath.Walk("../../proofs", func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".lip") || strings.Contains(path, "/broken/") {
			return err
		}
		src, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(src), "\ninstance ") {
			out = append(out, corpusProof{strings.TrimPrefix(path, "../../"), string(src)})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// program returns the i-th program of a run: a mutant of a corpus proof
// or a generated program, each from its own seed.
func (cfg soundnessConfig) program(i int, corpus []corpusProof) (origin, src string) {
	r := rand.New(rand.NewSource(cfg.seed + int64(i)))
	if cfg.mutantEvery > 0 && i%cfg.mutantEvery == cfg.mutantEvery-1 && len(corpus) > 0 {
		base := corpus[r.Intn(len(corpus))]
		if mutant, ok := randprog.Mutate(r, base.src); ok {
			return "mutant of " + base.path, mutant
		}
		return "mutant of " + base.path, base.src
	}
	return "generated", randprog.Generate(r)
}

// runSoundness evaluates every program of a run with a pool of workers;
// progress is called after each program, in the collecting goroutine.
func runSoundness(cfg soundnessConfig, corpus []corpusProof, progress func(int, *soundnessStats)) *soundnessStats {
	indices := make(chan int)
	results := make(chan *programOutcome)
	var wg sync.WaitGroup
	for w := 0; w < cfg.jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range indices {
				origin, src := cfg.program(i, corpus)
				results <- evaluateProgram(i, origin, src, cfg.maxStates)
			}
		}()
	}
	go func() {
		for i := 0; i < cfg.programs; i++ {
			indices <- i
		}
		close(indices)
		wg.Wait()
		close(results)
	}()
	st := &soundnessStats{}
	done := 0
	for o := range results {
		st.add(o)
		done++
		progress(done, st)
	}
	for _, list := range [][]*programOutcome{st.disagreements, st.internal} {
		sort.Slice(list, func(i, j int) bool { return list[i].index < list[j].index })
	}
	return st
}

// programOutcome is what both checkers said about one program.
type programOutcome struct {
	index        int
	origin       string // "generated", or which corpus proof was mutated
	src          string
	valid        bool   // it parses and type-checks
	proven       bool   // check proved everything
	check        string // check's verdict, in a line
	accessAtomic bool   // layer 0 claims only single accesses atomic (randprog.AccessAtomic)
	runs         []exploreOutcome
	internal     bool // check panicked
}

// internalError reports whether a checker panicked on the program.
func (o *programOutcome) internalError() bool {
	for _, r := range o.runs {
		if r.class == exploreInternal {
			return true
		}
	}
	return o.internal
}

// exploreClass classifies the outcome of one exploration.
type exploreClass int

const (
	exploreOK         exploreClass = iota // every reachable state explored, no violation
	exploreViolation                      // a violation of the proof
	exploreIncomplete                     // the state bound stopped it
	exploreError                          // the code could not run (overflow, division by zero) or mc refused the program
	exploreInternal                       // the model checker panicked: a bug, reported as such
	exploreDomain                         // a violation that a wider integer domain makes disappear
)

var exploreClassNames = [...]string{"ok", "VIOLATION", "incomplete", "run error", "INTERNAL ERROR", "domain artifact"}

// exploreOutcome is the outcome of one exploration.
type exploreOutcome struct {
	what   string // the mode, layers and atomicity
	class  exploreClass
	detail string // the violation or the limit
	access bool   // layer 0 was interleaved at every access
}

// disagrees reports whether a run contradicts a proof: a violation,
// unless it needed access atomicity on a layer 0 that claims multi-access
// statements atomic (then the language, not the checker, allows it).
func (o *programOutcome) disagrees(r exploreOutcome) bool {
	return o.proven && r.class == exploreViolation && (!r.access || o.accessAtomic)
}

// evaluateProgram checks a program statically, and explores it: every
// exploration if it is proven, the first one otherwise (to see that the
// oracle can fail).
func evaluateProgram(index int, origin, src string, maxStates int) *programOutcome {
	o := &programOutcome{index: index, origin: origin, src: src}
	name := fmt.Sprintf("program%d.lip", index)
	f, info, err := lang.ParseAndCheck(name, []byte(src))
	if err != nil {
		o.check = "invalid: " + firstLine(err.Error())
		return o
	}
	o.valid = true
	o.accessAtomic = randprog.AccessAtomic(f)
	run, err := checkSafely(f, info)
	if err != nil {
		o.check = "check error: " + err.Error()
		o.internal = strings.HasPrefix(err.Error(), "panic")
		return o
	}
	// Proven means nothing failed, nothing is unknown and nothing was left
	// undecided (the run's time limit counts asserts it stopped as
	// unknown, not as findings).
	o.proven = !run.Failed()
	o.check = checkVerdict(run)
	specs := explorations(f, info, maxStates)
	if !o.proven && len(specs) > 1 {
		specs = specs[:1]
	}
	made := map[string]exploreOutcome{}
	for _, s := range specs {
		key := searchKey(s.opts, info)
		r, ok := made[key]
		if !ok {
			r = explore(f, info, s)
			if o.proven && r.class == exploreViolation {
				r = confirmViolation(src, s, r)
			}
			made[key] = r
		}
		r.what, r.access = s.what, strings.HasSuffix(s.what, accessSuffix)
		o.runs = append(o.runs, r)
	}
	return o
}

// searchKey identifies the search an exploration makes. A
// linearizability check is the refinement check against the top layer:
// mc.Run reads the mode only to choose the specification's layer (the
// top one for linearizability) and to title its result, which explore
// does not read. So on a program of two layers whose top one is an
// atomic specification, "linearizability of layer 0" and "refinement of
// layer 0 by layer 1" (each also with every access interleaved) are one
// search, which evaluateProgram makes once and counts for both.
func searchKey(o mc.Options, info *lang.Info) string {
	if o.Mode == mc.ModeLinearizability {
		o.Mode, o.SpecLayer = mc.ModeRefines, info.TopLayer()
	}
	return fmt.Sprintf("%+v", o)
}

// checkSafely runs every static check with one solver worker; a panic
// is an internal error.
func checkSafely(f *lang.File, info *lang.Info) (run *check.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			run, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	// No cache: every verdict of the oracle's comparison is the solver's
	// now (and a stopped check must stay undecided).
	return runChecks(f, info, checkOptions{layer: -1, jobs: 1, timeout: soundnessCheckTimeout, noCache: true}, 0)
}

// soundnessCheckTimeout bounds the static checks of one program (0: no
// wall-clock limit; Z3's resource limit bounds every query, so the
// oracle compares the same programs on a loaded machine); asserts left
// undecided by a limit make the program not proven, never proven.
var soundnessCheckTimeout time.Duration

// checkVerdict is check's verdict in a line.
func checkVerdict(run *check.Result) string {
	if !run.Failed() {
		return "proven: " + run.Claim
	}
	if len(run.Findings) == 0 {
		return fmt.Sprintf("not decided: %d asserts (%s)", run.NotDecided, run.Stopped)
	}
	f := run.Findings[0]
	what := "failed"
	if f.Unknown {
		what = "unknown"
	}
	return fmt.Sprintf("not proven (%d findings); first: %s %s (layer %d): %s", len(run.Findings), f.Check, what, f.Layer, f.Msg)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// exploreSpec is one exploration to run.
type exploreSpec struct {
	what string
	opts mc.Options
}

// explorations lists what to explore for a program with an instance:
// linearizability from layer 0 when the top layer is an atomic
// specification (first, as the most telling), safety at every layer,
// refinement of each layer by the next, and layer 0 again interleaved at
// every access to a global.
func explorations(f *lang.File, info *lang.Info, maxStates int) []exploreSpec {
	if len(f.Instances) == 0 {
		return nil
	}
	base := mc.Options{Instance: f.Instances[0].Name.Name, MaxStates: maxStates}
	top := info.TopLayer()
	var specs []exploreSpec
	add := func(what string, o mc.Options) { specs = append(specs, exploreSpec{what, o}) }
	withMode := func(mode mc.Mode, layer, spec int) mc.Options {
		o := base
		o.Mode, o.Layer, o.SpecLayer = mode, layer, spec
		return o
	}
	atomicSpec := top > 0 && topIsAtomicSpec(info)
	if atomicSpec {
		add("linearizability of layer 0", withMode(mc.ModeLinearizability, 0, top))
	}
	for l := 0; l <= top; l++ {
		add(fmt.Sprintf("safety of layer %d", l), withMode(mc.ModeSafety, l, 0))
	}
	for l := 0; l < top; l++ {
		add(fmt.Sprintf("refinement of layer %d by layer %d", l, l+1), withMode(mc.ModeRefines, l, l+1))
	}
	if atomicSpec {
		add("linearizability of layer 0"+accessSuffix, withAccessAtomicity(withMode(mc.ModeLinearizability, 0, top)))
	}
	add("safety of layer 0"+accessSuffix, withAccessAtomicity(withMode(mc.ModeSafety, 0, 0)))
	if top > 0 {
		add("refinement of layer 0 by layer 1"+accessSuffix, withAccessAtomicity(withMode(mc.ModeRefines, 0, 1)))
	}
	return specs
}

// accessSuffix marks the explorations with access atomicity.
const accessSuffix = ", every access interleaved"

// withAccessAtomicity makes an exploration interleave layer 0 at every
// access to a global.
func withAccessAtomicity(o mc.Options) mc.Options {
	o.Atomicity = mc.AtomicityAccess
	return o
}

// domainWidening is how far confirmViolation widens an instance's
// integer domain on each side.
const domainWidening = 12

// maxPinnings bounds the initial valuations confirmViolation tries.
const maxPinnings = 64

// confirmStatesFactor multiplies the state limit of a confirming search.
const confirmStatesFactor = 10

// confirmViolation runs an exploration that found a violation again with
// the instance's integer domain widened. The model checker draws havoc
// (on both sides of a refinement check) and unconstrained initial values
// from the domain only, so a specification that havocs an output cannot
// return a value outside it, a counter that grew past it, say: such a
// violation is an artifact of the finite instance, not of the proof.
// Widening the domain must not widen the initial states (their values
// would reach past the wider domain just the same), so every variable and
// constant without an initial value is pinned to each value of the
// original domain in turn. The violation is kept when some pinned run
// still finds one, or when a wider search is stopped by the state bound.
func confirmViolation(src string, s exploreSpec, r exploreOutcome) exploreOutcome {
	f, err := lang.Parse("confirm.lip", []byte(src))
	if err != nil {
		return r
	}
	lo, hi := mc.DefaultInts.Lo, mc.DefaultInts.Hi
	for _, in := range f.Instances {
		if in.Name.Name != s.opts.Instance {
			continue
		}
		if in.Ints != nil {
			lo, hi = in.Ints.Lo, in.Ints.Hi
		}
		in.Ints = &lang.IntRange{Lo: lo - domainWidening, Hi: hi + domainWidening}
	}
	slots := unpinned(f)
	n := 1
	for _, sl := range slots {
		n *= len(sl.values(lo, hi))
	}
	if n > maxPinnings {
		r.detail += "; too many initial states to confirm it with a wider domain"
		return r
	}
	// The wider domain has more states: the confirming search gets a
	// larger budget, or a domain artifact stays unconfirmed (a run on
	// 23 Nov 2026 flagged one whose wider search needed 37,241 states).
	wide := s
	if wide.opts.MaxStates > 0 {
		wide.opts.MaxStates *= confirmStatesFactor
	}
	incomplete := false
	for i := 0; i < n; i++ {
		pin(slots, i, lo, hi)
		info, err := lang.Check(f)
		if err != nil {
			return r
		}
		switch explore(f, info, wide).class {
		case exploreViolation:
			r.detail += fmt.Sprintf("; still with ints %d..%d", lo-domainWidening, hi+domainWidening)
			return r
		case exploreIncomplete, exploreError, exploreInternal:
			incomplete = true
		}
	}
	if incomplete {
		r.detail += "; not confirmed: a search with a wider domain did not finish"
		return r
	}
	r.class = exploreDomain
	r.detail += fmt.Sprintf("; no violation with ints %d..%d from the same initial states", lo-domainWidening, hi+domainWidening)
	return r
}

// initSlot is a variable or constant of int or bool type without an
// initial value: confirmViolation gives it each value in turn.
type initSlot struct {
	isBool bool
	set    func(lang.Expr)
}

// values are the initial values a slot takes in a domain lo..hi.
func (sl initSlot) values(lo, hi int64) []lang.Expr {
	if sl.isBool {
		return []lang.Expr{&lang.BoolLit{Val: false}, &lang.BoolLit{Val: true}}
	}
	var vs []lang.Expr
	for v := lo; v <= hi; v++ {
		vs = append(vs, &lang.IntLit{Val: v})
	}
	return vs
}

// unpinned lists the int and bool variables and constants of a parsed
// file that have no initial value.
func unpinned(f *lang.File) []initSlot {
	scalar := func(t lang.TypeExpr) (bool, bool) { return scalarAlias(f, t) }
	var slots []initSlot
	for _, v := range f.Vars {
		if ok, b := scalar(v.Type); ok && v.Init == nil {
			v := v
			slots = append(slots, initSlot{b, func(e lang.Expr) { v.Init = e }})
		}
	}
	for _, c := range f.Consts {
		if ok, b := scalar(c.Type); ok && c.Value == nil {
			c := c
			slots = append(slots, initSlot{b, func(e lang.Expr) { c.Value = e }})
		}
	}
	return slots
}

// scalarAlias reports whether a type expression is int or bool, through
// aliases.
func scalarAlias(f *lang.File, t lang.TypeExpr) (isScalar, isBool bool) {
	n, ok := t.(*lang.NamedType)
	if !ok {
		return false, false
	}
	for _, td := range f.Types {
		if td.Name.Name == n.Name.Name {
			return scalarAlias(f, td.Type)
		}
	}
	return n.Name.Name == "int" || n.Name.Name == "bool", n.Name.Name == "bool"
}

// pin gives the slots the i-th combination of their values.
func pin(slots []initSlot, i int, lo, hi int64) {
	for _, sl := range slots {
		vs := sl.values(lo, hi)
		sl.set(vs[i%len(vs)])
		i /= len(vs)
	}
}

// topIsAtomicSpec reports whether every public method is an action at
// the top layer.
func topIsAtomicSpec(info *lang.Info) bool {
	top := info.Layers[info.TopLayer()]
	for _, name := range info.PublicMethods() {
		if top.Action(name) == nil {
			return false
		}
	}
	return len(info.PublicMethods()) > 0
}

// explore runs one exploration and classifies its outcome; a panic of
// the model checker is an internal error.
func explore(f *lang.File, info *lang.Info, s exploreSpec) (out exploreOutcome) {
	out = exploreOutcome{what: s.what, access: strings.HasSuffix(s.what, accessSuffix)}
	defer func() {
		if p := recover(); p != nil {
			out.class, out.detail = exploreInternal, fmt.Sprintf("panic: %v", p)
		}
	}()
	res, err := mc.Run(layers.Build(f, info), s.opts)
	switch {
	case err != nil:
		out.class, out.detail = exploreError, err.Error()
	case res.Status == mc.OK:
		out.class = exploreOK
	case res.Status == mc.Incomplete:
		out.class, out.detail = exploreIncomplete, res.Limit
	case res.Failure != nil && res.Failure.Kind == "error":
		out.class, out.detail = exploreError, res.Failure.Msg
	default:
		out.class, out.detail = exploreViolation, describeFailure(res)
	}
	return out
}

// describeFailure is a violation in a line, with its history for a
// refinement violation.
func describeFailure(res *mc.Result) string {
	f := res.Failure
	where := ""
	if len(f.Pos) > 0 {
		where = f.Pos[0].String() + ": "
	}
	s := where + f.Kind + ": " + f.Msg
	if len(res.History) > 0 {
		var h []string
		for _, ev := range res.History {
			h = append(h, ev.Thread+" "+historyText(ev))
		}
		s += "; history: " + strings.Join(h, "; ")
	}
	return s
}

// originStats counts the programs of one origin.
type originStats struct {
	programs, valid, proven int
}

func (s originStats) String() string {
	return fmt.Sprintf("%d programs, %d valid (%s), %d proven (%s of valid)",
		s.programs, s.valid, percent(s.valid, s.programs), s.proven, percent(s.proven, s.valid))
}

func percent(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// soundnessStats sums up a run.
type soundnessStats struct {
	gen, mut originStats
	// runs counts the explorations of proven programs by class.
	runs [len(exploreClassNames)]int
	// unprovenExplored counts the programs check does not prove that
	// were explored; unprovenViolations those with a violation.
	unprovenExplored, unprovenViolations int
	// nonAtomicAccess counts violations found with every access
	// interleaved in proven programs whose layer 0 claims a statement
	// with several accesses atomic: the language allows them.
	nonAtomicAccess int
	// runErrors counts the messages of explorations that could not run.
	runErrors     map[string]int
	disagreements []*programOutcome
	// internal lists the programs a checker panicked on.
	internal []*programOutcome
}

// add counts one program's outcome.
func (st *soundnessStats) add(o *programOutcome) {
	s := &st.gen
	if o.origin != "generated" {
		s = &st.mut
	}
	s.programs++
	if o.internalError() {
		st.internal = append(st.internal, o)
	}
	if !o.valid {
		return
	}
	s.valid++
	if o.proven {
		s.proven++
	} else if len(o.runs) > 0 {
		st.unprovenExplored++
		if o.runs[len(o.runs)-1].class == exploreViolation {
			st.unprovenViolations++
		}
	}
	disagrees := false
	for _, r := range o.runs {
		if o.proven {
			st.runs[r.class]++
		}
		if r.class == exploreError || r.class == exploreInternal {
			if st.runErrors == nil {
				st.runErrors = map[string]int{}
			}
			st.runErrors[firstLine(r.detail)]++
		}
		if o.proven && r.class == exploreViolation && !o.disagrees(r) {
			st.nonAtomicAccess++
		}
		disagrees = disagrees || o.disagrees(r)
	}
	if disagrees {
		st.disagreements = append(st.disagreements, o)
	}
}

// oneLine is a progress line.
func (st *soundnessStats) oneLine() string {
	return fmt.Sprintf("%d valid, %d proven, %d disagreements",
		st.gen.valid+st.mut.valid, st.gen.proven+st.mut.proven, len(st.disagreements))
}

// summary is the report of a run.
func (st *soundnessStats) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "generated: %s\n", st.gen)
	fmt.Fprintf(&b, "corpus mutants: %s\n", st.mut)
	b.WriteString("explorations of proven programs:")
	for c, n := range st.runs {
		fmt.Fprintf(&b, " %s %d", exploreClassNames[c], n)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "unproven programs explored (first exploration only): %d, with a violation: %d\n",
		st.unprovenExplored, st.unprovenViolations)
	fmt.Fprintf(&b, "violations with every access interleaved where layer 0 claims multi-access statements atomic (not counted): %d\n",
		st.nonAtomicAccess)
	var errs []string
	for msg, n := range st.runErrors {
		errs = append(errs, fmt.Sprintf("  %d x %s", n, msg))
	}
	sort.Strings(errs)
	if len(errs) > 0 {
		b.WriteString("explorations that could not run:\n" + strings.Join(errs, "\n") + "\n")
	}
	fmt.Fprintf(&b, "programs a checker panicked on: %d\n", len(st.internal))
	fmt.Fprintf(&b, "disagreements (proven, yet a violation): %d\n", len(st.disagreements))
	for _, d := range st.disagreements {
		fmt.Fprintf(&b, "  program %d (%s)\n", d.index, d.origin)
	}
	return b.String()
}

// report is a disagreement as the test prints it: both verdicts and the
// whole program.
func (o *programOutcome) report() string {
	var b strings.Builder
	what := "disagreement"
	if !o.proven || o.internalError() {
		what = "outcome"
	}
	fmt.Fprintf(&b, "%s: program %d (%s)\n", what, o.index, o.origin)
	fmt.Fprintf(&b, "check: %s\n", o.check)
	for _, r := range o.runs {
		fmt.Fprintf(&b, "explore, %s: %s", r.what, exploreClassNames[r.class])
		if r.detail != "" {
			b.WriteString(": " + r.detail)
		}
		b.WriteString("\n")
	}
	b.WriteString("program:\n" + o.src)
	return b.String()
}

// writeSoundnessOutput writes the summary and the program of every
// disagreement and internal error, with the verdicts as comments at its
// head, to dir.
func writeSoundnessOutput(t *testing.T, dir string, st *soundnessStats, summary string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.txt"), []byte(summary), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(prefix string, o *programOutcome) {
		head := strings.TrimSuffix(o.report(), "program:\n"+o.src)
		text := "// " + strings.ReplaceAll(strings.TrimSuffix(head, "\n"), "\n", "\n// ") + "\n" + o.src
		name := filepath.Join(dir, fmt.Sprintf("%s-%06d.lip", prefix, o.index))
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range st.disagreements {
		write("disagreement", o)
	}
	for _, o := range st.internal {
		write("internal-error", o)
	}
}

// TestSoundnessDomainArtifact checks that a violation caused only by the
// finite integer domain of an instance (the specification havocs an
// output, which the model checker draws from the domain, and the counter,
// which starts anywhere in the domain, grows past it) is not counted as
// a disagreement.
func TestSoundnessDomainArtifact(t *testing.T) {
	const src = `var x: int;
layer 0 {
  proc inc(linear tid: int) { [x := x + 1;] }
  proc get(linear tid: int) returns (r: int) { r := x; }
}
layer 1 {
  atomic action inc(linear tid: int) { x := x + 1; }
  atomic action get(linear tid: int) returns (r: int) { havoc r; }
}
instance small {
  thread w(tid = 0) calls inc max 3;
  thread g(tid = 1) calls get max 1;
  ints 0..1;
}
`
	o := evaluateProgram(0, "test", src, 10_000)
	if !o.proven {
		t.Fatalf("check does not prove the program: %s", o.check)
	}
	st := &soundnessStats{}
	st.add(o)
	if len(st.disagreements) > 0 || st.runs[exploreDomain] == 0 {
		t.Errorf("want a domain artifact and no disagreement:\n%s", o.report())
	}
}

// TestSoundnessClassification checks how outcomes are counted: only a
// proven program with a violation is a disagreement, and a violation
// found with every access interleaved counts only where layer 0 claims
// single accesses atomic.
// TestSoundnessUndecidedIsNotProven: when the check of a program is
// stopped by its time limit, the asserts it did not decide make the
// program not proven. (The long run once counted such a program, stopped
// on a loaded machine, as proven, and reported explore's violation as a
// disagreement.)
func TestSoundnessUndecidedIsNotProven(t *testing.T) {
	src := `var x: int = 0;

layer 0 {
  atomic action inc(linear tid: int) { x := x + 1; }
}

instance small {
  thread t(tid = 0..1) calls inc max 2;
}
`
	if o := evaluateProgram(0, "test", src, 1000); !o.proven {
		t.Fatalf("with time to decide, the program is not proven: %s", o.check)
	}
	defer func(d time.Duration) { soundnessCheckTimeout = d }(soundnessCheckTimeout)
	soundnessCheckTimeout = time.Nanosecond
	o := evaluateProgram(0, "test", src, 1000)
	if o.proven || !strings.Contains(o.check, "not decided") {
		t.Errorf("a check stopped before the solver ran counts as %q (proven %v)", o.check, o.proven)
	}
}

func TestSoundnessClassification(t *testing.T) {
	violation := exploreOutcome{what: "linearizability of layer 0", class: exploreViolation}
	accessViolation := exploreOutcome{what: "safety of layer 0" + accessSuffix, class: exploreViolation, access: true}
	for _, tc := range []struct {
		name          string
		o             programOutcome
		disagreements int
		nonAtomic     int
	}{
		{"proven, violation", programOutcome{valid: true, proven: true, accessAtomic: true, runs: []exploreOutcome{violation}}, 1, 0},
		{"unproven, violation", programOutcome{valid: true, runs: []exploreOutcome{violation}}, 0, 0},
		{"proven, access violation, atomic layer 0", programOutcome{valid: true, proven: true, accessAtomic: true, runs: []exploreOutcome{accessViolation}}, 1, 0},
		{"proven, access violation, multi-access statements", programOutcome{valid: true, proven: true, runs: []exploreOutcome{accessViolation}}, 0, 1},
		{"proven, domain artifact", programOutcome{valid: true, proven: true, runs: []exploreOutcome{{class: exploreDomain}}}, 0, 0},
	} {
		st := &soundnessStats{}
		o := tc.o
		o.origin = "generated"
		st.add(&o)
		if len(st.disagreements) != tc.disagreements || st.nonAtomicAccess != tc.nonAtomic {
			t.Errorf("%s: %d disagreements, %d non-atomic access violations; want %d, %d",
				tc.name, len(st.disagreements), st.nonAtomicAccess, tc.disagreements, tc.nonAtomic)
		}
	}
}
