package mc

import (
	"strings"
	"testing"
)

// forkDigitsSrc is a procedure whose parallel call has a procedure arm:
// the action arms append 1 and 4 to x, the procedure arm appends 2, yields
// and appends 3, so x tells how the arms interleaved; check follows. The
// actions claim to be both movers, falsely: explore must not trust it.
func forkDigitsSrc(check string) string {
	return `
var x: int = 0;
layer 0 {
  both action d1() { x := x * 10 + 1; }
  both action d2() { x := x * 10 + 2; }
  both action d3() { x := x * 10 + 3; }
  both action d4() { x := x * 10 + 4; }
  proc q() { call d2(); yield; call d3(); }
  proc p() {
    call d1() | q() | d4();
    assert ` + check + `;
  }
}
instance i { thread w(tid = 0) calls p max 1; ints 0..5000; }`
}

// forkOrders are the orders of the digits 1, 2, 3, 4 in which 2 comes
// before 3: every interleaving of the arms.
func forkOrders() []string {
	var out []string
	var rec func(prefix string, left string)
	rec = func(prefix, left string) {
		if left == "" {
			if strings.Index(prefix, "2") < strings.Index(prefix, "3") {
				out = append(out, prefix)
			}
			return
		}
		for i := range left {
			rec(prefix+left[i:i+1], left[:i]+left[i+1:])
		}
	}
	rec("", "1234")
	return out
}

// TestForkEveryInterleaving: explore runs the arms of a parallel call
// with a procedure arm as sub-threads: the action arms run before,
// between and after the procedure's fragments, and nothing else happens
// (the procedure's own order is kept, each arm runs once).
func TestForkEveryInterleaving(t *testing.T) {
	orders := forkOrders()
	if len(orders) != 12 {
		t.Fatalf("%d orders, want 12", len(orders))
	}
	var all []string
	for _, o := range orders {
		all = append(all, "x == "+o)
	}
	runVerdict(t, loadSrc(t, "fork.lip", forkDigitsSrc(strings.Join(all, " || "))), Options{Instance: "i"}, "", "")
	for _, o := range orders {
		runVerdict(t, loadSrc(t, "fork.lip", forkDigitsSrc("x != "+o)), Options{Instance: "i"}, "assert", "")
	}
}

// TestForkOtherThreads: another thread runs between the fragments of a
// procedure arm (it is a yield point), and its steps are checked
// against the annotation where the arm waits.
func TestForkOtherThreads(t *testing.T) {
	prog := loadSrc(t, "other.lip", `
var x: int = 0;
layer 0 {
  both action inc() { x := x + 1; }
  atomic action set(v: int) { x := v; }
  proc q() { call inc(); yield x >= 1; call inc(); }
  proc p() { call inc() | q(); }
  proc r() { call set(0); }
}
instance i {
  thread adder(tid = 0) calls p max 1;
  thread reset(tid = 1) calls r max 1;
  ints 0..4;
}`)
	res := runVerdict(t, prog, Options{Instance: "i"}, "interference", "")
	where := ""
	for _, st := range res.Trace {
		where += st.Where + "\n"
	}
	if !strings.Contains(where, "waits in the parallel call at line 7 in p (inc not run, q at line 6)") {
		t.Errorf("the trace does not say where the caller and its arms wait:\n%s", where)
	}
}

// TestForkRequires: a procedure arm's requires must hold at the fork,
// and keep holding while sibling arms run before the arm starts.
func TestForkRequires(t *testing.T) {
	src := func(arms string) string {
		return `
var x: int = 0;
layer 0 {
  both action inc() { x := x + 1; }
  proc q() requires x == 0 { call inc(); }
  proc p() { call ` + arms + `; }
}
instance i { thread w(tid = 0) calls p max 1; ints 0..4; }`
	}
	runVerdict(t, loadSrc(t, "ok.lip", src("q()")), Options{Instance: "i"}, "", "")
	runVerdict(t, loadSrc(t, "sibling.lip", src("q() | inc()")), Options{Instance: "i"}, "interference", "")
}

// TestForkOutputs: the outputs of the arms reach the caller at the join;
// the action arm reads x before or after the procedure arm's step.
func TestForkOutputs(t *testing.T) {
	src := func(check string) string {
		return `
var x: int = 0;
layer 0 {
  both action get() returns (v: int) { v := x; }
  both action inc() { x := x + 1; }
  proc q(n: int) returns (r: int) { call inc(); yield; r := n + 1; }
  proc p() {
    var a: int;
    var b: int;
    call a := get() | b := q(5);
    assert ` + check + `;
  }
}
instance i { thread w(tid = 0) calls p max 1; ints 0..8; }`
	}
	runVerdict(t, loadSrc(t, "outs.lip", src("b == 6 && (a == 0 || a == 1)")), Options{Instance: "i"}, "", "")
	runVerdict(t, loadSrc(t, "outs.lip", src("a == 1")), Options{Instance: "i"}, "assert", "")
	runVerdict(t, loadSrc(t, "outs.lip", src("a == 0")), Options{Instance: "i"}, "assert", "")
}

// TestForkAccessAtomicity: explore refuses access atomicity with forks
// rather than run them wrongly.
func TestForkAccessAtomicity(t *testing.T) {
	prog := loadSrc(t, "fork.lip", forkDigitsSrc("true"))
	_, err := Run(prog, Options{Instance: "i", Atomicity: AtomicityAccess})
	if !RefusedForks(err) || !strings.Contains(err.Error(), "procedure arms") {
		t.Fatalf("err = %v, want the error about procedure arms", err)
	}
}

// TestForkArbitraryLocals: a procedure arm's local read before it is
// written starts arbitrary; its value is chosen when the arm reads it
// (lazy.go), in the arm's own frame.
func TestForkArbitraryLocals(t *testing.T) {
	src := func(check string) string {
		return `
var x: int = 0;
layer 0 {
  atomic action set(v: int) { x := v; }
  proc q() { var z: int; yield; call set(z); }
  proc p() { call q() | q(); assert ` + check + `; }
}
instance i { thread w(tid = 0) calls p max 1; ints 0..3; }`
	}
	runVerdict(t, loadSrc(t, "lazy.lip", src("x >= 0 && x <= 3")), Options{Instance: "i"}, "", "")
	runVerdict(t, loadSrc(t, "lazy.lip", src("x != 3")), Options{Instance: "i"}, "assert", "")
}

// TestForkNested: a procedure arm with a parallel call of its own runs
// its arms as sub-threads too: every interleaving of the inner arms (1,
// q's 2 then 3, 4) with the outer action arm (5), and nothing else.
func TestForkNested(t *testing.T) {
	src := func(check string) string {
		return `
var x: int = 0;
layer 0 {
  both action d(k: int) { x := x * 10 + k; }
  proc q() { call d(2); yield; call d(3); }
  proc r() { call d(1) | q() | d(4); }
  proc p() { call r() | d(5); assert ` + check + `; }
}
instance i { thread w(tid = 0) calls p max 1; ints 0..99999; }`
	}
	var orders []string
	var rec func(prefix, left string)
	rec = func(prefix, left string) {
		if left == "" {
			if strings.Index(prefix, "2") < strings.Index(prefix, "3") {
				orders = append(orders, prefix)
			}
			return
		}
		for i := range left {
			rec(prefix+left[i:i+1], left[:i]+left[i+1:])
		}
	}
	rec("", "12345")
	if len(orders) != 60 {
		t.Fatalf("%d orders, want 60", len(orders))
	}
	var all []string
	for _, o := range orders {
		all = append(all, "x == "+o)
	}
	runVerdict(t, loadSrc(t, "nested.lip", src(strings.Join(all, " || "))), Options{Instance: "i"}, "", "")
	for _, o := range []string{"12345", "52134", "21534", "41253"} {
		runVerdict(t, loadSrc(t, "nested.lip", src("x != "+o)), Options{Instance: "i"}, "assert", "")
	}
}
