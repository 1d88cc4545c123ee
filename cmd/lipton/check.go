package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"time"
)

func checkFlags(o *checkOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.IntVar(&o.layer, "layer", -1, "check only layer `N` (default: every layer)")
	fs.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "number of solver workers")
	fs.DurationVar(&o.timeout, "timeout", 20*time.Second, "solver time limit per obligation")
	fs.StringVar(&o.dump, "dump", "", "write every obligation to `DIR` as .obl and .smt2 files")
	fs.BoolVar(&o.json, "json", false, "print the results as JSON")
	fs.StringVar(&o.format, "format", "text", "output format: text, or github for GitHub Actions annotations")
	fs.BoolVar(&o.verbose, "verbose", false, "list every obligation with its verdict and every skipped pair")
	addFallbackFlags(fs, &o.fallback) // --fallback, --ints (fallback.go)
	return fs
}

var checkCmd = &command{
	name:    "check",
	summary: "check layered proofs: Owicki-Gries, movers and refinement at every layer",
	usage:   checkUsage,
	flags:   func() *flag.FlagSet { return checkFlags(&checkOptions{}) },
	run:     runCheck,
}

const checkUsage = "lipton check [flags] FILE..."

func runCheck(args []string, stdout, stderr io.Writer) int {
	var o checkOptions
	fs := checkFlags(&o)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: "+checkUsage)
		return exitBadInput
	}
	if o.format != "text" && o.format != "github" {
		fmt.Fprintf(stderr, "lipton: unknown format %q (want text or github)\n", o.format)
		return exitBadInput
	}
	code := exitOK
	var runs []*fileRun
	for _, path := range fs.Args() {
		fr := checkFile(path, o, stderr)
		runs = append(runs, fr)
		code = max(code, fr.code)
		if fr.run != nil && !o.json {
			printRun(stdout, fr, o)
		}
	}
	if o.json {
		printJSON(stdout, runs)
	}
	return code
}

// fileRun is the outcome of checking one file.
type fileRun struct {
	path string
	run  *checkRun
	code int
	err  string // why the file could not be checked
}

func checkFile(path string, o checkOptions, stderr io.Writer) *fileRun {
	start := time.Now()
	f, info := loadProgram(path, stderr)
	if f == nil {
		return &fileRun{path: path, code: exitBadInput, err: "the file could not be read, parsed or typed"}
	}
	if o.layer >= len(info.Layers) {
		fmt.Fprintf(stderr, "lipton: %s has no layer %d\n", path, o.layer)
		return &fileRun{path: path, code: exitBadInput, err: "no such layer"}
	}
	r, err := runChecks(f, info, o, time.Since(start))
	if err != nil {
		fmt.Fprintf(stderr, "lipton: %s: %v\n", path, err)
		return &fileRun{path: path, code: exitBadInput, err: err.Error()}
	}
	code := exitOK
	if r.failed() {
		code = exitFailed
	}
	return &fileRun{path: path, run: r, code: code}
}

func printRun(w io.Writer, fr *fileRun, o checkOptions) {
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
