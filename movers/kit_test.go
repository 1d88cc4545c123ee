package movers

import (
	"testing"

	"github.com/lipton-dev/lipton/internal/corpus"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// kitCorpus is a sample of proofs/ with many pairs of steps no two
// threads can form (Chase-Lev, the work-stealing queues), and movers
// with gates, asserts and quantifiers.
var kitCorpus = []string{
	"chaselev/chaselev.lip", "wsq/*.lip", "civl/rwlock.lip", "civl/mutex-over-futex.lip",
	"civl/left-mover.lip", "treiber/*.lip", "lock/*.lip",
}

func kitLayers(t *testing.T) []*layers.Layer { return corpus.Layers(t, "..", kitCorpus) }

// TestKitsAgreeWithPairs: every opening a kit decides is decided as the
// pair's own (newPair) decides it, with the same reason, for
// commutativity's opening and gate preservation's whole body; and the
// kit counts the paths of commutativity's transitions as the pair does.
func TestKitsAgreeWithPairs(t *testing.T) {
	counts := map[string]int{}
	for _, l := range kitLayers(t) {
		var o openings
		for _, s1 := range l.Steps {
			for _, s2 := range l.Steps {
				if s1.TooComplex("mover") != nil || s2.TooComplex("mover") != nil {
					continue
				}
				op := o.decide(s1, s2)
				p := newPair(s1, s2)
				if op.decided {
					why, _ := layers.ImpossibleOpening(obl.Sequence(p.assumeDist, p.gates()))
					counts[decision(op.why)]++
					if why != op.why {
						t.Errorf("%s and %s: kit says %q, the pair %q", s1.Name(), s2.Name(), op.why, why)
					}
				}
				swapped := obl.Sequence(p.b.Body(s2, p.e2, layers.Transition), p.b.Body(s1, p.e1, layers.Transition))
				if got, want := op.kit.pathBound(s1, s2), obl.PathBound(swapped, obl.DefaultMaxPaths); got != want {
					t.Errorf("%s and %s: kit counts %d paths, the pair %d", s1.Name(), s2.Name(), got, want)
				}
				if g := op.kit.decideGate(s1, s2, op); g.decided {
					why, _ := layers.ImpossiblePair(gatePreservation(s1, s2))
					counts["gate "+decision(g.why)]++
					if why != g.why {
						t.Errorf("%s and %s: kit says the gate pair %q, the pair %q", s1.Name(), s2.Name(), g.why, why)
					}
				}
			}
		}
	}
	for _, k := range []string{"impossible", "possible", "gate impossible", "gate possible"} {
		if counts[k] == 0 {
			t.Errorf("no pair of the sample decided %s: %v", k, counts)
		}
	}
}

func decision(why string) string {
	if why != "" {
		return "impossible"
	}
	return "possible"
}
