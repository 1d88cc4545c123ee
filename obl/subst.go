package obl

// FreeVars returns the variables occurring free in e, in order of first
// occurrence.
func FreeVars(e Expr) []*Var {
	var out []*Var
	seen := make(map[*Var]bool)
	WalkFree(e, nil, func(v *Var) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	})
	return out
}

// freeSet returns the set of variables occurring free in e.
func freeSet(e Expr) map[*Var]bool {
	set := make(map[*Var]bool)
	WalkFree(e, nil, func(v *Var) { set[v] = true })
	return set
}

// WalkFree calls f for every free occurrence of a variable in e; bound
// holds the variables bound by enclosing quantifiers.
func WalkFree(e Expr, bound map[*Var]bool, f func(*Var)) {
	switch e := e.(type) {
	case *VarRef:
		if !bound[e.V] {
			f(e.V)
		}
	case *Unary:
		WalkFree(e.X, bound, f)
	case *Binary:
		WalkFree(e.X, bound, f)
		WalkFree(e.Y, bound, f)
	case *Ite:
		WalkFree(e.Cond, bound, f)
		WalkFree(e.Then, bound, f)
		WalkFree(e.Else, bound, f)
	case *Select:
		WalkFree(e.Map, bound, f)
		WalkFree(e.Key, bound, f)
	case *Store:
		WalkFree(e.Map, bound, f)
		WalkFree(e.Key, bound, f)
		WalkFree(e.Val, bound, f)
	case *Record:
		for _, a := range e.Args {
			WalkFree(a, bound, f)
		}
	case *Field:
		WalkFree(e.X, bound, f)
	case *ConstMap:
		WalkFree(e.V, bound, f)
	case *SeqApp:
		for _, a := range e.Args {
			WalkFree(a, bound, f)
		}
	case *Quant:
		inner := make(map[*Var]bool, len(bound)+len(e.Bound))
		for v := range bound {
			inner[v] = true
		}
		for _, v := range e.Bound {
			inner[v] = true
		}
		WalkFree(e.Body, inner, f)
	}
}

// mentions reports whether v occurs free in e.
func mentions(e Expr, v *Var) bool {
	found := false
	WalkFree(e, nil, func(w *Var) { found = found || w == v })
	return found
}

// Subst replaces the free occurrences of the variables in sub by their
// images, all at once (so x := y, y := x swaps). It avoids capture: a
// bound variable that occurs free in an image is renamed to a fresh
// variable of the same name (printers disambiguate the name). Unchanged
// subtrees are shared with e. The result is rebuilt with the folding
// constructors.
func Subst(e Expr, sub map[*Var]Expr) Expr {
	if len(sub) == 0 {
		return e
	}
	return subst(e, sub)
}

func subst(e Expr, sub map[*Var]Expr) Expr {
	switch e := e.(type) {
	case *VarRef:
		if r, ok := sub[e.V]; ok {
			return r
		}
	case *Unary:
		if x := subst(e.X, sub); x != e.X {
			if e.Op == OpNot {
				return Not(x)
			}
			return Neg(x)
		}
	case *Binary:
		x, y := subst(e.X, sub), subst(e.Y, sub)
		if x != e.X || y != e.Y {
			return BinaryOf(e.Op, x, y)
		}
	case *Ite:
		c, x, y := subst(e.Cond, sub), subst(e.Then, sub), subst(e.Else, sub)
		if c != e.Cond || x != e.Then || y != e.Else {
			return IfThenElse(c, x, y)
		}
	case *Select:
		m, k := subst(e.Map, sub), subst(e.Key, sub)
		if m != e.Map || k != e.Key {
			return Index(m, k)
		}
	case *Store:
		m, k, v := subst(e.Map, sub), subst(e.Key, sub), subst(e.Val, sub)
		if m != e.Map || k != e.Key || v != e.Val {
			return Update(m, k, v)
		}
	case *Record:
		args, changed := make([]Expr, len(e.Args)), false
		for i, a := range e.Args {
			args[i] = subst(a, sub)
			changed = changed || args[i] != a
		}
		if changed {
			return MkRecord(e.S, args...)
		}
	case *Field:
		if x := subst(e.X, sub); x != e.X {
			return FieldOf(x, e.S, e.I)
		}
	case *ConstMap:
		if v := subst(e.V, sub); v != e.V {
			return MapOf(e.S, v)
		}
	case *SeqApp:
		args, changed := make([]Expr, len(e.Args)), false
		for i, a := range e.Args {
			args[i] = subst(a, sub)
			changed = changed || args[i] != a
		}
		if changed {
			return &SeqApp{Op: e.Op, S: e.S, Args: args}
		}
	case *Quant:
		return substQuant(e, sub)
	}
	return e
}

// substQuant substitutes under a quantifier: bound variables shadow sub,
// and are renamed where an image that will be substituted mentions them.
func substQuant(q *Quant, sub map[*Var]Expr) Expr {
	free := freeSet(q.Body)
	inner := make(map[*Var]Expr)
	for v, r := range sub {
		if free[v] && !contains(q.Bound, v) {
			inner[v] = r
		}
	}
	if len(inner) == 0 {
		return q
	}
	bound := q.Bound
	for i, b := range q.Bound {
		if !capturedBy(b, inner) {
			continue
		}
		if &bound[0] == &q.Bound[0] {
			bound = append([]*Var(nil), q.Bound...)
		}
		fresh := &Var{Name: b.Name, Sort: b.Sort}
		bound[i] = fresh
		inner[b] = Ref(fresh)
	}
	body := subst(q.Body, inner)
	return quant(q.Exists, bound, body)
}

// capturedBy reports whether b occurs free in an image of sub.
func capturedBy(b *Var, sub map[*Var]Expr) bool {
	for _, r := range sub {
		if mentions(r, b) {
			return true
		}
	}
	return false
}

func contains(vs []*Var, v *Var) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}
