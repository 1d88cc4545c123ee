package lsp

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/lipton-dev/lipton/cextable"
	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
)

// maxDiagnostics bounds the diagnostics of one document: a file of
// garbage has an error every few bytes, and lipton check prints at most
// lang.MaxErrors of them too.
const maxDiagnostics = 100

// fileName is the file name lipton uses for a document: the path of a
// file: URI, the URI itself otherwise (an unsaved buffer).
func fileName(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" && u.Path != "" {
		return u.Path
	}
	return uri
}

// frontEndDiagnostics are the parse and type errors of an analysis (or
// why it could not be made), each at its token.
func frontEndDiagnostics(a *analysis) []Diagnostic {
	var list lang.ErrorList
	if !errors.As(a.err, &list) {
		return []Diagnostic{wholeFile(a, a.err.Error())}
	}
	var out []Diagnostic
	for i, e := range list {
		if i == maxDiagnostics {
			break
		}
		out = append(out, Diagnostic{Range: a.text.tokenRange(e.Pos.Line, e.Pos.Col), Severity: SeverityError,
			Source: "lipton", Message: e.Msg})
	}
	return out
}

// wholeFile is a diagnostic about the text as a whole, at its start.
func wholeFile(a *analysis, msg string) Diagnostic {
	return Diagnostic{Range: a.text.tokenRange(1, 1), Severity: SeverityError, Source: "lipton", Message: msg}
}

// findingDiagnostics are the failed and unknown checks of a run, each at
// its first position, with the other positions as related information
// and the counterexample in the message, as lipton check prints them.
func findingDiagnostics(a *analysis, r *check.Result) []Diagnostic {
	var out []Diagnostic
	for i, f := range r.Findings {
		if i == maxDiagnostics {
			break
		}
		d := Diagnostic{Range: a.text.tokenRange(1, 1), Severity: SeverityError, Code: string(f.Check),
			Source: "lipton", Message: findingMessage(f)}
		if f.Unknown {
			d.Severity = SeverityWarning
		}
		for j, p := range f.Pos {
			if j == 0 {
				d.Range = a.text.tokenRange(p.Line, p.Col)
				continue
			}
			line := strings.TrimSpace(a.text.line(p.Line - 1))
			d.RelatedInformation = append(d.RelatedInformation, RelatedInformation{
				Location: Location{URI: a.uri, Range: a.text.tokenRange(p.Line, p.Col)},
				Message:  fmt.Sprintf("also involved (line %d): %s", p.Line, line),
			})
		}
		out = append(out, d)
	}
	return out
}

// findingMessage is a finding's text: the check, the layer and the
// message, its notes, and the counterexample or why there is none.
func findingMessage(f *check.Finding) string {
	var b strings.Builder
	word := "failed"
	if f.Unknown {
		word = "unknown"
	}
	fmt.Fprintf(&b, "%s (layer %d, %s): %s", f.Check, f.Layer, word, f.Msg)
	for _, n := range f.Notes {
		b.WriteString("\n" + n)
	}
	switch {
	case f.Unknown && f.Reason != "":
		b.WriteString("\nthe solver could not decide it: " + f.Reason)
	case f.Cex == nil && f.Reason != "":
		b.WriteString("\n(no counterexample: " + f.Reason + ")")
	}
	if f.Cex != nil {
		b.WriteString("\ncounterexample (before -> after):")
		for _, g := range cextable.Groups(f.Obligation, f.Cex) {
			b.WriteString("\n  " + g.Line())
		}
	}
	return b.String()
}
