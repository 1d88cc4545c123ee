package mc

import (
	"strings"
	"testing"
)

// TestNoCallIsNotSuccess checks that a search in which no thread ever
// makes a call does not pass: it checked nothing.
func TestNoCallIsNotSuccess(t *testing.T) {
	for _, tc := range []struct {
		file string
		mode Mode
	}{
		{"../proofs/vacuity/broken/no-first-call.lip", ModeSafety},
		{"../proofs/vacuity/broken/no-first-call.lip", ModeLinearizability},
	} {
		prog := load(t, tc.file)
		res, err := Run(prog, Options{Instance: "small", Mode: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Incomplete || !res.Vacuous || !strings.Contains(res.Limit, "no thread of the instance ever makes a call") {
			t.Errorf("%s mode %d: status %d, vacuous %v, %q: want a search that checked nothing", tc.file, tc.mode, res.Status, res.Vacuous, res.Limit)
		}
	}
	prog := loadSrc(t, "no-call.lip", `
var x: int = 0;
layer 0 {
  proc inc(linear tid: int) requires tid == 5 { x := x + 2; }
  proc get(linear tid: int) returns (r: int) requires tid == 5 { r := x; }
}
layer 1 {
  atomic action inc(linear tid: int) requires tid == 5 { x := x + 1; }
  atomic action get(linear tid: int) returns (r: int) requires tid == 5 { r := x; }
}
instance i { thread w(tid = 0..1) calls inc, get max 2; }`)
	res, err := Run(prog, Options{Instance: "i", Mode: ModeLinearizability})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Vacuous || !strings.Contains(res.Limit, "every requires (of layer 1, the specification: the client contract) is false") {
		t.Errorf("vacuous %v, %q", res.Vacuous, res.Limit)
	}
}

// TestNeverCalledNote checks the note on methods no thread ever calls.
func TestNeverCalledNote(t *testing.T) {
	prog := loadSrc(t, "never.lip", `
var x: int = 0;
layer 0 {
  atomic action inc(linear tid: int) { x := x + 1; }
  atomic action reset(linear tid: int) requires x < 0 { x := 0; }
}
instance i { thread w(tid = 1) calls inc, reset max 2; }`)
	res, err := Run(prog, Options{Instance: "i"})
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, res, "", "")
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "never called in any reachable state") || !strings.HasSuffix(notes, ": reset") {
		t.Errorf("notes:\n%s", notes)
	}
}

// TestFailuresHavePositions checks that failures without a statement of
// their own (errors of the code, in steps, annotations and the
// specification) point into the source.
func TestFailuresHavePositions(t *testing.T) {
	tests := []struct {
		name, src string
		mode      Mode
		line      int
	}{
		{"overflow in a step", `
var x: int = 4611686018427387904;
layer 0 {
  proc p(linear tid: int) {
    yield;
    x := x + x;
  }
}
instance i { thread w(tid = 1) calls p max 1; }`, ModeSafety, 6},
		{"division by zero in an annotation", `
var x: int = 0;
layer 0 {
  proc p(linear tid: int) {
    x := 1;
    yield 6 / (x - 1) == 0;
  }
}
instance i { thread w(tid = 1) calls p max 1; }`, ModeSafety, 6},
		{"overflow in the specification", `
var x: int = 4611686018427387904;
layer 0 { proc p(linear tid: int) { x := 1; } }
layer 1 {
  atomic action p(linear tid: int) {
    x := x * 4;
  }
}
instance i { thread w(tid = 1) calls p max 1; }`, ModeLinearizability, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog := loadSrc(t, "pos.lip", tc.src)
			res, err := Run(prog, Options{Instance: "i", Mode: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, res, "error", "")
			if f := res.Failure; len(f.Pos) == 0 || f.Pos[0].Line != tc.line {
				t.Errorf("position %v, want line %d: %s", f.Pos, tc.line, f.Msg)
			}
		})
	}
}
