package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lipton-dev/lipton/vcgen"
)

// printGitHub prints one GitHub Actions annotation per finding.
func printGitHub(w io.Writer, r *checkRun) {
	for _, f := range r.findings {
		kind := "error"
		if f.unknown {
			kind = "warning"
		}
		loc := ""
		if len(f.pos) > 0 {
			p := f.pos[0]
			loc = fmt.Sprintf(" file=%s,line=%d,col=%d", p.File, p.Line, p.Col)
		}
		msg := fmt.Sprintf("%s (layer %d): %s", f.check, f.layer, f.msg)
		fmt.Fprintf(w, "::%s%s::%s\n", kind, loc, escapeGitHub(msg))
	}
}

// escapeGitHub escapes the characters GitHub's workflow commands reserve.
func escapeGitHub(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

type jsonFile struct {
	File     string        `json:"file"`
	Verdict  string        `json:"verdict"`
	Error    string        `json:"error,omitempty"`
	Claim    string        `json:"claim,omitempty"`
	Counts   []jsonCount   `json:"counts,omitempty"`
	Findings []jsonFinding `json:"findings,omitempty"`
	Seconds  float64       `json:"seconds"`
	Times    *jsonTimes    `json:"times,omitempty"`
}

// jsonTimes splits a run's wall time into its phases.
type jsonTimes struct {
	FrontEnd   float64 `json:"front_end"`
	Generation float64 `json:"generation"`
	Solver     float64 `json:"solver"`
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
	Counterexample map[string][]string `json:"counterexample,omitempty"`
}

// printJSON prints every file's results as one JSON document.
func printJSON(w io.Writer, runs []*fileRun) {
	var out []jsonFile
	for _, fr := range runs {
		jf := jsonFile{File: fr.path, Error: fr.err}
		switch {
		case fr.run == nil:
			jf.Verdict = "error"
		case fr.code == exitOK:
			jf.Verdict = "proven"
		default:
			jf.Verdict = "failed"
		}
		if r := fr.run; r != nil {
			jf.Claim, jf.Seconds = r.claim, r.times.total.Seconds()
			jf.Times = &jsonTimes{r.times.frontEnd.Seconds(), r.times.generate.Seconds(), r.times.solve.Seconds()}
			for _, k := range r.sortedKeys() {
				c := r.tally[k]
				jf.Counts = append(jf.Counts, jsonCount{k.layer, k.check, c.proven, c.failed, c.unknown, c.skipped})
			}
			for _, f := range r.findings {
				jf.Findings = append(jf.Findings, toJSONFinding(f))
			}
		}
		out = append(out, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}

func toJSONFinding(f *finding) jsonFinding {
	jf := jsonFinding{Check: f.check, Layer: f.layer, Verdict: "failed", Message: f.msg, Notes: f.notes, Reason: f.reason}
	if f.unknown {
		jf.Verdict = "unknown"
	}
	for _, p := range f.pos {
		jf.Positions = append(jf.Positions, p.String())
	}
	if f.cex != nil {
		jf.Counterexample = map[string][]string{}
		vals := map[*vcgen.Var]vcgen.VarValues{}
		for _, vv := range f.cex.Vars {
			vals[vv.Var] = vv
		}
		for _, g := range f.ob.Groups {
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
