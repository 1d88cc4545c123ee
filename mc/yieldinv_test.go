package mc

import (
	"os"
	"strings"
	"testing"
)

// TestYieldInvariantNamed checks that a failing annotation that calls
// yield invariants is reported by the part that fails, as lipton check
// reports it: the yield invariant, at its call and its declaration, or
// the annotation's own conjuncts.
func TestYieldInvariantNamed(t *testing.T) {
	prog := load(t, "../proofs/yieldinv/broken/outside-in-critical-section.lip")
	res := runVerdict(t, prog, Options{Instance: "two"}, "annotation",
		"yield invariant Outside(tid), called in the annotation of the yield at line 63 in incr, does not hold")
	if len(res.Failure.Pos) != 2 || res.Failure.Pos[0].Col != 15 || res.Failure.Pos[1].Line != 45 {
		t.Errorf("positions %v: want the call (63:15) and the declaration (45)", res.Failure.Pos)
	}
	// The same program with the yield's own conjunct false: the direct
	// part is named.
	src := strings.Replace(readFile(t, "../proofs/yieldinv/ticket-counter.lip"), "yield Holds(tid) && c == count;", "yield Holds(tid) && c == count + 1;", 1)
	prog = loadSrc(t, "direct.lip", src)
	res = runVerdict(t, prog, Options{Instance: "two"}, "annotation", "the annotation of the yield at line")
	if strings.Contains(res.Failure.Msg, "yield invariant") {
		t.Errorf("the direct part is reported as a yield invariant: %s", res.Failure.Msg)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestYieldInvariantQuantifiedPart checks a failing yield invariant with
// a quantifier: naming the failing part compiles it during the search,
// after the registers were laid out, and its bound variable once indexed
// past the end of the registers (a panic the differential soundness test
// found in mutants of proofs/civl/mutex-over-futex.lip).
func TestYieldInvariantQuantifiedPart(t *testing.T) {
	const src = `var m: [int]bool;
var n: int = 0;

yield invariant AllOff() { forall i: int :: 0 <= i && i < n ==> !m[i]; }

layer 0 {
  proc p(linear tid: int)
    requires AllOff()
  {
    [m[0] := true; n := 1;]
    yield AllOff();
  }
}

instance small {
  ints 0..1;
  thread a(tid = 0) calls p max 1;
}
`
	prog := loadSrc(t, "quantified.lip", src)
	runVerdict(t, prog, Options{Instance: "small"}, "annotation",
		"yield invariant AllOff(), called in the annotation of the yield at line 11 in p, does not hold")
}
