package obl

import "strconv"

// A Var is a variable of an obligation, or one bound by a quantifier.
// Variables are identified by pointer: two *Var with the same name are
// different variables. Within an obligation, the declared variables have
// distinct names (see Namer); printers disambiguate any other clash (for
// instance a bound variable renamed by Subst) by adding a suffix.
type Var struct {
	Name string
	Sort Sort
}

func (v *Var) String() string { return v.Name }

// A Namer hands out variable names that are unique among the names it has
// seen, to build obligations whose variables have distinct names.
type Namer struct {
	used map[string]bool
}

// NewNamer returns a Namer that treats the names of vars as taken.
func NewNamer(vars ...*Var) *Namer {
	n := &Namer{used: make(map[string]bool)}
	for _, v := range vars {
		n.used[v.Name] = true
	}
	return n
}

// Name returns base if it is free, otherwise base_1, base_2, ..., the first
// free one, and marks it taken.
func (n *Namer) Name(base string) string {
	name := base
	for i := 1; n.used[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	n.used[name] = true
	return name
}

// Fresh returns a new variable of sort s named by Name(base).
func (n *Namer) Fresh(base string, s Sort) *Var {
	return &Var{Name: n.Name(base), Sort: s}
}
