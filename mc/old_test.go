package mc

import (
	"strings"
	"testing"
)

const oldGet = `
var C: int = 0;
var D: int = 0;

layer 0 {
  proc get() returns (v: int)
    ensures v == old(C)
  {
    yield;
    v := C;
  }

  proc inc() { [C := C + 1;] }
}

instance two {
  thread reader(tid = 0) calls get max 1;
  thread writer(tid = 1) calls inc max 1;
}`

// TestOldSnapshotFootprint: the fragment from a procedure's entry takes
// the snapshots of old(e), so it reads those globals; partial-order
// reduction must not treat it as independent of another thread's write
// of them (it would then explore only the order where the write comes
// first, and miss the failure).
func TestOldSnapshotFootprint(t *testing.T) {
	prog := loadSrc(t, "old.lip", oldGet)
	m, err := newModel(prog, prog.Info.Instances["two"], 0, modelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := m.porAnalysis()
	if a == nil {
		t.Fatalf("no reduction: %s", m.porOff)
	}
	for _, p := range m.procs {
		if p.name != "get" {
			continue
		}
		f := a.next[p.idx][p.entry].f
		if f.r&1 == 0 { // C is global 0
			t.Errorf("the fragment from get's entry must read C (the snapshot of old(C)): footprint %+v", f)
		}
		if f.r&2 != 0 || f.w != 0 {
			t.Errorf("the fragment from get's entry reads only C and writes nothing: footprint %+v", f)
		}
	}
	res, err := Run(prog, Options{Instance: "two", Mode: ModeSafety, MaxStates: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, res, "annotation", "ensures of get")
}

// TestPrivateLoopExits: a loop of private statements runs concretely;
// break continues after it and return goes to the procedure's exit
// (return used to crash the model checker there).
func TestPrivateLoopExits(t *testing.T) {
	const src = `
var X: int = 0;
layer 0 {
  proc p(k: int) returns (r: int)
    ensures r == k
  {
    r := 0;
    while (true) {
      if (r == k) { return; }
      r := r + 1;
    }
  }
  proc q(k: int) returns (r: int)
    ensures r == k + 1
  {
    r := 0;
    while (true) {
      if (r == k) { break; }
      r := r + 1;
    }
    r := r + 1;
  }
}
instance one { thread t(tid = 0) calls p(k in 0..2), q(k in 0..2) max 2; }`
	for _, tc := range []struct{ src, kind, msg string }{
		{src, "", ""},
		{strings.Replace(src, "ensures r == k\n", "ensures r == 0\n", 1), "annotation", "ensures of p"},
		{strings.Replace(src, "ensures r == k + 1", "ensures r == k", 1), "annotation", "ensures of q"},
	} {
		res, err := Run(loadSrc(t, "exits.lip", tc.src), Options{Instance: "one", Mode: ModeSafety, MaxStates: 100_000})
		if err != nil {
			t.Fatal(err)
		}
		checkVerdict(t, res, tc.kind, tc.msg)
	}
}
