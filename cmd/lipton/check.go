package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
)

// defaultRLimit is the default of --rlimit: Z3's resource limit per
// query (docs/checks.md, "Solver limits", says how it was chosen).
const defaultRLimit uint64 = check.DefaultRLimit

func checkFlags(o *checkOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.IntVar(&o.layer, "layer", -1, "check only layer `N` (default: every layer)")
	fs.IntVar(&o.jobs, "jobs", runtime.NumCPU(), fmt.Sprintf("run `N` solver workers in parallel (default: one per CPU, here %d)", runtime.NumCPU()))
	fs.Uint64Var(&o.rlimit, "rlimit", defaultRLimit, "Z3's resource limit of `N` units per query (one query per assert): a deterministic bound on solver work, independent of the machine's load; an assert that needs more is unknown")
	fs.DurationVar(&o.timeout, "timeout", 0, "wall-clock limit for the whole run (0: none); when it is reached the undecided obligations are reported as not decided")
	fs.StringVar(&o.dump, "dump", "", "write every obligation to `DIR` as .obl and .smt2 files")
	fs.BoolVar(&o.noCache, "no-cache", false, "solve every obligation: do not answer those Z3 proved in an earlier run from the cache ($XDG_CACHE_HOME/lipton), nor store new ones")
	fs.BoolVar(&o.json, "json", false, "print the results as JSON on stdout (not with --format github)")
	fs.StringVar(&o.format, "format", "text", "the report's `FORMAT`: text, or github for GitHub Actions annotations before the text report")
	fs.BoolVar(&o.verbose, "verbose", false, "list every obligation with its verdict and every skipped pair")
	fs.BoolVar(&o.showProgress, "progress", false, "show how many obligations are decided, on stderr, when the solver runs longer than a second (on a terminal this is the default)")
	addFallbackFlags(fs, &o.fallback) // --fallback, --ints (fallback.go)
	addInputFlags(fs, &o.maxInput)
	return fs
}

var checkCmd = &command{
	name:    "check",
	summary: "check layered proofs: Owicki-Gries, movers and refinement at every layer",
	usage:   checkUsage,
	details: "Exit codes: 0 every obligation is proven; 1 one failed or is unknown; 2 bad input or command line.",
	flags:   func() *flag.FlagSet { return checkFlags(&checkOptions{}) },
	groups: []flagGroup{
		{"What to check", []string{"layer"}},
		{"Solver", []string{"jobs", "rlimit", "timeout", "no-cache", "fallback", "ints"}},
		{"Output", []string{"verbose", "json", "format", "dump", "progress"}},
		{"Input", []string{"max-input"}},
	},
	run: runCheck,
}

const checkUsage = "lipton check [flags] FILE..."

func runCheck(args []string, stdout, stderr io.Writer) int {
	var o checkOptions
	fs := checkFlags(&o)
	if err := parseFlags(fs, args, stdout, stderr); err != nil {
		return exitCode(err)
	}
	if msg := o.invalid(fs); msg != "" {
		usageError("check", stderr, "%s", msg)
		return exitBadInput
	}
	if fs.NArg() == 0 {
		usageError("check", stderr, "no file to check")
		return exitBadInput
	}
	// One context for the whole command: a signal stops it, and
	// --timeout bounds the run of every file together, as a user reads
	// it.
	sigCtx, stopSignals, signaled := signalContext(context.Background())
	defer stopSignals()
	o.ctx = sigCtx
	ctx, cancel := o.runContext()
	defer cancel()
	o.ctx, o.timeout = ctx, 0
	if o.showProgress || !o.json && isTerminal(stderr) {
		o.progress = stderr
	}
	if prof := os.Getenv("LIPTON_CPUPROFILE"); prof != "" {
		if stopProfile := startProfile(prof, stderr); stopProfile != nil {
			defer stopProfile()
		}
	}
	code := exitOK
	var runs []*fileRun
	for _, path := range fs.Args() {
		fr := checkFile(path, o, stderr)
		runs = append(runs, fr)
		code = max(code, fr.code)
		if !o.json {
			printRun(stdout, fr, o)
		}
	}
	if o.json {
		printJSON(stdout, runs)
	}
	if sig := signaled(); sig != nil {
		return signalExitCode(sig)
	}
	return code
}

// invalid returns what is wrong with the flags' values and combinations,
// or "".
func (o *checkOptions) invalid(fs *flag.FlagSet) string {
	switch {
	case flagSet(fs, "layer") && o.layer < 0:
		return fmt.Sprintf("--layer %d: want a layer number, 0 or more", o.layer)
	case o.jobs < 1:
		return fmt.Sprintf("--jobs %d: want at least 1 solver worker", o.jobs)
	case o.timeout < 0:
		return fmt.Sprintf("--timeout %s: want a duration such as 90s or 10m, or 0 for no limit", o.timeout)
	case o.format != "text" && o.format != "github":
		return fmt.Sprintf("unknown format %q (want text or github)", o.format)
	case o.json && o.format == "github":
		return "--json and --format github exclude each other: choose one output format"
	}
	return ""
}

// fileRun is the outcome of checking one file.
type fileRun struct {
	path string
	run  *check.Result
	code int
	err  string // why the file could not be checked
	// loadErr is why the file could not be read, parsed or typed: a
	// lang.ErrorList for parse and type errors.
	loadErr error
}

func checkFile(path string, o checkOptions, stderr io.Writer) *fileRun {
	start := time.Now()
	f, info, err := loadProgramLimit(path, int64(o.maxInput))
	if err != nil {
		printLoadError(stderr, err)
		msg := "the file could not be read, parsed or typed"
		var list lang.ErrorList
		if !errors.As(err, &list) {
			msg = err.Error() // why it could not be read
		}
		return &fileRun{path: path, code: exitBadInput, err: msg, loadErr: err}
	}
	if o.layer >= len(info.Layers) {
		fmt.Fprintf(stderr, "lipton: %s has no layer %d (it has %s)\n", path, o.layer, layerRange(len(info.Layers)))
		return &fileRun{path: path, code: exitBadInput, err: "no such layer"}
	}
	r, err := runChecks(f, info, o, time.Since(start))
	if err != nil {
		fmt.Fprintf(stderr, "lipton: %s: %v\n", path, err)
		return &fileRun{path: path, code: exitBadInput, err: err.Error()}
	}
	code := exitOK
	if r.Failed() {
		code = exitFailed
	}
	return &fileRun{path: path, run: r, code: code}
}

// layerRange describes the layers of a file with n layers.
func layerRange(n int) string {
	switch n {
	case 0:
		return "no layer"
	case 1:
		return "layer 0 only"
	}
	return fmt.Sprintf("layers 0..%d", n-1)
}

// printRun prints the report of one File: annotations for --format
// github (of its front-end errors, if it has no run), then the text.
func printRun(w io.Writer, fr *fileRun, o checkOptions) {
	if o.format == "github" {
		printGitHubLoadErrors(w, fr.loadErr)
	}
	if fr.run == nil {
		return
	}
	if o.format == "github" {
		printGitHub(w, fr.run)
	}
	printText(w, fr.path, fr.run, o.verbose)
	printFallback(w, fr.run) // --fallback (fallback.go)
}

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
