package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/vccache"
)

// checkOptions are the flags of lipton check.
type checkOptions struct {
	layer   int // -1: every layer
	jobs    int
	rlimit  uint64        // Z3's resource limit per query (0: check.DefaultRLimit)
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
	noCache      bool // --no-cache
	// maxInput is the size limit of an input file (--max-input).
	maxInput sizeFlag
	// fallback: --fallback and --ints (fallback.go).
	fallback fallbackOptions
}

// runChecks runs the static checks of a checked file with the options of
// the command line: the one entry point is package check.
func runChecks(f *lang.File, info *lang.Info, o checkOptions, frontEnd time.Duration) (*check.Result, error) {
	ctx, stop := o.runContext()
	defer stop()
	opts := check.Options{Layer: o.layer, Jobs: o.jobs, RLimit: o.rlimit, Dump: o.dump, Cache: o.cache()}
	if o.fallback.on {
		dom := o.fallback.ints.d
		opts.Fallback = &dom
	}
	if o.progress != nil {
		show, erase := progressPrinter(o.progress)
		defer erase()
		opts.Progress = show
	}
	return check.Run(ctx, f, info, opts, frontEnd)
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

// progressAfter is how long a run stays quiet before it shows how many
// obligations are decided.
const progressAfter = time.Second

// progressPrinter shows "n/m obligations decided" on w once the solver
// has run for progressAfter: on one line that it rewrites on a terminal
// (erase erases it at the end), one line each second elsewhere (a CI
// log, --progress).
func progressPrinter(w io.Writer) (show func(done, total int), erase func()) {
	start, last, shown := time.Now(), time.Time{}, false
	onTerminal := isTerminal(w)
	show = func(done, total int) {
		switch {
		case time.Since(start) < progressAfter:
		case onTerminal:
			fmt.Fprintf(w, "\r%d/%d obligations decided", done, total)
			shown = true
		case time.Since(last) >= progressAfter:
			fmt.Fprintf(w, "check: %d/%d obligations decided\n", done, total)
			last = time.Now()
		}
	}
	erase = func() {
		if shown {
			fmt.Fprint(w, "\r\033[K")
		}
	}
	return show, erase
}

// cache opens the user's cache of proven obligations, unless --no-cache
// says not to. A cache that cannot be opened (no home directory, a
// read-only file system) is no cache: every obligation is solved.
func (o checkOptions) cache() *vccache.Dir {
	if o.noCache {
		return nil
	}
	root, err := vccache.Default()
	if err != nil {
		return nil
	}
	d, err := vccache.Open(root)
	if err != nil {
		return nil
	}
	return d
}
