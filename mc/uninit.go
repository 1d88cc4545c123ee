package mc

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Initial values of locals and outputs.
//
// The language gives the locals and outputs of procedures and actions an
// arbitrary initial value (language.md §9), and the static checks treat
// them so. The model checker must then try every value of the instance's
// domain (both values for a bool) for a frame variable that may be read
// before it is written; a variable that is always written first behaves
// the same whatever it starts with, and enumerating its values would
// only multiply the states, so it starts at 0 (false). Map variables
// start as the constant map of their value type's default, as maps among
// the globals do: every map of the bounded class is too many for a
// frame.
//
// Which variables may be read first is a definite-assignment analysis
// (defUse, below): exits read the outputs (the caller or the client sees
// them), yield points read what their annotations mention, a call of a
// procedure reads its arguments and writes its outputs when it returns.
// It does not know that `!f || t == 0` reads t only when f holds, so a
// variable it flags starts unset (lazy.go): its value is chosen when the
// code first reads it, not at the call, and the states before that do
// not multiply.
//
// The temporaries of an action inlined into a step (its outputs and
// locals, fresh at each call) are havocked at the start of the step when
// the step reads them before writing them.

// varSet is a set of IR variables.
type varSet map[*obl.Var]bool

func (s varSet) clone() varSet {
	c := make(varSet, len(s))
	for v := range s {
		c[v] = true
	}
	return c
}

// intersect returns the variables in both s and t.
func (s varSet) intersect(t varSet) varSet {
	c := varSet{}
	for v := range s {
		if t[v] {
			c[v] = true
		}
	}
	return c
}

func (s varSet) equal(t varSet) bool {
	if len(s) != len(t) {
		return false
	}
	for v := range s {
		if !t[v] {
			return false
		}
	}
	return true
}

// defUse tracks, along a path, the variables written so far and the
// tracked variables read before any write.
type defUse struct {
	tracked func(v *obl.Var) bool
	reads   varSet     // tracked variables some path reads before writing
	order   []*obl.Var // reads, in the order they were found
}

// read records the reads of e, a point where the variables in written
// have been written.
func (du *defUse) read(e obl.Expr, written varSet) {
	for _, v := range obl.FreeVars(e) {
		if !written[v] && !du.reads[v] && du.tracked(v) {
			du.reads[v] = true
			du.order = append(du.order, v)
		}
	}
}

// cmd follows c from a point where written have been written (which it
// does not change) and returns what has been written on every path
// through c.
func (du *defUse) cmd(c obl.Cmd, written varSet) varSet {
	switch c := c.(type) {
	case *obl.Assume:
		du.read(c.E, written)
	case *obl.Assert:
		du.read(c.E, written)
	case *obl.Assign:
		for _, e := range c.Rhs {
			du.read(e, written)
		}
		written = written.clone()
		for _, v := range c.Lhs {
			written[v] = true
		}
	case *obl.Havoc:
		written = written.clone()
		for _, v := range c.Vars {
			written[v] = true
		}
	case *obl.Seq:
		for _, s := range c.Cmds {
			written = du.cmd(s, written)
		}
	case *obl.Choice:
		var all varSet
		for _, b := range c.Branches {
			w := du.cmd(b, written)
			if all == nil {
				all = w
			} else {
				all = all.intersect(w)
			}
		}
		if all != nil {
			written = all
		}
	default:
		panic(fmt.Sprintf("mc: unexpected command %T", c))
	}
	return written
}

// withFreshTemps returns the IR c of a statement of cp, preceded by a
// havoc of the temporaries (not globals, not frame variables) that it
// reads before writing them: the outputs and locals of an inlined
// action, which the language leaves arbitrary.
func (m *model) withFreshTemps(cp *cproc, c obl.Cmd) obl.Cmd {
	known := varSet{}
	for _, v := range m.gvars {
		known[v] = true
	}
	for _, v := range cp.frame {
		known[v] = true
	}
	du := &defUse{tracked: func(v *obl.Var) bool { return !known[v] }, reads: varSet{}}
	du.cmd(c, varSet{})
	if len(du.reads) == 0 {
		return c
	}
	return obl.Sequence(&obl.Havoc{Vars: du.order}, c)
}

// arbitrarySlot is a frame slot that starts with every value of values.
type arbitrarySlot struct {
	slot   int
	values []int64
}

// findArbitrary computes the frame slots of cp that some path reads
// before writing them: they start unset (or as a constant map). It runs
// before any of cp's code is compiled, since reads of unset slots
// compile to code that checks them.
func (m *model) findArbitrary(cp *cproc, body obl.Cmd) {
	objs := cp.sig.Frame()
	slotOf := map[*obl.Var]int{}
	for i := range objs {
		slotOf[cp.frame[i]] = i
	}
	params := varSet{}
	for i := range cp.sig.Params {
		params[cp.frame[i]] = true
	}
	for _, s := range cp.sig.Olds { // set when the body starts
		params[cp.env.Var(s.Snap)] = true
	}
	for _, h := range cp.sig.Held { // set when the body starts
		params[cp.env.Var(h)] = true
	}
	du := &defUse{reads: varSet{}, tracked: func(v *obl.Var) bool {
		_, ok := slotOf[v]
		return ok && !params[v]
	}}
	if cp.lp != nil {
		m.procDefUse(cp, du, params)
	} else {
		written := du.cmd(body, params)
		m.exitReads(cp, du, written)
		if len(cp.action.Ensures) > 0 {
			du.read(m.b.Conj(cp.action.Ensures, cp.env), written)
		}
	}
	c := m.newCompiler()
	for i, o := range objs {
		if !du.reads[cp.frame[i]] {
			continue
		}
		if _, isMap := o.Type.(*lang.MapType); isMap {
			cp.constMaps = append(cp.constMaps, i)
			continue
		}
		if _, isSeq := o.Type.(*lang.SeqType); isSeq {
			panic(evalError{msg: fmt.Sprintf("%s %s of %s may be read before it is written, and the model checker cannot try every sequence: assign it first", o.Kind, o.Name, cp.name), pos: o.Pos})
		}
		cp.arbitrary = append(cp.arbitrary, arbitrarySlot{slot: i, values: c.values(layers.SortOf(o.Type))})
		cp.zero[i] = unset
		cp.c.lazy[m.nglob()+i] = i
	}
}

// exitReads records that the exit reads every output of cp.
func (m *model) exitReads(cp *cproc, du *defUse, written varSet) {
	for i := range cp.sig.Returns {
		du.read(obl.Ref(cp.frame[len(cp.sig.Params)+i]), written)
	}
}

// flowSuccs returns, per node ID of procedure graph p, the nodes control
// may reach right after the node: its successors in the graph and, for
// a private loop whose body has a return, the exit too. The graph
// summarizes such a loop by one node whose only successor is where the
// loop ends, while its code jumps to the exit at a return (privStmt):
// an analysis that followed the graph alone would miss the exit's reads
// (the outputs, the ensures) on that path.
func flowSuccs(p *layers.Proc) [][]*layers.Node {
	succs := make([][]*layers.Node, len(p.Nodes))
	for _, n := range p.Nodes {
		succs[n.ID] = n.Succs
		if n.ReturnsInside() {
			succs[n.ID] = append(append([]*layers.Node(nil), n.Succs...), p.Exit)
		}
	}
	return succs
}

// procDefUse runs the analysis on a procedure's control-flow graph: what
// is written on every path to a node is the intersection over its
// predecessors, computed to a fixpoint; then every node's reads are
// checked against it.
func (m *model) procDefUse(cp *cproc, du *defUse, params varSet) {
	p := cp.lp
	in := make([]varSet, len(p.Nodes)) // nil: no path reaches the node yet
	in[p.Entry.ID] = params
	succs := flowSuccs(p)
	scratch := &defUse{tracked: du.tracked, reads: varSet{}}
	for changed := true; changed; {
		changed = false
		for _, n := range p.Nodes {
			if in[n.ID] == nil {
				continue
			}
			if m.infeasible(cp, n) {
				continue // while (true) never exits
			}
			out := m.nodeDefUse(cp, n, scratch, in[n.ID])
			for _, s := range succs[n.ID] {
				next := out
				if in[s.ID] != nil {
					next = in[s.ID].intersect(out)
				}
				if in[s.ID] == nil || !next.equal(in[s.ID]) {
					in[s.ID], changed = next, true
				}
			}
		}
	}
	for _, n := range p.Nodes {
		if in[n.ID] != nil {
			m.nodeDefUse(cp, n, du, in[n.ID])
		}
	}
}

// infeasible reports whether n is a branch whose condition is the
// constant false: the exit of while (true), which no path takes.
func (m *model) infeasible(cp *cproc, n *layers.Node) bool {
	if n.Kind != layers.NodeCond || n.Cond == nil {
		return false
	}
	lit, ok := m.b.Expr(n.Cond, cp.env).(*obl.BoolLit)
	return ok && lit.V == n.Negated
}

// nodeDefUse records the reads of node n, reached with written written,
// and returns what is written after it.
func (m *model) nodeDefUse(cp *cproc, n *layers.Node, du *defUse, written varSet) varSet {
	if n.IsYield() {
		du.read(m.b.AnnotationAt(n.Yield, cp.env), written)
		switch n.Kind {
		case layers.NodeExit:
			m.exitReads(cp, du, written)
		case layers.NodeCall:
			call := n.Stmt.(*lang.CallStmt)
			for _, a := range call.Args {
				du.read(m.b.Expr(a, cp.env), written)
			}
			written = written.clone()
			for _, o := range call.Outs {
				written[cp.env.Var(o.Obj)] = true
			}
		}
		return written
	}
	switch n.Kind {
	case layers.NodeStep, layers.NodePrivate:
		return du.cmd(m.b.Stmt(n.Stmt, cp.env, stepMode), written)
	case layers.NodeCond:
		if n.Cond != nil {
			du.read(m.b.Expr(n.Cond, cp.env), written)
		}
	case layers.NodePrivateLoop:
		m.loopDefUse(cp, n.Stmt.(*lang.WhileStmt), du, written)
	case layers.NodeFork:
		return m.forkDefUse(cp, n, du, written)
	}
	return written
}

// forkDefUse records the reads of the arms of fork n, which all run
// from written (no arm reads another's outputs), and returns what is
// written once all have run.
func (m *model) forkDefUse(cp *cproc, n *layers.Node, du *defUse, written varSet) varSet {
	out := written.clone()
	for i, arm := range n.Stmt.(*lang.ParCallStmt).Arms {
		if n.Arms[i] != nil {
			for v := range du.cmd(m.b.Stmt(arm, cp.env, stepMode), written) {
				out[v] = true
			}
			continue
		}
		for _, a := range arm.Args {
			du.read(m.b.Expr(a, cp.env), written)
		}
		for _, o := range arm.Outs {
			out[cp.env.Var(o.Obj)] = true
		}
	}
	return out
}

// loopDefUse records the reads of a private loop entered with written
// written. Every iteration starts with at least written written, so one
// pass through the body from there sees every read that may come first;
// after the loop, only written is known to be written (the body may not
// run).
func (m *model) loopDefUse(cp *cproc, w *lang.WhileStmt, du *defUse, written varSet) {
	if w.Cond != nil {
		du.read(m.b.Expr(w.Cond, cp.env), written)
	}
	for _, inv := range w.Invariants {
		du.read(m.b.Expr(inv, cp.env), written)
	}
	m.privDefUse(cp, w.Body.Stmts, du, written)
}

// privDefUse follows private statements (the body of a private loop).
func (m *model) privDefUse(cp *cproc, ss []lang.Stmt, du *defUse, written varSet) varSet {
	for _, s := range ss {
		switch s := s.(type) {
		case *lang.WhileStmt:
			m.loopDefUse(cp, s, du, written)
		case *lang.BlockStmt:
			written = m.privDefUse(cp, s.Block.Stmts, du, written)
		case *lang.ChoiceStmt:
			var all varSet
			for _, b := range s.Branches {
				w := m.privDefUse(cp, b.Stmts, du, written)
				if all == nil {
					all = w
				} else {
					all = all.intersect(w)
				}
			}
			if all != nil {
				written = all
			}
		case *lang.IfStmt:
			if s.Cond != nil {
				du.read(m.b.Expr(s.Cond, cp.env), written)
			}
			then := m.privDefUse(cp, s.Then.Stmts, du, written)
			els := written
			if s.Else != nil {
				els = m.privDefUse(cp, []lang.Stmt{s.Else}, du, written)
			}
			written = then.intersect(els)
		case *lang.BreakStmt, *lang.ReturnStmt:
			// the path leaves these statements: what follows is not
			// reached from here, so intersecting nothing stays sound
		default:
			written = du.cmd(m.b.Stmt(s, cp.env, stepMode), written)
		}
	}
	return written
}

// arbitraryNote lists the variables that start arbitrary, for the notes
// of a search.
func (m *model) arbitraryNote() string {
	var ints, maps []string
	for _, p := range m.procs {
		objs := p.sig.Frame()
		for _, a := range p.arbitrary {
			ints = append(ints, p.name+"."+objs[a.slot].Name)
		}
		for _, i := range p.constMaps {
			maps = append(maps, p.name+"."+objs[i].Name)
		}
	}
	var parts []string
	if len(ints) > 0 {
		parts = append(parts, fmt.Sprintf("%s may be used before %s assigned: %s every value of the domain (%s for ints, both for bools), chosen where the code first reads %s",
			strings.Join(ints, ", "), pronoun(len(ints), "it is", "they are"), pronoun(len(ints), "it takes", "they take"), m.dom, pronoun(len(ints), "it", "them")))
	}
	if len(maps) > 0 {
		parts = append(parts, fmt.Sprintf("%s may be used before %s assigned: %s as the constant map of the value type's default, not as every map",
			strings.Join(maps, ", "), pronoun(len(maps), "it is", "they are"), pronoun(len(maps), "it starts", "they start")))
	}
	return strings.Join(parts, "; ")
}

// pronoun returns one for a single variable, many for several.
func pronoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
