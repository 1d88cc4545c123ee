package movers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"

	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Check kinds of the mover obligations.
const (
	Commutativity       obl.Kind = "commutativity"
	GatePreservation    obl.Kind = "gate preservation"
	FailurePreservation obl.Kind = "failure preservation"
	NonBlocking         obl.Kind = "non-blocking"
	YieldSufficient     obl.Kind = "yield sufficiency"
)

// Check returns the reduction findings of layer l: yield sufficiency,
// decided here, for every procedure (the passing ones are counted as
// Passed), and the mover obligations.
func Check(l *layers.Layer) layers.Findings {
	f := layers.Findings{Diagnostics: YieldSufficiency(l)}
	failed := map[string]bool{}
	for _, d := range f.Diagnostics {
		failed[d.Subject] = true
	}
	for _, p := range l.Procs {
		if !failed[p.Name()] {
			f.Passed = append(f.Passed, layers.Passed{Check: YieldSufficient, Layer: l.Num, Subject: p.Name()})
		}
	}
	obs, skipped, diags := obligations(l)
	f.Obligations, f.Skipped = obs, skipped
	f.Diagnostics = append(f.Diagnostics, diags...)
	return f.InLayer(l.Num)
}

// obligations returns the mover obligations of layer l (DESIGN §4.2),
// the pairs skipped because their footprints make them hold trivially or
// no two threads can form them, and diagnostics for checks that could not
// be built (a transition with too many paths), which count as unknown.
func obligations(l *layers.Layer) ([]*obl.Obligation, []layers.Skip, []*layers.Diagnostic) {
	c := &collector{layer: l.Num, fps: map[*layers.Step]*footprint{}, tooBig: map[*layers.Step]bool{}}
	for _, s1 := range l.Steps {
		for _, s2 := range l.Steps {
			if !s1.Mover.IsRight() && !s2.Mover.IsLeft() {
				continue
			}
			if c.usable(s1) && c.usable(s2) {
				c.pair(s1, s2)
			}
		}
	}
	for _, s := range l.Steps {
		if s.Mover.IsLeft() && c.usable(s) {
			c.add(nonBlocking(s))
		}
	}
	c.armOrder(l)
	for _, p := range l.Procs {
		if ob := privateNonBlocking(p); ob != nil {
			c.obs = append(c.obs, ob)
		}
	}
	for _, a := range l.Actions {
		if ob := linearity(a); ob != nil {
			c.obs = append(c.obs, ob)
		}
	}
	return c.obs, c.skipped, c.diags
}

// collector gathers a layer's mover obligations, skips and diagnostics.
type collector struct {
	layer   int
	obs     []*obl.Obligation
	skipped []layers.Skip
	diags   []*layers.Diagnostic
	// Footprints and complexity are computed only for the steps some
	// needed check involves: computing a gate costs time.
	fps    map[*layers.Step]*footprint
	tooBig map[*layers.Step]bool
	// openings decides the openings of pairs before they are built.
	openings openings
	names    map[*layers.Step]string // see name
}

func (c *collector) usable(s *layers.Step) bool {
	if c.fps[s] == nil && !c.tooBig[s] {
		if d := s.TooComplex("mover"); d != nil {
			c.diags = append(c.diags, d)
			c.tooBig[s] = true
		} else {
			fp := stepFootprint(s)
			c.fps[s] = &fp
		}
	}
	return !c.tooBig[s]
}

// pair adds the checks of s1 (thread 1) against s2 (thread 2).
// Commutativity and gate preservation open alike; their opening is
// decided once, by the layer's kits (openings), before either is built.
func (c *collector) pair(s1, s2 *layers.Step) {
	f1, f2 := *c.fps[s1], *c.fps[s2]
	trivial, keepsGate := commute(f1, f2), disjoint(f1.writes, f2.gateReads)
	var op opening
	if !trivial || !keepsGate {
		op = c.openings.decide(s1, s2)
	}
	if trivial {
		c.skip(Commutativity, s1, s2, "disjoint footprints")
	} else {
		c.commutativity(s1, s2, op)
	}
	if keepsGate {
		c.skip(GatePreservation, s1, s2, "disjoint footprints")
	} else {
		c.gatePreservation(s1, s2, op)
	}
	if !s2.Mover.IsLeft() {
		return
	}
	if disjoint(f2.writes, f1.gateReads) {
		c.skip(FailurePreservation, s1, s2, "disjoint footprints")
	} else {
		c.addPair(s1, s2, failurePreservation(s1, s2), nil)
	}
}

// commutativity adds the commutativity check of s1 and s2, or skips it
// when op shows that no two threads can form the pair and the relation
// the obligation would need is computable (as commutativity decides).
func (c *collector) commutativity(s1, s2 *layers.Step, op opening) {
	if op.why != "" && op.kit.pathBound(s1, s2) <= obl.DefaultMaxPaths {
		c.skip(Commutativity, s1, s2, op.why)
		return
	}
	switch ob, impossible, err := commutativity(s1, s2, op.decided && op.why == ""); {
	case impossible != "":
		c.skip(Commutativity, s1, s2, impossible)
	default:
		c.add(ob, err) // its opening was decided: the pair is possible
	}
}

// gatePreservation adds the gate preservation check of s1 and s2, or
// skips it when no two threads can form the pair, as decided by the kit
// of op (commutativity's opening).
func (c *collector) gatePreservation(s1, s2 *layers.Step, op opening) {
	if op.kit != nil {
		op = op.kit.decideGate(s1, s2, op)
	}
	switch {
	case !op.decided:
		c.addPair(s1, s2, gatePreservation(s1, s2), nil)
	case op.why != "":
		c.skip(GatePreservation, s1, s2, op.why)
	default:
		c.add(gatePreservation(s1, s2), nil)
	}
}

func (c *collector) add(ob *obl.Obligation, err error) {
	if err != nil {
		c.diags = append(c.diags, err.(*layers.Diagnostic))
		return
	}
	c.obs = append(c.obs, ob)
}

// addPair adds a two-thread obligation unless no two threads can be at
// its steps.
func (c *collector) addPair(s1, s2 *layers.Step, ob *obl.Obligation, err error) {
	if err == nil {
		if why, ok := layers.ImpossiblePair(ob); ok {
			c.skip(ob.Kind, s1, s2, why)
			return
		}
	}
	c.add(ob, err)
}

func (c *collector) skip(check obl.Kind, s1, s2 *layers.Step, why string) {
	c.skipped = append(c.skipped, layers.Skip{Check: check, Layer: c.layer,
		Reason: c.name(s1) + " and " + c.name(s2) + ": " + why})
}

// name is s.Name(), formatted once per step: most pairs are skipped, and
// each skip names both steps.
func (c *collector) name(s *layers.Step) string {
	n, ok := c.names[s]
	if !ok {
		if c.names == nil {
			c.names = map[*layers.Step]string{}
		}
		n = s.Name()
		c.names[s] = n
	}
	return n
}

// pair is the setting of a two-thread obligation: s1 run by thread 1,
// s2 by thread 2, with distinct linear parameters.
type pair struct {
	b          *layers.Builder
	env        *layers.Env // globals
	e1, e2     *layers.Env
	s1, s2     *layers.Step
	vars       []*obl.Var // globals and both frames
	assumeDist obl.Cmd
}

func newPair(s1, s2 *layers.Step) *pair {
	l := s1.Layer
	b := layers.NewBuilder(l.Program)
	p := &pair{b: b, s1: s1, s2: s2}
	p.env = b.Globals(l, "", "globals")
	p.e1 = b.Thread(p.env, s1, ".1", "thread 1 ("+s1.Name()+")")
	p.e2 = b.Thread(p.env, s2, ".2", "thread 2 ("+s2.Name()+")")
	for _, g := range l.Globals {
		p.vars = append(p.vars, p.env.Var(g))
	}
	for _, o := range s1.Signature().Frame() {
		p.vars = append(p.vars, p.e1.Var(o))
	}
	for _, o := range s2.Signature().Frame() {
		p.vars = append(p.vars, p.e2.Var(o))
	}
	p.assumeDist = layers.Distinct(l.Globals, s1.Signature(), p.e1, s2.Signature(), p.e2)
	return p
}

func (p *pair) gates() obl.Cmd {
	return &obl.Assume{E: obl.And(p.b.Gate(p.s1, p.e1), p.b.Gate(p.s2, p.e2))}
}

func (p *pair) name(kind obl.Kind) string {
	return fmt.Sprintf("l%d-%s-%d-%d", p.s1.Layer.Num, kind, p.s1.ID, p.s2.ID)
}

func moverWord(s *layers.Step) string { return moverName(s.Mover) }

// commutativity: τ(s1);τ(s2) ⊆ τ(s2);τ(s1) from states where both gates
// hold. The reordered side is a relation with the intermediate state
// existentially quantified.
//
// A pair that no two threads can form (layers.ImpossibleOpening) is
// decided from the opening assumptions, the distinct linear parameters
// and the gates, before the relation is computed: the obligation's
// opening is exactly these (a snapshot follows them), so the reason is
// the one the whole obligation would give. It is returned instead of the
// obligation, once the relation is known to be computable (obl.PathBound,
// or computing it): a relation with too many paths is reported as
// unknown first. A caller that decided the opening possible already
// (openings) says so, and it is not decided again.
func commutativity(s1, s2 *layers.Step, possible bool) (ob *obl.Obligation, impossible string, err error) {
	p := newPair(s1, s2)
	b := p.b
	pre := map[*obl.Var]obl.Expr{}
	post := map[*obl.Var]obl.Expr{}
	var snapLhs []*obl.Var
	var snapRhs []obl.Expr
	for _, v := range p.vars {
		old := b.NewVar(v.Name+".old", v.Sort)
		snapLhs, snapRhs = append(snapLhs, old), append(snapRhs, &obl.VarRef{V: v})
		pre[v], post[v] = &obl.VarRef{V: old}, &obl.VarRef{V: v}
	}
	// The transitions without their gates: the gates are assumed in the
	// initial state; gate preservation covers them after a move.
	swapped := obl.Sequence(b.Body(s2, p.e2, layers.Transition), b.Body(s1, p.e1, layers.Transition))
	gates := p.gates() // the relation does not use the builder: same names as after it
	var why string
	var noPair bool
	if !possible {
		why, noPair = layers.ImpossibleOpening(obl.Sequence(p.assumeDist, gates))
	}
	if noPair && obl.PathBound(swapped, obl.DefaultMaxPaths) <= obl.DefaultMaxPaths {
		return nil, why, nil
	}
	rel, err := obl.Relation(swapped, pre, post)
	if err != nil {
		return nil, "", tooManyPaths(Commutativity, s1, s2, err)
	}
	if noPair {
		return nil, why, nil
	}
	msg := fmt.Sprintf("%s (%s) does not commute with %s (%s): running them in this order reaches a state that the other order cannot",
		s1.Name(), moverWord(s1), s2.Name(), moverWord(s2))
	body := obl.Sequence(p.assumeDist, gates,
		&obl.Assign{Lhs: snapLhs, Rhs: snapRhs},
		b.Body(s1, p.e1, layers.Transition), b.Body(s2, p.e2, layers.Transition),
		layers.Check(Commutativity, rel, msg, s1.Pos, s2.Pos))
	return b.Obligation(p.name("comm"), Commutativity, body), "", nil
}

// gatePreservation: s1 keeps the gate of s2.
func gatePreservation(s1, s2 *layers.Step) *obl.Obligation {
	p := newPair(s1, s2)
	b := p.b
	msg := fmt.Sprintf("%s (%s) may falsify the gate of %s (%s)", s1.Name(), moverWord(s1), s2.Name(), moverWord(s2))
	body := obl.Sequence(p.assumeDist, p.gates(), b.Body(s1, p.e1, layers.Assume),
		layers.Check(GatePreservation, b.Gate(s2, p.e2), msg, s1.Pos, s2.Pos))
	return b.Obligation(p.name("gate"), GatePreservation, body)
}

// failurePreservation: the left mover s2 does not make the failing gate
// of s1 hold, which would hide a failure when s2 moves left.
func failurePreservation(s1, s2 *layers.Step) *obl.Obligation {
	p := newPair(s1, s2)
	b := p.b
	g1 := b.Gate(s1, p.e1)
	not := obl.Not(g1)
	msg := fmt.Sprintf("%s (%s) may make the gate of %s true from a state where it is false, hiding a failure of %s",
		s2.Name(), moverWord(s2), s1.Name(), s1.Name())
	body := obl.Sequence(p.assumeDist, &obl.Assume{E: obl.And(not, b.Gate(s2, p.e2))},
		b.Body(s2, p.e2, layers.Assume),
		layers.Check(FailurePreservation, not, msg, s2.Pos, s1.Pos))
	return b.Obligation(p.name("fail"), FailurePreservation, body)
}

// nonBlocking: a left mover can always run when its gate holds.
func nonBlocking(s *layers.Step) (*obl.Obligation, error) {
	l := s.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	te := b.Thread(env, s, "", "thread ("+s.Name()+")")
	rel, err := obl.Relation(b.Body(s, te, layers.Assume), nil, nil)
	if err != nil {
		return nil, tooManyPaths(NonBlocking, s, s, err)
	}
	msg := fmt.Sprintf("%s is a %s but may block: from a state satisfying its gate it has no execution", s.Name(), moverWord(s))
	body := obl.Sequence(&obl.Assume{E: b.Gate(s, te)}, layers.Check(NonBlocking, rel, msg, s.Pos))
	return b.Obligation(fmt.Sprintf("l%d-nonblocking-%d", l.Num, s.ID), NonBlocking, body), nil
}

// tooManyPaths reports a check whose transition relation could not be
// computed: it is unknown, never proven.
func tooManyPaths(check obl.Kind, s1, s2 *layers.Step, err error) *layers.Diagnostic {
	return &layers.Diagnostic{Check: check, Layer: s1.Layer.Num, Unknown: true,
		Msg: fmt.Sprintf("cannot check %s and %s: %v; split the steps", s1.Name(), s2.Name(), err),
		Pos: []lang.Pos{s1.Pos, s2.Pos}}
}
