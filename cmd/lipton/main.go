// Command lipton checks layered proofs of concurrent programs.
//
// Usage:
//
//	lipton check [flags] FILE...   check proofs
//	lipton fmt [-w] FILE...        print files in canonical form
//	lipton version                 print the version
//	lipton help [COMMAND]          describe commands
//
// Exit codes: 0 when everything holds, 1 when a check failed or is
// unknown, 2 when the input could not be read, parsed or typed (or the
// command line is wrong), 3 on an internal error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
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
	flags   func() *flag.FlagSet // the command's flags, for help; nil if none
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands []*command

func init() {
	commands = []*command{checkCmd, showCmd, fmtCmd, versionCmd, helpCmd}
	commands = append(commands, exploreCmd)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes a command line and returns the exit code. A panic is a
// bug in lipton: it is reported as an internal error, without a Go stack
// trace unless LIPTON_DEBUG is set.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "lipton: internal error: %v\nThis is a bug in lipton; please report it with the input that caused it.\n", r)
			if os.Getenv("LIPTON_DEBUG") != "" {
				stderr.Write(debug.Stack())
			}
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return exitBadInput
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "lipton: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitBadInput
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "lipton checks layered proofs of concurrent programs (Owicki-Gries, movers, refinement).")
	fmt.Fprintln(w, "\nUsage: lipton COMMAND [ARGUMENTS]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'lipton help COMMAND' for the flags of a command.")
	fmt.Fprintln(w, "Exit codes: 0 all checks hold, 1 a check failed or is unknown, 2 bad input, 3 internal error.")
}

var versionCmd = &command{
	name:    "version",
	summary: "print lipton's version",
	usage:   "lipton version",
	run: func(args []string, stdout, stderr io.Writer) int {
		fmt.Fprintf(stdout, "lipton %s\n", version)
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
				fmt.Fprintf(stdout, "usage: %s\n\n%s\n", c.usage, c.summary)
				if c.flags != nil {
					fs := c.flags()
					fs.SetOutput(stdout)
					fmt.Fprintln(stdout, "\nFlags:")
					fs.PrintDefaults()
				}
				return exitOK
			}
		}
		fmt.Fprintf(stderr, "lipton: unknown command %q\n", args[0])
		return exitBadInput
	},
}
