package mc

import (
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/layers"
)

// TestMoverProcVerdicts checks that explore runs a mover procedure's
// body as a procedure: a proof with mover procedures passes, and a false
// mover claim that the static checks reject shows up as the real bug it
// hides, since explore does not take the claim on trust.
func TestMoverProcVerdicts(t *testing.T) {
	tests := []struct {
		file      string
		atomicity Atomicity
		kind, msg string
	}{
		{"../proofs/moverproc/lock-add.lip", AtomicityYield, "", ""},
		{"../proofs/moverproc/lock-add.lip", AtomicityAccess, "", ""},
		{"../proofs/moverproc/layered.lip", AtomicityYield, "", ""},
		{"../proofs/moverproc/broken/lost-update.lip", AtomicityYield, "linearizability", "returns from incr with v = 1"},
		// The body as the steps it is made of: another thread sees x == 1.
		{"../proofs/moverproc/broken/flip-observed.lip", AtomicityAccess, "assert", "this assertion may fail"},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.atomicity.String(), func(t *testing.T) {
			inst, spec := "two", 1
			if strings.HasSuffix(tc.file, "layered.lip") {
				inst, spec = "i", 2 // against the top layer
			}
			mode := ModeLinearizability
			if strings.HasSuffix(tc.file, "flip-observed.lip") {
				mode = ModeSafety // one layer: no specification
			}
			opts := Options{Instance: inst, Mode: mode, SpecLayer: spec, Atomicity: tc.atomicity, MaxStates: 2_000_000}
			res, err := runShared(load(t, tc.file), opts) // TestCorpusLinearizability's searches
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, res, tc.kind, tc.msg)
		})
	}
}

// TestMoverCallIsACallForExplore checks the two views of a call of a
// mover procedure: one step of the caller for the static checks, a call
// (a yield point) for the model checker.
func TestMoverCallIsACallForExplore(t *testing.T) {
	prog := load(t, "../proofs/moverproc/broken/lost-update.lip")
	count := func(p *layers.Program) (steps, calls int) {
		for _, n := range p.Layers[0].Proc("incr").Nodes {
			if layers.IsMoverCall(n.Stmt) {
				switch n.Kind {
				case layers.NodeStep:
					steps++
				case layers.NodeCall:
					calls++
				}
			}
		}
		return
	}
	if s, c := count(prog); s != 1 || c != 0 {
		t.Errorf("static view: %d step(s), %d call(s) of read; want 1 step", s, c)
	}
	if s, c := count(layers.ForExecution(prog)); s != 0 || c != 1 {
		t.Errorf("execution view: %d step(s), %d call(s) of read; want 1 call", s, c)
	}
}
