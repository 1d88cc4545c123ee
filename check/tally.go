package check

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

func (r *Result) count(layer int, check obl.Kind) *Counts {
	k := Key{layer, check}
	if r.Tally[k] == nil {
		r.Tally[k] = &Counts{}
	}
	return r.Tally[k]
}

func (r *Result) addDiagnostic(d *layers.Diagnostic) {
	c := r.count(d.Layer, d.Check)
	if d.Unknown {
		c.Unknown++
	} else {
		c.Failed++
	}
	r.Findings = append(r.Findings, &Finding{Check: d.Check, Layer: d.Layer, Unknown: d.Unknown,
		Msg: d.Msg, Pos: d.Pos, Notes: d.Notes})
}

func (r *Result) addResult(res obl.ObligationResult) {
	layer := res.Obligation.Layer
	witnessSeen := false
	for _, a := range res.Results {
		if a.Assert.Witness {
			// The witness asserts of an obligation are one question
			// with one answer (obl.AnswerWitnesses): count it once.
			if witnessSeen {
				continue
			}
			witnessSeen = true
		}
		c := r.count(layer, a.Assert.Kind)
		verdict := a.Verdict
		work := fmt.Sprintf("%d resource units", a.Resources)
		if a.Cached {
			work = "from the cache"
		}
		r.Log = append(r.Log, fmt.Sprintf("%s  %s [%s]: %s (%s)", verdict, a.Assert.Kind, res.Obligation.Name, a.Assert.Msg, work))
		r.MaxResources = max(r.MaxResources, a.Resources)
		switch {
		case verdict == obl.Proven:
			c.Proven++
			continue
		case verdict == obl.Failed:
			c.Failed++
		case r.Stopped != "" && a.Reason == r.Stopped:
			// Not decided because the run stopped: counted, and
			// summed up in one line rather than one finding each.
			c.Unknown++
			r.NotDecided++
			continue
		default:
			c.Unknown++
		}
		r.Findings = append(r.Findings, &Finding{Check: a.Assert.Kind, Layer: layer, Unknown: verdict != obl.Failed,
			Msg: a.Assert.Msg, Pos: langPositions(a.Assert.Pos), Reason: a.Reason, Cex: a.Cex, Obligation: res.Obligation, Resources: a.Resources})
	}
}

func langPositions(ps []obl.Pos) []lang.Pos {
	var out []lang.Pos
	for _, p := range ps {
		out = append(out, lang.Pos{File: p.File, Line: p.Line, Col: p.Col})
	}
	return out
}

// Failed reports whether any check failed or is unknown.
func (r *Result) Failed() bool {
	t := r.Totals()
	return len(r.Findings) > 0 || t.Failed > 0 || t.Unknown > 0
}

// Totals sums the tally.
func (r *Result) Totals() Counts {
	var t Counts
	for _, c := range r.Tally {
		t.Proven += c.Proven
		t.Failed += c.Failed
		t.Unknown += c.Unknown
		t.Skipped += c.Skipped
	}
	return t
}

// SortedKeys returns the tally's keys by layer, then in the order of
// Kinds.
func (r *Result) SortedKeys() []Key { return sortedKeys(r.Tally) }
