package mc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// TestDeadVariables runs programs in which a variable looks dead but is
// read, by every kind of read the liveness analysis must see: a yield
// annotation (checked again when other threads step), a branch
// condition, an assume, the arguments of an action or procedure call,
// the code after a call returns (in a recursive procedure too), an
// output read at the exit (also through a return inside a private
// loop), a loop's next iteration, a private loop, an old() in an ensures
// or in a yield annotation, a yield-invariant arm, the argument of a
// mover procedure, an update of one key of a map local, a write under
// one branch of a choice (which does not kill), and a local chosen
// lazily (reset to unset where dead), a parameter read by a preserved
// yield invariant or an ensures, a local read by a loop invariant, a
// record local, an output passed up through two returns, a local
// written before a pause point inside a statement and read after it,
// and a method's argument that the specification's pending call keeps.
// Each runs with
// the reduction on and off and must give the expected verdict and the
// same trace length both times (the reduction merges states with equal
// futures, so breadth-first search finds failures at the same depth);
// each must also have some variable the reduction resets, so that the
// test cannot pass because the reduction did not apply. Under access
// atomicity, where threads also wait inside steps and annotations are
// not checked after steps, each runs again and must give the same
// verdict and trace length with the reduction on and off.
func TestDeadVariables(t *testing.T) {
	for _, tc := range deadCases {
		t.Run(tc.name, func(t *testing.T) {
			f, info, err := lang.ParseAndCheck("dead.lip", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			prog := layers.Build(f, info)
			compareDead(t, prog, Options{Instance: "i", Mode: tc.mode}, tc.kind, tc.resets)
			compareDeadAccess(t, prog, tc.mode)
		})
	}
}

// compareDead runs prog with opts, the dead-variable reduction on and
// off (partial-order and symmetry reduction off): each run must end
// with a failure of kind want ("" for none), not incomplete, with a
// trace that replays; the run with the reduction must reset the
// variable resets, and both traces must have the same length.
func compareDead(t *testing.T, prog *layers.Program, opts Options, want, resets string) {
	t.Helper()
	var depth [2]int
	for i, off := range []bool{false, true} {
		o := opts
		o.NoDeadVars, o.NoPOR, o.NoSymmetry = off, true, true
		res, err := Run(prog, o)
		if err != nil {
			t.Fatal(err)
		}
		kind := ""
		if res.Failure != nil {
			kind = res.Failure.Kind
			checkTrace(t, res)
		}
		if kind != want || res.Status == Incomplete {
			t.Fatalf("dead-variable reduction off=%v: %v %q, want failure %q", off, res.Status, kind, want)
		}
		on := hasNote(res, "dead-variable reduction: on")
		if on == off {
			t.Fatalf("off=%v: notes %q", off, res.Notes)
		}
		if on && !strings.Contains(strings.Join(res.Notes, "\n"), resets) {
			t.Errorf("the reduction does not reset %s: %q", resets, res.Notes)
		}
		depth[i] = len(res.Trace)
	}
	if depth[0] != depth[1] {
		t.Errorf("trace of %d steps with the reduction, %d without", depth[0], depth[1])
	}
}

// compareDeadAccess runs prog under access atomicity with and without
// the dead-variable reduction: same status, failure kind and trace
// length.
func compareDeadAccess(t *testing.T, prog *layers.Program, mode Mode) {
	t.Helper()
	var got [2]string
	for i, off := range []bool{false, true} {
		res, err := Run(prog, Options{Instance: "i", Mode: mode, Atomicity: AtomicityAccess, NoDeadVars: off, NoPOR: true, NoSymmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		got[i] = fmt.Sprint(res.Status, len(res.Trace))
		if res.Failure != nil {
			got[i] += " " + res.Failure.Kind
			checkTrace(t, res)
		}
		if off == hasNote(res, "dead-variable reduction: on") {
			t.Fatalf("access atomicity, off=%v: notes %q", off, res.Notes)
		}
	}
	if got[0] != got[1] {
		t.Errorf("access atomicity: %s with the reduction, %s without", got[0], got[1])
	}
}

// deadCases: in each, resets names a variable the reduction resets
// somewhere (so it applies), and the verdict depends on the value of a
// variable that stays live across a yield point through one kind of read.
var deadCases = []struct {
	name, src string
	mode      Mode
	kind      string
	resets    string
}{
	{"a yield annotation reads a local while other threads step", `
var g: int = 0;
layer 0 {
  proc inc(linear tid: int) { var x, y: int; [g := g + 1; x := g;] y := 1; yield x <= g; y := 2; }
  proc dec(linear tid: int) { g := g - 1; }
}
instance i { thread a(tid = 1) calls inc max 1; thread b(tid = 2) calls dec max 1; ints -2..3; }`,
		ModeSafety, "interference", "inc.y"},
	{"a branch condition after the yield", `
var g: int = 0;
layer 0 { proc p(linear tid: int) { var x, y: int; x := g + 1; y := 3; yield; if (x > 0) { g := 5; } assert g != 5; } }
instance i { thread a(tid = 1) calls p max 1; ints -1..6; }`,
		ModeSafety, "assert", "p.y"},
	{"an assume after the yield", `
var g: int = 0;
layer 0 { proc p(linear tid: int) { var x, y: int; x := 1; y := 3; yield; assume x == 1; g := 7; assert g != 7; } }
instance i { thread a(tid = 1) calls p max 1; ints -1..8; }`,
		ModeSafety, "assert", "p.y"},
	{"the argument of an action call", `
var g: int = 0;
layer 0 {
  action set(v: int) { g := v; }
  proc p(linear tid: int) { var x, y: int; x := 4; y := 3; yield; call set(x); assert g != 4; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..5; }`,
		ModeSafety, "assert", "p.y"},
	{"the argument of a procedure call", `
var g: int = 0;
layer 0 {
  proc q(v: int) { yield; g := v; }
  proc p(linear tid: int) { var x, y: int; x := 4; y := 3; yield; call q(x); assert g != 4; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..5; }`,
		ModeSafety, "assert", "p.y"},
	{"a local read after a callee that yields returns", `
var g: int = 0;
layer 0 {
  proc q() { var z: int; z := 1; yield; }
  proc p(linear tid: int) { var x: int; x := 4; call q(); assert x != 4; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..5; }`,
		ModeSafety, "assert", "q.z"},
	{"a callee's output, read by its caller after the exit", `
var g: int = 0;
layer 0 {
  proc q() returns (r: int) { var z: int; r := 4; z := 1; yield; }
  proc p(linear tid: int) { var x: int; call x := q(); assert x != 4; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..5; }`,
		ModeSafety, "assert", "q.z"},
	{"a method's output, compared with the specification's", `
layer 0 { proc get(linear tid: int) returns (r: int) { var y: int; r := 3; y := 1; yield; } }
layer 1 { atomic action get(linear tid: int) returns (r: int) { r := 0; } }
instance i { thread w(tid = 0) calls get max 1; ints -1..4; }`,
		ModeLinearizability, "linearizability", "get.y"},
	{"a loop counter, read by the next iteration", `
var g: int = 0;
layer 0 { proc p(linear tid: int) { var i, y: int; i := 0; while (i < 3) { y := i; yield; i := i + 1; } assert i != 3; } }
instance i { thread a(tid = 1) calls p max 1; ints -1..4; }`,
		ModeSafety, "assert", "p.y"},
	{"a bound read by a private loop", `
var g: int = 0;
layer 0 {
  proc p(linear tid: int) {
    var x, i, y: int;
    x := 3; y := 1; yield;
    i := 0;
    while (i < x) { i := i + 1; }
    g := i;
    assert g != 3;
  }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..4; }`,
		ModeSafety, "assert", "p.y"},
	{"a local live at a pause point of access atomicity (between two accesses)", `
var g: int = 0;
var h: int = 0;
layer 0 { proc p(linear tid: int) { var x, y: int; x := 4; y := 1; yield; h := g; g := x; assert g != 4; } }
instance i { thread a(tid = 1) calls p max 1; ints -1..5; }`,
		ModeSafety, "assert", "p.y"},
	{"an output read at the exit through a return inside a private loop", `
var g: int = 0;
layer 0 {
  proc p(linear tid: int) returns (r: int) {
    var i, y: int;
    r := 5; y := 1; yield;
    i := 0;
    while (i < 3) { if (i == 1) { return; } i := i + 1; }
    r := 7;
  }
  proc m(linear tid: int) { var z: int; call z := p(tid); assert z != 5; }
}
instance i { thread a(tid = 1) calls m max 1; ints -1..8; }`,
		ModeSafety, "assert", "p.y"},
	{"the argument of a yield-invariant arm of a parallel call", `
var g: int = 0;
yield invariant AtMost(n: int) { g <= n; }
layer 0 {
  both action bump() { g := g + 1; }
  proc p(linear tid: int) { var x, y: int; x := 1; y := 2; yield; y := 3; call bump() | AtMost(x) | bump(); }
  proc q(linear tid: int) { g := g + 1; }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls q max 1; ints -1..4; }`,
		ModeSafety, "interference", "p.y"},
	{"an old() snapshot read by a later yield annotation", `
var g: int = 2;
layer 0 {
  proc p(linear tid: int) { var y: int; y := 1; yield; y := 2; g := g + 1; yield g == old(g) + 1; y := 3; }
  proc q(linear tid: int) { g := g + 1; }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls q max 1; ints -1..5; }`,
		ModeSafety, "interference", "p.y"},
	{"a local of a recursive procedure, read after the call returns", `
var g: int = 0;
layer 0 {
  proc r(n: int) { var x, y: int; x := n; y := 1; yield; if (n > 0) { call r(n - 1); } yield; g := g + x; }
  proc p(linear tid: int) { call r(2); assert g != 3; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..4; }`,
		ModeSafety, "assert", "r.y"},
	{"a local chosen lazily, reset to unset where dead, then written", `
var g: int = 0;
layer 0 {
  proc p(linear tid: int) { var x, y: int; y := 1; yield; assume x != 3; y := 2; yield; x := g + 2; yield; assert x != 2; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..4; }`,
		ModeSafety, "assert", "p.x"},
	{"a map local: an update of one key reads the map", `
var g: int = 0;
layer 0 {
  proc p(linear tid: int) { var m: [int]int; var y: int; m[0] := 1; y := 1; yield; m[1] := 2; y := 2; yield; assert m[0] != 1; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..3; }`,
		ModeSafety, "assert", "p.y"},
	{"a write under one branch of a choice in a step does not kill", `
var g: int = 0;
layer 0 {
  proc p(linear tid: int) { var x, y: int; x := 2; y := 1; yield; [choice { x := 1; } or { g := 1; }] yield; y := 0; assert x != 2; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..3; }`,
		ModeSafety, "assert", "p.y"},
	{"the argument of a mover procedure", `
var g: int = 0;
layer 0 {
  both proc add(k: int) ensures g == old(g) + k { var y: int; y := 1; g := g + k; }
  proc p(linear tid: int) { var x, z: int; x := 2; z := 1; yield; z := 2; call add(x); assert g != 2; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..4; }`,
		ModeSafety, "assert", "p.z"},
	{"old() in an ensures", `
var g: int = 2;
layer 0 { proc p(linear tid: int) ensures g == old(g) + 1 { var y: int; y := 1; yield; g := g + 1; } }
instance i { thread a(tid = 1) calls p max 1; ints -1..4; }`,
		ModeSafety, "", "p.y"},
	{"a parameter read by a yield invariant the procedure preserves", `
var g: int = 0;
yield invariant AtMost(n: int) { g <= n; }
layer 0 {
  proc p(n: int) preserves AtMost(n) { var y: int; y := 1; yield; y := 2; yield; y := 3; }
  proc m(linear tid: int) { call p(2); }
  proc q(linear tid: int) { g := g + 1; }
}
instance i { thread a(tid = 1) calls m max 1; thread b(tid = 2) calls q max 2; ints -1..3; }`,
		ModeSafety, "", "p.y"},
	{"a local read only by the invariant of a loop with a yield", `
var g: int = 0;
layer 0 {
  proc p(linear tid: int) { var x, i, y: int; x := 1; i := 0; y := 1; while (i < 2) invariant g <= x + 1 { yield; y := i; i := i + 1; } }
  proc q(linear tid: int) { g := g + 1; }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls q max 2; ints -1..3; }`,
		ModeSafety, "", "p.y"},
	{"a record local: an update of one field reads the record", `
type N = record { a: int, b: int };
var g: int = 0;
layer 0 {
  proc p(linear tid: int) { var r: N; var y: int; r := N(1, 2); y := 1; yield; r.a := 3; y := 2; yield; assert r.b != 2; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..3; }`,
		ModeSafety, "assert", "p.y"},
	{"an argument read by the callee's requires, dead in the caller after the call", `
var g: int = 0;
layer 0 {
  proc q(k: int) requires g <= k { yield; }
  proc p(linear tid: int) { var x, y: int; x := 1; y := 1; yield; y := 2; call q(x); }
  proc r(linear tid: int) { g := g + 1; }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls r max 1; ints -1..3; }`,
		ModeSafety, "", "q.k"},
	{"the argument of an action arm of a parallel call", `
var g: int = 0;
var h: int = 0;
layer 0 {
  both action seta(v: int) { g := v; }
  both action seth(v: int) { h := v; }
  proc p(linear tid: int) { var x, y: int; x := 2; y := 1; yield; y := 2; call seta(x) | seth(1); assert g != 2; }
}
instance i { thread a(tid = 1) calls p max 1; ints -1..3; }`,
		ModeSafety, "assert", "p.y"},
	{"a parameter read by the ensures (not through old)", `
var g: int = 0;
layer 0 {
  proc p(linear tid: int, n: int) ensures g == n { var y: int; g := n; y := 1; yield; y := 2; }
  proc q(linear tid: int) { g := g + 1; }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls q max 1; ints -1..3; }`,
		ModeSafety, "annotation", "p.y"},
	{"an output passed up through two returns", `
var g: int = 0;
layer 0 {
  proc inner() returns (r: int) { var z: int; z := 1; yield; r := g; z := 2; yield; }
  proc mid() returns (s: int) { var w: int; w := 1; call s := inner(); w := 2; yield; }
  proc p(linear tid: int) { var x: int; call x := mid(); yield; assert x != 1; }
  proc q(linear tid: int) { g := 1; }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls q max 1; ints -1..3; }`,
		ModeSafety, "assert", "mid.w"},
	{"a local written and read inside a [ ] group, then read after the yield", `
var g: int = 0;
var h: int = 0;
layer 0 {
  proc p(linear tid: int) { var x, y: int; x := 5; y := 1; yield; [h := g; x := h + 1; g := x;] yield; assert g != 2; }
  proc q(linear tid: int) { g := 1; }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls q max 1; ints -1..6; }`,
		ModeSafety, "assert", "p.y"},
	{"a local written before a pause point inside a statement (access atomicity), read after it", `
var g: int = 0;
var h: int = 0;
layer 0 { proc p(linear tid: int) { var x, y: int; x := 5; y := 1; yield; x, h := g + 1, 1; y := 2; yield; assert x != 1; } }
instance i { thread a(tid = 1) calls p max 1; ints -1..6; }`,
		ModeSafety, "assert", "p.y"},
	{"a method's argument, dead after the store, that the specification's pending call keeps", `
var g: int = 0;
layer 0 {
  proc put(linear tid: int, v: int) { var y: int; y := 1; yield; g := v; y := 2; yield; y := 3; yield; g := 0; }
  proc get(linear tid: int) returns (r: int) { r := g; }
}
layer 1 { atomic action put(linear tid: int, v: int) { g := v; } atomic action get(linear tid: int) returns (r: int) { r := g; } }
instance i { thread w(tid = 1..2) calls put max 1; thread r(tid = 3) calls get max 2; ints 0..2; }`,
		ModeLinearizability, "linearizability", "put.v"},
}

// TestDeadVariablesWeakMemory runs programs under store buffers, where a
// thread also waits inside a [ ] group that is a plain store (cut into
// its statements) and a buffered write carries a local's value: with
// the reduction on and off, each must give the expected verdict and a
// trace of the same length, and the reduction must reset some variable.
// The first fails if a pause point's live set were that of its whole
// node: x, written by the group's first statement, is read by the store
// after the pause.
func TestDeadVariablesWeakMemory(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		mem       Memory
		kind      string
		resets    string
	}{
		{"a local written before the pause inside a plain store, stored after it", `
var g: int = 0;
var h: int = 0;
layer 0 { proc p(linear tid: int) { var x, y: int; x := 5; y := 1; yield; h := 1; [x := 2; g := x;] y := 2; yield; assert g != 2; } }
instance i { thread a(tid = 1) calls p max 1; ints -1..6; }`,
			MemoryTSO, "assert", "p.x"},
		{"a buffered write of a local that is overwritten before the store drains", `
var g: int = 0;
var h: int = 0;
layer 0 {
  proc p(linear tid: int) { var x, y: int; x := 2; y := 1; yield; g := x; x := 0; h := 1; y := 2; yield; y := 3; }
  proc q(linear tid: int) { var a, b: int; a := h; b := g; assert !(a == 1 && b == 0); }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls q max 1; ints -1..3; }`,
			MemoryPSO, "assert", "p.x"},
		{"the same under TSO, which keeps the stores in order", `
var g: int = 0;
var h: int = 0;
layer 0 {
  proc p(linear tid: int) { var x, y: int; x := 2; y := 1; yield; g := x; x := 0; h := 1; y := 2; yield; y := 3; }
  proc q(linear tid: int) { var a, b: int; a := h; b := g; assert !(a == 1 && b == 0); }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls q max 1; ints -1..3; }`,
			MemoryTSO, "", "p.x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, info, err := lang.ParseAndCheck("dead.lip", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			compareDead(t, layers.Build(f, info), Options{Instance: "i", Memory: tc.mem}, tc.kind, tc.resets)
		})
	}
}
