package main

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/mc"
)

// clientsFlag is --clients N: check every most parallel client of the
// instance with at most N calls (mc.RunClients).
type clientsFlag struct {
	set bool
	n   int
}

// String implements flag.Value.
func (f *clientsFlag) String() string {
	if !f.set {
		return ""
	}
	return strconv.Itoa(f.n)
}

// Set implements flag.Value.
func (f *clientsFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a number of calls")
	}
	f.set, f.n = true, n
	return nil
}

// runClients runs explore --clients and prints its result; it returns
// the exit code.
func runClients(stdout, stderr io.Writer, path string, src []byte, prog *layers.Program, opts mc.Options, n int, sig func() os.Signal) int {
	res, err := mc.RunClients(prog, opts, n, nil)
	if err != nil {
		printRunError(stderr, path, src, err)
		return exitBadInput
	}
	printClients(stdout, src, res, n)
	switch {
	case res.Status == mc.OK:
		return exitOK
	case res.Status == mc.Incomplete && sig() != nil:
		return signalExitCode(sig())
	}
	return exitFailed
}

// printClients prints the result of explore --clients: what was checked,
// a line per number of calls, then the failing or stopped client's
// search as explore prints it, and the verdict.
func printClients(w io.Writer, src []byte, res *mc.ClientsResult, n int) {
	if res.Title != "" {
		fmt.Fprintln(w, res.Title)
	}
	fmt.Fprintln(w, "  roles: "+res.Roles)
	for _, note := range res.Notes {
		fmt.Fprintln(w, "  note: "+note)
	}
	var total mc.Stats
	for _, lv := range res.Levels {
		total.States += lv.States
		total.Transitions += lv.Trans
		total.Elapsed += lv.Elapsed
		line := fmt.Sprintf("  %s: %s, %s, %s, %s", plural(lv.N, "call"), plural(lv.Clients, "client"),
			plural(int(lv.States), "state"), plural(int(lv.Trans), "transition"), round(lv.Elapsed))
		if lv.Vacuous > 0 {
			line += fmt.Sprintf(" (%d make no call)", lv.Vacuous)
		}
		if !lv.Finished {
			line += ", stopped"
		}
		fmt.Fprintln(w, line)
	}
	summary := fmt.Sprintf("%s, %s, %s, peak RSS %s", plural(int(total.States), "state"), plural(int(total.Transitions), "transition"),
		round(total.Elapsed), megabytes(mc.PeakRSS()))
	passed := fmt.Sprintf("every client with at most %s passes", plural(res.Done, "call"))
	if res.Done == 0 {
		passed = "no size finished"
	}
	switch {
	case res.Status == mc.OK:
		fmt.Fprintf(w, "%severy client with at most %s passes: %s\n", okLabel.Sprint("no violation: "), plural(n, "call"), summary)
	case res.Status == mc.Violation:
		fmt.Fprintf(w, "client %s:\n", res.Client)
		last := *res.Last
		last.Notes = nil // printed above
		printExplore(w, src, &last)
		if last.CannotRun() {
			fmt.Fprintf(w, "%sthe search stopped where the code cannot run in client %s (above); %s, which proves nothing about more calls: %s\n",
				unknownLabel.Sprint("INCOMPLETE: "), res.Client, passed, summary)
			return
		}
		fmt.Fprintf(w, "%s in client %s (%s); %s: %s\n", failLabel.Sprint("VIOLATION"), res.Client, plural(res.Done+1, "call"), passed, summary)
	case res.Client == "":
		fmt.Fprintf(w, "%s%s: %s\n", unknownLabel.Sprint("INCOMPLETE: "), res.Limit, summary)
	default:
		fmt.Fprintf(w, "%s%s in client %s; %s (largest number of calls finished: %d), which proves nothing about more calls: %s\n",
			unknownLabel.Sprint("INCOMPLETE: "), res.Limit, res.Client, passed, res.Done, summary)
	}
}
