package randprog

import (
	"strings"

	"github.com/lipton-dev/lipton/lang"
)

// The lock of the programs that have lock-protected variables: the real
// lock lk and the ghost holder, as in proofs/lock/lock-counter.lip.
const (
	heldGate   = "lk && holder == tid"
	acquireTxt = "[assume !lk; lk, holder := true, tid;]"
	releaseTxt = "[assert " + heldGate + "; lk, holder := false, -1;]"
)

// stable reports whether no other thread can change g while method m
// runs (holding the lock or not): annotations that relate g to m's
// locals then stay true.
func stable(g *global, m *method, holding bool) bool {
	switch g.pol {
	case polSlot:
		return true
	case polOwner:
		return m.owner
	case polLocked:
		return holding
	}
	return !g.written
}

// implItems lists the statements of a shapeOps method: its operations in
// order, consecutive atomic ones as one step, the others split into
// single accesses; a method that touches a locked variable holds the
// lock throughout.
func (gen *gen) implItems(m *method) []item {
	var items []item
	holding := m.locked()
	acquire, release := acquireTxt, releaseTxt
	if gen.lockCalls {
		acquire, release = "call acquire(tid);", "call release(tid);"
	}
	if holding {
		items = append(items, item{text: acquire, globals: gen.lockVars(), mover: lang.MoverRight, call: gen.lockCalls,
			writes: true, loc: "holder", facts: []fact{{text: "holder == tid", locked: true, loc: "holder"}}})
	}
	var group []*op // consecutive atomic operations, one step
	flush := func() {
		if len(group) > 0 {
			items = append(items, atomicItem(group))
			group = nil
		}
	}
	for _, o := range m.ops {
		if o.g.pol == polAtomic && !m.split[o] {
			group = append(group, o)
			continue
		}
		flush()
		items = append(items, splitItems(m, o, holding)...)
	}
	flush()
	if holding {
		items = append(items, item{text: release, globals: gen.lockVars(), mover: lang.MoverLeft, call: gen.lockCalls,
			unlocks: true, writes: true, loc: "holder", facts: []fact{notHolder}})
	}
	return items
}

// notHolder is what a thread knows of the lock between its critical
// sections: it is not the holder, and no other thread can make it one.
var notHolder = fact{text: "holder != tid", loc: "holder"}

// lockVars are the variables acquire and release access.
func (gen *gen) lockVars() []*global { return []*global{gen.lk, gen.holder} }

// atomicItem is a sequence of operations as one non-mover step.
func atomicItem(ops []*op) item {
	var gs []*global
	var texts []string
	for _, o := range ops {
		gs = append(gs, o.g)
		if o.src != nil {
			gs = append(gs, o.src)
		}
		texts = append(texts, o.specText()...)
	}
	text := strings.Join(texts, " ")
	if len(ops) > 1 || !ops[0].singleAccess() {
		text = "[" + text + "]"
	}
	return item{text: text, globals: gs}
}

// splitItems is the split form of an operation, each access a step
// tagged by the discipline of what it accesses.
func splitItems(m *method, o *op, holding bool) []item {
	var items []item
	for _, p := range o.pieces(m) {
		if p.g == nil {
			items = append(items, item{text: p.text})
			continue
		}
		it := item{text: p.text, globals: []*global{p.g}, mover: pieceMover(p, m, holding)}
		if p.g.pol == polLocked && holding {
			it.text = "[assert " + heldGate + "; " + p.text + "]"
		}
		it.facts = pieceFacts(p, m, holding)
		if p.into != "" && m.isTemp(p.into) && p.g.monotone && !stable(p.g, m, holding) {
			it.abstract = weakRead(p.into, p.loc)
		}
		it.writes, it.loc, it.into = p.write, p.loc, p.into
		items = append(items, it)
	}
	return items
}

// pieceMover is the mover type the discipline gives an access: accesses
// nobody else can touch at the same time are both movers; an owner's
// write, which the other threads' reads see, and unprotected accesses
// are non-movers.
func pieceMover(p piece, m *method, holding bool) lang.Mover {
	switch {
	case strings.HasPrefix(p.text, "assume"):
		return lang.MoverNone // it may block: no left mover
	case p.g.pol == polLocked && holding, p.g.pol == polSlot:
		return lang.MoverBoth
	case p.g.pol == polReadOnly && !p.write:
		return lang.MoverBoth
	case p.g.pol == polOwner && m.owner && !p.write:
		return lang.MoverBoth
	}
	return lang.MoverNone
}

// pieceFacts are the stable facts an access establishes: a read of a
// stable location gives its value, a read of a counter that only grows
// a lower bound, a write of a stable location its new value.
func pieceFacts(p piece, m *method, holding bool) []fact {
	locked := p.g.pol == polLocked
	switch {
	case p.write && stable(p.g, m, holding):
		return []fact{{text: p.loc + " == " + paren(p.rhs), locked: locked, loc: p.loc}}
	case p.into == "":
		return nil
	case stable(p.g, m, holding):
		return []fact{{text: p.into + " == " + p.loc, locked: locked, loc: p.loc}}
	case p.g.monotone:
		return []fact{{text: p.into + " <= " + p.loc, loc: p.loc}}
	}
	return nil
}

// yieldMode says where a body gets yields.
type yieldMode int

const (
	yieldsAll      yieldMode = iota // between every two steps, no mover tags
	yieldsReduced                   // only where the atomicity automaton needs one; tags written
	yieldsAbstract                  // reduced, and reads of growing counters weakened (item.abstract)
)

// renderItems prints a body: its statements, mover tags where movers are
// used, and yields annotated with the facts that hold there, starting
// with the facts of the entry.
func renderItems(items []item, mode yieldMode, entry []fact, w *writer) {
	facts := entry
	rightPhase, steps := true, 0
	for _, it := range items {
		if mode == yieldsAbstract && it.abstract != "" {
			it.text, it.mover = it.abstract, lang.MoverRight
		}
		if len(it.globals) > 0 {
			if mode == yieldsAll && it.call {
				it.mover = lang.MoverNone // the actions are non-movers at this layer
			}
			if needsYield(mode, it.mover, rightPhase, steps) {
				w.line(yieldText(facts))
				rightPhase = true
			}
			steps++
			if !it.mover.IsRight() {
				rightPhase = false
			}
		}
		text := it.text
		if mode != yieldsAll && it.mover != lang.MoverNone && !it.call {
			text = it.mover.String() + " " + text
		}
		w.line(text)
		facts = updateFacts(facts, it)
	}
}

// needsYield decides whether a step needs a yield before it: with every
// yield, after any step; reduced, when it is a right mover or non-mover
// after the automaton left its right-mover phase.
func needsYield(mode yieldMode, m lang.Mover, rightPhase bool, steps int) bool {
	if steps == 0 {
		return false
	}
	if mode == yieldsAll {
		return true
	}
	return !rightPhase && !m.IsLeft()
}

// updateFacts is the set of facts after an item: a release ends the
// facts that need the lock, a write ends the facts about its location.
func updateFacts(facts []fact, it item) []fact {
	var out []fact
	for _, f := range facts {
		if (it.unlocks && f.locked) || (it.writes && f.loc == it.loc) {
			continue
		}
		out = append(out, f)
	}
	return append(out, it.facts...)
}

// yieldText is a yield annotated with the conjunction of facts.
func yieldText(facts []fact) string {
	if len(facts) == 0 {
		return "yield;"
	}
	return "yield " + conj(factTexts(facts)) + ";"
}

func factTexts(facts []fact) []string {
	var out []string
	for _, f := range facts {
		out = append(out, f.text)
	}
	return out
}

// conj is the conjunction of conditions ("true" for none).
func conj(cs []string) string {
	if len(cs) == 0 {
		return "true"
	}
	return strings.Join(cs, " && ")
}

// weakRead is a read of a counter that only grows, weakened to any value
// up to it: a right mover (proofs/refinement/read-bound.lip).
func weakRead(into, loc string) string {
	return "[havoc " + into + "; assume " + into + " <= " + loc + ";]"
}
