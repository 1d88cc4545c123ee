package og

import (
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// openings decides, for the non-interference pairs of one layer, which
// no two threads can form (layers.ImpossibleOpening), without building
// each pair's obligation. The opening of the pair of yield point y and
// interferer f is the conjunction of what thread 1 assumes at y (its
// annotation, parameter facts and what it holds at entry), what thread 2
// assumes where f starts, and the distinctness of the two threads'
// linear parameters (nonInterferenceCheck). Each of these depends on one
// thread only, given the two frames; so a kit, one per procedure of
// thread 1 and procedure or action of thread 2, builds the frames and
// the distinctness once and each thread's facts once, where a pair's
// own builder built them all again for every pair (most pairs of
// Chase-Lev are impossible, and building their openings was most of the
// generation's time).
//
// The kit's terms are the pair's terms up to the identity of their
// variables: the same translation of the same source in the same
// environments, with distinct variables where the pair's builder has
// distinct variables (the two frames are apart, and each thread's facts
// are built apart). obl.AssumedContradiction compares variables by
// identity and other terms by printing them with one Printer, which
// names distinct variables apart (the kit's obl.Terms, shared by all its
// openings, names all the kit's variables apart), so it decides the kit's opening as it decides the pair's, and the opening's
// order of facts is the pair's, so it finds the same conflict and
// equations. Their printed form is the pair's when they mention only
// variables both builders name alike: the constants, the globals and
// the two frames, made first and in the same order by both, and no
// quantifier (a bound variable's name depends on what was built before
// it). Otherwise the kit leaves the pair undecided and the caller
// decides it from the pair's own opening.
type openings struct {
	layer *layers.Layer
	kits  map[kitKey]*openingKit
}

// kitKey names the code of the two threads: thread 1's procedure and
// thread 2's procedure or action (one of the two is nil).
type kitKey struct {
	proc1  *layers.Proc
	proc2  *layers.Proc
	action *layers.Action
}

// openingKit is the shared part of the openings of one kitKey's pairs.
type openingKit struct {
	b          *layers.Builder
	env1, env2 *layers.Env
	named      map[*obl.Var]bool // the variables named as the pair's builder names them
	distinct   obl.Cmd
	terms      *obl.Terms // numbers the terms of all the kit's openings
	thread1    map[*layers.YieldPoint]obl.Cmd
	thread2    map[*layers.YieldPoint]obl.Cmd // by f.start; nil for an action
	action     obl.Cmd
}

func newOpenings(l *layers.Layer) *openings {
	return &openings{layer: l, kits: map[kitKey]*openingKit{}}
}

// impossible reports why no two threads can form the pair of y and f
// (decided), or that they can (decided, why ""), or that the kit cannot
// tell the reason as the pair's opening would (not decided).
func (o *openings) impossible(y *layers.YieldPoint, f interferer) (why string, decided bool) {
	k := o.kit(y.Proc, f)
	opening := obl.Sequence(k.threadOne(y), k.threadTwo(o.layer, f), k.distinct)
	conflict, eqs, ok := k.terms.AssumedContradiction(opening)
	if !ok {
		return "", true
	}
	keep := func(v *obl.Var) bool { return k.named[v] }
	if !obl.MentionsOnly(conflict, keep) {
		return "", false
	}
	for _, e := range eqs {
		if !obl.MentionsOnly(e, keep) {
			return "", false
		}
	}
	return layers.ContradictionReason(conflict, eqs), true
}

// kit returns the kit of thread 1 running p and thread 2 running f,
// building its frames as nonInterferenceCheck does.
func (o *openings) kit(p *layers.Proc, f interferer) *openingKit {
	key := kitKey{proc1: p, proc2: f.proc, action: f.action}
	if k := o.kits[key]; k != nil {
		return k
	}
	l := o.layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	sig2 := interfererSig(f)
	k := &openingKit{b: b, terms: obl.NewTerms(), thread1: map[*layers.YieldPoint]obl.Cmd{}, thread2: map[*layers.YieldPoint]obl.Cmd{}}
	k.env1 = b.Frame(env, &p.Decl.Signature, ".1", "thread 1")
	k.env2 = b.Frame(env, sig2, ".2", "thread 2")
	k.named = map[*obl.Var]bool{}
	for _, v := range b.Vars() {
		k.named[v] = true
	}
	k.distinct = layers.Distinct(l.Globals, &p.Decl.Signature, k.env1, sig2, k.env2)
	o.kits[key] = k
	return k
}

// threadOne returns the assumptions of thread 1 at y, as
// nonInterferenceCheck builds them.
func (k *openingKit) threadOne(y *layers.YieldPoint) obl.Cmd {
	if c, ok := k.thread1[y]; ok {
		return c
	}
	c := obl.Sequence(threadOneFacts(k.b, y, k.env1)...)
	k.thread1[y] = c
	return c
}

// threadTwo returns what thread 2 assumes where f starts.
func (k *openingKit) threadTwo(l *layers.Layer, f interferer) obl.Cmd {
	if f.action != nil {
		if k.action == nil {
			k.action = &obl.Assume{E: interfererPre(k.b, l, k.env2, f)}
		}
		return k.action
	}
	a := k.thread2[f.start]
	if a == nil {
		a = &obl.Assume{E: interfererPre(k.b, l, k.env2, f)}
		k.thread2[f.start] = a
	}
	return a
}

// threadOneFacts returns the assumptions that open a non-interference
// obligation for thread 1 at y: its annotation, then its parameter facts
// and what it holds at entry.
func threadOneFacts(b *layers.Builder, y *layers.YieldPoint, env1 *layers.Env) []obl.Cmd {
	target := b.AnnotationAt(y, env1)
	facts := obl.And(b.ParamFacts(y.Proc, env1), layers.HeldAtEntry(y, env1))
	return []obl.Cmd{&obl.Assume{E: target}, &obl.Assume{E: facts}}
}

// interfererSig is the signature of the code f runs.
func interfererSig(f interferer) *lang.Signature {
	if f.action != nil {
		return &f.action.Decl.Signature
	}
	return &f.proc.Decl.Signature
}
