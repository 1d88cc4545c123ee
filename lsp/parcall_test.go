package lsp

import (
	"strings"
	"testing"
)

// TestHoverParallelCall: the hover of a parallel call says what it is,
// and the hover of one of its arms that the arm is an action arm, a
// step.
func TestHoverParallelCall(t *testing.T) {
	src := `var x: int;
layer 0 {
  both action a() { x := x + 1; }
  both action b() { }
  proc p()
  {
    call a() | b();
  }
}
`
	a := analyze("file:///t.lip", 1, src, 1<<20)
	if a.prog == nil {
		t.Fatal("the program did not check")
	}
	line := strings.Index(src, "call a()")
	for _, tc := range []struct {
		off  int
		want string
	}{
		{line, "a parallel call: its arms are calls of actions"},
		{line + len("call a() | "), "an action arm: a step"},
	} {
		if got := stmtHover(a, tc.off); !strings.Contains(got, tc.want) {
			t.Errorf("hover at offset %d: %q, want %q", tc.off, got, tc.want)
		}
	}
}

// TestHoverParallelCallProcArm: a parallel call with a procedure arm
// says that its procedure arms are sub-threads, and the procedure arm
// that it is one.
func TestHoverParallelCallProcArm(t *testing.T) {
	src := `var x: int;
layer 0 {
  both action a() { x := x + 1; }
  proc q() { call a(); yield; call a(); }
  proc p()
  {
    call a() | q();
  }
}
`
	a := analyze("file:///t.lip", 1, src, 1<<20)
	if a.prog == nil {
		t.Fatal("the program did not check")
	}
	line := strings.Index(src, "call a() | q()")
	for _, tc := range []struct {
		off  int
		want string
	}{
		{line, "a parallel call with procedure arms: they run as sub-threads"},
		{line + len("call a() | "), "a procedure arm: the procedure runs as a sub-thread"},
	} {
		if got := stmtHover(a, tc.off); !strings.Contains(got, tc.want) {
			t.Errorf("hover at offset %d: %q, want %q", tc.off, got, tc.want)
		}
	}
}

// TestHoverParallelCallArmKinds: the hover of each arm of a parallel
// call says what kind of arm it is (found by review: a mover procedure
// arm was described as a call of a procedure with a yield point before
// and after it, and an arm written after an invariant arm as that
// invariant arm's yield point), and the hover of the call names the
// kinds of arms it has.
func TestHoverParallelCallArmKinds(t *testing.T) {
	src := `type Tid = int;
var slot: [Tid]int;
var total: int = 0;
yield invariant AtLeast(n: int) { total >= n; }
layer 0 {
  both action bump() { total := total + 1; }
  both action put(linear t: Tid, v: int) { slot[t] := v; }
  both proc add2() { call bump(); call bump(); }
  proc fill(linear t: Tid, v: int) { call put(t, 0); yield; call put(t, v); }
  proc work(linear tid: Tid, v: int)
    requires total >= 0
  {
    call add2() | fill(tid, v) | AtLeast(0) | bump();
    call bump() | AtLeast(1) | add2();
    call add2();
  }
}
`
	a := analyze("file:///t.lip", 1, src, 1<<20)
	if a.prog == nil {
		t.Fatal("the program did not check")
	}
	first := strings.Index(src, "call add2() | fill")
	second := strings.Index(src, "call bump() | AtLeast(1)")
	for _, tc := range []struct {
		at, want string
		off      int
	}{
		{"call add2() | fill", "a parallel call with procedure arms", first},
		{"call add2() | fill", "a mover procedure arm counts as an action arm of its mover type", first},
		{"call add2() | fill", "its yield-invariant arms are part of the procedures' yield point", first},
		{"add2() | fill", "a mover procedure arm: one step of the procedure's mover type", first + len("call ")},
		{"fill(tid, v) |", "a procedure arm: the procedure runs as a sub-thread", strings.Index(src, "fill(tid, v) |")},
		{"AtLeast(0)", "a yield-invariant arm: it runs no code; it is part of the procedure arms' yield point", strings.Index(src, "AtLeast(0)")},
		{"bump() after AtLeast(0)", "an action arm: a step", strings.Index(src, "AtLeast(0) | bump") + len("AtLeast(0) | ")},
		{"call bump() | AtLeast(1)", "and mover procedures (one step of their mover type each)", second},
		{"call bump() | AtLeast(1)", "each run of its yield-invariant arms is a yield point", second},
		{"AtLeast(1)", "a yield-invariant arm: it runs no code; it is a yield point after the arms written before it", strings.Index(src, "AtLeast(1)")},
		{"add2() after AtLeast(1)", "a mover procedure arm", strings.Index(src, "AtLeast(1) | add2") + len("AtLeast(1) | ")},
		{"call add2();", "a call of a mover procedure of the same layer: one step of its mover type", strings.Index(src, "call add2();")},
	} {
		if got := stmtHover(a, tc.off); !strings.Contains(got, tc.want) {
			t.Errorf("hover at %s: %q, want %q", tc.at, got, tc.want)
		}
	}
}
