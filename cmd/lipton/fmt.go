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
	write    bool
	list     bool
	check    bool
	maxInput sizeFlag
}

func fmtFlags(o *fmtOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.BoolVar(&o.write, "w", false, "write the result to the file instead of printing it")
	fs.BoolVar(&o.list, "l", false, "list the files whose formatting differs, instead of printing them")
	fs.BoolVar(&o.check, "check", false, "list the files whose formatting differs and exit with 1 if there are any (a CI gate); change nothing")
	addInputFlags(fs, &o.maxInput)
	return fs
}

const fmtUsage = "lipton fmt [-w | -l | --check] [FILE...]"

var fmtCmd = &command{
	name:    "fmt",
	summary: "print .lip files in canonical form (comments kept)",
	usage:   fmtUsage,
	details: "Without a FILE, fmt formats standard input to standard output.\n" +
		"Exit codes: 0 done; 1 --check found a file to format; 2 a file could not be read or parsed.",
	flags: func() *flag.FlagSet { return fmtFlags(&fmtOptions{}) },
	groups: []flagGroup{
		{"What to do (the default prints the formatted text)", []string{"w", "l", "check"}},
		{"Input", []string{"max-input"}},
	},
	run: runFmt,
}

// stdinName names standard input in messages and lists.
const stdinName = "<standard input>"

func runFmt(args []string, stdout, stderr io.Writer) int {
	var o fmtOptions
	fs := fmtFlags(&o)
	if err := parseFlags(fs, args, stdout, stderr); err != nil {
		return exitCode(err)
	}
	switch {
	case o.check && o.write:
		usageError("fmt", stderr, "--check and -w exclude each other: --check changes nothing")
		return exitBadInput
	case fs.NArg() == 0 && o.write:
		usageError("fmt", stderr, "-w needs a FILE: there is no file to write standard input back to")
		return exitBadInput
	}
	if fs.NArg() == 0 {
		src, err := readBounded(stdin, stdinName, int64(o.maxInput))
		if err == nil {
			err = checkText(stdinName, src)
		}
		if err != nil {
			fmt.Fprintf(stderr, "lipton: %v\n", err)
			return exitBadInput
		}
		return formatSource(stdinName, src, o, stdout, stderr)
	}
	code := exitOK
	for _, path := range fs.Args() {
		code = max(code, formatFile(path, o, stdout, stderr))
	}
	return code
}

// formatFile formats one file as the options say and returns the exit
// code for it.
func formatFile(path string, o fmtOptions, stdout, stderr io.Writer) int {
	src, err := readSource(path, int64(o.maxInput))
	if err != nil {
		fmt.Fprintf(stderr, "lipton: %v\n", err)
		return exitBadInput
	}
	return formatSource(path, src, o, stdout, stderr)
}

// formatSource formats the text of a file called name: it prints it,
// writes it back (-w), or lists the name if the text changes (-l,
// --check).
func formatSource(name string, src []byte, o fmtOptions, stdout, stderr io.Writer) int {
	f, err := lang.Parse(name, src)
	if err != nil {
		printLoadError(stderr, err)
		return exitBadInput
	}
	out := lang.Format(f)
	changed := !bytes.Equal(src, out)
	switch {
	case o.list || o.check:
		if changed {
			fmt.Fprintln(stdout, name)
			if o.check {
				return exitFailed
			}
		}
	case o.write:
		if changed {
			if err := os.WriteFile(name, out, 0o644); err != nil {
				fmt.Fprintf(stderr, "lipton: %v\n", err)
				return exitBadInput
			}
		}
	default:
		stdout.Write(out)
	}
	return exitOK
}
