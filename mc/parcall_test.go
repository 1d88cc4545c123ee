package mc

import (
	"strings"
	"testing"
)

// digitsSrc is a procedure whose parallel call appends one digit per arm
// to x, so x tells the order in which the arms ran, followed by the
// assertion check. The arms claim to be both movers, falsely: the front
// end accepts the call, and explore must not trust the claim.
func digitsSrc(check string) string {
	return `
var x: int = 0;
layer 0 {
  both action d1() { x := x * 10 + 1; }
  both action d2() { x := x * 10 + 2; }
  both action d3() { x := x * 10 + 3; }
  proc p() {
    call d1() | d2() | d3();
    assert ` + check + `;
  }
}
instance i { thread w(tid = 0) calls p max 1; ints 0..400; }`
}

// TestParallelCallEveryOrder: explore runs the arms of a parallel call
// in every order, each arm once, and in no other way (the static checks
// run them in textual order only; explore must not).
func TestParallelCallEveryOrder(t *testing.T) {
	all := "x == 123 || x == 132 || x == 213 || x == 231 || x == 312 || x == 321"
	runVerdict(t, loadSrc(t, "digits.lip", digitsSrc(all)), Options{Instance: "i"}, "", "")
	for _, order := range []string{"123", "231", "321"} {
		res := runVerdict(t, loadSrc(t, "digits.lip", digitsSrc("x != "+order)), Options{Instance: "i"}, "assert", "")
		text := traceText(res)
		first := "arm d" + order[:1] + "() of call d1() | d2() | d3();"
		if !strings.Contains(text, first) {
			t.Errorf("order %s: the trace does not name the arm that ran first (%q):\n%s", order, first, text)
		}
	}
}

// TestParallelCallInterleaving: by default the arms run inside the
// caller's fragment; under access atomicity each arm is a step of its
// own, and another thread may run between the arms.
func TestParallelCallInterleaving(t *testing.T) {
	prog := loadSrc(t, "halfway.lip", `
var x: int = 0;
layer 0 {
  right action inc() { x := x + 1; }
  proc add2() { call inc() | inc(); }
  proc get() returns (v: int) { v := x; assert v % 2 == 0; }
}
instance i {
  thread adder(tid = 0) calls add2 max 1;
  thread reader(tid = 1) calls get max 1;
  ints 0..4;
}`)
	runVerdict(t, prog, Options{Instance: "i"}, "", "")
	runVerdict(t, prog, Options{Instance: "i", Atomicity: AtomicityAccess}, "assert", "")
}
