package mc

import "testing"

// TestPrivateLoopReturnReachesExit checks that a return inside a loop of
// private statements counts as reaching the procedure's exit in the
// static analyses of explore (flowSuccs): the graph summarizes the loop
// by one node whose only successor is where the loop ends. Partial-order
// reduction must see the exit's ensures as read by the fragment that
// returns there (else it explores the fragment before the other thread's
// write alone and misses the failure), and the reductions must agree.
func TestPrivateLoopReturnReachesExit(t *testing.T) {
	prog := loadSrc(t, "flow.lip", `
var X: int = 0;
layer 0 {
  proc p(linear tid: int) ensures X == 0 {
    var i: int;
    i := 0;
    while (i < 3) { if (i == 1) { return; } i := i + 1; }
    yield;
  }
  proc q(linear tid: int) { X := 1; }
}
instance i { thread a(tid = 1) calls p max 1; thread b(tid = 2) calls q max 1; ints -1..4; }`)
	for _, off := range []bool{false, true} {
		res, err := Run(prog, Options{Instance: "i", NoPOR: off, NoSymmetry: off, NoDeadVars: off})
		if err != nil {
			t.Fatal(err)
		}
		checkVerdict(t, res, "annotation", "the ensures of p")
		checkTrace(t, res)
	}
}
