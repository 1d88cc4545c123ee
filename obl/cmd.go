package obl

import "fmt"

// A Cmd is a command of a check program: *Assume, *Assert, *Assign,
// *Havoc, *Choice or *Seq. Commands are not modified once built; an
// *Assert is identified by pointer in results, so use each one once.
type Cmd interface {
	isCmd()
}

// An Assume blocks the executions in which E is false.
type Assume struct{ E Expr }

// An Assert requires E to hold on every execution reaching it. The check
// kind (for example "commutativity"), message and source positions are for
// reports; Pos lists every source position involved, most relevant first.
//
// A Witness assert asks the opposite question: is there an execution
// that reaches it and falsifies E (E is usually false, so: is this point
// reachable)? All the witness asserts of one obligation ask one question
// together (one point of several, such as the exits of a procedure, is
// reachable). The deciders answer it (AnswerWitnesses): Proven when such
// an execution exists (its values are the Cex of the first witness),
// Failed when none does, the same verdict for every witness assert of the
// obligation. The vacuity checks use it: a requires that no state
// satisfies makes every other check of its method hold vacuously, which
// must be a failure.
type Assert struct {
	E       Expr
	Kind    Kind
	Msg     string
	Pos     []Pos
	Witness bool
}

// An Assign sets each Lhs[i] to the value Rhs[i] had before the command
// (parallel assignment). The Lhs variables are distinct. A map update is an
// assignment of a Store: see AssignIndex.
type Assign struct {
	Lhs []*Var
	Rhs []Expr
}

// A Havoc sets Vars to arbitrary values.
type Havoc struct{ Vars []*Var }

// A Choice runs one of Branches, chosen nondeterministically. A Choice
// without branches blocks, like assume false.
type Choice struct{ Branches []Cmd }

// A Seq runs Cmds in order. The empty Seq does nothing.
type Seq struct{ Cmds []Cmd }

func (*Assume) isCmd() {}
func (*Assert) isCmd() {}
func (*Assign) isCmd() {}
func (*Havoc) isCmd()  {}
func (*Choice) isCmd() {}
func (*Seq) isCmd()    {}

// A Pos is a source position, 1-based; callers convert their own.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.Col == 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// AssignOne returns the assignment v := e.
func AssignOne(v *Var, e Expr) *Assign {
	return &Assign{Lhs: []*Var{v}, Rhs: []Expr{e}}
}

// AssignIndex returns the assignment m[k1][k2]...[kn] := v, that is
// m := m[k1 := m[k1][k2 := ... [kn := v]]]. keys must not be empty.
func AssignIndex(m *Var, keys []Expr, v Expr) *Assign {
	return AssignOne(m, updatePath(Ref(m), keys, v))
}

// updatePath returns base with the entry at the path keys replaced by v.
func updatePath(base Expr, keys []Expr, v Expr) Expr {
	if len(keys) == 1 {
		return Update(base, keys[0], v)
	}
	inner := updatePath(Index(base, keys[0]), keys[1:], v)
	return Update(base, keys[0], inner)
}

// Sequence returns the sequence of cmds, flattening nested sequences.
func Sequence(cmds ...Cmd) *Seq {
	n := 0
	for _, c := range cmds {
		if inner, ok := c.(*Seq); ok {
			n += len(inner.Cmds)
		} else {
			n++
		}
	}
	s := &Seq{}
	if n > 0 {
		s.Cmds = make([]Cmd, 0, n) // one allocation, not one per doubling
	}
	for _, c := range cmds {
		if inner, ok := c.(*Seq); ok {
			s.Cmds = append(s.Cmds, inner.Cmds...)
		} else {
			s.Cmds = append(s.Cmds, c)
		}
	}
	return s
}

// Asserts returns the asserts of c in program order (depth first, branches
// in order).
func Asserts(c Cmd) []*Assert {
	var out []*Assert
	walkCmd(c, func(c Cmd) {
		if a, ok := c.(*Assert); ok {
			out = append(out, a)
		}
	})
	return out
}

// walkCmd calls f for c and every command nested in it, in program order.
func walkCmd(c Cmd, f func(Cmd)) {
	f(c)
	switch c := c.(type) {
	case *Seq:
		for _, s := range c.Cmds {
			walkCmd(s, f)
		}
	case *Choice:
		for _, s := range c.Branches {
			walkCmd(s, f)
		}
	}
}

// InspectCmd calls f for c and for every command inside it, depth first
// and in order.
func InspectCmd(c Cmd, f func(Cmd)) { walkCmd(c, f) }

// Exprs returns the expressions a command holds itself (not those of the
// commands inside a Seq or Choice).
func Exprs(c Cmd) []Expr {
	switch c := c.(type) {
	case *Assume:
		return []Expr{c.E}
	case *Assert:
		return []Expr{c.E}
	case *Assign:
		return c.Rhs
	}
	return nil
}

// Assigned returns the variables a command may assign or havoc.
func Assigned(c Cmd) map[*Var]bool {
	w := make(map[*Var]bool)
	walkCmd(c, func(c Cmd) {
		switch c := c.(type) {
		case *Assign:
			for _, v := range c.Lhs {
				w[v] = true
			}
		case *Havoc:
			for _, v := range c.Vars {
				w[v] = true
			}
		}
	})
	return w
}

// Reads returns the variables the expressions of a command read.
func Reads(c Cmd) map[*Var]bool {
	r := make(map[*Var]bool)
	walkCmd(c, func(c Cmd) {
		for _, e := range Exprs(c) {
			for _, v := range FreeVars(e) {
				r[v] = true
			}
		}
	})
	return r
}
