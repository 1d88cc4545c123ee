package refine

import (
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// build parses, checks and builds a program, failing the test on error.
func build(t *testing.T, src string) *layers.Program {
	t.Helper()
	f, info, err := lang.ParseAndCheck("t.lip", []byte(src))
	if err != nil {
		t.Fatalf("front end:\n%v", err)
	}
	return layers.Build(f, info)
}

func TestRefinementStructureMessage(t *testing.T) {
	prog := build(t, `
var x: int = 0;
layer 0 { proc p(linear tid: int) { x := 1; yield; x := 2; } }
layer 1 { proc p(linear tid: int) { x := 1; } }
`)
	obs, _, diags := refinement(prog, 0)
	if len(diags) != 1 || diags[0].Check != Structure {
		t.Fatalf("want one structure diagnostic, got %v", diags)
	}
	if want := "layer 1 p has no statement for layer 0 p's step at t.lip:3:52"; diags[0].Msg != want {
		t.Errorf("message:\n got %s\nwant %s", diags[0].Msg, want)
	}
	if len(obs) != 0 {
		t.Errorf("a structural mismatch must not produce step obligations, got %d", len(obs))
	}
}

// TestIntroducedVariables: a variable introduced above layer 0 may be
// assigned by the layer that introduces it (proofs/refinement has the
// end-to-end cases, including an assumption that fails).
func TestIntroducedVariables(t *testing.T) {
	prog := build(t, `
var x: int = 0;
var holder: int = -1 layers 1..1;
layer 0 { proc p(linear tid: int) { x := 1; } }
layer 1 { proc p(linear tid: int) { [x := 1; holder := tid;] } }
`)
	obs, _, diags := refinement(prog, 0)
	if len(diags) != 0 || len(obs) != 1 {
		t.Errorf("assigning an introduced variable: want one step abstraction, got %v, %d obligations", diags, len(obs))
	}
}

// TestStructuralMismatches: every compound statement lined up against a
// statement of another kind gets a structure diagnostic naming both
// (these used to dereference a nil statement in the matcher).
func TestStructuralMismatches(t *testing.T) {
	cases := []struct{ lower, upper, want string }{
		{`if (b) { x := 1; }`, `x := 1;`, "an if statement corresponds to a step"},
		{`x := 1;`, `if (b) { x := 1; }`, "a step corresponds to an if"},
		{`while (b) { b := false; }`, `x := 1;`, "a loop corresponds to a step"},
		{`choice { x := 1; } or { x := 2; }`, `x := 1;`, "a choice corresponds to a step"},
		{`choice { x := 1; } or { x := 2; }`, `choice { x := 1; } or { x := 2; } or { x := 3; }`, "the choices have 2 and 3 branches"},
		{`if (b) { x := 1; } else { x := 2; }`, `if (b) { x := 1; } else if (b) { x := 2; }`, "an else block corresponds to an if"},
		{`return;`, `x := 1;`, "a return corresponds to a step"},
		{`if (b) { x := 1; }`, `while (b) { b := false; }`, "an if statement corresponds to a loop"},
		{`while (b) { break; }`, `while (b) { return; }`, "a break corresponds to a return"},
		{`while (b) { return; }`, `while (b) { break; }`, "a return corresponds to a break"},
		{`while (b) { if (b) { break; } }`, `while (b) { if (b) { } }`, "layer 0 p's break at"},
	}
	for _, c := range cases {
		src := "var x: int = 0;\n" +
			"layer 0 { proc p(linear tid: int) { var b: bool; " + c.lower + " } }\n" +
			"layer 1 { proc p(linear tid: int) { var b: bool; " + c.upper + " } }\n"
		_, _, diags := refinement(build(t, src), 0)
		if len(diags) != 1 || diags[0].Check != Structure || !strings.Contains(diags[0].Msg, c.want) {
			t.Errorf("%s vs %s: want one structure diagnostic containing %q, got %v", c.lower, c.upper, c.want, diags)
		}
	}
}

// TestBreakMatchesBreak: a break at one layer corresponds to a break at
// the same position of the next, and brings no obligation of its own.
func TestBreakMatchesBreak(t *testing.T) {
	prog := build(t, `
var x: int = 0;
layer 0 { proc p(linear tid: int) { var b: bool; while (b) { x := 1; yield; if (b) { break; } } x := 2; } }
layer 1 { proc p(linear tid: int) { var b: bool; while (b) { x := 0 + 1; yield; if (b) { break; } } x := 1 + 1; } }
`)
	obs, _, diags := refinement(prog, 0)
	if len(diags) != 0 || len(obs) != 2 {
		t.Errorf("matching breaks: want two step abstractions and no diagnostic, got %v, %d obligations", diags, len(obs))
	}
}

// TestSignaturesMatch: a member has the same parameters and outputs at
// both layers (names, order, types, linear and ghost marks); otherwise a
// structure diagnostic, and no refinement obligation that would pair
// variables by name while calls bind them by position.
func TestSignaturesMatch(t *testing.T) {
	cases := []struct{ lower, upper, want string }{
		{"action a(linear tid: int, x: int, y: int) { g := x - y; }", "action a(linear tid: int, y: int, x: int) { g := x - y; }",
			"parameter 2 of a is x: int at layer 0 but y: int at layer 1"},
		{"action a(linear tid: int) { g := 1; }", "action a(tid: int) { g := 1; }",
			"parameter 1 of a is linear tid: int at layer 0 but tid: int at layer 1"},
		{"action a(ghost x: int) { g := 1; }", "action a(x: int) { g := 1; }",
			"parameter 1 of a is ghost x: int at layer 0 but x: int at layer 1"},
		{"action a() returns (r: int) { r := g; }", "action a() returns (r: int, s: int) { r := g; }",
			"a has 1 outputs at layer 0 but 2 at layer 1"},
		{"proc a(x: int) { g := x; }", "action a(y: int) { g := y; }",
			"parameter 1 of a is x: int at layer 0 but y: int at layer 1"},
		{"proc a(x: int) { g := x; }", "proc a(y: int) { g := y; }",
			"parameter 1 of a is x: int at layer 0 but y: int at layer 1"},
	}
	for _, c := range cases {
		src := "var g: int = 0;\nlayer 0 { " + c.lower + " }\nlayer 1 { " + c.upper + " }\n"
		obs, _, diags := refinement(build(t, src), 0)
		if len(diags) != 1 || diags[0].Check != Structure || !strings.Contains(diags[0].Msg, c.want) {
			t.Errorf("%s vs %s: want one structure diagnostic containing %q, got %v", c.lower, c.upper, c.want, diags)
		}
		if len(obs) != 0 {
			t.Errorf("%s vs %s: %d obligations built for mismatched signatures", c.lower, c.upper, len(obs))
		}
	}
}
