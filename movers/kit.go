package movers

import (
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// openings decides which pairs of steps no two threads can form
// (layers.ImpossibleOpening) without building each pair's obligation.
// Commutativity and gate preservation open with the distinctness of the
// two threads' linear parameters and the two gates (newPair, gates);
// each depends on one thread only, given the two frames. A kit, one per
// pair of signatures (thread 1's and thread 2's), builds the frames and
// the distinctness once, and each step's gate and body once, where each
// pair's own builder built them all again (most pairs of Chase-Lev that
// are not skipped for their footprints are impossible, and building
// their openings was most of the movers' generation time).
//
// The kit's terms are the pair's up to the identity of their variables:
// the same translation of the same source in the same environments,
// with distinct variables where the pair's builder has distinct ones.
// obl.AssumedContradiction compares variables by identity and other
// terms by printing them with one Printer, which names distinct
// variables apart (the kit's obl.Terms, shared by all its openings,
// names all the kit's variables apart), and the kit's opening
// has the pair's facts in the pair's order, so it decides as the pair's
// opening does, with the same conflict and equations. Their printed
// form, the skip reason, is the pair's when they mention only variables
// both builders name alike: the constants, the globals and the two
// frames, which both make first and in the same order, and no
// quantifier (a bound variable's name depends on what was built before
// it). Otherwise the kit leaves the pair undecided and the pair's own
// opening decides it. Likewise the number of paths of the pair's
// transitions (obl.PathBound) depends on their structure only.
type openings struct {
	kits map[[2]*lang.Signature]*pairKit
}

// pairKit is the shared part of the openings of the pairs of steps of
// two signatures.
type pairKit struct {
	b            *layers.Builder
	e1, e2       *layers.Env
	named        map[*obl.Var]bool // the variables named as the pair's builder names them
	distinct     obl.Cmd
	terms        *obl.Terms // numbers the terms of all the kit's openings
	gate1, gate2 map[*layers.Step]obl.Expr
	tr1, tr2     map[*layers.Step]obl.Cmd // transitions, for their number of paths
	assume1      map[*layers.Step]obl.Cmd // thread 1's body as gate preservation runs it
}

// opening is a kit's decision of one pair's opening.
type opening struct {
	why     string // why no two threads can form the pair, or ""
	decided bool   // false: the pair's own opening must decide it
	kit     *pairKit
}

func (o *openings) kit(s1, s2 *layers.Step) *pairKit {
	key := [2]*lang.Signature{s1.Signature(), s2.Signature()}
	if k := o.kits[key]; k != nil {
		return k
	}
	l := s1.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	k := &pairKit{b: b, named: map[*obl.Var]bool{}, terms: obl.NewTerms(),
		gate1: map[*layers.Step]obl.Expr{}, gate2: map[*layers.Step]obl.Expr{},
		tr1: map[*layers.Step]obl.Cmd{}, tr2: map[*layers.Step]obl.Cmd{}, assume1: map[*layers.Step]obl.Cmd{}}
	k.e1 = b.Thread(env, s1, ".1", "thread 1")
	k.e2 = b.Thread(env, s2, ".2", "thread 2")
	for _, v := range b.Vars() {
		k.named[v] = true
	}
	k.distinct = layers.Distinct(l.Globals, s1.Signature(), k.e1, s2.Signature(), k.e2)
	if o.kits == nil {
		o.kits = map[[2]*lang.Signature]*pairKit{}
	}
	o.kits[key] = k
	return k
}

// decide decides the opening of s1 and s2: the distinctness and the
// gates, as pair.gates assumes them.
func (o *openings) decide(s1, s2 *layers.Step) opening {
	k := o.kit(s1, s2)
	return k.decide(obl.Sequence(k.distinct, k.gates(s1, s2)))
}

// gates is pair.gates in the kit.
func (k *pairKit) gates(s1, s2 *layers.Step) obl.Cmd {
	return &obl.Assume{E: obl.And(cached(k.gate1, s1, func() obl.Expr { return k.b.Gate(s1, k.e1) }),
		cached(k.gate2, s2, func() obl.Expr { return k.b.Gate(s2, k.e2) }))}
}

// decide decides an opening built by the kit.
func (k *pairKit) decide(c obl.Cmd) opening {
	conflict, eqs, ok := k.terms.AssumedContradiction(c)
	if !ok {
		return opening{decided: true, kit: k}
	}
	keep := func(v *obl.Var) bool { return k.named[v] }
	if !obl.MentionsOnly(conflict, keep) {
		return opening{kit: k}
	}
	for _, e := range eqs {
		if !obl.MentionsOnly(e, keep) {
			return opening{kit: k}
		}
	}
	return opening{why: layers.ContradictionReason(conflict, eqs), decided: true, kit: k}
}

// decideGate decides the opening of gate preservation's body for s1 and
// s2, given op, commutativity's opening: the same unless thread 1's body
// starts with assumptions (an assert of the step, assumed), which the
// body's opening facts then include.
func (k *pairKit) decideGate(s1, s2 *layers.Step, op opening) opening {
	body := cached(k.assume1, s1, func() obl.Cmd { return k.b.Body(s1, k.e1, layers.Assume) })
	if !obl.OpensWithAssume(body) {
		return op
	}
	return k.decide(obl.Sequence(k.distinct, k.gates(s1, s2), body))
}

// pathBound is obl.PathBound of commutativity's swapped transitions.
func (k *pairKit) pathBound(s1, s2 *layers.Step) int {
	t2 := cached(k.tr2, s2, func() obl.Cmd { return k.b.Body(s2, k.e2, layers.Transition) })
	t1 := cached(k.tr1, s1, func() obl.Cmd { return k.b.Body(s1, k.e1, layers.Transition) })
	return obl.PathBound(obl.Sequence(t2, t1), obl.DefaultMaxPaths)
}

// cached returns m[s], made by mk the first time.
func cached[T any](m map[*layers.Step]T, s *layers.Step, mk func() T) T {
	if v, ok := m[s]; ok {
		return v
	}
	v := mk()
	m[s] = v
	return v
}
