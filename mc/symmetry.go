package mc

import (
	"bytes"
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Symmetry reduction over the threads of one role.
//
// The threads of a role run the same code with the same calls and bounds;
// they differ only in their identity, which the instance passes to the
// methods' linear parameter. A role is symmetric when its code cannot
// tell two of its identities apart: every value derived from the
// identity (the parameter, and any variable it is copied into, through
// assignments and calls) is only copied, or compared with == or != to an
// integer constant outside the role's identity range. It must not be
// stored in a global, used in arithmetic, as a map key or value, compared
// with a variable, or returned by a public method. This is checked on the
// IR of all the code the role can run (steps, branch conditions, gates,
// annotations, calls), by a taint analysis to a fixpoint.
//
// Then any permutation of the role's identities maps runs to runs, and
// indeed every in-range value of a tainted variable behaves like any
// other. The state is canonicalized by replacing the in-range values of
// tainted variables with the role's first identity and sorting the
// records of the role's threads: a representative of the state's orbit.
// Traces are rebuilt on concrete states, with the real identities.

// symFacts are the data flows of the code a role can run.
type symFacts struct {
	copies []copyFact
	exprs  []obl.Expr
	procs  map[*cproc]bool
}

type copyFact struct{ dst, src *obl.Var }

// symmetry decides, for each role with several threads, whether the
// reduction applies, and records the tainted frame slots.
func (m *model) symmetry() {
	for _, r := range m.roles {
		r.tainted = map[*cproc][]bool{}
		if r.hi == r.lo {
			continue
		}
		if len(r.decl.Sets) > 0 {
			r.noSym = "its threads hold different linear sets"
			continue
		}
		reason, tainted := m.analyzeRole(r)
		if reason != "" {
			r.noSym = reason
			continue
		}
		r.sym = true
		for _, p := range m.procs {
			slots := make([]bool, len(p.frame))
			for i, v := range p.frame {
				slots[i] = tainted[v]
			}
			r.tainted[p] = slots
		}
	}
}

// symmetryUseful reports whether some role is symmetric.
func (m *model) symmetryUseful() bool {
	for _, r := range m.roles {
		if r.sym {
			return true
		}
	}
	return false
}

// analyzeRole runs the taint analysis of a role; it returns why the role
// is not symmetric ("" if it is) and the tainted variables.
func (m *model) analyzeRole(r *role) (string, map[*obl.Var]bool) {
	f := &symFacts{procs: map[*cproc]bool{}}
	tainted := map[*obl.Var]bool{}
	for _, cc := range r.calls {
		if cc.tid >= 0 {
			tainted[cc.m.proc.frame[cc.tid]] = true
		}
		f.exprs = append(f.exprs, cc.m.requiresIR(m))
		m.collect(f, cc.m.proc)
	}
	for changed := true; changed; {
		changed = false
		for _, c := range f.copies {
			if tainted[c.src] && !tainted[c.dst] {
				tainted[c.dst], changed = true, true
			}
		}
	}
	globals := map[*obl.Var]bool{}
	for _, v := range m.gvars {
		globals[v] = true
	}
	for _, c := range f.copies {
		if tainted[c.src] && globals[c.dst] {
			return fmt.Sprintf("its thread identity is stored in the global %s", c.dst.Name), nil
		}
	}
	for _, e := range f.exprs {
		if bad := badUse(e, tainted, r); bad != "" {
			return fmt.Sprintf("its thread identity is used in %s", bad), nil
		}
	}
	for _, cc := range r.calls {
		for _, s := range cc.m.outSlots {
			if tainted[cc.m.proc.frame[s]] {
				return fmt.Sprintf("%s returns its thread identity", cc.m.name), nil
			}
		}
	}
	return "", tainted
}

// requiresIR is the method's requires as IR.
func (mt *method) requiresIR(m *model) obl.Expr {
	return m.b.Conj(mt.proc.sig.Requires, mt.proc.env)
}

// badUse returns an occurrence of a tainted variable in e other than a
// comparison with a constant outside the role's range, or "".
func badUse(e obl.Expr, tainted map[*obl.Var]bool, r *role) string {
	switch e := e.(type) {
	case *obl.VarRef:
		if tainted[e.V] {
			return e.String()
		}
	case *obl.Binary:
		if e.Op == obl.OpEq || e.Op == obl.OpNe {
			if okComparison(e.X, e.Y, tainted, r) || okComparison(e.Y, e.X, tainted, r) {
				return ""
			}
		}
		if bad := badUse(e.X, tainted, r); bad != "" {
			return inContext(bad, e)
		}
		if bad := badUse(e.Y, tainted, r); bad != "" {
			return inContext(bad, e)
		}
	case *obl.Unary:
		return inContext(badUse(e.X, tainted, r), e)
	case *obl.Ite:
		for _, x := range []obl.Expr{e.Cond, e.Then, e.Else} {
			if bad := badUse(x, tainted, r); bad != "" {
				return inContext(bad, e)
			}
		}
	case *obl.Select:
		for _, x := range []obl.Expr{e.Map, e.Key} {
			if bad := badUse(x, tainted, r); bad != "" {
				return inContext(bad, e)
			}
		}
	case *obl.Store:
		for _, x := range []obl.Expr{e.Map, e.Key, e.Val} {
			if bad := badUse(x, tainted, r); bad != "" {
				return inContext(bad, e)
			}
		}
	case *obl.Quant:
		return inContext(badUse(e.Body, tainted, r), e)
	case *obl.Record:
		for _, x := range e.Args {
			if bad := badUse(x, tainted, r); bad != "" {
				return inContext(bad, e)
			}
		}
	case *obl.Field:
		return inContext(badUse(e.X, tainted, r), e)
	case *obl.SeqApp:
		for _, x := range e.Args {
			if bad := badUse(x, tainted, r); bad != "" {
				return inContext(bad, e)
			}
		}
	case *obl.ConstMap:
		return inContext(badUse(e.V, tainted, r), e)
	}
	return ""
}

func inContext(bad string, e obl.Expr) string {
	if bad == "" {
		return ""
	}
	s := e.String()
	if len(s) > 60 {
		return bad
	}
	return s
}

// okComparison reports whether x == y compares a tainted variable x with
// a constant outside the role's range.
func okComparison(x, y obl.Expr, tainted map[*obl.Var]bool, r *role) bool {
	v, ok := x.(*obl.VarRef)
	lit, ok2 := y.(*obl.IntLit)
	if !ok || !ok2 || !tainted[v.V] || !lit.V.IsInt64() {
		return false
	}
	c := lit.V.Int64()
	return c < r.lo || c > r.hi
}

// collect gathers the data flows of p and of the procedures it calls.
func (m *model) collect(f *symFacts, p *cproc) {
	if f.procs[p] {
		return
	}
	f.procs[p] = true
	if p.lp == nil {
		m.collectCmd(f, m.b.ActionBody(p.action, p.env, stepMode))
		if len(p.action.Ensures) > 0 {
			f.exprs = append(f.exprs, m.b.Conj(p.action.Ensures, p.env))
		}
		return
	}
	for _, n := range p.nodes {
		switch {
		case n.IsYield():
			f.exprs = append(f.exprs, m.b.AnnotationAt(n.Yield, p.env), m.b.AnnotationAfter(n.Yield, p.env))
			if n.Kind == layers.NodeCall {
				m.collectCall(f, p, n)
			}
		case n.Kind == layers.NodeStep || n.Kind == layers.NodePrivate:
			m.collectCmd(f, m.stepIR(p, n)) // with the temporaries of access atomicity
		case n.Kind == layers.NodeCond && n.Cond != nil:
			f.exprs = append(f.exprs, m.b.Expr(n.Cond, p.env))
		case n.Kind == layers.NodePrivateLoop:
			m.collectPrivate(f, p, []lang.Stmt{n.Stmt})
		}
	}
}

// collectCall records the flows of a call: arguments into the callee's
// parameters, the callee's outputs into the call's targets.
func (m *model) collectCall(f *symFacts, p *cproc, n *layers.Node) {
	call := n.Stmt.(*lang.CallStmt)
	q := p.callee[n.ID]
	for i, a := range call.Args {
		m.collectFlow(f, q.frame[i], m.b.Expr(a, p.env))
	}
	for i, o := range call.Outs {
		f.copies = append(f.copies, copyFact{dst: p.env.Var(o.Obj), src: q.frame[len(q.sig.Params)+i]})
	}
	m.collect(f, q)
}

// collectFlow records dst := e.
func (m *model) collectFlow(f *symFacts, dst *obl.Var, e obl.Expr) {
	if ref, ok := e.(*obl.VarRef); ok {
		f.copies = append(f.copies, copyFact{dst: dst, src: ref.V})
		return
	}
	f.exprs = append(f.exprs, e)
}

// collectPrivate records private statements, which may nest loops.
func (m *model) collectPrivate(f *symFacts, p *cproc, ss []lang.Stmt) {
	lang.Inspect(ss, func(s lang.Stmt) bool {
		switch s := s.(type) {
		case *lang.WhileStmt:
			if s.Cond != nil {
				f.exprs = append(f.exprs, m.b.Expr(s.Cond, p.env))
			}
			if len(s.Invariants) > 0 {
				f.exprs = append(f.exprs, m.b.Conj(s.Invariants, p.env))
			}
			return true
		case *lang.IfStmt:
			if s.Cond != nil {
				f.exprs = append(f.exprs, m.b.Expr(s.Cond, p.env))
			}
			return true
		case *lang.BlockStmt, *lang.ChoiceStmt:
			return true
		case *lang.BreakStmt, *lang.ReturnStmt:
			return false // control only: no flow of values
		}
		m.collectCmd(f, m.b.Stmt(s, p.env, stepMode))
		return false
	})
}

// collectCmd records the flows of a command.
func (m *model) collectCmd(f *symFacts, c obl.Cmd) {
	switch c := c.(type) {
	case *obl.Assume:
		f.exprs = append(f.exprs, c.E)
	case *obl.Assert:
		f.exprs = append(f.exprs, c.E)
	case *obl.Assign:
		for i, v := range c.Lhs {
			m.collectFlow(f, v, c.Rhs[i])
		}
	case *obl.Choice:
		for _, b := range c.Branches {
			m.collectCmd(f, b)
		}
	case *obl.Seq:
		for _, b := range c.Cmds {
			m.collectCmd(f, b)
		}
	}
}

// appendCanonical appends the thread records, sorted within symmetric
// roles (the records of a symmetric role's threads are already masked),
// and sets perm[i] to the thread whose record comes i-th.
func (m *model) appendCanonical(b []byte, segs [][]byte, perm []int) []byte {
	for i := range perm {
		perm[i] = i
	}
	for _, r := range m.roles {
		n := int(r.hi - r.lo + 1)
		group := perm[r.first : r.first+n]
		if r.sym {
			sortPerm(group, segs)
		}
		for _, i := range group {
			b = append(b, segs[i]...)
		}
	}
	return b
}

// sortPerm sorts the thread numbers of a group by their records
// (insertion sort: groups are small, and it allocates nothing).
func sortPerm(group []int, segs [][]byte) {
	for i := 1; i < len(group); i++ {
		for j := i; j > 0 && bytes.Compare(segs[group[j]], segs[group[j-1]]) < 0; j-- {
			group[j], group[j-1] = group[j-1], group[j]
		}
	}
}
