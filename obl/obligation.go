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
	_, err := ob.Inspect()
	return err
}

// A Shape says which features of the IR an obligation uses, as the
// deciders need to know before they start.
type Shape struct {
	// Quantified is set if an expression contains a quantifier.
	Quantified bool
	// Sequences is set if a variable, a bound variable or an operation
	// is of a sequence sort (UsesSequences).
	Sequences bool
}

// Inspect validates ob as Validate does and returns its Shape, from the
// same walk over its expressions: the sort of each expression is
// computed once, and its variables and binders are checked in one more
// walk that also notes quantifiers and sequences. (Validation had three
// walks of every expression, a fourth for the sort of a formula, and the
// prover two more for the shape: some 3 % of a check's CPU.)
func (ob *Obligation) Inspect() (Shape, error) {
	if ob.Body == nil {
		return Shape{}, errors.New("obligation without a body")
	}
	declared := make(map[*Var]bool, len(ob.Vars))
	names := make(map[string]bool, len(ob.Vars))
	vd := validator{declared: declared, asserts: make(map[*Assert]bool)}
	for _, v := range ob.Vars {
		switch {
		case v == nil || v.Sort == nil:
			return Shape{}, errors.New("nil variable or variable without a sort")
		case declared[v]:
			return Shape{}, fmt.Errorf("variable %s declared twice", v.Name)
		case names[v.Name]:
			return Shape{}, fmt.Errorf("two variables named %q", v.Name)
		case v.Name == "":
			return Shape{}, errors.New("variable without a name")
		}
		declared[v], names[v.Name] = true, true
		vd.shape.Sequences = vd.shape.Sequences || sortHasSeq(v.Sort)
	}
	if err := vd.cmd(ob.Body); err != nil {
		return Shape{}, err
	}
	return vd.shape, nil
}

// validator checks commands against the declared variables.
type validator struct {
	declared map[*Var]bool
	asserts  map[*Assert]bool
	shape    Shape
	bound    []*Var // the variables bound by the quantifiers around the walk
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
	for i, v := range a.Lhs {
		if !vd.declared[v] {
			return fmt.Errorf("assignment to undeclared variable %v", v)
		}
		for _, w := range a.Lhs[:i] {
			if w == v {
				return fmt.Errorf("variable %s assigned twice in one assignment", v.Name)
			}
		}
		got, err := vd.expr(a.Rhs[i])
		if err != nil {
			return err
		}
		if !SortEqual(got, v.Sort) {
			return fmt.Errorf("assignment to %s: %s has sort %s, want %s, in %s", v.Name, a.Rhs[i], got, v.Sort, a.Rhs[i])
		}
	}
	return nil
}

// formula checks a boolean expression.
func (vd *validator) formula(e Expr) error {
	got, err := vd.expr(e)
	if err != nil {
		return err
	}
	if !SortEqual(got, BoolSort) {
		return fmt.Errorf("%s has sort %s, want %s, in %s", e, got, BoolSort, e)
	}
	return nil
}

// expr checks that e is well sorted, mentions only declared free
// variables, and binds only undeclared ones, and returns its sort. The
// first undeclared free variable (in the order of WalkFree) is reported
// before a quantifier that binds a program variable.
func (vd *validator) expr(e Expr) (Sort, error) {
	s, err := SortOf(e)
	if err != nil {
		return nil, err
	}
	var binds *Var
	if v := vd.vars(e, &binds); v != nil {
		return nil, fmt.Errorf("undeclared variable %s in %s", v.Name, e)
	}
	if binds != nil {
		return nil, fmt.Errorf("quantifier binds the program variable %s", binds.Name)
	}
	return s, nil
}

// vars walks e, which SortOf accepted, and returns its first free
// variable that is not declared, or nil. It sets *binds to the last
// declared variable bound by the first quantifier (in preorder) that
// binds one, and notes quantifiers and sequences in vd.shape.
func (vd *validator) vars(e Expr, binds **Var) *Var {
	switch e := e.(type) {
	case *VarRef:
		if !vd.declared[e.V] && !vd.isBound(e.V) {
			return e.V
		}
	case *Quant:
		vd.shape.Quantified = true
		var found *Var
		for _, v := range e.Bound {
			if vd.declared[v] {
				found = v
			}
			vd.shape.Sequences = vd.shape.Sequences || sortHasSeq(v.Sort)
		}
		if found != nil && *binds == nil {
			*binds = found
		}
		n := len(vd.bound)
		vd.bound = append(vd.bound, e.Bound...)
		v := vd.vars(e.Body, binds)
		vd.bound = vd.bound[:n]
		return v
	case *SeqApp:
		vd.shape.Sequences = true
	}
	var undeclared *Var
	eachChild(e, func(c Expr) {
		if v := vd.vars(c, binds); undeclared == nil {
			undeclared = v
		}
	})
	return undeclared
}

// isBound reports whether v is bound by a quantifier around the walk.
func (vd *validator) isBound(v *Var) bool {
	for _, b := range vd.bound {
		if b == v {
			return true
		}
	}
	return false
}

// eachChild calls f for the direct subexpressions of e, in the order of
// WalkExpr (a quantifier's body is its only child).
func eachChild(e Expr, f func(Expr)) {
	switch e := e.(type) {
	case *Unary:
		f(e.X)
	case *Binary:
		f(e.X)
		f(e.Y)
	case *Ite:
		f(e.Cond)
		f(e.Then)
		f(e.Else)
	case *Select:
		f(e.Map)
		f(e.Key)
	case *Store:
		f(e.Map)
		f(e.Key)
		f(e.Val)
	case *Record:
		for _, a := range e.Args {
			f(a)
		}
	case *Field:
		f(e.X)
	case *ConstMap:
		f(e.V)
	case *SeqApp:
		for _, a := range e.Args {
			f(a)
		}
	case *Quant:
		f(e.Body)
	}
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
