package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fatih/color"
	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

var (
	failLabel    = color.New(color.FgRed, color.Bold)
	unknownLabel = color.New(color.FgYellow, color.Bold)
	okLabel      = color.New(color.FgGreen, color.Bold)
)

// printText prints a run for people: each finding with its source lines
// and counterexample, then the summary.
func printText(w io.Writer, path string, r *check.Result, verbose bool) {
	if verbose {
		for _, line := range r.Log {
			fmt.Fprintln(w, line)
		}
		fmt.Fprintf(w, "the most work of one query: %d resource units (--rlimit %d)\n", r.MaxResources, r.RLimit)
	}
	for _, f := range r.Findings {
		printFinding(w, r.File.Src, f)
	}
	printSummary(w, path, r)
}

func printFinding(w io.Writer, src []byte, f *check.Finding) {
	label, word := failLabel, "error"
	if f.Unknown {
		label, word = unknownLabel, "unknown"
	}
	where := "?"
	if len(f.Pos) > 0 {
		where = f.Pos[0].String()
	}
	fmt.Fprintf(w, "%s: %s %s (layer %d): %s\n", paint(w, posLabel, where), paint(w, label, word+":"), f.Check, f.Layer, f.Msg)
	for i, p := range f.Pos {
		if i > 0 {
			fmt.Fprintf(w, "  %s:\n", p)
		}
		if line := lang.SourceLine(src, p.Line); line != "" {
			fmt.Fprintln(w, lang.Caret(line, p.Col))
		}
	}
	for _, n := range f.Notes {
		fmt.Fprintln(w, "  "+n)
	}
	if f.Unknown && f.Reason != "" {
		fmt.Fprintf(w, "  the solver could not decide it: %s\n", f.Reason)
	}
	if !f.Unknown && f.Cex == nil && f.Reason != "" {
		fmt.Fprintf(w, "  (no counterexample: %s)\n", f.Reason)
	}
	if f.Cex != nil {
		printCounterexample(w, f.Obligation, f.Cex)
	}
	fmt.Fprintln(w)
}

// sourceName returns the source name of an obligation variable: lipton
// names a variable's copies (per thread, snapshots, traces) by suffixes
// after a dot, which source names cannot contain.
func sourceName(name string) string {
	if i := strings.IndexAny(name, ".@"); i > 0 {
		return name[:i]
	}
	return name
}

// printCounterexample prints the values before and after of the
// variables the obligation groups for display, named as in the source.
func printCounterexample(w io.Writer, ob *obl.Obligation, cex *obl.Counterexample) {
	fmt.Fprintln(w, "  counterexample (before -> after):")
	vals := map[*obl.Var]obl.VarValues{}
	for _, vv := range cex.Vars {
		vals[vv.Var] = vv
	}
	for _, g := range ob.Groups {
		vars := g.Vars
		if len(vars) > 0 && strings.HasPrefix(vars[0].Name, "reached.") {
			// A trace of a program point: show it only if the failing
			// path passed there.
			if vv, ok := vals[vars[0]]; !ok || vv.After.String() != "true" {
				continue
			}
			vars = vars[1:]
		}
		var parts []string
		for _, v := range vars {
			vv, ok := vals[v]
			if !ok {
				continue
			}
			name := sourceName(v.Name)
			s := name + " = " + vv.Before.String()
			if g.Name != vars0Group(g) {
				s = name + " = " + vv.After.String() // a trace: its value when recorded
			} else if !obl.ValueEqual(vv.Before, vv.After) {
				s += " -> " + vv.After.String()
			}
			parts = append(parts, s)
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "    %s: %s\n", g.Name, strings.Join(parts, ", "))
		}
	}
}

// printSummary prints the per-layer, per-check counts, the totals and
// the verdict.
func printSummary(w io.Writer, path string, r *check.Result) {
	fmt.Fprintf(w, "%s: %s\n", path, plural(len(r.Program.Layers), "layer"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  layer\tcheck\tproven\tfailed\tunknown\tskipped")
	for _, k := range r.SortedKeys() {
		c := r.Tally[k]
		fmt.Fprintf(tw, "  %d\t%s\t%d\t%d\t%d\t%d\n", k.Layer, k.Check, c.Proven, c.Failed, c.Unknown, c.Skipped)
	}
	tw.Flush()
	t := r.Totals()
	fmt.Fprintf(w, "total: %d proven, %d failed, %d unknown, %d skipped in %s (front end %s, generation %s, solver %s)\n",
		t.Proven, t.Failed, t.Unknown, t.Skipped, round(r.Times.Total), round(r.Times.FrontEnd), round(r.Times.Generate), round(r.Times.Solve))
	if r.NotDecided > 0 {
		fmt.Fprintf(w, "%s not decided: %s\n", plural(r.NotDecided, "assert"), r.Stopped)
	}
	switch {
	case t.Failed > 0:
		fmt.Fprintln(w, paint(w, failLabel, "FAILED"))
	case t.Unknown > 0:
		fmt.Fprintln(w, paint(w, unknownLabel, "UNKNOWN: some obligations could not be decided"))
	case r.Claim != "":
		fmt.Fprintln(w, paint(w, okLabel, "proven: ")+r.Claim)
	default:
		fmt.Fprintln(w, paint(w, okLabel, "proven: ")+"the checked layer is safe")
	}
}

// vars0Group returns the group's name unless it is a trace group (whose
// first variable records that a point was reached), so that callers can
// tell the two apart.
func vars0Group(g obl.VarGroup) string {
	if len(g.Vars) > 0 && strings.HasPrefix(g.Vars[0].Name, "reached.") {
		return ""
	}
	return g.Name
}
