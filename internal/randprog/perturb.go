package randprog

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
)

// perturbation is a mistake the generator makes on purpose, the kind a
// proof writer or an implementer makes; Generate applies at most one
// (and Mutate may add another).
type perturbation int

const (
	pertNone     perturbation = iota
	pertSplit                 // an atomic update split into a read and a write
	pertSpecGate              // a specification gate on shared state, guaranteed only at the call
	pertMover                 // a mover tag the discipline does not justify
	pertFact                  // an annotation that claims a value is stable when it is not
)

// choosePerturbation picks the perturbation of this program.
func (gen *gen) choosePerturbation() perturbation {
	if gen.r.Intn(100) < 60 {
		return pertNone
	}
	return perturbation(1 + gen.r.Intn(4))
}

// perturbEffects applies the perturbations that change what the methods
// do or promise, before their bodies are built.
func (gen *gen) perturbEffects(kind perturbation) {
	switch kind {
	case pertSplit:
		type site struct {
			m *method
			o *op
		}
		var sites []site
		for _, m := range gen.methods {
			for _, o := range m.ops {
				if m.shape == shapeOps && o.g.pol == polAtomic && !o.singleAccess() {
					sites = append(sites, site{m, o})
				}
			}
		}
		if len(sites) > 0 {
			s := sites[gen.r.Intn(len(sites))]
			s.m.split[s.o] = true
			gen.notes = append(gen.notes, fmt.Sprintf("%s's update of %s split into single accesses", s.m.name, s.o.loc))
		}
	case pertSpecGate:
		gen.perturbSpecGate(gen.methods[gen.r.Intn(len(gen.methods))])
	}
}

// perturbSpecGate strengthens a method's specification gate with a
// condition on shared state that a client guarantees at the call only;
// when the method decrements conditionally, the specification also
// drops the branch the gate seems to exclude.
func (gen *gen) perturbSpecGate(m *method) {
	for i, o := range m.ops {
		if o.kind == opCondDec && gen.r.Intn(2) == 0 {
			m.specGate = fmt.Sprintf("%s > %d", o.loc, o.c)
			m.specOverride = nil
			for j, p := range m.ops {
				if j == i {
					m.specOverride = append(m.specOverride, o.loc+" := "+o.loc+" - 1;", o.out+" := true;")
				} else {
					m.specOverride = append(m.specOverride, p.specText()...)
				}
			}
			gen.notes = append(gen.notes, fmt.Sprintf("%s's specification gated by %s, its else branch dropped", m.name, m.specGate))
			return
		}
	}
	g := gen.globals[gen.r.Intn(len(gen.globals))]
	switch g.typ {
	case tBool:
		m.specGate = []string{g.name, "!" + g.name}[gen.r.Intn(2)]
	case tInt:
		m.specGate = []string{g.name + " < 1", g.name + " == 0", g.name + " > 0", g.name + " >= 0"}[gen.r.Intn(4)]
	case tSeq:
		m.specGate = []string{"len(" + g.name + ") > 0", "len(" + g.name + ") == 0"}[gen.r.Intn(2)]
	default:
		m.specGate = g.name + "[0] == 0"
	}
	where := "specification"
	if gen.r.Intn(3) == 0 {
		m.implGate = m.specGate
		where = "implementation and specification"
	}
	gen.notes = append(gen.notes, fmt.Sprintf("%s's %s gated by %s", m.name, where, m.specGate))
}

// perturbItems applies the perturbations of the proof's annotations:
// a mover tag, or a stability claim.
func (gen *gen) perturbItems(kind perturbation) {
	type site struct {
		m *method
		i int
	}
	var sites []site
	for _, m := range gen.methods {
		for i, it := range m.items {
			if len(it.globals) > 0 && !it.call && (kind == pertMover || it.into != "") {
				sites = append(sites, site{m, i})
			}
		}
	}
	if len(sites) == 0 || (kind != pertMover && kind != pertFact) {
		return
	}
	s := sites[gen.r.Intn(len(sites))]
	it := &s.m.items[s.i]
	if kind == pertFact {
		it.facts = append(it.facts, fact{text: it.into + " == " + it.loc, loc: it.loc})
		gen.notes = append(gen.notes, fmt.Sprintf("%s claims %s == %s stays true", s.m.name, it.into, it.loc))
		return
	}
	movers := []lang.Mover{lang.MoverNone, lang.MoverRight, lang.MoverLeft, lang.MoverBoth}
	old := it.mover
	for it.mover == old {
		it.mover = movers[gen.r.Intn(len(movers))]
	}
	gen.notes = append(gen.notes, fmt.Sprintf("%s's step %q tagged %q instead of %q", s.m.name, it.text, it.mover, old))
}
