package obl

import (
	"io"
	"strings"
)

// String returns the obligation as a readable check program in lipton-like
// syntax (the .obl text written by WriteDump).
func (ob *Obligation) String() string {
	var b strings.Builder
	w := &oblWriter{b: &b, p: NewPrinter(nil)}
	w.obligation(ob)
	return b.String()
}

// WriteTo writes ob.String() to w.
func (ob *Obligation) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, ob.String())
	return int64(n), err
}

// oblWriter prints an obligation.
type oblWriter struct {
	b      *strings.Builder
	p      *Printer
	indent int
}

func (w *oblWriter) line(parts ...string) {
	w.b.WriteString(strings.Repeat("  ", w.indent))
	for _, s := range parts {
		w.b.WriteString(s)
	}
	w.b.WriteByte('\n')
}

func (w *oblWriter) expr(e Expr) string {
	var b strings.Builder
	w.p.expr(&b, e, precOpen)
	return b.String()
}

func (w *oblWriter) obligation(ob *Obligation) {
	w.line("// obligation ", ob.Name)
	if ob.Kind != "" {
		w.line("// kind: ", string(ob.Kind))
	}
	for _, v := range ob.Vars {
		w.p.Name(v) // declared names first, so they print unchanged
	}
	grouped := make(map[*Var]bool)
	for _, g := range ob.Groups {
		w.line("// ", g.Name)
		for _, v := range g.Vars {
			grouped[v] = true
			w.decl(v)
		}
	}
	header := len(ob.Groups) > 0
	for _, v := range ob.Vars {
		if !grouped[v] {
			if header {
				w.line("// other")
				header = false
			}
			w.decl(v)
		}
	}
	w.line()
	w.cmd(ob.Body)
}

func (w *oblWriter) decl(v *Var) {
	w.line("var ", w.p.Name(v), ": ", v.Sort.String(), ";")
}

func (w *oblWriter) cmd(c Cmd) {
	switch c := c.(type) {
	case *Assume:
		w.line("assume ", w.expr(c.E), ";")
	case *Assert:
		if c.Witness {
			w.line("witness ", w.expr(c.E), ";", assertComment(c))
			break
		}
		w.line("assert ", w.expr(c.E), ";", assertComment(c))
	case *Assign:
		w.assign(c)
	case *Havoc:
		w.line("havoc ", w.vars(c.Vars), ";")
	case *Choice:
		w.choice(c)
	case *Seq:
		for _, s := range c.Cmds {
			w.cmd(s)
		}
	}
}

// assertComment returns DescribeAssert as a trailing comment, or "".
func assertComment(a *Assert) string {
	if s := DescribeAssert(a); s != "" {
		return "  // " + s
	}
	return ""
}

// DescribeAssert describes an assert's kind, message and positions.
func DescribeAssert(a *Assert) string {
	var parts []string
	if a.Witness {
		parts = append(parts, "witness (holds if some execution reaches this point and falsifies the formula)")
	}
	if a.Kind != "" {
		parts = append(parts, string(a.Kind))
	}
	if a.Msg != "" {
		parts = append(parts, a.Msg)
	}
	s := strings.Join(parts, ": ")
	for i, p := range a.Pos {
		if i == 0 {
			s += " at "
		} else {
			s += ", "
		}
		s += p.String()
	}
	return s
}

func (w *oblWriter) vars(vs []*Var) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = w.p.Name(v)
	}
	return strings.Join(names, ", ")
}

// assign prints a parallel assignment, and a single map update as
// m[k1][k2] := v.
func (w *oblWriter) assign(a *Assign) {
	if len(a.Lhs) == 1 {
		if keys, v, ok := indexPath(Ref(a.Lhs[0]), a.Rhs[0]); ok {
			lhs := w.p.Name(a.Lhs[0])
			for _, k := range keys {
				lhs += "[" + w.expr(k) + "]"
			}
			w.line(lhs, " := ", w.expr(v), ";")
			return
		}
	}
	rhs := make([]string, len(a.Rhs))
	for i, e := range a.Rhs {
		rhs[i] = w.expr(e)
	}
	w.line(w.vars(a.Lhs), " := ", strings.Join(rhs, ", "), ";")
}

// indexPath recognizes e as base[k1 := base[k1][k2 := ... v]], the shape
// AssignIndex builds, and returns the keys and v.
func indexPath(base, e Expr) (keys []Expr, v Expr, ok bool) {
	s, isStore := e.(*Store)
	if !isStore || !Equal(s.Map, base) {
		return nil, nil, false
	}
	inner := Index(base, s.Key)
	if rest, v, ok := indexPath(inner, s.Val); ok {
		return append([]Expr{s.Key}, rest...), v, true
	}
	return []Expr{s.Key}, s.Val, true
}

func (w *oblWriter) choice(c *Choice) {
	if len(c.Branches) == 0 {
		w.line("assume false;  // choice without branches")
		return
	}
	for i, br := range c.Branches {
		if i == 0 {
			w.line("choice {")
		} else {
			w.indent--
			w.line("} or {")
		}
		w.indent++
		w.cmd(br)
	}
	w.indent--
	w.line("}")
}
