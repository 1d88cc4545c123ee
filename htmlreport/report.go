package htmlreport

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/mc"
)

// Page is what a report shows.
type Page struct {
	Path    string // the file's name, as the user gave it
	Version string // lipton's version
	Program *layers.Program
	// Check, if set, is the result of lipton check on the file: its
	// verdict, and its failed and unknown obligations.
	Check *check.Result
	// Explore, if set, is the result of a model-checker run on the file,
	// and Command says which (the lipton explore command line).
	Explore *mc.Result
	Command string
}

// Write writes the page as one HTML document.
func Write(w io.Writer, p Page) error {
	return pageTemplate.Execute(w, build(p))
}

// pageData is what the template renders.
type pageData struct {
	Path, Version string
	Verdicts      []verdict
	Findings      []findingView
	Violation     *violationView
	Grid          grid
	LayerTitles   []string
}

type verdict struct {
	Class string // ok, fail or unknown
	Text  string
}

// findingView is a failed or unknown obligation.
type findingView struct {
	Class     string // fail or unknown
	Head      string
	Positions []posLine
	Notes     []string
	Lanes     *lanes
}

// posLine is a source position with its line.
type posLine struct {
	Where string
	Code  template.HTML
}

// violationView is the violation a model-checker run found.
type violationView struct {
	Command   string
	Head      string
	Positions []posLine
	History   []string
	Lanes     lanes
}

func build(p Page) pageData {
	lines := sourceLines(p.Program.File.Src)
	d := pageData{Path: p.Path, Version: p.Version, Grid: buildGrid(p.Program, lines)}
	top := len(p.Program.Layers) - 1
	for _, n := range d.Grid.Layers {
		d.LayerTitles = append(d.LayerTitles, layerTitle(n, top))
	}
	if r := p.Check; r != nil {
		d.Verdicts = append(d.Verdicts, checkVerdict(r))
		for _, f := range r.Findings {
			d.Findings = append(d.Findings, findingOf(f, lines))
		}
	}
	if res := p.Explore; res != nil {
		d.Verdicts = append(d.Verdicts, exploreVerdict(res, p.Command))
		if res.Failure != nil {
			d.Violation = violationOf(res, p.Command, lines)
		}
	}
	return d
}

func checkVerdict(r *check.Result) verdict {
	t := r.Totals()
	counts := fmt.Sprintf("lipton check: %d proven, %d failed, %d unknown, %d skipped", t.Proven, t.Failed, t.Unknown, t.Skipped)
	switch {
	case t.Failed > 0:
		return verdict{"fail", counts + ": FAILED"}
	case t.Unknown > 0 || r.NotDecided > 0:
		return verdict{"unknown", counts + ": UNKNOWN"}
	case r.Claim != "":
		return verdict{"ok", counts + ": proven: " + r.Claim}
	}
	return verdict{"ok", counts + ": proven"}
}

func exploreVerdict(res *mc.Result, command string) verdict {
	stats := fmt.Sprintf("%d states, %d transitions", res.Stats.States, res.Stats.Transitions)
	if res.CannotRun() {
		return verdict{"unknown", command + ": INCOMPLETE: the search stopped where the code cannot run (" + stats + ")"}
	}
	switch res.Status {
	case mc.OK:
		return verdict{"ok", command + ": no violation: every reachable state explored (" + stats + ")"}
	case mc.Violation:
		return verdict{"fail", command + ": VIOLATION (" + stats + ")"}
	}
	return verdict{"unknown", command + ": INCOMPLETE: " + res.Limit + " (" + stats + ")"}
}

func findingOf(f *check.Finding, lines []string) findingView {
	v := findingView{Class: "fail", Head: fmt.Sprintf("%s (layer %d): %s", f.Check, f.Layer, f.Msg), Notes: f.Notes, Lanes: findingLanes(f)}
	if f.Unknown {
		v.Class = "unknown"
		if f.Reason != "" {
			v.Notes = append(v.Notes, "the solver could not decide it: "+f.Reason)
		}
	} else if f.Cex == nil && f.Reason != "" {
		v.Notes = append(v.Notes, "(no counterexample: "+f.Reason+")")
	}
	v.Positions = positions(f.Pos, lines)
	return v
}

func violationOf(res *mc.Result, command string, lines []string) *violationView {
	f := res.Failure
	kind := f.Kind
	if kind == "error" {
		kind = "the code cannot run"
	}
	v := &violationView{Command: command, Head: kind + ": " + f.Msg, Positions: positions(f.Pos, lines), Lanes: traceLanes(res.Trace)}
	for _, ev := range res.History {
		if ev.Call {
			v.History = append(v.History, fmt.Sprintf("%s calls %s(%s)", ev.Thread, ev.Method, ev.Values))
		} else {
			v.History = append(v.History, strings.TrimSpace(fmt.Sprintf("%s returns from %s %s", ev.Thread, ev.Method, ev.Values)))
		}
	}
	return v
}

// positions renders source positions with their lines.
func positions(ps []lang.Pos, lines []string) []posLine {
	var out []posLine
	for _, p := range ps {
		pl := posLine{Where: p.String()}
		if p.Line >= 1 && p.Line <= len(lines) {
			pl.Code = highlight(strings.TrimSpace(lines[p.Line-1]))
		}
		out = append(out, pl)
	}
	return out
}
