package movers

import (
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// footprint is what a step does to the globals: what its transition reads
// and writes, and what its gate reads.
type footprint struct {
	reads, writes, gateReads map[*lang.Object]bool
}

// stepFootprint computes a step's footprint from its translation, so it
// accounts for functions, action bodies and gate contexts exactly as the
// obligations will.
func stepFootprint(s *layers.Step) footprint {
	l := s.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "")
	objOf := map[*obl.Var]*lang.Object{}
	for _, g := range l.Globals {
		objOf[env.Var(g)] = g
	}
	te := b.Thread(env, s, "", "")
	body := b.Body(s, te, layers.Assume)
	globals := func(vs map[*obl.Var]bool) map[*lang.Object]bool {
		out := map[*lang.Object]bool{}
		for v := range vs {
			if o := objOf[v]; o != nil {
				out[o] = true
			}
		}
		return out
	}
	gate := map[*obl.Var]bool{}
	for _, v := range obl.FreeVars(b.Gate(s, te)) {
		gate[v] = true
	}
	return footprint{reads: globals(obl.Reads(body)), writes: globals(obl.Assigned(body)), gateReads: globals(gate)}
}

func disjoint(a, b map[*lang.Object]bool) bool {
	for o := range a {
		if b[o] {
			return false
		}
	}
	return true
}

// commute reports whether two steps commute syntactically: neither
// writes what the other reads or writes.
func commute(f1, f2 footprint) bool {
	return disjoint(f1.writes, f2.reads) && disjoint(f1.writes, f2.writes) && disjoint(f2.writes, f1.reads)
}
