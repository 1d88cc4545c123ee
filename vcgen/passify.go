package vcgen

import "strconv"

// A vc is an obligation in passive form: its body cut into straight-line
// blocks of assumptions over SSA incarnations of the variables, and one
// goal per assert. It is the common input of the Z3 encoder and the
// SMT-LIB2 printer, so both ask exactly the same questions.
type vc struct {
	ob      *Obligation
	consts  []*Var        // incarnations and block flags, in declaration order
	initial map[*Var]*Var // each program variable's incarnation at entry
	blocks  []*block
	goals   []*goal // in program order of the asserts
	// quantified is set if some condition contains a quantifier; such vcs
	// are solved without push/pop (see session.incremental).
	quantified bool
}

// A block is a straight-line piece of the passive program. Blocks end at a
// choice, at a join and after each assert, so every assert is the last
// condition of its block and the encoding stays linear.
type block struct {
	preds []*block
	conds []Expr // passive conditions in order (asserts included)
	// exit implies that the block is reached and all its conditions
	// hold (see defs).
	exit *Var
	// reach implies that the block is reached from the entry with all
	// conditions on the way true; only blocks with several predecessors
	// have their own variable, see reachExpr.
	reach  *Var
	branch *BranchTaken // set on the first block of a choice branch
	entry  bool
}

// A goal is one assert of the obligation.
type goal struct {
	assert *Assert
	block  *block        // the assert's condition is block.conds's last
	state  map[*Var]*Var // incarnation of each program variable there
}

// reachExpr is the formula saying the start of b is reached.
func (b *block) reachExpr() Expr {
	switch {
	case b.entry:
		return trueLit
	case b.reach != nil:
		return Ref(b.reach)
	case len(b.preds) == 1:
		return Ref(b.preds[0].exit)
	}
	return falseLit // unreachable: after a choice without branches
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
func (v *vc) defs() []Expr {
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
	var out []Expr
	for _, b := range v.blocks {
		if b.reach != nil && reachNeeded[b] {
			preds := make([]Expr, len(b.preds))
			for i, p := range b.preds {
				preds[i] = Ref(p.exit)
			}
			out = append(out, Implies(Ref(b.reach), Or(preds...)))
		}
		if exitNeeded[b] {
			conj := append([]Expr{b.reachExpr()}, b.conds...)
			out = append(out, Implies(Ref(b.exit), And(conj...)))
		}
	}
	return out
}

// failure returns the formula saying g's assert is reached, with all
// conditions before it true, and fails.
func (g *goal) failure() Expr {
	conds := g.block.conds
	conj := append([]Expr{g.block.reachExpr()}, conds[:len(conds)-1]...)
	return And(append(conj, Not(conds[len(conds)-1]))...)
}

// passify builds the passive form of a validated obligation.
func passify(ob *Obligation) *vc {
	p := &passifier{
		vc:    &vc{ob: ob, initial: make(map[*Var]*Var)},
		cur:   make(map[*Var]*Var),
		sub:   make(map[*Var]Expr),
		count: make(map[*Var]int),
	}
	for _, v := range ob.Vars {
		p.incarnate(v)
		p.vc.initial[v] = p.cur[v]
	}
	p.b = p.newBlock()
	p.b.entry = true
	p.cmd(ob.Body)
	return p.vc
}

// passifier holds the state of passification: the current block and the
// current incarnation of each variable (also as a substitution).
type passifier struct {
	vc    *vc
	b     *block
	cur   map[*Var]*Var
	sub   map[*Var]Expr
	count map[*Var]int
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

func (p *passifier) flag(name string) *Var {
	v := &Var{Name: name, Sort: BoolSort}
	p.vc.consts = append(p.vc.consts, v)
	return v
}

// incarnate makes a new incarnation of v current.
func (p *passifier) incarnate(v *Var) *Var {
	inc := &Var{Name: v.Name + "@" + strconv.Itoa(p.count[v]), Sort: v.Sort}
	p.count[v]++
	p.vc.consts = append(p.vc.consts, inc)
	p.cur[v] = inc
	p.sub[v] = Ref(inc)
	return inc
}

func (p *passifier) cmd(c Cmd) {
	switch c := c.(type) {
	case *Assume:
		p.cond(c.E)
	case *Assert:
		p.cond(c.E)
		p.vc.goals = append(p.vc.goals, &goal{assert: c, block: p.b, state: copyIncarnations(p.cur)})
		p.b = p.newBlock(p.b)
	case *Assign:
		vals := make([]Expr, len(c.Rhs))
		for i, e := range c.Rhs {
			p.noteQuantifiers(e)
			vals[i] = Subst(e, p.sub)
		}
		for i, v := range c.Lhs {
			p.b.conds = append(p.b.conds, Eq(Ref(p.incarnate(v)), vals[i]))
		}
	case *Havoc:
		for _, v := range c.Vars {
			p.incarnate(v)
		}
	case *Choice:
		p.choice(c)
	case *Seq:
		for _, s := range c.Cmds {
			p.cmd(s)
		}
	}
}

// cond adds the condition e, in the current incarnations, to the block.
func (p *passifier) cond(e Expr) {
	p.noteQuantifiers(e)
	p.b.conds = append(p.b.conds, Subst(e, p.sub))
}

// noteQuantifiers sets vc.quantified if e contains a quantifier.
func (p *passifier) noteQuantifiers(e Expr) {
	walkExpr(e, func(e Expr) {
		if _, ok := e.(*Quant); ok {
			p.vc.quantified = true
		}
	})
}

func copyIncarnations(m map[*Var]*Var) map[*Var]*Var {
	out := make(map[*Var]*Var, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// choice passifies each branch from the same state, then joins: a
// variable whose incarnation differs between branches gets a new one,
// equated to the branch's at the end of each branch.
func (p *passifier) choice(c *Choice) {
	fork, forkCur := p.b, p.cur
	type end struct {
		b   *block
		cur map[*Var]*Var
	}
	var ends []end
	for i, br := range c.Branches {
		p.b = p.newBlock(fork)
		p.b.branch = &BranchTaken{Choice: c, Branch: i}
		p.setState(copyIncarnations(forkCur))
		p.cmd(br)
		ends = append(ends, end{p.b, p.cur})
	}
	if len(ends) == 0 {
		p.b = p.newBlock() // no predecessor: unreachable
		p.setState(forkCur)
		return
	}
	p.setState(copyIncarnations(ends[0].cur)) // incarnate updates this copy
	for _, v := range p.vc.ob.Vars {
		same := true
		for _, e := range ends[1:] {
			same = same && e.cur[v] == ends[0].cur[v]
		}
		if same {
			continue
		}
		inc := p.incarnate(v)
		for _, e := range ends {
			e.b.conds = append(e.b.conds, Eq(Ref(inc), Ref(e.cur[v])))
		}
	}
	preds := make([]*block, len(ends))
	for i, e := range ends {
		preds[i] = e.b
	}
	p.b = p.newBlock(preds...)
}

// setState makes cur the current incarnations.
func (p *passifier) setState(cur map[*Var]*Var) {
	p.cur = cur
	p.sub = make(map[*Var]Expr, len(cur))
	for v, inc := range cur {
		p.sub[v] = Ref(inc)
	}
}
