package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// printGitHub prints one GitHub Actions annotation per finding.
func printGitHub(w io.Writer, r *check.Result) {
	for _, f := range r.Findings {
		kind := "error"
		if f.Unknown {
			kind = "warning"
		}
		var p lang.Pos
		if len(f.Pos) > 0 {
			p = f.Pos[0]
		}
		printAnnotation(w, kind, p, fmt.Sprintf("%s (layer %d): %s", f.Check, f.Layer, f.Msg))
	}
}

// printGitHubLoadErrors prints an annotation per parse or type error of
// a file that could not be loaded (nothing if err is nil).
func printGitHubLoadErrors(w io.Writer, err error) {
	var list lang.ErrorList
	switch {
	case err == nil:
		return
	case !errors.As(err, &list):
		printAnnotation(w, "error", lang.Pos{}, err.Error())
		return
	}
	for i, e := range list {
		if i == lang.MaxErrors {
			break
		}
		printAnnotation(w, "error", e.Pos, e.Msg)
	}
}

// printAnnotation prints one workflow command ::KIND file=F,line=L,col=C::MSG;
// the position is left out if it is not valid.
func printAnnotation(w io.Writer, kind string, p lang.Pos, msg string) {
	loc := ""
	if p.IsValid() {
		loc = fmt.Sprintf(" file=%s,line=%d,col=%d", escapeGitHubProperty(p.File), p.Line, p.Col)
	}
	fmt.Fprintf(w, "::%s%s::%s\n", kind, loc, escapeGitHubData(msg))
}

// escapeGitHubData escapes the message of a workflow command: GitHub
// reads %25, %0D and %0A as "%", CR and LF, and a raw newline would end
// the command.
func escapeGitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeGitHubProperty escapes a property value of a workflow command:
// as a message, and ":" and "," too, which end a property.
func escapeGitHubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

type jsonFile struct {
	File    string `json:"file"`
	Verdict string `json:"verdict"`
	Error   string `json:"error,omitempty"`
	// Errors are the parse and type errors of a file that could not be
	// loaded, with their positions.
	Errors   []jsonError   `json:"errors,omitempty"`
	Claim    string        `json:"claim,omitempty"`
	Counts   []jsonCount   `json:"counts,omitempty"`
	Findings []jsonFinding `json:"findings,omitempty"`
	Seconds  float64       `json:"seconds"`
	Times    *jsonTimes    `json:"times,omitempty"`
	// Resources says how much of --rlimit the run needed.
	Resources *jsonResources `json:"resources,omitempty"`
}

// jsonResources is the solver work of a run, in Z3's resource units.
type jsonResources struct {
	MaxQuery uint64 `json:"max_query"` // the most one query used
	RLimit   uint64 `json:"rlimit"`    // the limit of one query
}

// jsonTimes splits a run's wall time into its phases.
type jsonTimes struct {
	FrontEnd   float64 `json:"front_end"`
	Generation float64 `json:"generation"`
	Solver     float64 `json:"solver"`
}

// jsonError is a parse or type error: its position, message and the
// source line it is on (a window around the column if the line is long).
type jsonError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Source  string `json:"source,omitempty"`
}

type jsonCount struct {
	Layer   int    `json:"layer"`
	Check   string `json:"check"`
	Proven  int    `json:"proven"`
	Failed  int    `json:"failed"`
	Unknown int    `json:"unknown"`
	Skipped int    `json:"skipped"`
}

type jsonFinding struct {
	Check          string              `json:"check"`
	Layer          int                 `json:"layer"`
	Verdict        string              `json:"verdict"`
	Message        string              `json:"message"`
	Positions      []string            `json:"positions"`
	Notes          []string            `json:"notes,omitempty"`
	Reason         string              `json:"reason,omitempty"`
	Resources      uint64              `json:"resources,omitempty"` // Z3's resource units spent on it
	Counterexample map[string][]string `json:"counterexample,omitempty"`
}

// printJSON prints every file's results as one JSON document.
func printJSON(w io.Writer, runs []*fileRun) {
	var out []jsonFile
	for _, fr := range runs {
		jf := jsonFile{File: fr.path, Error: fr.err, Errors: toJSONErrors(fr.loadErr)}
		switch {
		case fr.run == nil:
			jf.Verdict = "error"
		case fr.code == exitOK:
			jf.Verdict = "proven"
		default:
			jf.Verdict = "failed"
		}
		if r := fr.run; r != nil {
			jf.Claim, jf.Seconds = r.Claim, r.Times.Total.Seconds()
			jf.Times = &jsonTimes{r.Times.FrontEnd.Seconds(), r.Times.Generate.Seconds(), r.Times.Solve.Seconds()}
			jf.Resources = &jsonResources{MaxQuery: r.MaxResources, RLimit: r.RLimit}
			for _, k := range r.SortedKeys() {
				c := r.Tally[k]
				jf.Counts = append(jf.Counts, jsonCount{k.Layer, string(k.Check), c.Proven, c.Failed, c.Unknown, c.Skipped})
			}
			for _, f := range r.Findings {
				jf.Findings = append(jf.Findings, toJSONFinding(f))
			}
		}
		out = append(out, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // "g > 0", not "g \u003e 0": the output is not HTML
	enc.Encode(out)
}

// toJSONErrors converts the parse and type errors in err, if any.
func toJSONErrors(err error) []jsonError {
	var list lang.ErrorList
	if !errors.As(err, &list) {
		return nil
	}
	out := []jsonError{}
	for _, e := range list {
		source, _ := lang.LineWindow(e.Line, e.Pos.Col)
		out = append(out, jsonError{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg, Source: source})
	}
	return out
}

func toJSONFinding(f *check.Finding) jsonFinding {
	jf := jsonFinding{Check: string(f.Check), Layer: f.Layer, Verdict: "failed", Message: f.Msg, Notes: f.Notes, Reason: f.Reason, Resources: f.Resources}
	if f.Unknown {
		jf.Verdict = "unknown"
	}
	for _, p := range f.Pos {
		jf.Positions = append(jf.Positions, p.String())
	}
	if f.Cex != nil {
		jf.Counterexample = map[string][]string{}
		vals := map[*obl.Var]obl.VarValues{}
		for _, vv := range f.Cex.Vars {
			vals[vv.Var] = vv
		}
		for _, g := range f.Obligation.Groups {
			for _, v := range g.Vars {
				if vv, ok := vals[v]; ok {
					jf.Counterexample[g.Name] = append(jf.Counterexample[g.Name],
						fmt.Sprintf("%s = %s -> %s", sourceName(v.Name), vv.Before, vv.After))
				}
			}
		}
	}
	return jf
}
