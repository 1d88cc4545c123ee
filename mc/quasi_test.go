package mc

import (
	"strings"
	"testing"
)

// TestQuasiVerdicts checks --quasi on the queues of seed 000: each
// k-quasi queue passes at factor k and fails at k - 1, saying how far
// out of order the failing call is; the buggy queues fail; a
// linearizable queue passes at every factor; and factor 0 gives the
// verdict of plain linearizability.
func TestQuasiVerdicts(t *testing.T) {
	tests := []struct {
		file, instance string
		quasi          map[string]int
		want           Status
		msg            string // in the failure message
	}{
		{"segqueue.lip", "two_by_two", map[string]int{"deq": 0}, Violation, "least quasi factor that explains the history is deq=1"},
		{"segqueue.lip", "two_by_two", map[string]int{"deq": 1}, OK, ""},
		{"segqueue.lip", "two_by_two", map[string]int{"deq": 2}, OK, ""},
		{"segqueue3.lip", "one_segment", map[string]int{"deq": 1}, Violation, "out of order by more than 1; the least quasi factor that explains the history is deq=2"},
		{"segqueue3.lip", "one_segment", map[string]int{"deq": 2}, OK, ""},
		{"overtake.lip", "three", map[string]int{"deq": 1}, Violation, "least quasi factor that explains the history is deq=2"},
		{"overtake.lip", "three", map[string]int{"deq": 2}, OK, ""},
		{"segqueue-buggy1.lip", "two_by_two", map[string]int{"deq": 1}, Violation, "returns from deq with v = -1"},
		{"segqueue-buggy1.lip", "producer_consumer", map[string]int{"deq": 2}, Violation, "least quasi factor that explains the history is deq=3"},
		{"segqueue-buggy2.lip", "two_by_two", map[string]int{"deq": 1}, Violation, "least quasi factor that explains the history is deq=2"},
		{"msqueue.lip", "two_by_two", map[string]int{"deq": 1}, OK, ""},
		{"msqueue.lip", "two_by_two", map[string]int{"deq": 2, "enq": 1}, OK, ""},
		{"buggyqueue.lip", "smallest", map[string]int{"deq": 0}, Violation, "(deq=0)"},
	}
	for _, tc := range tests {
		name := tc.file + "/" + tc.instance
		for m, k := range tc.quasi {
			name += "/" + m + "=" + string(rune('0'+k))
		}
		t.Run(name, func(t *testing.T) {
			prog := load(t, "../bench/seeds/"+tc.file)
			res, err := Run(prog, Options{Instance: tc.instance, Mode: ModeLinearizability, Quasi: tc.quasi})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want {
				t.Fatalf("status %v, want %v (limit %q, failure %+v)", res.Status, tc.want, res.Limit, res.Failure)
			}
			if tc.want == Violation {
				if res.Failure.Kind != "linearizability" || !strings.Contains(res.Failure.Msg, tc.msg) {
					t.Errorf("failure %s: %s; want one containing %q", res.Failure.Kind, res.Failure.Msg, tc.msg)
				}
			}
			if !strings.Contains(res.Title, "quasi linearizability") {
				t.Errorf("title %q does not say quasi", res.Title)
			}
		})
	}
}

// TestQuasiZeroIsLinearizability checks that factor 0 gives the
// verdict of plain linearizability.
func TestQuasiZeroIsLinearizability(t *testing.T) {
	for _, c := range []struct{ file, instance string }{
		{"segqueue.lip", "two_by_two"}, {"buggyqueue.lip", "smallest"}, {"overtake.lip", "three"}, {"msqueue.lip", "two_by_two"},
	} {
		prog := load(t, "../bench/seeds/"+c.file)
		plain, err := Run(prog, Options{Instance: c.instance, Mode: ModeLinearizability})
		if err != nil {
			t.Fatal(err)
		}
		quasi, err := Run(prog, Options{Instance: c.instance, Mode: ModeLinearizability, Quasi: map[string]int{"deq": 0}})
		if err != nil {
			t.Fatal(err)
		}
		if plain.Status != quasi.Status {
			t.Errorf("%s: linearizability %v, --quasi deq=0 %v", c.file, plain.Status, quasi.Status)
		}
	}
}

// TestQuasiErrors checks the factors that cannot be used.
func TestQuasiErrors(t *testing.T) {
	prog := load(t, "../bench/seeds/segqueue.lip")
	for _, c := range []struct {
		mode  Mode
		quasi map[string]int
		msg   string
	}{
		{ModeLinearizability, map[string]int{"pop": 1}, "there is no method pop at layer 1"},
		{ModeLinearizability, map[string]int{"deq": -1}, "the quasi factor must be at least 0"},
		{ModeSafety, map[string]int{"deq": 1}, "linearizability check only"},
	} {
		_, err := Run(prog, Options{Instance: "two_by_two", Mode: c.mode, Quasi: c.quasi})
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: error %v, want %q", c.quasi, err, c.msg)
		}
	}
}

// TestQuasiUnsupportedActions checks that a reordered action with a
// requires or a ghost parameter is refused, not checked wrongly.
func TestQuasiUnsupportedActions(t *testing.T) {
	const src = `
var x: int = 0;
layer 0 {
  proc put(linear tid: int, v: int) { [x := v;] }
  proc get(linear tid: int, ghost g: int) returns (v: int) { [v := x;] }
}
layer 1 {
  atomic action put(linear tid: int, v: int) requires v >= 0; { x := v; }
  atomic action get(linear tid: int, ghost g: int) returns (v: int) { v := x; }
}
instance two {
  thread w(tid = 1..2) calls put(v in 0..1), get max 2;
}
`
	prog := loadSrc(t, "unsupported.lip", src)
	for name, msg := range map[string]string{"put": "has a requires at layer 1", "get": "has ghost parameters or outputs"} {
		_, err := Run(prog, Options{Instance: "two", Mode: ModeLinearizability, Quasi: map[string]int{name: 1}})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("--quasi %s=1: error %v, want %q", name, err, msg)
		}
	}
}
