package lsp

import (
	"strings"
	"testing"
)

// TestHoverParallelCall: the hover of a parallel call says what it is,
// and the hover of one of its arms that the arm is an action call, a
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
		{line + len("call a() | "), "a call of an action of the same layer: a step"},
	} {
		if got := stmtHover(a, tc.off); !strings.Contains(got, tc.want) {
			t.Errorf("hover at offset %d: %q, want %q", tc.off, got, tc.want)
		}
	}
}

// TestHoverParallelCallProcArm: a parallel call with a procedure arm
// says that its procedure arms are sub-threads, and the procedure arm
// that it is a call of a procedure.
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
		{line + len("call a() | "), "a call of a procedure of the same layer"},
	} {
		if got := stmtHover(a, tc.off); !strings.Contains(got, tc.want) {
			t.Errorf("hover at offset %d: %q, want %q", tc.off, got, tc.want)
		}
	}
}
