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
