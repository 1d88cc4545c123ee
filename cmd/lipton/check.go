package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/lipton-dev/lipton/lang"
)

type checkOptions struct{}

func checkFlags(o *checkOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	return fs
}

var checkCmd = &command{
	name:    "check",
	summary: "check layered proofs",
	usage:   checkUsage,
	flags:   func() *flag.FlagSet { return checkFlags(&checkOptions{}) },
	run:     runCheck,
}

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
	code := exitOK
	for _, path := range fs.Args() {
		f, info := loadFile(path, stderr)
		if f == nil {
			code = exitBadInput
			continue
		}
		fmt.Fprintf(stdout, "%s: %s\n", path, summary(info))
	}
	return code
}

// summary describes a checked file in one line.
func summary(info *lang.Info) string {
	var actions, procs, steps int
	for _, l := range info.Layers {
		for _, m := range l.Layer.Members {
			switch m := m.(type) {
			case *lang.Action:
				actions++
			case *lang.Proc:
				procs++
				lang.Inspect(m.Body.Stmts, func(s lang.Stmt) bool {
					if lang.IsStep(s) {
						steps++
					}
					return true
				})
			}
		}
	}
	return fmt.Sprintf("%d layers, %d actions, %d procedures, %d steps", len(info.Layers), actions, procs, steps)
}

const checkUsage = "lipton check [flags] FILE..."
