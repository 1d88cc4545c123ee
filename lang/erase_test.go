package lang

import (
	"strings"
	"testing"
)

// TestEraseKeepsRealConjuncts checks that ghost erasure removes the
// ghost conjuncts of a requires (yield invariant calls, ghost variables)
// and keeps its facts about parameters, which the implementation's
// clients still owe (found by an adversarial review: `requires n != 0 &&
// Free(tid)` lost n != 0, and the erased program failed its own check).
// Annotations that need ghost state go as a whole.
func TestEraseKeepsRealConjuncts(t *testing.T) {
	const src = `type Tid = int;
var lock: Tid = -1;
var x: int = 0;
ghost var g: int = 0;

yield invariant Free(linear tid: Tid) {
  lock != tid;
}

layer 0 {
  proc p(linear tid: Tid, n: int)
    requires n != 0 && Free(tid)
    preserves n > 0 && g >= 0
    ensures Free(tid)
  {
    x := 10 / n;
    yield Free(tid) && x == 10 / n && g >= 0;
    yield Free(tid);
  }
}
`
	f, _, err := ParseAndCheck("erase.lip", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := string(Format(EraseGhost(f)))
	for _, want := range []string{"requires n != 0\n", "preserves n > 0\n", "yield;\n    yield;"} {
		if !strings.Contains(out, want) {
			t.Errorf("the erased program lacks %q:\n%s", want, out)
		}
	}
	for _, gone := range []string{"Free", "g >= 0", "ghost", "ensures", "x == 10 / n"} {
		if strings.Contains(out, gone) {
			t.Errorf("the erased program still has %q:\n%s", gone, out)
		}
	}
	if _, _, err := ParseAndCheck("erased.lip", []byte(out)); err != nil {
		t.Errorf("the erased program does not check: %v\n%s", err, out)
	}
}

// TestEraseKeepsInvariantArmYields checks that ghost erasure keeps the
// yield point of each run of yield-invariant arms of a parallel call
// without procedure arms (found by review: the arms were dropped, and
// `call a() | Pos(1); call b();` became `call a(); call b();`, one
// fragment where the proof had two). A run before or after every arm
// becomes a `yield;` outside the call, a run between arms a call of an
// empty yield invariant, named apart from the source's names. With
// procedure arms the invariant arms are part of the procedures' yield
// point, which stays: they go without a trace.
func TestEraseKeepsInvariantArmYields(t *testing.T) {
	const src = `var x: int = 0;
var Yield: int = 0;
ghost var g: int = 0;

yield invariant Pos(n: int) {
  x >= n;
  g >= 0;
}

layer 0 {
  atomic action a() { x := x + 1; g := g + 1; }
  right action r() { Yield := Yield + 0; }
  proc h() { call r(); yield; call r(); }

  proc p() {
    call a() | Pos(1);
    call Pos(0) | a() | Pos(1) | Pos(2) | r() | Pos(1);
    call h() | Pos(1) | r();
  }
}
`
	f, _, err := ParseAndCheck("erase.lip", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := string(Format(EraseGhost(f)))
	const body = `  proc p()
  {
    call a();
    yield;
    yield;
    call a() | Yield1() | r();
    yield;
    call h() | r();
  }`
	if !strings.Contains(out, body) {
		t.Errorf("the erased procedure is not\n%s\nbut:\n%s", body, out)
	}
	if !strings.Contains(out, "yield invariant Yield1() {\n  true;\n}") {
		t.Errorf("the erased program lacks the empty yield invariant Yield1:\n%s", out)
	}
	if strings.Contains(out, "Pos") || strings.Contains(out, "g >= 0") {
		t.Errorf("the erased program still has the ghost invariant:\n%s", out)
	}
	if _, _, err := ParseAndCheck("erased.lip", []byte(out)); err != nil {
		t.Errorf("the erased program does not check: %v\n%s", err, out)
	}
}
