package mc

import (
	"strings"
	"testing"
)

// porEntersMoverCall: b's first fragment breaks its own annotation
// x == 0, which is checked where no thread is at or inside a call of a
// mover procedure. a sets f (which b waits for), then calls the mover
// procedure m, which blocks there. Without partial-order reduction the
// search reaches b's yield while a waits before the call: a violation.
// The reduction must not run a's move to the call alone (it looked
// invisible: a writes nothing b reads), since after it no state with
// b's broken annotation is checked any more.
const porEntersMoverCall = `
var x: int = 0;
var g: int = 0;
var f: int = 0;

layer 0 {
  right proc m()
  {
    [assume g == 1;]
  }

  public proc stuck()
  {
    [f := 1;]
    yield;
    call m();
  }

  public proc bad()
  {
    [assume f == 1; x := 1;]
    yield x == 0;
    [x := 0;]
  }
}

instance small {
  thread a(tid = 1) calls stuck max 1;
  thread b(tid = 2) calls bad max 1;
  ints 0..1;
}
`

// porInsideMoverCall: a sets f and waits at the call of the mover
// procedure m, inside its fragment; b, which waits for f, can break its
// annotation only from then on. Without the reduction, a may leave the
// call first, and b's broken annotation is then checked: a violation.
// The reduction must not run b alone while a is inside the call (b is
// the first thread, and its steps touch nothing a does): in no state b
// passes would its annotation be checked, and after a leaves the call
// b's annotation holds again.
const porInsideMoverCall = `
var x: int = 0;
var g: int = 0;
var f: int = 0;

layer 0 {
  right proc m()
  {
    [g := g + 1;]
  }

  public proc stuck()
  {
    [f := 1;]
    call m();
  }

  public proc bad()
  {
    [assume f == 1; x := 1;]
    yield x == 0;
    [x := 0;]
  }
}

instance small {
  thread b(tid = 2) calls bad max 1;
  thread a(tid = 1) calls stuck max 1;
  ints 0..1;
}
`

// TestPORMoverCallVisible: a step that enters or leaves a call of a
// mover procedure changes which states explore checks (midfrag.go), so
// partial-order reduction and symmetry must give the verdict of the
// full search, with one worker and two, compressed or not.
func TestPORMoverCallVisible(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      Status
	}{
		{"enters", porEntersMoverCall, Violation},
		{"inside", porInsideMoverCall, Violation},
	} {
		prog := loadSrc(t, tc.name+".lip", tc.src)
		for _, o := range []Options{
			{NoPOR: true, NoSymmetry: true},
			{},
			{Jobs: 2},
			{NoCompress: true},
		} {
			o.Instance = "small"
			res, err := Run(prog, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want {
				t.Errorf("%s, no POR %v, no symmetry %v, jobs %d, no compress %v: status %v, want %v",
					tc.name, o.NoPOR, o.NoSymmetry, o.Jobs, o.NoCompress, res.Status, tc.want)
			}
			if f := res.Failure; tc.want == Violation && (f == nil || !strings.Contains(f.Msg, "yield at line") || !strings.Contains(f.Msg, "in bad")) {
				t.Errorf("%s, no POR %v, no symmetry %v, jobs %d, no compress %v: failure %+v, want the annotation of bad's yield",
					tc.name, o.NoPOR, o.NoSymmetry, o.Jobs, o.NoCompress, f)
			}
		}
	}
}
