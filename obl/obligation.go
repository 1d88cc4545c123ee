package obl

import (
	"errors"
	"fmt"
)

// A Kind names a kind of check ("sequential", "commutativity", ...): the
// generators of obligations define theirs, reports count and order by
// them.
type Kind string

// An Obligation is a check program: it holds if no execution from any
// initial valuation of Vars fails an Assert.
type Obligation struct {
	// Name identifies the obligation; it is unique in a run and names the
	// files WriteDump writes, so it must not contain a path separator.
	Name string
	// Kind is the kind of check, for reports ("commutativity", ...).
	Kind Kind
	// Layer is the layer the check is about (the lower one of a check
	// between two layers).
	Layer int
	// Vars are all the program variables, with distinct names. Their
	// initial values are universally quantified.
	Vars []*Var
	Body Cmd
	// Groups optionally groups Vars for display, for example
	// {"globals", ...}, {"thread 1 locals", ...}.
	Groups []VarGroup
}

// A VarGroup names a subset of an obligation's variables for display.
type VarGroup struct {
	Name string
	Vars []*Var
}

// Asserts returns the obligation's asserts in program order: the order of
// the per-assert results.
func (ob *Obligation) Asserts() []*Assert { return Asserts(ob.Body) }

// Validate checks that ob is well formed: variables declared once with
// distinct names, every free variable and assigned variable declared,
// quantifiers binding undeclared variables, expressions well sorted,
// assumptions and assertions boolean, and each *Assert used once.
func (ob *Obligation) Validate() error {
	if ob.Body == nil {
		return errors.New("obligation without a body")
	}
	declared := make(map[*Var]bool)
	names := make(map[string]bool)
	for _, v := range ob.Vars {
		switch {
		case v == nil || v.Sort == nil:
			return errors.New("nil variable or variable without a sort")
		case declared[v]:
			return fmt.Errorf("variable %s declared twice", v.Name)
		case names[v.Name]:
			return fmt.Errorf("two variables named %q", v.Name)
		case v.Name == "":
			return errors.New("variable without a name")
		}
		declared[v], names[v.Name] = true, true
	}
	vd := validator{declared: declared, asserts: make(map[*Assert]bool)}
	return vd.cmd(ob.Body)
}

// validator checks commands against the declared variables.
type validator struct {
	declared map[*Var]bool
	asserts  map[*Assert]bool
}

func (vd *validator) cmd(c Cmd) error {
	switch c := c.(type) {
	case *Assume:
		return vd.formula(c.E)
	case *Assert:
		if vd.asserts[c] {
			return fmt.Errorf("assert %s occurs twice", c.E)
		}
		vd.asserts[c] = true
		return vd.formula(c.E)
	case *Assign:
		return vd.assign(c)
	case *Havoc:
		for _, v := range c.Vars {
			if !vd.declared[v] {
				return fmt.Errorf("havoc of undeclared variable %v", v)
			}
		}
	case *Choice:
		for _, b := range c.Branches {
			if err := vd.cmd(b); err != nil {
				return err
			}
		}
	case *Seq:
		for _, s := range c.Cmds {
			if err := vd.cmd(s); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown command %T", c)
	}
	return nil
}

func (vd *validator) assign(a *Assign) error {
	if len(a.Lhs) != len(a.Rhs) {
		return fmt.Errorf("assignment of %d expressions to %d variables", len(a.Rhs), len(a.Lhs))
	}
	seen := make(map[*Var]bool)
	for i, v := range a.Lhs {
		if !vd.declared[v] {
			return fmt.Errorf("assignment to undeclared variable %v", v)
		}
		if seen[v] {
			return fmt.Errorf("variable %s assigned twice in one assignment", v.Name)
		}
		seen[v] = true
		if err := vd.expr(a.Rhs[i]); err != nil {
			return err
		}
		if err := expectSort(a.Rhs[i], v.Sort, a.Rhs[i]); err != nil {
			return fmt.Errorf("assignment to %s: %v", v.Name, err)
		}
	}
	return nil
}

// formula checks a boolean expression.
func (vd *validator) formula(e Expr) error {
	if err := vd.expr(e); err != nil {
		return err
	}
	return expectSort(e, BoolSort, e)
}

// expr checks that e is well sorted, mentions only declared free
// variables, and binds only undeclared ones.
func (vd *validator) expr(e Expr) error {
	if _, err := SortOf(e); err != nil {
		return err
	}
	for _, v := range FreeVars(e) {
		if !vd.declared[v] {
			return fmt.Errorf("undeclared variable %s in %s", v.Name, e)
		}
	}
	var err error
	WalkExpr(e, func(e Expr) {
		if q, ok := e.(*Quant); ok && err == nil {
			for _, v := range q.Bound {
				if vd.declared[v] {
					err = fmt.Errorf("quantifier binds the program variable %s", v.Name)
				}
			}
		}
	})
	return err
}

// WalkExpr calls f for e and every subexpression.
func WalkExpr(e Expr, f func(Expr)) {
	f(e)
	switch e := e.(type) {
	case *Unary:
		WalkExpr(e.X, f)
	case *Binary:
		WalkExpr(e.X, f)
		WalkExpr(e.Y, f)
	case *Ite:
		WalkExpr(e.Cond, f)
		WalkExpr(e.Then, f)
		WalkExpr(e.Else, f)
	case *Select:
		WalkExpr(e.Map, f)
		WalkExpr(e.Key, f)
	case *Store:
		WalkExpr(e.Map, f)
		WalkExpr(e.Key, f)
		WalkExpr(e.Val, f)
	case *Record:
		for _, a := range e.Args {
			WalkExpr(a, f)
		}
	case *Field:
		WalkExpr(e.X, f)
	case *ConstMap:
		WalkExpr(e.V, f)
	case *SeqApp:
		for _, a := range e.Args {
			WalkExpr(a, f)
		}
	case *Quant:
		WalkExpr(e.Body, f)
	}
}
