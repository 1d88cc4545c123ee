package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"

	"github.com/lipton-dev/lipton/lsp"
)

type lspOptions struct {
	jobs     int
	rlimit   uint64
	noCache  bool
	maxInput sizeFlag
}

func lspFlags(o *lspOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	fs.IntVar(&o.jobs, "jobs", runtime.NumCPU(), fmt.Sprintf("run `N` solver workers per check (default: one per CPU, here %d)", runtime.NumCPU()))
	fs.Uint64Var(&o.rlimit, "rlimit", defaultRLimit, "Z3's resource limit of `N` units per query, as for lipton check")
	fs.BoolVar(&o.noCache, "no-cache", false, "solve every obligation: do not answer those Z3 proved before from the cache, nor store new ones")
	addInputFlags(fs, &o.maxInput)
	return fs
}

var lspCmd = &command{
	name:    "lsp",
	summary: "run the language server for editors (Language Server Protocol on stdin and stdout)",
	usage:   "lipton lsp [flags]",
	details: "Editors start it; it speaks the Language Server Protocol on standard input and output\n" +
		"and publishes the diagnostics of lipton check while you type (docs/editor.md).\n" +
		"Exit codes: 0 after the editor's shutdown and exit; 1 if the input ended without them.",
	flags: func() *flag.FlagSet { return lspFlags(&lspOptions{}) },
	groups: []flagGroup{
		{"Solver", []string{"jobs", "rlimit", "no-cache"}},
		{"Input", []string{"max-input"}},
	},
	run: runLSP,
}

func runLSP(args []string, stdout, stderr io.Writer) int {
	var o lspOptions
	fs := lspFlags(&o)
	if err := parseFlags(fs, args, stdout, stderr); err != nil {
		return exitCode(err)
	}
	switch {
	case fs.NArg() > 0:
		usageError("lsp", stderr, "lsp takes no FILE: the editor sends the documents")
		return exitBadInput
	case o.jobs < 1:
		usageError("lsp", stderr, "--jobs %d: want at least 1 solver worker", o.jobs)
		return exitBadInput
	}
	opts := lsp.Options{Version: version, Jobs: o.jobs, RLimit: o.rlimit, MaxInput: int64(o.maxInput),
		Cache: checkOptions{noCache: o.noCache}.cache()}
	// The editor ends the server with exit, or by closing its input; a
	// signal ends the process as usual.
	code, err := lsp.Serve(context.Background(), stdin, stdout, opts)
	if err != nil {
		fmt.Fprintf(stderr, "lipton lsp: %v\n", err)
		return exitFailed
	}
	return code
}
