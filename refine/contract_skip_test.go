package refine

import (
	"strings"
	"testing"
)

// contractSkipSource is a two-layer program whose public method m has
// the requires LOWER at layer 0 and UPPER at layer 1, with the
// invariant x >= 0 at both.
const contractSkipSource = `
function small(v: int): bool { v < 3 }
var x: int = 0;
invariant x >= 0;
layer 0 { proc m(linear tid: int, a: int) requires LOWER { [x := x + 1;] } }
layer 1 { atomic action m(linear tid: int, a: int) requires UPPER { x := x + 1; } }
`

// TestContractSkip: a client-contract obligation is skipped only when
// every conjunct of the lower requires is, as built, one of the upper
// requires or the invariants; near misses go to the solver.
func TestContractSkip(t *testing.T) {
	cases := []struct {
		lower, upper string
		skip         bool
	}{
		{"tid == 1 && a > 0", "tid == 1 && a > 0", true},
		{"a > 0 && tid == 1", "tid == 1 && a > 0", true},           // order of conjuncts
		{"tid == 1 && x >= 0", "tid == 1", true},                   // an invariant
		{"small(a) && tid == 1", "tid == 1 && a < 3", true},        // a function, inlined
		{"tid == 1 && a > 0 && a < 5", "tid == 1 && a > 0", false}, // one conjunct more
		{"tid == 1 && 0 < a", "tid == 1 && a > 0", false},          // the same fact, written otherwise
		{"tid == 1 && x > 0", "tid == 1", false},                   // not the invariant
		{"tid == 1 || a > 0", "tid == 1", false},                   // a disjunction is one conjunct
	}
	for _, c := range cases {
		src := strings.Replace(strings.Replace(contractSkipSource, "LOWER", c.lower, 1), "UPPER", c.upper, 1)
		obs, skipped, diags := refinement(build(t, src), 0)
		if len(diags) != 0 {
			t.Fatalf("%s / %s: diagnostics %v", c.lower, c.upper, diags)
		}
		contracts := 0
		for _, ob := range obs {
			if ob.Kind == ClientContract {
				contracts++
			}
		}
		var reasons []string
		for _, s := range skipped {
			if s.Check == ClientContract {
				reasons = append(reasons, s.Reason)
			}
		}
		switch {
		case c.skip && (contracts != 0 || len(reasons) != 1):
			t.Errorf("requires %s at layer 0, %s at layer 1: want the contract skipped, got %d obligations, skips %q", c.lower, c.upper, contracts, reasons)
		case !c.skip && (contracts != 1 || len(reasons) != 0):
			t.Errorf("requires %s at layer 0, %s at layer 1: want one contract obligation, got %d, skips %q", c.lower, c.upper, contracts, reasons)
		}
		if c.skip && len(reasons) == 1 && !strings.HasPrefix(reasons[0], "m at layer 0: the requires is among the requires at layer 1") {
			t.Errorf("skip reason %q", reasons[0])
		}
	}
}
