package obl

import "strings"

// AssumedContradiction looks at the assumptions that open body, before
// any command that changes a variable, asserts or branches, and reports a
// conjunct a != b (or !(a == b)) among them whose sides are equal by the
// equations among them (conjuncts x == y, closed under symmetry and
// transitivity), together with the equations that make them equal.
//
// Such a body holds vacuously: no initial state satisfies its opening
// assumptions, so no execution reaches an assert. Two-thread checks use
// it to skip pairs that two distinct threads cannot form, typically
// because both procedures require their linear thread id to be the same
// constant (tid == ptTid at both) while linear ids are distinct. The
// reasoning is syntactic: two sides are the same term when they are the
// same variable, or neither is a variable and one Printer prints them the
// same (it gives distinct variables distinct names), and
// every term is evaluated in the one state the opening assumptions
// constrain.
func AssumedContradiction(body Cmd) (conflict Expr, equations []Expr, ok bool) {
	return NewTerms().AssumedContradiction(body)
}

// AssumedContradiction is obl.AssumedContradiction with the terms
// numbered by t, which keeps the numbers for later calls: a caller that
// decides many openings made of the same facts (one thread's facts
// against each of many other threads') numbers each term once.
func (t *Terms) AssumedContradiction(body Cmd) (conflict Expr, equations []Expr, ok bool) {
	facts := make([]Expr, 0, 64) // two threads' facts: most openings fit
	for _, c := range openingAssumes(body, nil) {
		facts = appendConjuncts(facts, c.E)
	}
	var eqs, diseqs []*Binary
	for _, f := range facts {
		switch b := f.(type) {
		case *Binary:
			switch b.Op {
			case OpEq:
				eqs = append(eqs, b)
			case OpNe:
				diseqs = append(diseqs, b)
			}
		case *Unary:
			if eq, isEq := b.X.(*Binary); isEq && b.Op == OpNot && eq.Op == OpEq {
				diseqs = append(diseqs, &Binary{OpNe, eq.X, eq.Y})
			}
		}
	}
	if len(diseqs) == 0 {
		return nil, nil, false
	}
	classes := t.classes(len(eqs))
	for _, eq := range eqs {
		classes.union(eq)
	}
	for _, d := range diseqs {
		if eqs, same := classes.why(d.X, d.Y); same {
			return d, eqs, true
		}
	}
	return nil, nil, false
}

// MentionsOnly reports whether e has no quantifier and every variable
// in it satisfies keep. A caller that decided a contradiction over terms
// built elsewhere uses it to know that the terms print as they would in
// its own obligation: variables it names alike, and no bound variables,
// whose names depend on what was built before them.
func MentionsOnly(e Expr, keep func(*Var) bool) bool {
	switch e := e.(type) {
	case *VarRef:
		return keep(e.V)
	case *Quant:
		return false
	}
	ok := true
	eachChild(e, func(c Expr) { ok = ok && MentionsOnly(c, keep) })
	return ok
}

// OpensWithAssume reports whether c starts with an Assume: whether it
// extends the opening assumptions (AssumedContradiction) of a sequence
// that ends before it. A check that decided the opening of a body can
// skip deciding the body again when the rest does not.
func OpensWithAssume(c Cmd) bool {
	as, _ := openingAssumesDone(c, nil)
	return len(as) > 0
}

// openingAssumes returns the Assume commands at the start of c, in order,
// up to the first command of another kind.
func openingAssumes(c Cmd, acc []*Assume) []*Assume {
	as, _ := openingAssumesDone(c, acc)
	return as
}

// openingAssumesDone also reports whether c ended the opening run.
func openingAssumesDone(c Cmd, acc []*Assume) ([]*Assume, bool) {
	switch c := c.(type) {
	case *Assume:
		return append(acc, c), false
	case *Seq:
		for _, s := range c.Cmds {
			var done bool
			if acc, done = openingAssumesDone(s, acc); done {
				return acc, true
			}
		}
		return acc, false
	}
	return acc, true
}

// Terms numbers terms: a variable by its identity, any other term by
// its printed form (one Printer, which names distinct variables apart),
// so that two terms have one number when they are the same variable, or
// neither is a variable and they print the same.
type Terms struct {
	printer *Printer // made for the first term that is not a variable
	vars    map[*Var]int
	printed map[string]int
	memo    map[Expr]int // the terms that are not variables, by identity: printed once
	n       int
	parent  []int // the classes' union-find, reused by each call
}

// NewTerms returns an empty numbering.
func NewTerms() *Terms { return &Terms{vars: map[*Var]int{}} }

// id returns the number of e. Most terms are variables, which need no
// printing.
func (t *Terms) id(e Expr) int {
	if r, ok := e.(*VarRef); ok {
		if id, ok := t.vars[r.V]; ok {
			return id
		}
		t.vars[r.V] = t.n
		t.n++
		return t.n - 1
	}
	if id, ok := t.memo[e]; ok {
		return id
	}
	if t.printer == nil {
		t.printer, t.printed, t.memo = NewPrinter(nil), map[string]int{}, map[Expr]int{}
	}
	var b strings.Builder
	t.printer.expr(&b, e, precOpen)
	k := b.String()
	id, ok := t.printed[k]
	if !ok {
		id = t.n
		t.printed[k] = id
		t.n++
	}
	t.memo[e] = id
	return id
}

// classes returns empty classes over t's terms, sized for n equations.
func (t *Terms) classes(n int) *termClasses {
	return &termClasses{terms: t, parent: t.parent[:0], unions: make([]keyedEq, 0, n)}
}

// termClasses is a union-find over the terms of one opening, numbered by
// terms. It remembers each union's equation, so that a conflict can be
// explained.
type termClasses struct {
	terms  *Terms
	parent []int // by number: every term numbered so far is in it
	// unions are the equations with the numbers of their sides, in
	// order; the graph of them is built only to explain a conflict (most
	// openings have none).
	unions []keyedEq
}

type keyedEq struct {
	x, y int
	eq   Expr
}

type termEdge struct {
	to int
	eq Expr
}

// key returns the number of e, a class of its own until a union.
func (tc *termClasses) key(e Expr) int {
	id := tc.terms.id(e)
	for len(tc.parent) <= id {
		tc.parent = append(tc.parent, len(tc.parent))
	}
	tc.terms.parent = tc.parent // kept for the next call, which starts it again
	return id
}

func (tc *termClasses) find(k int) int {
	for tc.parent[k] != k {
		k = tc.parent[k]
	}
	return k
}

func (tc *termClasses) union(eq *Binary) {
	x, y := tc.key(eq.X), tc.key(eq.Y)
	tc.unions = append(tc.unions, keyedEq{x, y, eq})
	if rx, ry := tc.find(x), tc.find(y); rx != ry {
		tc.parent[rx] = ry
	}
}

// why reports whether a and b are in one class and, if so, a path of
// equations from a to b (empty if they print the same).
func (tc *termClasses) why(a, b Expr) ([]Expr, bool) {
	x, y := tc.key(a), tc.key(b)
	if x == y {
		return nil, true
	}
	if tc.find(x) != tc.find(y) {
		return nil, false
	}
	// Breadth-first search for the equations that connect them.
	edges := make([][]termEdge, len(tc.parent))
	for _, u := range tc.unions {
		edges[u.x] = append(edges[u.x], termEdge{u.y, u.eq})
		edges[u.y] = append(edges[u.y], termEdge{u.x, u.eq})
	}
	prev := map[int]termEdge{x: {}}
	queue := []int{x}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		if k == y {
			break
		}
		for _, e := range edges[k] {
			if _, seen := prev[e.to]; !seen {
				prev[e.to] = termEdge{k, e.eq}
				queue = append(queue, e.to)
			}
		}
	}
	var path []Expr
	for k := y; k != x; k = prev[k].to {
		path = append([]Expr{prev[k].eq}, path...)
	}
	return path, true
}
