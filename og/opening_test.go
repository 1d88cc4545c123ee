package og

import (
	"testing"

	"github.com/lipton-dev/lipton/internal/corpus"
	"github.com/lipton-dev/lipton/layers"
)

// openingCorpus is a sample of proofs/ for the tests that compare the
// kits' decisions with the pairs' own: many impossible pairs
// (Chase-Lev, the work-stealing queues), parallel calls, linear maps and
// quantified annotations.
var openingCorpus = []string{
	"chaselev/chaselev.lip", "wsq/*.lip", "parcall/*.lip", "linmap/*.lip",
	"civl/rwlock.lip", "civl/mutex-over-futex.lip", "constmap/owner-flags.lip",
}

func corpusLayers(t *testing.T) []*layers.Layer { return corpus.Layers(t, "..", openingCorpus) }

// TestOpeningsAgreeWithPairs: every pair the kits decide is decided as
// its own obligation's opening decides it, with the same reason; a pair
// decided possible gives the same obligation whether or not its opening
// is decided again.
func TestOpeningsAgreeWithPairs(t *testing.T) {
	impossible, possible := 0, 0
	for _, l := range corpusLayers(t) {
		o := newOpenings(l)
		fs := interferers(l)
		for _, p := range l.Procs {
			for _, y := range append(p.Yields[:len(p.Yields):len(p.Yields)], p.Idle) {
				if y == nil || y.Kind == layers.YieldCall {
					continue
				}
				for _, f := range fs {
					why, decided := o.impossible(y, f)
					if !decided {
						continue
					}
					ob, want := nonInterferenceCheck(y, f, false)
					if why != "" {
						impossible++
						if ob != nil || want != why {
							t.Errorf("%s vs %s: kit says %q, the pair %q", y.Describe(), f.name(), why, want)
						}
						continue
					}
					possible++
					ob2, want2 := nonInterferenceCheck(y, f, true)
					if (ob == nil) != (ob2 == nil) || want != want2 || ob != nil && ob.Name != ob2.Name {
						t.Errorf("%s vs %s: decided possible, but the pair gives %v %q, not %v %q", y.Describe(), f.name(), ob, want, ob2, want2)
					}
				}
			}
		}
	}
	if impossible == 0 || possible == 0 {
		t.Errorf("the sample decides %d pairs impossible and %d possible: want some of each", impossible, possible)
	}
}

// TestYieldFactsApart: the kit keeps each yield point's facts apart. At
// a's first yield thread 1 holds tid == 0, at its second it does not
// say so; b is the owner's. The first pair is impossible, the second is
// checked and fails, as b breaks x == 0.
func TestYieldFactsApart(t *testing.T) {
	const src = `
var x: int = 0;
layer 0 {
  proc a(linear tid: int) {
    yield tid == 0 && x == 0;
    yield x == 0;
  }
  proc b(linear tid: int) requires tid == 0 { x := 1; }
}`
	f := Check(layer0(t, src))
	impossible := 0
	for _, s := range f.Skipped {
		if s.Reason == "the annotation of the yield at line 5 in a vs b from the entry of b: no two threads can be there: tid.1 != tid.2 contradicts tid.1 == 0, tid.2 == 0" {
			impossible++
		}
	}
	if impossible != 1 {
		t.Errorf("a's first yield against b is not skipped as impossible: %v", f.Skipped)
	}
	if failed := failedMessages(t, src); len(failed) == 0 {
		t.Error("b falsifies a's second yield annotation x == 0, yet nothing failed")
	}
}
