package refine

import (
	"os"
	"testing"
)

// TestPeelObligations: peeling steal's retry loop (proofs/peel/steal.lip)
// gives two loop peeling obligations, the last step on the paths that
// leave the loop and the failing iteration, and no diagnostic.
func TestPeelObligations(t *testing.T) {
	src, err := os.ReadFile("../proofs/peel/steal.lip")
	if err != nil {
		t.Fatal(err)
	}
	obs, _, diags := refinement(build(t, string(src)), 0)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	names := map[string]bool{}
	for _, ob := range obs {
		if ob.Kind == Peel {
			names[ob.Name] = true
		}
	}
	if len(names) != 2 || !names["l0-peel-steal"] {
		t.Errorf("loop peeling obligations %v, want the failing iteration l0-peel-steal and the last step", names)
	}
}

// TestPeelNeedsRetryLoop: a loop that may end without an iteration is
// not a retry loop, and a body that is not one loop cannot be peeled.
func TestPeelNeedsRetryLoop(t *testing.T) {
	for _, body := range []string{
		`while (*) { a := x; yield; }`,
		`a := x; yield; while (true) { a := x; yield; }`,
	} {
		prog := build(t, `
var x: int = 0;
layer 0 { proc p(linear tid: int) { var a: int; `+body+` } }
layer 1 { proc p(linear tid: int) peel { var a: int; a := x; } }
`)
		_, _, diags := refinement(prog, 0)
		if len(diags) != 1 || diags[0].Check != Peel {
			t.Errorf("%s: want one loop peeling diagnostic, got %v", body, diags)
		}
	}
}
