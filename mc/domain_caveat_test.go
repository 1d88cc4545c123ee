package mc

import (
	"strings"
	"testing"
)

// TestDomainCaveat: a specification that chooses its output by havoc
// can produce only values of the ints domain in the model checker; when
// the implementation returns one outside it, the linearizability
// violation says that it may come from the domain (found by the
// adversarial review: the oracle reported such violations as definite).
// Inside the domain, or without havoc, there is no caveat.
func TestDomainCaveat(t *testing.T) {
	const src = `
layer 0 {
  proc get() returns (v: int) { v := RET; }
}
layer 1 {
  atomic action get() returns (v: int) { SPEC }
}
instance one {
  thread w(tid = 0) calls get max 1;
  ints 0..3;
}`
	caveat := "which the model checker tries over the ints domain 0..3 only, and v = 100 is outside it"
	for _, c := range []struct {
		ret, spec string
		want      Status
		caveat    bool
	}{
		{"100", "havoc v; assume v >= 50;", Violation, true},
		{"100", "assume exists i: int :: i == v && v > 50;", Violation, true},
		{"2", "havoc v; assume v >= 50;", Violation, false},
		{"100", "v := 7;", Violation, false},
		{"100", "v := 100;", OK, false},
	} {
		prog := loadSrc(t, "caveat.lip", strings.NewReplacer("RET", c.ret, "SPEC", c.spec).Replace(src))
		res, err := Run(prog, Options{Instance: "one", Mode: ModeLinearizability})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != c.want {
			t.Errorf("return %s, spec %q: status %v, want %v", c.ret, c.spec, res.Status, c.want)
			continue
		}
		if got := res.Failure != nil && strings.Contains(res.Failure.Msg, caveat); got != c.caveat {
			t.Errorf("return %s, spec %q: caveat %v, want %v: %+v", c.ret, c.spec, got, c.caveat, res.Failure)
		}
	}
}
