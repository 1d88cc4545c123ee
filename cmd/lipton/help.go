package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// flagGroup is a titled group of a command's flags in its help.
type flagGroup struct {
	title string
	names []string
}

// helpWidth is the width to which help text is wrapped.
const helpWidth = 80

// flagColumn is where the description of a flag starts.
const flagColumn = 24

// printHelp prints a command's help: its usage line, summary and flags
// as users type them (--layer N), grouped as the command says.
func printHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.usage, c.summary)
	if c.details != "" {
		fmt.Fprintf(w, "\n%s\n", c.details)
	}
	if c.flags == nil {
		return
	}
	fs := c.flags()
	listed := map[string]bool{}
	for _, g := range c.groups {
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, name := range g.names {
			if f := fs.Lookup(name); f != nil {
				printFlag(w, f)
				listed[name] = true
			}
		}
	}
	var rest []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if !listed[f.Name] {
			rest = append(rest, f)
		}
	})
	if len(rest) > 0 {
		title := "Flags"
		if len(c.groups) > 0 {
			title = "Other flags"
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, f := range rest {
			printFlag(w, f)
		}
	}
}

// printFlag prints one flag: "--name VALUE", then its description with
// its default, once, wrapped at helpWidth.
func printFlag(w io.Writer, f *flag.Flag) {
	value, usage := flag.UnquoteUsage(f)
	if isBoolFlag(f) {
		value = ""
	}
	if typeName, ok := valueNames[value]; ok {
		value = typeName
	}
	head := "  --" + f.Name
	if len(f.Name) == 1 {
		head = "  -" + f.Name // -w, as in gofmt
	}
	if value != "" {
		head += " " + value
	}
	if d := defaultText(f, usage); d != "" {
		usage += " (default " + d + ")"
	}
	indent := strings.Repeat(" ", flagColumn)
	lines := wrap(usage, helpWidth-flagColumn)
	if len(head) >= flagColumn-1 {
		fmt.Fprintln(w, head)
	} else if len(lines) > 0 {
		fmt.Fprintf(w, "%-*s%s\n", flagColumn, head, lines[0])
		lines = lines[1:]
	}
	for _, l := range lines {
		fmt.Fprintln(w, indent+l)
	}
}

// valueNames name the values of flags whose description does not: the
// flag package calls them by their Go types.
var valueNames = map[string]string{"duration": "DURATION", "int": "N", "uint": "N", "string": "TEXT", "value": "VALUE"}

// defaultText is the default value to show after a flag's description:
// nothing if the description already says it or the default is the
// zero value, which the description explains ("0: none").
func defaultText(f *flag.Flag, usage string) string {
	if strings.Contains(usage, "default") {
		return ""
	}
	switch f.DefValue {
	case "", "0", "false", "0s":
		return ""
	}
	return f.DefValue
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// wrap splits text into lines of at most width bytes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// wantsHelp reports whether a command line asks for help (-h, -help,
// --help) before the end of its flags ("--"): then the command prints
// its help and does nothing else, whatever else the line says.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--h", "-help", "--help":
			return true
		}
	}
	return false
}

// errUsage is the error of parseFlags for a bad command line; the reason
// has been printed.
var errUsage = errors.New("usage error")

// parseFlags parses the flags of the command named as the flag set. It
// prints the command's help on stdout for -help=true and the like
// (wantsHelp catches the usual forms first) and returns flag.ErrHelp;
// for a bad flag it prints the reason and where to find the usage on
// stderr and returns errUsage.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	fs.SetOutput(io.Discard) // the flag package would print Go-style usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		printHelp(stdout, commandNamed(fs.Name()))
		return flag.ErrHelp
	}
	return usageError(fs.Name(), stderr, "%s", flagErrorRE.ReplaceAllString(err.Error(), "$1 --$2"))
}

// flagErrorRE matches the flag names in the flag package's errors, which
// it writes with one dash (-layer) whatever the user typed.
var flagErrorRE = regexp.MustCompile(`(not defined:|for flag|needs an argument:) -([a-z][a-z0-9-]+)`)

// commandNamed returns the command with the given name.
func commandNamed(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	panic("no command " + name)
}

// usageError prints a command-line error of a command and where to find
// its usage on stderr, and returns errUsage.
func usageError(name string, stderr io.Writer, format string, args ...any) error {
	fmt.Fprintf(stderr, "lipton %s: %s\nusage: %s (lipton help %s describes the flags)\n",
		name, fmt.Sprintf(format, args...), commandNamed(name).usage, name)
	return errUsage
}

// exitCode is the exit code of a command whose flags did not parse.
func exitCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitBadInput
}

// flagSet reports whether a flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// plural returns "1 layer", "2 layers": n and the word, in the plural
// unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// verb returns the singular form of a verb for n == 1, else the plural.
func verb(n int, singular, pluralForm string) string {
	if n == 1 {
		return singular
	}
	return pluralForm
}
