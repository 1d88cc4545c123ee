package movers

import (
	"github.com/lipton-dev/lipton/layers"
	"strings"
	"testing"
)

// TestArmOrderObligations checks which pairs of arms get the arm-order
// obligations: an arm written after a non-mover or right-mover arm, and
// whose gate is not true, gets failure preservation and non-blocking
// against it; a left-mover earlier arm needs none (its own checks cover
// every step); an action arm after a procedure arm gets gate
// preservation against every step instead.
func TestArmOrderObligations(t *testing.T) {
	const decls = `var x: int = 0;
var y: int = 0;
layer 0 {
  atomic action set() { x := 1; }
  left action lset() { x := 1; }
  both action need() requires x == 1 { y := y + 1; }
  right action rneed() requires x == 1 { y := y + 1; }
  both action free() { y := y + 1; }
  right action rset() { x := 1; }
  proc helper() { yield; }
`
	for _, tc := range []struct {
		call string
		want []string // names of the arm-order obligations
	}{
		{"call set() | need();", []string{"l0-armfail-2-0", "l0-armblock-2-0"}},
		{"call lset() | need();", nil},
		{"call set() | free();", nil}, // free's gate is true
		{"call rset() | rneed();", []string{"l0-armfail-3-5", "l0-armblock-3-5"}},
		// rneed writes no x, and cannot run where its own gate fails
		{"call rneed() | rneed();", nil},
		// rset, a right mover, keeps rneed's gate by its own checks
		{"call helper() | rneed();", []string{"l0-gate-0-3", "l0-gate-1-3"}},
	} {
		l := layer0(t, decls+"  proc p() { "+tc.call+" }\n}\n")
		c := &collector{layer: l.Num, fps: map[*layers.Step]*footprint{}, tooBig: map[*layers.Step]bool{}}
		c.armOrder(l)
		var got []string
		for _, ob := range c.obs {
			got = append(got, ob.Name)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: obligations %v, want %v", tc.call, got, tc.want)
		}
	}
}
