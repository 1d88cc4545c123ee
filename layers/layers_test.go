package layers

import (
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// build parses, checks and builds a program, failing the test on error.
func build(t *testing.T, src string) *Program {
	t.Helper()
	f, info, err := lang.ParseAndCheck("t.lip", []byte(src))
	if err != nil {
		t.Fatalf("front end:\n%v", err)
	}
	return Build(f, info)
}

const loopProg = `
var x: int = 0;
layer 0 {
  atomic action bump(linear tid: int) { x := x + 1; }
  proc q(linear tid: int) requires x >= 0 ensures x >= 0 { }
  proc p(linear tid: int)
    requires tid == 1 && x >= 0
    ensures x >= 0
  {
    var i: int;
    i := 0;
    while (i < 3) invariant x >= 0; {
      call bump(tid);
      yield x >= 0;
      i := i + 1;
    }
    call q(tid);
  }
}
`

func TestYieldPointsAndSteps(t *testing.T) {
	l := build(t, loopProg).Layers[0]
	p := l.Proc("p")
	var kinds []string
	for _, y := range p.Yields {
		kinds = append(kinds, y.Kind.String())
	}
	if got, want := strings.Join(kinds, ","), "entry,loop head,yield,call,exit"; got != want {
		t.Errorf("yield points of p: got %s, want %s", got, want)
	}
	if len(p.Steps) != 0 {
		t.Errorf("p has %d inline steps, want 0 (its only step is a call of an action)", len(p.Steps))
	}
	if len(l.Steps) != 1 || l.Steps[0].Action == nil || l.Steps[0].Action.Name() != "bump" {
		t.Errorf("layer steps: want only the action bump, got %v", l.Steps)
	}
	for _, n := range p.Nodes {
		if n.Kind == NodeStep && n.Step != l.Action("bump").Step {
			t.Errorf("the call node does not point at bump's step")
		}
	}
}

func TestGateContext(t *testing.T) {
	l := build(t, `
var x: int = 0;
var y: int = 0;
layer 0 {
  proc p(linear tid: int) {
    var a: int;
    var b: int;
    yield x > 0 && a > 0 && b > 0;
    a := 1;
    if (b > 5) {
      y := x;
    }
    y := y + 1;
  }
}`).Layers[0]
	steps := l.Proc("p").Steps
	if len(steps) != 2 {
		t.Fatalf("want 2 steps, got %d", len(steps))
	}
	ctx := steps[0].Context
	if ctx == nil || len(ctx.Paths) != 1 {
		t.Fatalf("y := x directly follows the yield: want one gate path, got %+v", ctx)
	}
	path := ctx.Paths[0]
	if path.Yield.Kind != YieldStmt || len(path.Conds) != 1 || !path.Assigned[findLocal(l, "a")] {
		t.Errorf("gate path: want the yield, the branch b > 5 and a assigned; got %+v", path)
	}
	if steps[1].Context != nil {
		t.Errorf("y := y + 1 can follow another step: want no gate context")
	}
	b := NewBuilder(l.Program)
	env := b.Thread(b.Globals(l, "", ""), steps[0], "", "")
	got := b.Context(steps[0], env).String()
	if strings.Contains(got, "a > 0") || !strings.Contains(got, "b > 5") || !strings.Contains(got, "x > 0") {
		t.Errorf("context formula %q: want x > 0, b > 0, b > 5 and not the stale a > 0", got)
	}
}

func findLocal(l *Layer, name string) *lang.Object {
	for _, p := range l.Procs {
		for _, o := range p.Decl.Frame() {
			if o.Name == name {
				return o
			}
		}
	}
	return nil
}

func TestFragmentsEndAtNextYields(t *testing.T) {
	l := build(t, loopProg).Layers[0]
	p := l.Proc("p")
	b := NewBuilder(l.Program)
	env := b.Frame(b.Globals(l, "", ""), &p.Decl.Signature, "", "")
	for _, tc := range []struct {
		from YieldKind
		ends []YieldKind
	}{
		{YieldEntry, []YieldKind{YieldLoop}},
		{YieldLoop, []YieldKind{YieldStmt, YieldCall}},
		{YieldStmt, []YieldKind{YieldLoop}},
		{YieldCall, []YieldKind{YieldExit}},
	} {
		var start *YieldPoint
		for _, y := range p.Yields {
			if y.Kind == tc.from {
				start = y
			}
		}
		var ends []YieldKind
		g := &Fragments{B: b, Env: env, Proc: p, Mode: Assume,
			End: func(y *YieldPoint) obl.Cmd { ends = append(ends, y.Kind); return obl.Sequence() }}
		g.From(start)
		if !sameKinds(ends, tc.ends) {
			t.Errorf("fragments from the %s end at %v, want %v", tc.from, ends, tc.ends)
		}
	}
}

func sameKinds(a, b []YieldKind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestWlpGate(t *testing.T) {
	l := build(t, `
var x: int = 0;
layer 0 {
  atomic action a(linear tid: int) requires x > 0 { x := x + 1; assert x > 5; havoc x; assert x > 7; }
}`).Layers[0]
	b := NewBuilder(l.Program)
	env := b.Thread(b.Globals(l, "", ""), l.Steps[0], "", "")
	got := b.Gate(l.Steps[0], env).String()
	for _, want := range []string{"x > 0", "x + 1 > 5", "forall"} {
		if !strings.Contains(got, want) {
			t.Errorf("gate %q should contain %q", got, want)
		}
	}
}

func TestRefinementStructureMessage(t *testing.T) {
	prog := build(t, `
var x: int = 0;
layer 0 { proc p(linear tid: int) { x := 1; yield; x := 2; } }
layer 1 { proc p(linear tid: int) { x := 1; } }
`)
	obs, diags := Refinement(prog, 0)
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
	obs, diags := Refinement(prog, 0)
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
	}
	for _, c := range cases {
		src := "var x: int = 0;\n" +
			"layer 0 { proc p(linear tid: int) { var b: bool; " + c.lower + " } }\n" +
			"layer 1 { proc p(linear tid: int) { var b: bool; " + c.upper + " } }\n"
		_, diags := Refinement(build(t, src), 0)
		if len(diags) != 1 || diags[0].Check != Structure || !strings.Contains(diags[0].Msg, c.want) {
			t.Errorf("%s vs %s: want one structure diagnostic containing %q, got %v", c.lower, c.upper, c.want, diags)
		}
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
		obs, diags := Refinement(build(t, src), 0)
		if len(diags) != 1 || diags[0].Check != Structure || !strings.Contains(diags[0].Msg, c.want) {
			t.Errorf("%s vs %s: want one structure diagnostic containing %q, got %v", c.lower, c.upper, c.want, diags)
		}
		if len(obs) != 0 {
			t.Errorf("%s vs %s: %d obligations built for mismatched signatures", c.lower, c.upper, len(obs))
		}
	}
}

// TestIdleYield: a public procedure whose requires mixes facts about
// arguments with facts about the thread gets a yield point "between
// calls" with the second part; other procedures get none.
func TestIdleYield(t *testing.T) {
	prog := build(t, `
var h: int = -1;
layer 0 {
  proc mixed(linear tid: int, k: int) requires tid != -1 && k >= 0 && h != tid { }
  proc thread(linear tid: int, k: int) requires h != tid { }
  proc args(linear tid: int, k: int) requires k >= 0 { }
}
`)
	l := prog.Layers[0]
	if y := l.Proc("mixed").Idle; y == nil || y.Kind != YieldIdle || len(y.Ann) != 2 {
		t.Errorf("mixed: idle yield %v, want one with tid != -1 and h != tid", y)
	}
	if l.Proc("thread").Idle != nil || l.Proc("args").Idle != nil {
		t.Error("a requires of one kind needs no idle yield point")
	}
}
