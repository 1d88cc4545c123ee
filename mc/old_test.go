package mc

import (
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
