package movers

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt"
)

func layer0(t *testing.T, src string) *layers.Layer {
	t.Helper()
	f, info, err := lang.ParseAndCheck("t.lip", []byte(src))
	if err != nil {
		t.Fatalf("front end:\n%v", err)
	}
	return layers.Build(f, info).Layers[0]
}

// TestYieldSufficiency runs the atomicity automaton over step sequences.
func TestYieldSufficiency(t *testing.T) {
	for _, tc := range []struct {
		body    string
		badLine int // 0: sufficient
	}{
		{"right x := 1; right x := 2; x := 3; left x := 4; both x := 5;", 0},
		{"x := 1; x := 2;", 2},
		{"left x := 1; right x := 2;", 2},
		{"right x := 1; left x := 2; x := 3;", 3},
		{"x := 1; yield; x := 2;", 0},
		{"x := 1; l := 2; x := 3;", 3},                           // private statements are neutral
		{"x := 1; if (*) { yield; } x := 2;", 3},                 // one path has no yield
		{"x := 1; if (*) { yield; } else { yield; } x := 2;", 0}, // every path yields
		{"while (*) { x := 1; yield; }", 0},
		{"left x := 1; while (*) { right x := 2; yield; }", 0}, // the loop head is a yield point
		{"x := 1; while (l < 3) { l := l + 1; }", 2},           // a private loop after the commit step
		{"while (l < 3) { l := l + 1; } x := 1;", 0},           // before it
		{"right x := 1; while (l < 3) { l := l + 1; }", 0},     // right movers do not commit
		{"x := 1; yield; while (l < 3) { l := l + 1; }", 0},    // a new fragment
	} {
		src := "var x: int = 0;\nlayer 0 { proc p() {\nvar l: int;\n" +
			strings.ReplaceAll(tc.body, "; ", ";\n") + "\n} }"
		diags := YieldSufficiency(layer0(t, src))
		switch {
		case tc.badLine == 0 && len(diags) > 0:
			t.Errorf("%q: want sufficient, got %s", tc.body, diags[0].Msg)
		case tc.badLine > 0 && len(diags) == 0:
			t.Errorf("%q: want a violation at line %d, got none", tc.body, tc.badLine+3)
		case tc.badLine > 0 && diags[0].Pos[0].Line != tc.badLine+3:
			t.Errorf("%q: violation at line %d, want %d", tc.body, diags[0].Pos[0].Line, tc.badLine+3)
		}
	}
}

func TestYieldDiagnosticShowsPath(t *testing.T) {
	diags := YieldSufficiency(layer0(t, "var x: int = 0;\nlayer 0 { proc p() {\nright x := 1;\nx := 2;\nx := 3;\n} }"))
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %d", len(diags))
	}
	d := diags[0]
	want := []string{"path from the entry", "line 3: right-mover", "line 4: non-mover (atomic)", "line 5: non-mover (atomic)"}
	notes := strings.Join(d.Notes, "\n")
	for _, w := range want {
		if !strings.Contains(notes, w) {
			t.Errorf("path notes should contain %q:\n%s", w, notes)
		}
	}
	if !strings.Contains(d.Msg, "follows the non-mover (atomic) step at line 4") {
		t.Errorf("message should name the commit step: %s", d.Msg)
	}
}

// TestMoverObligationSelection checks which pairs get which obligations.
func TestMoverObligationSelection(t *testing.T) {
	l := layer0(t, `
var x: int = 0;
var y: int = 0;
layer 0 {
  right action r(linear tid: int) { x := x + 1; }
  left action lm(linear tid: int) { x := 0; }
  atomic action n(linear tid: int) { x := 2 * x; }
  atomic action other(linear tid: int) { y := 1; }
}`)
	obs, skipped, diags := obligations(l)
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	count := map[obl.Kind]int{}
	for _, ob := range obs {
		count[ob.Kind]++
	}
	// Pairs (s1, s2) with s1 right or s2 left: s1 = r with r, lm, n, other;
	// s2 = lm with r, lm, n, other (r,lm counted once): 7 pairs; other
	// touches only y, so its pairs are skipped by footprint.
	if count[Commutativity] != 5 {
		t.Errorf("commutativity obligations: got %d, want 5 (skipped %d)", count[Commutativity], len(skipped))
	}
	if count[NonBlocking] != 1 {
		t.Errorf("non-blocking obligations: got %d, want 1 (for lm)", count[NonBlocking])
	}
	for _, s := range skipped {
		if s.Check == Commutativity && !strings.Contains(s.Reason, "other") {
			t.Errorf("only pairs with the action on y commute syntactically: %s", s.Reason)
		}
		if s.Check == GatePreservation && count[GatePreservation] > 0 {
			t.Errorf("no action has a gate, yet %d gate preservation obligations were made", count[GatePreservation])
		}
	}
}

// TestTwoOwnersNeverMeet: the pairs of two steps that both require the
// owner's id are skipped (two distinct threads cannot both be the owner);
// pinned to different ids, the same pair is checked, and it fails.
func TestTwoOwnersNeverMeet(t *testing.T) {
	const src = `
var x: int = 0;
layer 0 {
  right action r(linear tid: int) requires tid == 0 { x := x + 1; }
  atomic action n(linear tid: int) requires tid == ID { x := 2 * x; }
}`
	for _, c := range []struct {
		id         string
		impossible int
	}{{"0", 2}, {"1", 1}} {
		obs, skipped, _ := obligations(layer0(t, strings.Replace(src, "ID", c.id, 1)))
		impossible := 0
		for _, s := range skipped {
			if strings.Contains(s.Reason, "no two threads can be there") {
				impossible++
			}
		}
		// The pairs with the right mover r first, (r, r) and (r, n), need
		// commutativity (gate preservation is skipped by footprints).
		if impossible != c.impossible {
			t.Errorf("n pinned to %s: %d pairs skipped as impossible, want %d: %v", c.id, impossible, c.impossible, skipped)
		}
		if c.id == "1" {
			failed := false
			for _, r := range smt.Discharge(context.Background(), obs, smt.Options{Jobs: 1}) {
				failed = failed || r.Verdict() == obl.Failed
			}
			if !failed {
				t.Error("r (x + 1) and n (2 * x) do not commute, yet every obligation was proven")
			}
		}
	}
}

// TestTooComplexStepIsUnknown: a step with more paths than lipton
// enumerates is reported as unknown, quickly, never as proven.
func TestTooComplexStepIsUnknown(t *testing.T) {
	var body strings.Builder
	for i := 0; i < 22; i++ {
		fmt.Fprintf(&body, "if (x > %d) { y := y + 1; } else { y := y - 1; } ", i)
	}
	l := layer0(t, "var x: int = 0;\nvar y: int = 0;\nlayer 0 {\n  right action a(linear tid: int) { "+body.String()+"assert y > 0; }\n}")
	obs, _, diags := obligations(l)
	if len(obs) != 0 || len(diags) != 1 || !diags[0].Unknown || !strings.Contains(diags[0].Msg, "split it into smaller steps") {
		t.Fatalf("want one unknown diagnostic and no obligation, got %d obligations and %v", len(obs), diags)
	}
}

// TestPrivateNonBlocking: private code that may block after the commit
// step gets a non-blocking obligation, which fails when the assume can be
// false there (the thread would be stuck after an effect others see) and
// holds when it cannot; before the commit step it needs none.
func TestPrivateNonBlocking(t *testing.T) {
	for _, tc := range []struct {
		body string
		want obl.Verdict // Unknown: no obligation
	}{
		{"[t := x; x := x + 1;] assume t == 0;", obl.Failed},
		{"assume l == 0; [t := x; x := x + 1;]", obl.Unknown},
		{"[t := x; x := x + 1;] l := t; assume l == t;", obl.Proven},
		{"right t := x; assume t == 0;", obl.Unknown},
		{"[t := x; x := x + 1;] yield; assume t == 0;", obl.Unknown},
	} {
		src := "var x: int = 0;\nlayer 0 { proc p() { var l, t: int; " + tc.body + " } }"
		ob := privateNonBlocking(layer0(t, src).Procs[0])
		if ob == nil {
			if tc.want != obl.Unknown {
				t.Errorf("%q: no obligation, want %v", tc.body, tc.want)
			}
			continue
		}
		res := smt.Discharge(context.Background(), []*obl.Obligation{ob}, smt.Options{Jobs: 1})
		if got := res[0].Verdict(); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.body, got, tc.want)
		}
	}
}

// TestImpossibleCommutativityWithTooManyPaths: a commutativity pair no
// two threads can form is skipped from its opening only when its
// transition relation could be computed; with more paths than Relation
// enumerates it stays unknown, as when the relation was always built
// first.
func TestImpossibleCommutativityWithTooManyPaths(t *testing.T) {
	for _, c := range []struct {
		ifs         int // 2^ifs paths per action
		impossible  bool
		diagnostics int
	}{{5, true, 0}, {6, false, 1}} {
		var body strings.Builder
		for i := 0; i < c.ifs; i++ {
			fmt.Fprintf(&body, "if (x > %d) { y := y + 1; } else { y := y - 1; } ", i)
		}
		l := layer0(t, "var x: int = 0;\nvar y: int = 0;\nlayer 0 {\n  right action a(linear tid: int) requires tid == 0 { "+
			body.String()+"}\n}")
		_, skipped, diags := obligations(l)
		impossible := false
		for _, s := range skipped {
			impossible = impossible || s.Check == Commutativity && strings.Contains(s.Reason, "no two threads can be there")
		}
		if impossible != c.impossible || len(diags) != c.diagnostics {
			t.Errorf("%d paths: skipped as impossible %v, %d diagnostics (%v); want %v, %d", 1<<c.ifs, impossible, len(diags), diags, c.impossible, c.diagnostics)
		}
		for _, d := range diags {
			if !d.Unknown || !strings.Contains(d.Msg, "too many paths") {
				t.Errorf("%d paths: %+v, want unknown with too many paths", 1<<c.ifs, d)
			}
		}
	}
}
