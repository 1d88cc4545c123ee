package obl

import (
	"errors"
	"fmt"
)

// DefaultMaxPaths is the path cap of Relation.
const DefaultMaxPaths = 1024

// ErrTooManyPaths is returned (wrapped) by Relation when a command has more
// execution paths than the cap.
var ErrTooManyPaths = errors.New("too many paths")

// Relation returns the transition relation of c between the states pre and
// post: a formula that holds iff some execution of c that starts in the
// state where each variable v has the value pre[v] (v itself if v is not in
// pre) ends in a state where each variable v in post has the value
// post[v]. Variables not in post are unconstrained at the end. Asserts are
// treated as assumes.
//
// The relation is computed by path enumeration: each path is a
// substitution and a path condition, havoc introduces a fresh existentially
// bound variable. Existentials are eliminated where the path has a
// syntactic witness, a conjunct v == e with e not mentioning v (as in havoc
// v; assume v == e); the others stay as exists. Relation fails with
// ErrTooManyPaths beyond DefaultMaxPaths paths.
func Relation(c Cmd, pre, post map[*Var]Expr) (Expr, error) {
	return RelationLimit(c, pre, post, DefaultMaxPaths)
}

// RelationLimit is Relation with a path cap of maxPaths.
func RelationLimit(c Cmd, pre, post map[*Var]Expr, maxPaths int) (Expr, error) {
	x := &symExec{max: maxPaths}
	start := &symPath{sub: make(map[*Var]Expr, len(pre))}
	for v, e := range pre {
		start.sub[v] = e
	}
	paths, err := x.cmd(c, []*symPath{start})
	if err != nil {
		return nil, err
	}
	posts := sortedPost(post)
	var disj []Expr
	for _, p := range paths {
		for _, v := range posts {
			p.conds = append(p.conds, Eq(post[v], p.value(v)))
		}
		disj = append(disj, p.formula())
	}
	return Or(disj...), nil
}

// PathBound returns an upper bound on the number of paths Relation
// enumerates through c, capped at limit+1: paths multiply along a
// sequence and add up over the branches of a choice, and assumptions
// only drop paths. Relation cannot fail with ErrTooManyPaths when the
// bound is at most its cap.
func PathBound(c Cmd, limit int) int {
	n := 1
	switch c := c.(type) {
	case *Seq:
		for _, s := range c.Cmds {
			n = min(n*PathBound(s, limit), limit+1)
		}
	case *Choice:
		n = 0
		for _, b := range c.Branches {
			n = min(n+PathBound(b, limit), limit+1)
		}
	}
	return n
}

// sortedPost returns the variables of post ordered by name, so that the
// relation prints the same way every time (names are unique within an
// obligation).
func sortedPost(post map[*Var]Expr) []*Var {
	vs := make([]*Var, 0, len(post))
	for v := range post {
		vs = append(vs, v)
	}
	sortVars(vs)
	return vs
}

// A symPath is one execution path: the current value of each variable
// (absent means its initial value), the path condition as a list of
// conjuncts, and the fresh variables introduced by havoc.
type symPath struct {
	sub   map[*Var]Expr
	conds []Expr
	fresh []*Var
}

func (p *symPath) value(v *Var) Expr {
	if e, ok := p.sub[v]; ok {
		return e
	}
	return Ref(v)
}

func (p *symPath) clone() *symPath {
	q := &symPath{sub: make(map[*Var]Expr, len(p.sub))}
	for v, e := range p.sub {
		q.sub[v] = e
	}
	q.conds = append([]Expr(nil), p.conds...)
	q.fresh = append([]*Var(nil), p.fresh...)
	return q
}

// symExec enumerates the paths of a command.
type symExec struct {
	max int
}

func (x *symExec) cmd(c Cmd, paths []*symPath) ([]*symPath, error) {
	switch c := c.(type) {
	case *Assume:
		return x.assume(c.E, paths), nil
	case *Assert:
		return x.assume(c.E, paths), nil
	case *Assign:
		for _, p := range paths {
			vals := make([]Expr, len(c.Rhs))
			for i, e := range c.Rhs {
				vals[i] = Subst(e, p.sub)
			}
			for i, v := range c.Lhs {
				p.sub[v] = vals[i]
			}
		}
		return paths, nil
	case *Havoc:
		for _, p := range paths {
			for _, v := range c.Vars {
				w := &Var{Name: v.Name + "'", Sort: v.Sort}
				p.fresh = append(p.fresh, w)
				p.sub[v] = Ref(w)
			}
		}
		return paths, nil
	case *Choice:
		return x.choice(c, paths)
	case *Seq:
		var err error
		for _, s := range c.Cmds {
			if paths, err = x.cmd(s, paths); err != nil {
				return nil, err
			}
		}
		return paths, nil
	}
	return nil, fmt.Errorf("unknown command %T", c)
}

// assume adds e to every path condition and drops paths that become false.
func (x *symExec) assume(e Expr, paths []*symPath) []*symPath {
	out := paths[:0]
	for _, p := range paths {
		cond := Subst(e, p.sub)
		if isBool(cond, false) {
			continue
		}
		if !isBool(cond, true) {
			p.conds = append(p.conds, cond)
		}
		out = append(out, p)
	}
	return out
}

func (x *symExec) choice(c *Choice, paths []*symPath) ([]*symPath, error) {
	var out []*symPath
	for i, br := range c.Branches {
		in := paths
		if i < len(c.Branches)-1 {
			in = make([]*symPath, len(paths))
			for j, p := range paths {
				in[j] = p.clone()
			}
		}
		res, err := x.cmd(br, in)
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
		if len(out) > x.max {
			return nil, fmt.Errorf("%w: more than %d", ErrTooManyPaths, x.max)
		}
	}
	return out, nil
}

// formula returns the path's condition with its fresh variables
// existentially bound, after eliminating those that have a syntactic
// witness.
func (p *symPath) formula() Expr {
	conds := flattenAnd(p.conds)
	bound := p.fresh
	for changed := true; changed; {
		changed = false
		for i, v := range bound {
			j, witness := findWitness(conds, v)
			if j < 0 {
				continue
			}
			sub := map[*Var]Expr{v: witness}
			next := make([]Expr, 0, len(conds)-1)
			for k, c := range conds {
				if k != j {
					next = append(next, Subst(c, sub))
				}
			}
			conds = flattenAnd(next)
			bound = append(bound[:i:i], bound[i+1:]...)
			changed = true
			break
		}
	}
	return Exists(bound, And(conds...))
}

// findWitness finds a conjunct v == e or e == v with e not mentioning v and
// returns its index and e, or -1.
func findWitness(conds []Expr, v *Var) (int, Expr) {
	for j, c := range conds {
		b, ok := c.(*Binary)
		if !ok || b.Op != OpEq {
			continue
		}
		if r, ok := b.X.(*VarRef); ok && r.V == v && !mentions(b.Y, v) {
			return j, b.Y
		}
		if r, ok := b.Y.(*VarRef); ok && r.V == v && !mentions(b.X, v) {
			return j, b.X
		}
	}
	return -1, nil
}

// flattenAnd splits conjunctions into their conjuncts and drops true.
func flattenAnd(es []Expr) []Expr {
	var out []Expr
	var add func(e Expr)
	add = func(e Expr) {
		if b, ok := e.(*Binary); ok && b.Op == OpAnd {
			add(b.X)
			add(b.Y)
			return
		}
		if !isBool(e, true) {
			out = append(out, e)
		}
	}
	for _, e := range es {
		add(e)
	}
	return out
}
