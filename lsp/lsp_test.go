package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/vccache"
)

func readProof(t *testing.T, path string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "proofs", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// syntaxError has a syntax error after characters of two and four bytes
// in UTF-8, one and two units in UTF-16: at byte column 27, character
// 23.
const syntaxError = "/* é𝔸 */ var x: int = ;\nlayer 0 {}\n"

// TestEditorSession drives the server as an editor does: a syntax error
// while typing, a broken proof, the fixed proof, and the requests an
// editor makes on it.
func TestEditorSession(t *testing.T) {
	cache, err := vccache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := startEditor(t, Options{Version: "test", Cache: cache, Jobs: 1})
	e.initialize()
	const uri = "file:///work/og-increment.lip"

	e.open(uri, 1, syntaxError)
	if p := e.waitChecked(uri, 1); p.Verdict != "error" {
		t.Errorf("verdict of the syntax error: %+v", p)
	}
	want := Range{Start: Position{0, 23}, End: Position{0, 24}}
	if d := e.diags[uri]; len(d) != 1 || d[0].Range != want || d[0].Message != `unexpected ";", expected an expression` || d[0].Severity != SeverityError {
		t.Fatalf("diagnostics of the syntax error:%s\nwant one at %v", diagSummary(d), want)
	}

	broken := readProof(t, "classic/broken/og-increment-noghost.lip")
	e.change(uri, 2, broken)
	if p := e.waitChecked(uri, 2); p.Verdict != "failed" || p.Failed != 2 {
		t.Errorf("verdict of the broken proof: %+v", p)
	}
	checkBrokenDiagnostics(t, e.diags[uri])
	checkRequests(t, e, uri)

	fixed := readProof(t, "classic/og-increment.lip")
	e.change(uri, 3, fixed)
	if p := e.waitChecked(uri, 3); p.Verdict != "proven" {
		t.Errorf("verdict of the fixed proof: %+v", p)
	}
	if d := e.diags[uri]; len(d) != 0 || e.diagVersion[uri] != 3 {
		t.Errorf("diagnostics of the fixed proof (version %d):%s", e.diagVersion[uri], diagSummary(d))
	}

	// The same text again: the cache answers what Z3 proved.
	start := time.Now()
	e.change(uri, 4, fixed)
	p := e.waitChecked(uri, 4)
	if p.Verdict != "proven" || p.Cached == 0 {
		t.Errorf("re-check with a warm cache: %+v", p)
	}
	t.Logf("re-check of the fixed proof with a warm cache: %s round trip, check %.1fms: %s", time.Since(start).Round(time.Millisecond), 1000*p.Seconds, p.Summary)

	checkFormatting(t, e)
	e.shutdown()
}

// checkBrokenDiagnostics checks the two failed non-interference checks
// of og-increment-noghost.lip (README.md shows them as lipton check
// prints them).
func checkBrokenDiagnostics(t *testing.T, ds []Diagnostic) {
	t.Helper()
	if len(ds) != 2 {
		t.Fatalf("want 2 diagnostics of the broken proof, got:%s", diagSummary(ds))
	}
	d := ds[0]
	// 10:14 in lipton's terms: the requires of incA.
	if d.Range != (Range{Start: Position{9, 13}, End: Position{9, 16}}) || d.Code != "non-interference" {
		t.Errorf("first diagnostic at %v, code %q", d.Range, d.Code)
	}
	for _, want := range []string{"non-interference (layer 0, failed): the requires of incA may be invalidated",
		"counterexample (before -> after):", "globals: x = 0 -> 2", "thread 1 (incA, at line 10): tid = 1"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("the message lacks %q:\n%s", want, d.Message)
		}
	}
	if len(d.RelatedInformation) != 2 || d.RelatedInformation[0].Location.Range.Start != (Position{16, 13}) ||
		!strings.Contains(d.RelatedInformation[1].Message, "ensures x == 2 || x == 3") {
		t.Errorf("related information: %+v", d.RelatedInformation)
	}
	if ds[1].Range.Start != (Position{10, 12}) {
		t.Errorf("second diagnostic at %v, want line 11, column 13", ds[1].Range)
	}
}

// checkRequests checks hover, definition and symbols on the broken
// proof og-increment-noghost.lip.
func checkRequests(t *testing.T, e *editor, uri string) {
	t.Helper()
	// Line 13 is "    x := x + 1;": the x read, at character 9.
	var h Hover
	e.result(e.call("textDocument/hover", posParams(uri, 12, 9)), &h)
	for _, want := range []string{"**global variable** `x: int`", "var x: int = 0;", "declared at line 6; exists at layer 0",
		"**step** of `incA` at layer 0 (line 13): **non-mover (atomic)** (untagged)",
		"**gate**: requires `tid == 1` (about parameters, which never change); after the requires of incA: `tid == 1 && x == 0`",
		"**footprint**: reads `x`; writes `x`; the gate reads `x`"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	// On the name incB (line 16): a procedure at layer 0.
	e.result(e.call("textDocument/hover", posParams(uri, 15, 8)), &h)
	if !strings.Contains(h.Contents.Value, "**procedure** `incB`") || !strings.Contains(h.Contents.Value, "a procedure at layer 0") {
		t.Errorf("hover on incB:\n%s", h.Contents.Value)
	}

	var locs []Location
	e.result(e.call("textDocument/definition", posParams(uri, 12, 9)), &locs)
	if len(locs) != 1 || locs[0].URI != uri || locs[0].Range != (Range{Start: Position{5, 4}, End: Position{5, 5}}) {
		t.Errorf("definition of x: %+v", locs)
	}

	var syms []DocumentSymbol
	e.result(e.call("textDocument/documentSymbol", map[string]any{"textDocument": textDoc(uri)}), &syms)
	if len(syms) != 2 || syms[0].Name != "x" || syms[1].Name != "layer 0" || len(syms[1].Children) != 2 ||
		syms[1].Children[0].Name != "incA" || syms[1].Children[1].Name != "incB" || syms[1].Children[1].Kind != SymbolFunction ||
		syms[1].Children[0].SelectionRange.Start != (Position{8, 7}) {
		t.Errorf("symbols: %+v", syms)
	}
}

// checkFormatting formats a document whose text is not in canonical
// form: one edit of the whole text, with lipton fmt's text.
func checkFormatting(t *testing.T, e *editor) {
	t.Helper()
	const uri = "untitled:Untitled-1"
	src := "var   x : int=0;\nlayer 0 {\n  proc p(linear tid: int) { x:=x+1; }\n}\n"
	e.open(uri, 1, src)
	var edits []TextEdit
	e.result(e.call("textDocument/formatting", map[string]any{"textDocument": textDoc(uri), "options": map[string]any{"tabSize": 2, "insertSpaces": true}}), &edits)
	f, err := lang.Parse(uri, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := string(lang.Format(f))
	if len(edits) != 1 || edits[0].NewText != want || edits[0].Range != (Range{End: Position{4, 0}}) {
		t.Errorf("formatting edits: %+v\nwant one with:\n%s", edits, want)
	}
}

// TestSplitDefinition: the name after split goes to the procedure the
// copy is made from, at the layer below (and its namesakes above); a
// variable of the split condition goes to the copy's local.
func TestSplitDefinition(t *testing.T) {
	e := startEditor(t, Options{Version: "test", Jobs: 1})
	e.initialize()
	const uri = "file:///work/take.lip"
	e.open(uri, 1, readProof(t, "split/take.lip"))
	e.waitChecked(uri, 1)
	// Line 56 is "    split take when t < h": take at character 10, t at 20.
	var locs []Location
	e.result(e.call("textDocument/definition", posParams(uri, 55, 11)), &locs)
	if len(locs) == 0 || locs[0].Range.Start != (Position{12, 7}) {
		t.Errorf("definition of take after split: %+v, want line 13 first", locs)
	}
	e.result(e.call("textDocument/definition", posParams(uri, 55, 20)), &locs)
	if len(locs) != 1 || locs[0].Range.Start.Line < 55 {
		t.Errorf("definition of t in the split condition: %+v, want the copy's local", locs)
	}
	e.shutdown()
}
