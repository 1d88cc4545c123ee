package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"

	"github.com/lipton-dev/lipton/htmlreport"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/mc"
)

// showHTMLOptions are the flags of lipton show --html.
type showHTMLOptions struct {
	on              bool
	explore         bool
	instance        string
	linearizability bool
	noCache         bool
}

// htmlOnlyFlags are the flags that mean something only with --html.
var htmlOnlyFlags = []string{"explore", "instance", "linearizability", "no-cache"}

func addHTMLFlags(fs *flag.FlagSet, o *showHTMLOptions) {
	fs.BoolVar(&o.on, "html", false, "print one self-contained HTML page: the layers side by side, and the counterexample of every failed check as a swim-lane diagram (it runs lipton check)")
	fs.BoolVar(&o.explore, "explore", false, "with --html: also run the model checker on layer 0 and show its violation, if any, as a swim-lane diagram")
	fs.StringVar(&o.instance, "instance", "", "with --explore: the `NAME` of the instance to explore (default: the file's only instance)")
	fs.BoolVar(&o.linearizability, "linearizability", false, "with --explore: check layer 0 against the atomic actions of the top layer")
	fs.BoolVar(&o.noCache, "no-cache", false, "with --html: solve every obligation, as lipton check --no-cache")
}

// set reports whether a flag that needs --html was given.
func (o showHTMLOptions) set(fs *flag.FlagSet) bool {
	for _, name := range htmlOnlyFlags {
		if flagSet(fs, name) {
			return true
		}
	}
	return false
}

// runShowHTML writes the HTML report of a file. The exit code is that of
// lipton check (and explore): 1 if a check failed or is unknown, or the
// model checker found a violation or could not finish; the page is
// written in every case but bad input.
func runShowHTML(fs *flag.FlagSet, o showOptions, stdout, stderr io.Writer) int {
	h := o.html
	switch {
	case !h.on:
		usageError("show", stderr, "--explore, --instance, --linearizability and --no-cache go with --html")
		return exitBadInput
	case flagSet(fs, "layer") || o.eraseGhost:
		usageError("show", stderr, "--html shows every layer: it excludes --layer and --erase-ghost")
		return exitBadInput
	case !h.explore && (flagSet(fs, "instance") || h.linearizability):
		usageError("show", stderr, "--instance and --linearizability go with --explore")
		return exitBadInput
	}
	path := fs.Arg(0)
	f, info, err := loadProgramLimit(path, int64(o.maxInput))
	if err != nil {
		printLoadError(stderr, err)
		return exitBadInput
	}
	page := htmlreport.Page{Path: path, Version: version, Program: layers.Build(f, info)}
	copts := checkOptions{layer: -1, jobs: runtime.NumCPU(), noCache: h.noCache}
	if page.Check, err = runChecks(f, info, copts, 0); err != nil {
		fmt.Fprintf(stderr, "lipton: %s: %v\n", path, err)
		return exitBadInput
	}
	code := exitOK
	if page.Check.Failed() || page.Check.NotDecided > 0 {
		code = exitFailed
	}
	if h.explore {
		res, command, err := exploreForHTML(f, info, h)
		if err != nil {
			printRunError(stderr, path, f.Src, err)
			return exitBadInput
		}
		page.Explore, page.Command = res, command
		if res.Status != mc.OK {
			code = exitFailed
		}
	}
	if err := htmlreport.Write(stdout, page); err != nil {
		fmt.Fprintf(stderr, "lipton: %v\n", err)
		return exitInternal
	}
	return code
}

// exploreForHTML runs the model checker on layer 0 for the report, and
// returns the explore command line that does the same.
func exploreForHTML(f *lang.File, info *lang.Info, h showHTMLOptions) (*mc.Result, string, error) {
	opts := mc.Options{Instance: h.instance, MaxMemory: defaultMaxMemory()}
	if len(info.Instances) == 0 {
		return nil, "", errNoInstance
	}
	if opts.Instance == "" {
		if len(info.Instances) != 1 {
			return nil, "", fmt.Errorf("choose an instance with --instance%s", info.DescribeInstances())
		}
		opts.Instance = info.InstanceNames()[0]
	}
	command := "lipton explore --instance " + opts.Instance
	if h.linearizability {
		if info.TopLayer() == 0 {
			return nil, "", fmt.Errorf("--linearizability: the file has one layer, so there is nothing above layer 0 to check it against")
		}
		opts.Mode = mc.ModeLinearizability
		command = "lipton explore --linearizability --instance " + opts.Instance
	}
	res, err := mc.Run(layers.Build(f, info), opts)
	return res, command, err
}
