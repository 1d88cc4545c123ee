package mc

import (
	"strings"
	"testing"
)

// TestArbitraryInitialValues checks that locals and outputs start with
// an arbitrary value, as the language says, wherever the code may read
// them before writing them: in procedures and actions, on both sides of
// a refinement check, in inlined actions and callees.
func TestArbitraryInitialValues(t *testing.T) {
	for _, tc := range arbitraryCases {
		t.Run(tc.name, func(t *testing.T) {
			prog := loadSrc(t, "arbitrary.lip", tc.src)
			var inst string
			for n := range prog.Info.Instances {
				inst = n
			}
			for _, reduce := range []bool{true, false} {
				res, err := Run(prog, Options{Instance: inst, Mode: tc.mode, NoPOR: !reduce, NoSymmetry: !reduce, NoDeadVars: !reduce})
				if err != nil {
					t.Fatal(err)
				}
				checkVerdict(t, res, tc.kind, tc.msg)
			}
		})
	}
}

const lin, safe = ModeLinearizability, ModeSafety

// arbitraryCases are TestArbitraryInitialValues's programs: the
// verdict each must have, with and without reductions.
var arbitraryCases = []struct {
	name, src string
	mode      Mode
	kind, msg string
}{
	{"an output the specification leaves unassigned is arbitrary", `
layer 0 { proc get(linear tid: int) returns (r: int) { r := 3; } }
layer 1 { atomic action get(linear tid: int) returns (r: int) { } }
instance i { thread w(tid = 0) calls get max 1; }`, lin, "", ""},
	{"an output the implementation leaves unassigned is arbitrary", `
layer 0 { proc get(linear tid: int) returns (r: int) { } }
layer 1 { atomic action get(linear tid: int) returns (r: int) { r := 0; } }
instance i { thread w(tid = 0) calls get max 1; }`, lin, "linearizability", "returns from get with r = 1"},
	{"a local read before it is written", `
var g: int = 0;
layer 0 { proc p(linear tid: int) { var x: int; g := x; assert g == 0; } }
instance i { thread w(tid = 0) calls p max 1; }`, safe, "assert", "assertion"},
	{"a bool local takes both values", `
var g: bool = false;
layer 0 { atomic action p(linear tid: int) { var b: bool; g := b; assert !g; } }
instance i { thread w(tid = 0) calls p max 1; }`, safe, "assert", "assertion"},
	{"an output of an inlined action", `
var g: int = 0;
layer 0 {
  action a() returns (r: int) { }
  proc p(linear tid: int) { var x: int; call x := a(); g := x; assert g == 0; }
}
instance i { thread w(tid = 0) calls p max 1; }`, safe, "assert", "assertion"},
	{"an output of a callee reaches its caller", `
var g: int = 0;
layer 0 {
  proc q(linear tid: int) returns (r: int) { yield; }
  proc p(linear tid: int) { var x: int; call x := q(tid); g := x; assert g == 0; }
}
instance i { thread w(tid = 0) calls p max 1; }`, safe, "assert", "assertion"},
	{"a local of a recursive procedure, chosen in its own frame", `
var g: int = 0;
layer 0 {
  proc p(n: int) requires n >= 0 {
    var y: int;
    if (n > 0) { call p(n - 1); }
    g := y;
    assert g < 3;
  }
}
instance i { thread w(tid = 0) calls p(n in 2..2) max 1; ints 0..3; }`, safe, "assert", "assertion"},
	{"the annotation of a waiting thread holds for every value", `
var g: int = 0;
layer 0 {
  proc a(linear tid: int) { var t: int; yield g == 0 || t != 2; }
  proc b(linear tid: int) { g := 1; }
}
instance two { thread x(tid = 1) calls a max 1; thread y(tid = 2) calls b max 1; }`, safe, "interference", "invalidated by a step of y(2)"},
	{"an output left unwritten by a return inside a private loop", `
var g: int = 0;
layer 0 {
  proc p(linear tid: int) returns (r: int) {
    var i: int;
    i := 0;
    while (i < 3) { if (i == 1) { return; } i := i + 1; }
    r := 7;
  }
  proc m(linear tid: int) { var z: int; call z := p(tid); g := z; assert g != 3; }
}
instance i { thread w(tid = 0) calls m max 1; ints 0..8; }`, safe, "assert", "assertion"},
	{"a local written before it is read keeps 0", `
var g: int = 0;
layer 0 { proc p(linear tid: int) { var x: int; x := 1; g := x; assert g == 1; } }
instance i { thread w(tid = 0) calls p max 1; }`, safe, "", ""},
}

// TestArbitraryNotes checks the notes that say which variables start
// arbitrary, on both sides of a refinement check.
func TestArbitraryNotes(t *testing.T) {
	prog := loadSrc(t, "notes.lip", `
layer 0 { proc get(linear tid: int) returns (r: int) { var m: [int]int; r := m[0]; } }
layer 1 { atomic action get(linear tid: int) returns (r: int) { } }
instance i { thread w(tid = 0) calls get max 1; ints 0..1; }`)
	res, err := Run(prog, Options{Instance: "i", Mode: ModeLinearizability})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{
		"get.m may be used before it is assigned: it starts as the constant map",
		"in the specification (layer 1), get.r may be used before it is assigned: it takes every value of the domain (0..1 for ints, both for bools)",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes lack %q:\n%s", want, notes)
		}
	}
}

// TestArbitraryValuesChosenLazily checks that a local flagged as maybe
// read first, but read only under a short-circuit that skips it, does
// not multiply the states: its value is chosen where the code reads it.
func TestArbitraryValuesChosenLazily(t *testing.T) {
	const program = `
var g: int = 0;
layer 0 {
  proc p(linear tid: int) {
    var f: bool;
    var t: int;
    INIT
    f := false;
    yield;
    g := g + 1;
    yield;
    if (!f || t == 0) { g := g + 1; }
  }
}
instance i { thread w(tid = 1..2) calls p max 1; ints 0..3; }`
	states := func(init string) int64 {
		prog := loadSrc(t, "lazy.lip", strings.Replace(program, "INIT", init, 1))
		res, err := Run(prog, Options{Instance: "i", NoPOR: true, NoSymmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		checkVerdict(t, res, "", "")
		return res.Stats.States
	}
	if lazy, zero := states(""), states("t := 0;"); lazy != zero {
		t.Errorf("%d states with t unassigned, %d with t := 0: an unread value multiplied the states", lazy, zero)
	}
}
