package lang

import (
	"strings"
	"testing"
)

// TestEraseKeepsRealConjuncts checks that ghost erasure removes the
// ghost conjuncts of a requires (yield invariant calls, ghost variables)
// and keeps its facts about parameters, which the implementation's
// clients still owe (found by an adversarial review: `requires n != 0 &&
// Free(tid)` lost n != 0, and the erased program failed its own check).
// Annotations that need ghost state go as a whole.
func TestEraseKeepsRealConjuncts(t *testing.T) {
	const src = `type Tid = int;
var lock: Tid = -1;
var x: int = 0;
ghost var g: int = 0;

yield invariant Free(linear tid: Tid) {
  lock != tid;
}

layer 0 {
  proc p(linear tid: Tid, n: int)
    requires n != 0 && Free(tid)
    preserves n > 0 && g >= 0
    ensures Free(tid)
  {
    x := 10 / n;
    yield Free(tid) && x == 10 / n && g >= 0;
    yield Free(tid);
  }
}
`
	f, _, err := ParseAndCheck("erase.lip", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := string(Format(EraseGhost(f)))
	for _, want := range []string{"requires n != 0\n", "preserves n > 0\n", "yield;\n    yield;"} {
		if !strings.Contains(out, want) {
			t.Errorf("the erased program lacks %q:\n%s", want, out)
		}
	}
	for _, gone := range []string{"Free", "g >= 0", "ghost", "ensures", "x == 10 / n"} {
		if strings.Contains(out, gone) {
			t.Errorf("the erased program still has %q:\n%s", gone, out)
		}
	}
	if _, _, err := ParseAndCheck("erased.lip", []byte(out)); err != nil {
		t.Errorf("the erased program does not check: %v\n%s", err, out)
	}
}
