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

// TestGateDropsMovedSource checks that a move b := a makes facts about a
// stale in the gate of the next step: a is empty after the move, so the
// yield's a[i] no longer holds (with b[i] and the disjointness of one
// thread's linear variables it would make the gate false).
func TestGateDropsMovedSource(t *testing.T) {
	l := build(t, `
var g: int;
linear var free: [int]bool = [int]bool(true);
layer 0 {
  action alloc() returns (linear a: [int]bool, i: int) {
    assume free[i];
    free[i] := false;
    a := [int]bool(false)[i := true];
  }
  action give(linear_in a: [int]bool) { }
  public proc p() {
    linear var a: [int]bool;
    linear var b: [int]bool;
    var i: int;
    call a, i := alloc();
    yield a[i];
    b := a;
    g := 1;
    while (*) { yield; call give(b); call b, i := alloc(); }
  }
}`).Layers[0]
	var step *Step
	for _, s := range l.Proc("p").Steps {
		if s.Context != nil {
			step = s
		}
	}
	if step == nil || len(step.Context.Paths) != 1 {
		t.Fatalf("g := 1 directly follows the yield: want one gate path")
	}
	a := findLocal(l, "a")
	if !step.Context.Paths[0].Assigned[a] {
		t.Errorf("the move b := a empties a: want a among the assigned locals of the gate path")
	}
	var giveCall *lang.CallStmt
	lang.Inspect(l.Proc("p").Decl.Body.Stmts, func(s lang.Stmt) bool {
		if c, ok := s.(*lang.CallStmt); ok && c.Callee.Name == "give" {
			giveCall = c
		}
		return true
	})
	if giveCall == nil || !WrittenVars([]lang.Stmt{giveCall})[findLocal(l, "b")] {
		t.Errorf("give(b) empties b: want b among the variables the call writes")
	}
}
