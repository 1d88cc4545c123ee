package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/mc"
)

// maxExploreJobs bounds --jobs: each worker has its own scratch space
// and register files, and more workers than cores gain nothing.
const maxExploreJobs = 256

// exploreOptions are the flags of lipton explore.
type exploreOptions struct {
	instance        string
	layer           int
	linearizability bool
	refines         refinesFlag
	maxStates       int
	maxMemory       memoryFlag
	timeout         time.Duration
	noPOR, noSym    bool
	noDead          bool
	hashCompact     bool // --hash-compact: lossy visited set
	noCompress      bool // --no-compress: the plain visited set
	jobs            int  // workers of the search
	quiet           bool
	progress        time.Duration // the interval of progress lines
	atomicity       atomicityFlag
	memory          memoryModelFlag
	maxInput        sizeFlag // the size limit of the input file
	clients         clientsFlag
	quasi           quasiFlag
}

// quasiFlag is --quasi METHOD=K, repeatable: the quasi factors.
type quasiFlag map[string]int

// String implements flag.Value.
func (f *quasiFlag) String() string {
	var parts []string
	for m, k := range *f {
		parts = append(parts, fmt.Sprintf("%s=%d", m, k))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// Set implements flag.Value.
func (f *quasiFlag) Set(s string) error {
	name, num, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want METHOD=K, such as deq=1")
	}
	k, err := strconv.Atoi(num)
	if err != nil || k < 0 {
		return fmt.Errorf("want a quasi factor K of 0 or more in METHOD=K, not %q", num)
	}
	if *f == nil {
		*f = quasiFlag{}
	}
	if _, dup := (*f)[name]; dup {
		return fmt.Errorf("a second quasi factor for %s", name)
	}
	(*f)[name] = k
	return nil
}

// memoryFlag is --max-memory: a size such as 4GiB, in the units of
// sizeFlag. It is not a sizeFlag because sizeFlag's ceiling is made for
// input files, and a search may well be given tens of GiB.
type memoryFlag int64

// String implements flag.Value.
func (m *memoryFlag) String() string { return formatSize(int64(*m)) }

// Set implements flag.Value: a positive number of bytes with an optional
// unit (B, KiB, MiB, GiB, kB, MB, GB; K, M and G mean KiB, MiB, GiB).
func (m *memoryFlag) Set(text string) error {
	n, err := parseSize(text, math.MaxInt64, "512MiB or 4GiB")
	*m = memoryFlag(n)
	return err
}

// fallbackMaxMemory is the default of --max-memory where the memory of
// the machine is not known (mc.PhysicalMemory reads it on Linux only).
const fallbackMaxMemory = 4 << 30

// defaultMaxMemory is the default of --max-memory: half the memory the
// process can use (the machine's, or its container's if lower), which
// leaves room for the rest of the machine and for the moments when the
// search's tables double; rounded down to a whole GiB, or MiB on small
// machines, so that it reads well in the help and the INCOMPLETE line.
func defaultMaxMemory() int64 {
	half := mc.PhysicalMemory() / 2
	switch {
	case half <= 0:
		return fallbackMaxMemory
	case half >= 2<<30:
		return half &^ (1<<30 - 1)
	}
	return max(half&^(1<<20-1), 64<<20)
}

// softMemoryLimit is the Go runtime's soft memory limit for a search
// that may hold limit bytes: a little above it, so that the garbage
// collector returns the tables that growth left behind before the
// process outgrows the limit, without collecting all the time while the
// search's live data approaches it.
func softMemoryLimit(limit int64) int64 {
	if limit <= 0 || limit > math.MaxInt64/2 {
		return math.MaxInt64 // no limit
	}
	return limit + limit/8
}

// atomicityFlag is --atomicity yield|access; set records that the
// command line gave it.
type atomicityFlag struct {
	a   mc.Atomicity
	set bool
}

// String implements flag.Value.
func (f *atomicityFlag) String() string { return f.a.String() }

// Set implements flag.Value.
func (f *atomicityFlag) Set(s string) error {
	switch s {
	case "yield":
		f.a = mc.AtomicityYield
	case "access":
		f.a = mc.AtomicityAccess
	default:
		return fmt.Errorf("want yield or access")
	}
	f.set = true
	return nil
}

// memoryModelFlag is --memory sc|tso|pso.
type memoryModelFlag struct{ m mc.Memory }

// String implements flag.Value.
func (f *memoryModelFlag) String() string { return f.m.String() }

// Set implements flag.Value.
func (f *memoryModelFlag) Set(s string) error {
	m, err := mc.ParseMemory(s)
	if err != nil {
		return fmt.Errorf("want sc, tso or pso")
	}
	f.m = m
	return nil
}

// refinesFlag is --refines (the next layer) or --refines=N.
type refinesFlag struct {
	set   bool
	layer int // -1: the layer after --layer
}

// String implements flag.Value.
func (f *refinesFlag) String() string {
	if !f.set {
		return ""
	}
	if f.layer < 0 {
		return "true"
	}
	return strconv.Itoa(f.layer)
}

// Set implements flag.Value: true, false or a layer number.
func (f *refinesFlag) Set(s string) error {
	switch s {
	case "true":
		f.set, f.layer = true, -1
		return nil
	case "false":
		f.set = false
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a layer number")
	}
	f.set, f.layer = true, n
	return nil
}

// IsBoolFlag lets --refines stand alone.
func (f *refinesFlag) IsBoolFlag() bool { return true }

func exploreFlags(o *exploreOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.StringVar(&o.instance, "instance", "", "the instance `NAME` to explore (default: the file's only instance)")
	fs.IntVar(&o.layer, "layer", 0, "explore layer `L`")
	fs.BoolVar(&o.linearizability, "linearizability", false, "check the layer against the top layer's atomic actions")
	fs.Var(&o.clients, "clients", "check linearizability for every most parallel client of the instance with at most `N` calls in total (implies --linearizability)")
	fs.Var(&o.quasi, "quasi", "`METHOD=K`, with --linearizability: the calls of METHOD may be reordered by at most K positions (quasi linearizability, seed 000); repeatable; K = 0 is plain linearizability")
	fs.Var(&o.refines, "refines", "check the layer against the next layer (or --refines=N against layer N)")
	fs.Var(&o.atomicity, "atomicity", "where layer 0's threads interleave: `yield|access` (at yield points, the default, or at every access to a global)")
	fs.Var(&o.memory, "memory", "the memory model layer 0 runs under: `sc|tso|pso` (sequential consistency, the default, or store buffers per thread, or per thread and location; tso and pso imply --atomicity access)")
	fs.IntVar(&o.maxStates, "max-states", 50_000_000, "stop after `N` states (0: no limit); stopping is never success")
	o.maxMemory = memoryFlag(defaultMaxMemory())
	fs.Var(&o.maxMemory, "max-memory", fmt.Sprintf("stop when the search holds `SIZE` bytes, such as 512MiB or 4GiB; stopping is never success (default: half the memory of this machine or its container, here %s)", o.maxMemory.String()))
	fs.DurationVar(&o.timeout, "timeout", 0, "stop after this long, such as 30s or 10m (0: no limit); stopping is never success")
	fs.BoolVar(&o.noPOR, "no-por", false, "switch off partial-order reduction")
	fs.BoolVar(&o.noSym, "no-symmetry", false, "switch off symmetry reduction")
	fs.BoolVar(&o.noDead, "no-dead-vars", false, "switch off the dead-variable reduction")
	fs.BoolVar(&o.noCompress, "no-compress", false, "store the states uncompressed: about 3 times the memory, about 0.7 times the CPU time")
	fs.BoolVar(&o.hashCompact, "hash-compact", false, "store a 64-bit hash per state instead of the state: less memory, but lossy, so no result is ever complete (a violation found is real; no violation is reported as incomplete, with the estimated probability of a missed state)")
	fs.IntVar(&o.jobs, "jobs", runtime.NumCPU(), fmt.Sprintf("expand states with `N` workers in parallel; the output is the same for every N (default: one per CPU, here %d; --clients searches that many clients at once)", runtime.NumCPU()))
	fs.BoolVar(&o.quiet, "quiet", false, "no progress lines on stderr")
	fs.DurationVar(&o.progress, "progress", 2*time.Second, "print a progress line on stderr every `DURATION`")
	addInputFlags(fs, &o.maxInput)
	return fs
}

var exploreCmd = &command{
	name:    "explore",
	summary: "model-check a layer on a finite instance: every interleaving, or linearizability",
	usage:   exploreUsage,
	details: "Exit codes: 0 every reachable state explored and nothing failed (with --clients: every client up to N calls passed); 1 a violation, or the search stopped at a limit or made no call (never success); 2 bad input or command line; 130 interrupted (SIGINT, Ctrl-C) and 143 terminated (SIGTERM), after the partial statistics.",
	flags:   func() *flag.FlagSet { return exploreFlags(&exploreOptions{}) },
	groups: []flagGroup{
		{"What to explore", []string{"instance", "layer"}},
		{"Mode", []string{"linearizability", "quasi", "clients", "refines", "atomicity", "memory"}},
		{"Limits", []string{"max-states", "max-memory", "timeout"}},
		{"Search", []string{"no-por", "no-symmetry", "no-dead-vars", "jobs", "no-compress", "hash-compact"}},
		{"Output", []string{"quiet", "progress"}},
		{"Input", []string{"max-input"}},
	},
	run: runExplore,
}

const exploreUsage = "lipton explore [flags] FILE"

func runExplore(args []string, stdout, stderr io.Writer) int {
	var o exploreOptions
	fs := exploreFlags(&o)
	files, err := parseInterleaved(fs, args, stdout, stderr)
	if err != nil {
		return exitCode(err)
	}
	if msg := o.invalid(files); msg != "" {
		usageError("explore", stderr, "%s", msg)
		return exitBadInput
	}
	path := files[0]
	f, info, err := loadProgramLimit(path, int64(o.maxInput))
	if err != nil {
		printLoadError(stderr, err)
		return exitBadInput
	}
	opts, err := o.mcOptions(info)
	if err != nil {
		fmt.Fprintf(stderr, "lipton: %s: %v\n", path, err)
		return exitBadInput
	}
	ctx, stop, signaled := signalContext(context.Background())
	defer stop()
	opts.Context = ctx
	if !o.quiet {
		opts.ProgressEvery = o.progress
		opts.Progress = func(s mc.Stats) { fmt.Fprintln(stderr, "explore: "+progressLine(s)) }
	}
	if prof := os.Getenv("LIPTON_CPUPROFILE"); prof != "" {
		if stopProfile := startProfile(prof, stderr); stopProfile != nil {
			defer stopProfile()
		}
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(softMemoryLimit(opts.MaxMemory)))
	if o.clients.set {
		return runClients(stdout, stderr, path, f.Src, layers.Build(f, info), opts, o.clients.n, signaled)
	}
	res, err := mc.Run(layers.Build(f, info), opts)
	if err != nil {
		printRunError(stderr, path, f.Src, err)
		return exitBadInput
	}
	printExplore(stdout, f.Src, res)
	return exploreExitCode(res, signaled())
}

// printRunError prints an error that kept explore from running: with
// its position, the source line and a caret where it has one.
func printRunError(w io.Writer, path string, src []byte, err error) {
	p, ok := mc.ErrorPos(err)
	if !ok {
		fmt.Fprintf(w, "lipton: %s: %v\n", path, err)
		return
	}
	fmt.Fprintf(w, "%s: error: %v\n", p, err)
	if line := lang.SourceLine(src, p.Line); line != "" {
		fmt.Fprintln(w, lang.Caret(line, p.Col))
	}
}

// exploreExitCode is the exit code of a search: 0 for success, 1 for a
// violation or an incomplete search, 130 or 143 for a search a signal
// stopped.
func exploreExitCode(res *mc.Result, sig os.Signal) int {
	switch {
	case res.Status == mc.OK:
		return exitOK
	case res.Status == mc.Incomplete && sig != nil:
		return signalExitCode(sig)
	}
	return exitFailed
}

// invalid returns what is wrong with the flags' values and the files
// named, or "".
func (o *exploreOptions) invalid(files []string) string {
	switch {
	case o.layer < 0:
		return fmt.Sprintf("--layer %d: want a layer number, 0 or more", o.layer)
	case o.maxStates < 0:
		return fmt.Sprintf("--max-states %d: want a number of states, or 0 for no limit", o.maxStates)
	case o.timeout < 0:
		return fmt.Sprintf("--timeout %s: want a duration such as 30s or 10m, or 0 for no limit", o.timeout)
	case o.clients.set && o.clients.n < 1:
		return fmt.Sprintf("--clients %d: want a number of calls, 1 or more", o.clients.n)
	case o.clients.set && o.refines.set:
		return "--clients checks linearizability: it excludes --refines"
	case len(o.quasi) > 0 && !o.linearizability && !o.clients.set:
		return "--quasi relaxes a linearizability check: give --linearizability too"
	case o.atomicity.set && o.atomicity.a == mc.AtomicityYield && o.memory.m != mc.MemorySC:
		return fmt.Sprintf("--memory %s runs layer 0 at access atomicity (a store buffer holds single accesses): it excludes --atomicity yield", o.memory.m)
	case o.jobs < 1:
		return fmt.Sprintf("--jobs %d: want at least 1 worker", o.jobs)
	case o.jobs > maxExploreJobs:
		return fmt.Sprintf("--jobs %d: want at most %d workers", o.jobs, maxExploreJobs)
	case o.progress <= 0:
		return fmt.Sprintf("--progress %s: want an interval such as 2s (--quiet prints no progress lines)", o.progress)
	case len(files) == 0:
		return "no file to explore"
	case len(files) > 1:
		return fmt.Sprintf("explore runs one FILE, not %d", len(files))
	}
	return ""
}

// parseInterleaved parses flags that may come before and after the
// positional arguments (lipton explore FILE --instance NAME); after
// "--" every argument is positional.
func parseInterleaved(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args, stdout, stderr); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// mcOptions checks the flags against the file and converts them.
func (o *exploreOptions) mcOptions(info *lang.Info) (mc.Options, error) {
	opts := mc.Options{Instance: o.instance, Layer: o.layer, MaxStates: o.maxStates, MaxMemory: int64(o.maxMemory),
		Timeout: o.timeout, NoPOR: o.noPOR, NoSymmetry: o.noSym, NoDeadVars: o.noDead, HashCompact: o.hashCompact, NoCompress: o.noCompress, Jobs: o.jobs, Atomicity: o.atomicity.a, Memory: o.memory.m, Quasi: o.quasi}
	if len(info.Instances) == 0 {
		return opts, errNoInstance
	}
	if opts.Instance == "" {
		if len(info.Instances) != 1 {
			return opts, fmt.Errorf("choose an instance with --instance%s", info.DescribeInstances())
		}
		for name := range info.Instances {
			opts.Instance = name
		}
	}
	if info.Instances[opts.Instance] == nil {
		return opts, fmt.Errorf("there is no instance named %q%s", opts.Instance, info.DescribeInstances())
	}
	top := info.TopLayer()
	if opts.Layer < 0 || opts.Layer > top {
		return opts, fmt.Errorf("there is no layer %d (the layers are 0..%d)", opts.Layer, top)
	}
	if opts.Memory != mc.MemorySC && opts.Layer != 0 {
		return opts, fmt.Errorf("--memory %s runs layer 0 only (the implementation); at layer %d the steps are atomic actions that the layers below implement", opts.Memory, opts.Layer)
	}
	if opts.Atomicity == mc.AtomicityAccess && opts.Layer != 0 {
		return opts, fmt.Errorf("--atomicity access runs layer 0 only (the implementation); at layer %d the steps are atomic actions that the layers below implement", opts.Layer)
	}
	if o.clients.set {
		o.linearizability = true // --clients implies it (invalid rejects --refines)
	}
	switch {
	case o.linearizability && o.refines.set:
		return opts, fmt.Errorf("--linearizability and --refines exclude each other")
	case o.linearizability:
		opts.Mode = mc.ModeLinearizability
		if opts.Layer == top {
			return opts, fmt.Errorf("layer %d is the top layer: there is nothing above it to check it against", top)
		}
	case o.refines.set:
		opts.Mode = mc.ModeRefines
		opts.SpecLayer = o.refines.layer
		if opts.SpecLayer < 0 {
			opts.SpecLayer = opts.Layer + 1
		}
		if opts.SpecLayer > top || opts.SpecLayer == opts.Layer {
			return opts, fmt.Errorf("cannot check layer %d against layer %d (the layers are 0..%d)", opts.Layer, opts.SpecLayer, top)
		}
	}
	return opts, nil
}

// errNoInstance is the error for a file without instances.
var errNoInstance = errors.New("the file declares no instance, so there is nothing to explore: explore runs a finite instance declared as `instance NAME { ... }` (see docs/explore.md)")

func progressLine(s mc.Stats) string {
	line := fmt.Sprintf("%s, %s, depth %d, %s, %s states/s, %s",
		plural(int(s.States), "state"), plural(int(s.Transitions), "transition"), s.Depth, round(s.Elapsed), rate(s), megabytes(s.Memory))
	if s.SpecSets > 0 {
		line += fmt.Sprintf(", %s in %s", plural(s.SpecStates, "specification state"), plural(s.SpecSets, "set"))
	}
	return line
}

func rate(s mc.Stats) string {
	secs := s.Elapsed.Seconds()
	if secs <= 0 {
		return "-"
	}
	return strconv.FormatInt(int64(float64(s.States)/secs), 10)
}

func megabytes(b int64) string { return fmt.Sprintf("%d MB", (b+1<<20-1)>>20) }

// printExplore prints the result of a search.
func printExplore(w io.Writer, src []byte, res *mc.Result) {
	fmt.Fprintln(w, res.Title)
	for _, n := range res.Notes {
		fmt.Fprintln(w, "  note: "+n)
	}
	if res.Failure != nil {
		printViolation(w, src, res)
	}
	s := res.Stats
	summary := progressLine(s) + fmt.Sprintf(", peak RSS %s", megabytes(mc.PeakRSS()))
	switch {
	case res.Status == mc.OK:
		fmt.Fprintln(w, okLabel.Sprint("no violation: ")+"every reachable state explored: "+summary)
	case res.CannotRun():
		fmt.Fprintln(w, unknownLabel.Sprint("INCOMPLETE: ")+"the search stopped where the code cannot run (above); no violation in the part explored, which proves nothing: "+summary)
	case res.Status == mc.Violation:
		fmt.Fprintln(w, failLabel.Sprint("VIOLATION")+" after "+summary)
	case res.Vacuous:
		fmt.Fprintln(w, unknownLabel.Sprint("INCOMPLETE: ")+res.Limit+": "+summary)
	default:
		fmt.Fprintln(w, unknownLabel.Sprint("INCOMPLETE: ")+res.Limit+"; no violation in the part explored, which proves nothing: "+summary)
	}
}

func printViolation(w io.Writer, src []byte, res *mc.Result) {
	f := res.Failure
	where := res.Title // every failure has a position; this is a fallback
	if len(f.Pos) > 0 {
		where = f.Pos[0].String()
	}
	fmt.Fprintf(w, "%s: %s %s: %s\n", posLabel.Sprint(where), failLabel.Sprint("error:"), failureKind(f.Kind), f.Msg)
	for i, p := range f.Pos {
		if i > 0 {
			fmt.Fprintf(w, "  %s:\n", p) // as lipton check prints further positions
		}
		if line := lang.SourceLine(src, p.Line); line != "" {
			fmt.Fprintln(w, lang.Caret(line, p.Col))
		}
	}
	if f.Kind == "linearizability" || f.Kind == "contract" && len(res.History) > 0 {
		printHistory(w, res.History) // for a contract failure: the history before the call
	}
	if len(res.Trace) > 0 {
		fmt.Fprintf(w, "trace (%d steps; shortest in the explored graph):\n", len(res.Trace))
		for i, st := range res.Trace {
			printStep(w, i+1, st)
		}
	}
}

// failureKind names a kind of failure after "error:"; the kind "error"
// (the code cannot run) would read "error: error:".
func failureKind(kind string) string {
	if kind == "error" {
		return "the code cannot run"
	}
	return kind
}

func printStep(w io.Writer, n int, st mc.TraceStep) {
	head := st.Event
	if head == "" {
		head = "runs " + st.Method
	}
	fmt.Fprintf(w, "  %3d. %s %s\n", n, st.Thread, head)
	for _, l := range st.Lines {
		fmt.Fprintln(w, "         "+l)
	}
	if len(st.Changes) > 0 {
		fmt.Fprintln(w, "         changes: "+strings.Join(st.Changes, ", "))
	}
	if st.Where != "" {
		fmt.Fprintln(w, "         then "+st.Where)
	}
	if st.Buffer != "" {
		fmt.Fprintln(w, "         store buffer: "+st.Buffer)
	}
}

// printHistory prints the calls and returns, in order and per thread.
func printHistory(w io.Writer, h []mc.HistoryEvent) {
	fmt.Fprintln(w, "history (calls and returns in the order they happen):")
	for _, ev := range h {
		fmt.Fprintf(w, "  %-12s %s\n", ev.Thread, historyText(ev))
	}
	fmt.Fprintln(w, "per thread:")
	var threads []string
	per := map[string][]string{}
	for _, ev := range h {
		if per[ev.Thread] == nil {
			threads = append(threads, ev.Thread)
		}
		per[ev.Thread] = append(per[ev.Thread], historyText(ev))
	}
	for _, t := range threads {
		fmt.Fprintf(w, "  %-12s %s\n", t, strings.Join(per[t], "; "))
	}
}

func historyText(ev mc.HistoryEvent) string {
	if ev.Call {
		return fmt.Sprintf("call %s(%s)", ev.Method, ev.Values)
	}
	if ev.Values == "" {
		return "return from " + ev.Method
	}
	return fmt.Sprintf("return from %s: %s", ev.Method, ev.Values)
}

// startProfile writes a CPU profile to path (LIPTON_CPUPROFILE of
// explore and check, for lipton's developers); it returns the function
// that stops it.
func startProfile(path string, stderr io.Writer) func() {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(stderr, "lipton: cannot profile: %v\n", err)
		return nil
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
