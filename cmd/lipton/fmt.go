package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/lipton-dev/lipton/lang"
)

type fmtOptions struct {
	write bool
	list  bool
}

func fmtFlags(o *fmtOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.BoolVar(&o.write, "w", false, "write the result to the file instead of printing it")
	fs.BoolVar(&o.list, "l", false, "list the files whose formatting differs, instead of printing them")
	return fs
}

var fmtCmd = &command{
	name:    "fmt",
	summary: "print .lip files in canonical form (comments kept)",
	usage:   fmtUsage,
	flags:   func() *flag.FlagSet { return fmtFlags(&fmtOptions{}) },
	run:     runFmt,
}

func runFmt(args []string, stdout, stderr io.Writer) int {
	var o fmtOptions
	fs := fmtFlags(&o)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: "+fmtUsage)
		return exitBadInput
	}
	code := exitOK
	for _, path := range fs.Args() {
		if !formatFile(path, o, stdout, stderr) {
			code = exitBadInput
		}
	}
	return code
}

func formatFile(path string, o fmtOptions, stdout, stderr io.Writer) bool {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "lipton: %v\n", describeReadError(path, err))
		return false
	}
	f, err := lang.Parse(path, src)
	if err != nil {
		printLangErrors(stderr, err)
		return false
	}
	out := lang.Format(f)
	switch {
	case o.list:
		if !bytes.Equal(src, out) {
			fmt.Fprintln(stdout, path)
		}
	case o.write:
		if !bytes.Equal(src, out) {
			if err := os.WriteFile(path, out, 0o644); err != nil {
				fmt.Fprintf(stderr, "lipton: %v\n", err)
				return false
			}
		}
	default:
		stdout.Write(out)
	}
	return true
}

const fmtUsage = "lipton fmt [-w] [-l] FILE..."
