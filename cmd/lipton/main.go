package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailed   = 1
	exitBadInput = 2
	exitInternal = 3
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

type command struct {
	name    string
	summary string
	usage   string
	// details is more text for the command's help, after the summary.
	details string
	flags   func() *flag.FlagSet // the command's flags, for help; nil if none
	// groups orders the flags in the help under titles; flags in no
	// group follow under "Other flags" (all flags under "Flags" if there
	// are no groups).
	groups []flagGroup
	run    func(args []string, stdout, stderr io.Writer) int
}

var commands []*command

func init() {
	commands = []*command{checkCmd, showCmd, fmtCmd, versionCmd, helpCmd}
	commands = append(commands, exploreCmd)
	commands = append(commands, lspCmd)
}

func main() {
	if len(os.Args) > 1 {
		tuneGC(os.Args[1])
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// checkGCPercent is the garbage collector's target for check and lsp.
// Their live heap is small (tens of MB) and short-lived obligations make
// most of the garbage, so collecting at 5x the live heap instead of 2x
// cuts the Go side of checking Chase-Lev by about a third (bench/README.md,
// "Work outside Z3"). explore keeps Go's default: its heap is its state
// space, and its memory limit counts resident memory.
const checkGCPercent = 400

// tuneGC sets checkGCPercent for the commands it suits, unless the user
// set GOGC.
func tuneGC(command string) {
	if os.Getenv("GOGC") != "" {
		return
	}
	switch command {
	case "check", "lsp":
		debug.SetGCPercent(checkGCPercent)
	}
}

// run executes a command line and returns the exit code. A panic is a
// bug in lipton: it is reported as an internal error, without a Go stack
// trace unless LIPTON_DEBUG is set.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			reportInternalError(stderr, args, r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return exitBadInput
	}
	switch args[0] {
	case "-h", "--h", "-help", "--help":
		usage(stdout)
		return exitOK
	case "-version", "--version":
		return versionCmd.run(nil, stdout, stderr)
	}
	for _, c := range commands {
		if c.name == args[0] {
			if wantsHelp(args[1:]) {
				printHelp(stdout, c)
				return exitOK
			}
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "lipton: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitBadInput
}

// reportInternalError tells the user that lipton has a bug and what a
// report of it needs.
func reportInternalError(stderr io.Writer, args []string, r any) {
	fmt.Fprintf(stderr, "lipton: internal error: %v\n", r)
	fmt.Fprintln(stderr, "This is a bug in lipton, not a verdict on your input. Please report it with")
	fmt.Fprintf(stderr, "  the command line: lipton %s\n", strings.Join(args, " "))
	fmt.Fprintln(stderr, "  the input files it names,")
	fmt.Fprintf(stderr, "  and the output of lipton version: lipton %s\n", versionText())
	if os.Getenv("LIPTON_DEBUG") != "" {
		stderr.Write(debug.Stack())
	} else {
		fmt.Fprintln(stderr, "Run it again with LIPTON_DEBUG=1 to add a Go stack trace to the report.")
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "lipton checks layered proofs of concurrent programs (Owicki-Gries, movers, refinement).")
	fmt.Fprintln(w, "\nUsage: lipton COMMAND [ARGUMENTS]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'lipton help COMMAND' or 'lipton COMMAND --help' for the flags of a command.")
	fmt.Fprintln(w, "Exit codes: 0 all checks hold, 1 a check failed or is unknown, 2 bad input or command line, 3 internal error.")
}

// versionText is lipton's version and what it was built with.
func versionText() string {
	return fmt.Sprintf("%s (%s, %s/%s)", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

var versionCmd = &command{
	name:    "version",
	summary: "print lipton's version",
	usage:   "lipton version",
	run: func(args []string, stdout, stderr io.Writer) int {
		if len(args) > 0 {
			fmt.Fprintln(stderr, "usage: lipton version")
			return exitBadInput
		}
		fmt.Fprintf(stdout, "lipton %s\n", versionText())
		return exitOK
	},
}

var helpCmd = &command{
	name:    "help",
	summary: "describe a command",
	usage:   "lipton help [COMMAND]",
	run: func(args []string, stdout, stderr io.Writer) int {
		if len(args) == 0 {
			usage(stdout)
			return exitOK
		}
		for _, c := range commands {
			if c.name == args[0] {
				printHelp(stdout, c)
				return exitOK
			}
		}
		fmt.Fprintf(stderr, "lipton: unknown command %q\n", args[0])
		return exitBadInput
	},
}
