package smt

import (
	"maps"
	"strconv"

	"github.com/lipton-dev/lipton/obl"
)

// A vc is an obligation in passive form: its body cut into straight-line
// blocks of assumptions over SSA incarnations of the variables, and one
// goal per assert. It is the common input of the Z3 encoder and the
// SMT-LIB2 printer, so both ask exactly the same questions.
type vc struct {
	ob      *obl.Obligation
	consts  []*obl.Var // incarnations and block flags, in declaration order
	initial []*obl.Var // each program variable's incarnation at entry, as in ob.Vars
	blocks  []*block
	goals   []*goal // in program order of the asserts
	// quantified is set if some condition contains a quantifier; such vcs
	// are solved without push/pop (see session.incremental).
	quantified bool
	// axioms are facts about the sequence operations of the conditions
	// (seqaxioms.go), assumed with the definitions.
	axioms []obl.Expr
}

// A block is a straight-line piece of the passive program. Blocks end at a
// choice, at a join and after each assert, so every assert is the last
// condition of its block and the encoding stays linear.
type block struct {
	preds []*block
	conds []obl.Expr // passive conditions in order (asserts included)
	// exit implies that the block is reached and all its conditions
	// hold (see defs).
	exit *obl.Var
	// reach implies that the block is reached from the entry with all
	// conditions on the way true; only blocks with several predecessors
	// have their own variable, see reachExpr.
	reach  *obl.Var
	branch *obl.BranchTaken // set on the first block of a choice branch
	entry  bool
}

// A goal is one assert of the obligation.
type goal struct {
	assert *obl.Assert
	block  *block // the assert's condition is block.conds's last
	// state is the substitution at the assert: a reference to the
	// incarnation of each program variable there.
	state map[*obl.Var]obl.Expr
}

// reachExpr is the formula saying the start of b is reached.
func (b *block) reachExpr() obl.Expr {
	switch {
	case b.entry:
		return obl.True()
	case b.reach != nil:
		return obl.Ref(b.reach)
	case len(b.preds) == 1:
		return obl.Ref(b.preds[0].exit)
	}
	return obl.False() // unreachable: after a choice without branches
}

// defs returns the constraints on the block flags that the goals need.
//
// They are implications, not equivalences: exit ⇒ reach ∧ conditions, and
// reach ⇒ some predecessor's exit. That is enough, since a model of a
// failure formula then always contains a real path to the failing assert
// (follow true flags backwards), and a real failing path satisfies the
// constraints with the flags on it true and the others false. It also
// keeps every assumption in positive position, so a quantified assume
// stays a universal hypothesis for Z3 to instantiate; under an equivalence
// it would also occur negated, as an existential to skolemize.
func (v *vc) defs() []obl.Expr {
	reachNeeded := make(map[*block]bool)
	exitNeeded := make(map[*block]bool)
	var need func(b *block)
	need = func(b *block) {
		if reachNeeded[b] {
			return
		}
		reachNeeded[b] = true
		for _, p := range b.preds {
			exitNeeded[p] = true
			need(p)
		}
	}
	for _, g := range v.goals {
		need(g.block)
	}
	var out []obl.Expr
	for _, b := range v.blocks {
		if b.reach != nil && reachNeeded[b] {
			preds := make([]obl.Expr, len(b.preds))
			for i, p := range b.preds {
				preds[i] = obl.Ref(p.exit)
			}
			out = append(out, obl.Implies(obl.Ref(b.reach), obl.Or(preds...)))
		}
		if exitNeeded[b] {
			conj := append([]obl.Expr{b.reachExpr()}, b.conds...)
			out = append(out, obl.Implies(obl.Ref(b.exit), obl.And(conj...)))
		}
	}
	return append(out, v.axioms...)
}

// failure returns the formula saying g's assert is reached, with all
// conditions before it true, and fails.
func (g *goal) failure() obl.Expr {
	conds := g.block.conds
	conj := append([]obl.Expr{g.block.reachExpr()}, conds[:len(conds)-1]...)
	return obl.And(append(conj, obl.Not(conds[len(conds)-1]))...)
}

// passify builds the passive form of an obligation that was validated
// with the given shape.
func passify(ob *obl.Obligation, shape obl.Shape) *vc {
	p := &passifier{
		vc:    &vc{ob: ob, initial: make([]*obl.Var, len(ob.Vars)), quantified: shape.Quantified},
		sub:   make(map[*obl.Var]obl.Expr, len(ob.Vars)),
		count: make(map[*obl.Var]int, len(ob.Vars)),
	}
	p.vc.consts = make([]*obl.Var, 0, 2*len(ob.Vars))
	for i, v := range ob.Vars {
		p.vc.initial[i] = p.incarnate(v)
	}
	p.b = p.newBlock()
	p.b.entry = true
	p.cmd(ob.Body)
	if !shape.Sequences {
		return p.vc // no sequence, no axioms about them
	}
	var conds []obl.Expr
	for _, b := range p.vc.blocks {
		conds = append(conds, b.conds...)
	}
	if p.vc.axioms = seqAxioms(conds); len(p.vc.axioms) > 0 {
		p.vc.quantified = true
	}
	return p.vc
}

// passifier holds the state of passification: the current block and the
// current incarnation of each variable, as the substitution that
// replaces each program variable by a reference to its incarnation.
type passifier struct {
	vc    *vc
	b     *block
	sub   map[*obl.Var]obl.Expr // every value is a *obl.VarRef
	count map[*obl.Var]int
	// shared is set when sub is also a goal's state, which the next
	// incarnation must not change: sub is copied first (most asserts
	// end their obligation, and their state is never copied).
	shared bool
}

func (p *passifier) newBlock(preds ...*block) *block {
	n := len(p.vc.blocks)
	b := &block{preds: preds, exit: p.flag("ok@" + strconv.Itoa(n))}
	if len(preds) > 1 {
		b.reach = p.flag("reach@" + strconv.Itoa(n))
	}
	p.vc.blocks = append(p.vc.blocks, b)
	return b
}

func (p *passifier) flag(name string) *obl.Var {
	v := &obl.Var{Name: name, Sort: obl.BoolSort}
	p.vc.consts = append(p.vc.consts, v)
	return v
}

// incarnate makes a new incarnation of v current.
func (p *passifier) incarnate(v *obl.Var) *obl.Var {
	inc := &obl.Var{Name: v.Name + "@" + strconv.Itoa(p.count[v]), Sort: v.Sort}
	p.count[v]++
	p.vc.consts = append(p.vc.consts, inc)
	if p.shared {
		p.sub, p.shared = maps.Clone(p.sub), false
	}
	p.sub[v] = obl.Ref(inc)
	return inc
}

func (p *passifier) cmd(c obl.Cmd) {
	switch c := c.(type) {
	case *obl.Assume:
		p.cond(c.E)
	case *obl.Assert:
		p.cond(c.E)
		p.vc.goals = append(p.vc.goals, &goal{assert: c, block: p.b, state: p.sub})
		p.shared = true
		p.b = p.newBlock(p.b)
	case *obl.Assign:
		vals := make([]obl.Expr, len(c.Rhs))
		for i, e := range c.Rhs {
			vals[i] = obl.Subst(e, p.sub)
		}
		for i, v := range c.Lhs {
			p.b.conds = append(p.b.conds, obl.Eq(obl.Ref(p.incarnate(v)), vals[i]))
		}
	case *obl.Havoc:
		for _, v := range c.Vars {
			p.incarnate(v)
		}
	case *obl.Choice:
		p.choice(c)
	case *obl.Seq:
		for _, s := range c.Cmds {
			p.cmd(s)
		}
	}
}

// cond adds the condition e, in the current incarnations, to the block.
func (p *passifier) cond(e obl.Expr) {
	p.b.conds = append(p.b.conds, obl.Subst(e, p.sub))
}

// copySub returns a copy of the substitution m with references of its
// own. (The references are not shared between branches because the
// model reader dedupes the map indices it probes by pointer: shared
// ones would change which terms a counterexample creates, and so the
// resource counts of later queries.)
func copySub(m map[*obl.Var]obl.Expr) map[*obl.Var]obl.Expr {
	out := make(map[*obl.Var]obl.Expr, len(m))
	for k, v := range m {
		out[k] = obl.Ref(v.(*obl.VarRef).V)
	}
	return out
}

// choice passifies each branch from the same state, then joins: a
// variable whose incarnation differs between branches gets a new one,
// equated to the branch's at the end of each branch.
func (p *passifier) choice(c *obl.Choice) {
	fork, forkSub, forkShared := p.b, p.sub, p.shared
	type end struct {
		b   *block
		sub map[*obl.Var]obl.Expr
	}
	var ends []end
	for i, br := range c.Branches {
		p.b = p.newBlock(fork)
		p.b.branch = &obl.BranchTaken{Choice: c, Branch: i}
		p.sub, p.shared = copySub(forkSub), false
		p.cmd(br)
		ends = append(ends, end{p.b, p.sub})
	}
	if len(ends) == 0 {
		p.b = p.newBlock() // no predecessor: unreachable
		p.sub, p.shared = forkSub, forkShared
		return
	}
	p.sub, p.shared = copySub(ends[0].sub), false // incarnate updates this copy
	for _, v := range p.vc.ob.Vars {
		inc0 := ends[0].sub[v].(*obl.VarRef).V
		same := true
		for _, e := range ends[1:] {
			same = same && e.sub[v].(*obl.VarRef).V == inc0
		}
		if same {
			continue
		}
		inc := p.incarnate(v)
		for _, e := range ends {
			e.b.conds = append(e.b.conds, obl.Eq(obl.Ref(inc), obl.Ref(e.sub[v].(*obl.VarRef).V)))
		}
	}
	preds := make([]*block, len(ends))
	for i, e := range ends {
		preds[i] = e.b
	}
	p.b = p.newBlock(preds...)
}
