package mc

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Access atomicity (Options.Atomicity == AtomicityAccess) tests the
// atomicity that layer 0 claims for its statements. Layer 0 runs with a
// scheduling point before every access to a global variable instead of
// only at yield points: a transition of a thread ends just before its
// second access, so threads interleave between any two accesses.
//
// A step statement that accesses globals more than once is cut into
// parts on the IR that layers.Builder translates it to, each part making
// at most one access, in evaluation order: every read of a global (a
// variable, or a cell m[i] of a map after its index) goes into a fresh
// temporary, then the statement runs on the temporaries, and every write
// of a global (a variable, or one cell of a map) is an access of its
// own. The temporaries are frame variables of the procedure, so a thread
// stopped between two parts keeps them in its state; they are reset
// when the statement ends, so that states at yield points do not differ
// by dead values.
//
// What is not an access: reads of uninterpreted constants (they never
// change), and reads and writes of ghost variables, which do not exist
// in the implementation: ghost code runs in the transition it falls in,
// with the access before it. A [ ] group and a call of an action are one
// access, as on hardware a locked instruction is.
//
// Two approximations, both erring on the side of more interleaving:
// reads under a short-circuit operator or a conditional expression are
// made whether or not the value is needed, and a global read in the body
// of a called function is read once per use of the parameter it is
// passed to (the translation inlines functions). A global read inside a
// quantifier is read once as a whole (a map in one access): quantifiers
// are not executable code, they appear in asserts and assumes only.

// Atomicity says at which granularity the threads of layer 0 interleave.
type Atomicity int

// The atomicities.
const (
	// AtomicityYield runs fragments, from a yield point to the next,
	// atomically: the atomicity the layer's proof justifies.
	AtomicityYield Atomicity = iota
	// AtomicityAccess interleaves layer 0 at every access to a global.
	AtomicityAccess
)

// String names the atomicity as the command line does.
func (a Atomicity) String() string {
	switch a {
	case AtomicityYield:
		return "yield"
	case AtomicityAccess:
		return "access"
	}
	return fmt.Sprintf("Atomicity(%d)", int(a))
}

// stepSplit is a step statement cut into parts.
type stepSplit struct {
	parts []stepPart
	temps []*obl.Var // the temporaries it uses, reset when it ends
}

// stepPart is a command that makes at most one access to a global.
type stepPart struct {
	cmd    obl.Cmd
	access *access // nil: the part touches the thread's own variables only
}

// access is an access to a global made by a part.
type access struct {
	write  bool
	fence  bool       // a fence under weak memory (weak.go)
	locked bool       // a locked instruction under weak memory (weak.go)
	slot   int        // the global's slot; -1 for a whole step ([ ] or a call)
	keys   []obl.Expr // the cell of a map; nil for the whole variable
}

// name describes the access for traces: "reads count", "writes items[..]".
func (a *access) name(m *model) string {
	verb := "reads"
	if a.write {
		verb = "writes"
	}
	if a.fence {
		return "drains its store buffer (fence)"
	}
	if a.locked {
		return "runs a locked step (after its store buffer drains)"
	}
	if a.slot < 0 {
		return ""
	}
	name := m.globals[a.slot].Name
	if len(a.keys) > 0 {
		name = "a cell of " + name
	}
	return verb + " " + name
}

// splitter cuts one step statement into parts.
type splitter struct {
	m     *model
	alloc func(obl.Sort) *obl.Var // a temporary not yet used by the statement
	parts []stepPart
	temps []*obl.Var
}

// realSlot returns the slot of v if it is a global variable of the
// implementation (not ghost, not a constant), or -1.
func (m *model) realSlot(v *obl.Var) int {
	for i, g := range m.gvars[:m.nglob()-m.nconst] {
		if g == v && !m.globals[i].Ghost {
			return i
		}
	}
	return -1
}

func (s *splitter) temp(sort obl.Sort) *obl.Var {
	v := s.alloc(sort)
	s.temps = append(s.temps, v)
	return v
}

func (s *splitter) isTemp(e obl.Expr) bool {
	if ref, ok := e.(*obl.VarRef); ok {
		for _, t := range s.temps {
			if t == ref.V {
				return true
			}
		}
	}
	return false
}

func (s *splitter) add(c obl.Cmd, a *access) {
	s.parts = append(s.parts, stepPart{cmd: c, access: a})
}

func (s *splitter) accesses() int {
	n := 0
	for _, p := range s.parts {
		if p.access != nil {
			n++
		}
	}
	return n
}

// statement cuts the IR c of statement st into parts.
func (s *splitter) statement(st lang.Stmt, c obl.Cmd) {
	switch st := st.(type) {
	case *lang.AssignStmt:
		defined, core := peelDefined(c)
		s.assign(st, core.(*obl.Assign), defined)
		return
	case *lang.HavocStmt:
		for _, v := range c.(*obl.Havoc).Vars {
			s.write(&obl.Havoc{Vars: []*obl.Var{v}}, v, nil)
		}
		return
	case *lang.AssumeStmt:
		defined, core := peelDefined(c)
		e := s.hoist(core.(*obl.Assume).E)
		s.checkDefined(defined, e)
		s.add(&obl.Assume{E: e}, nil)
		return
	case *lang.AssertStmt:
		defined, core := peelDefined(c)
		if a, ok := core.(*obl.Assert); ok {
			e := s.hoist(a.E)
			s.checkDefined(defined, e)
			s.add(&obl.Assert{E: e, Kind: a.Kind, Msg: a.Msg, Pos: a.Pos}, nil)
			return
		}
	}
	// A [ ] group or a call of an action: one access, if it makes any.
	for v := range obl.Reads(c) {
		if s.m.realSlot(v) >= 0 {
			s.add(c, &access{slot: -1})
			return
		}
	}
	for v := range obl.Assigned(c) {
		if s.m.realSlot(v) >= 0 {
			s.add(c, &access{slot: -1})
			return
		}
	}
	s.add(c, nil)
}

// peelDefined takes apart the IR of a simple statement: the asserts that
// its divisors are nonzero and its sequence indexes in range, which
// layers.Builder puts first where they may fail (none if none), and the
// statement's own command.
func peelDefined(c obl.Cmd) ([]*obl.Assert, obl.Cmd) {
	seq, ok := c.(*obl.Seq)
	if !ok {
		return nil, c
	}
	n := len(seq.Cmds)
	var defined []*obl.Assert
	for _, d := range seq.Cmds[:n-1] {
		a, ok := d.(*obl.Assert)
		if !ok {
			panic(fmt.Sprintf("mc: unexpected translation of a simple statement: %v", c))
		}
		defined = append(defined, a)
	}
	return defined, seq.Cmds[n-1]
}

// checkDefined adds the well-definedness asserts of a statement, if it
// has any, over its expressions es after their reads were hoisted: they
// test the values the reads returned and make no access themselves.
func (s *splitter) checkDefined(defined []*obl.Assert, es ...obl.Expr) {
	if len(defined) == 0 {
		return
	}
	for _, part := range obl.Partialities {
		var parts []obl.Expr
		for _, e := range es {
			parts = append(parts, part.Cond(e))
		}
		d := obl.And(parts...)
		if lit, ok := d.(*obl.BoolLit); ok && lit.V {
			continue
		}
		s.add(&obl.Assert{E: d, Kind: defined[0].Kind, Msg: part.Msg, Pos: defined[0].Pos}, nil)
	}
}

// assignTarget is a variable assigned by a statement, with the path of
// keys to the cell written (m[k1][k2] := v) and the value.
type assignTarget struct {
	v    *obl.Var
	keys []obl.Expr
	val  obl.Expr
}

// assign cuts an assignment: the indices of the targets, then the
// values, left to right, then the check that no divisor was 0, then the
// writes in the order of the targets.
func (s *splitter) assign(st *lang.AssignStmt, a *obl.Assign, defined []*obl.Assert) {
	ts := make([]assignTarget, len(a.Lhs))
	for i, v := range a.Lhs {
		ts[i] = cellPath(v, a.Rhs[i], st.Lhs[i].LeadingIndices())
	}
	for i := range ts {
		for j, k := range ts[i].keys {
			ts[i].keys[j] = s.hoist(k)
		}
	}
	var evaluated []obl.Expr
	for i := range ts {
		ts[i].val = s.hoist(ts[i].val)
		evaluated = append(evaluated, ts[i].keys...)
		evaluated = append(evaluated, ts[i].val)
	}
	s.checkDefined(defined, evaluated...)
	if len(ts) > 1 {
		// A parallel assignment: fix every index and value before the
		// first write, which may change a variable they read.
		fix := &obl.Assign{}
		pin := func(e obl.Expr) obl.Expr {
			if s.isTemp(e) {
				return e // read by this statement: no write changes it
			}
			t := s.temp(sortOf(e))
			fix.Lhs, fix.Rhs = append(fix.Lhs, t), append(fix.Rhs, e)
			return obl.Ref(t)
		}
		for i := range ts {
			for j, k := range ts[i].keys {
				ts[i].keys[j] = pin(k)
			}
			ts[i].val = pin(ts[i].val)
		}
		s.add(fix, nil)
	}
	for _, t := range ts {
		var c obl.Cmd = obl.AssignOne(t.v, t.val)
		if len(t.keys) > 0 {
			c = obl.AssignIndex(t.v, t.keys, t.val)
		}
		s.write(c, t.v, t.keys)
	}
}

// cellPath takes apart the translation of v[k1]..[kn] := val (n = depth),
// which assigns v a chain of stores.
func cellPath(v *obl.Var, rhs obl.Expr, depth int) assignTarget {
	t := assignTarget{v: v, val: rhs}
	for i := 0; i < depth; i++ {
		st, ok := t.val.(*obl.Store)
		if !ok {
			panic(fmt.Sprintf("mc: the assignment of %s is not a map update", v.Name))
		}
		t.keys = append(t.keys, st.Key)
		t.val = st.Val
	}
	return t
}

// write adds a part that writes v (at the cell keys).
func (s *splitter) write(c obl.Cmd, v *obl.Var, keys []obl.Expr) {
	if g := s.m.realSlot(v); g >= 0 {
		s.add(c, &access{write: true, slot: g, keys: keys})
		return
	}
	s.add(c, nil)
}

// hoist returns e with every read of a global replaced by a temporary
// that a part before reads it into, in evaluation order.
func (s *splitter) hoist(e obl.Expr) obl.Expr {
	switch e := e.(type) {
	case *obl.VarRef:
		if g := s.m.realSlot(e.V); g >= 0 {
			return s.read(g, nil, e)
		}
	case *obl.Unary:
		x := s.hoist(e.X)
		if e.Op == obl.OpNot {
			return obl.Not(x)
		}
		return obl.Neg(x)
	case *obl.Binary:
		x := s.hoist(e.X)
		return obl.BinaryOf(e.Op, x, s.hoist(e.Y))
	case *obl.Ite:
		c := s.hoist(e.Cond)
		th := s.hoist(e.Then)
		return obl.IfThenElse(c, th, s.hoist(e.Else))
	case *obl.Select:
		return s.hoistSelect(e)
	case *obl.Store:
		m := s.hoist(e.Map)
		k := s.hoist(e.Key)
		return obl.Update(m, k, s.hoist(e.Val))
	case *obl.Record:
		args := make([]obl.Expr, len(e.Args))
		for i, a := range e.Args {
			args[i] = s.hoist(a)
		}
		return obl.MkRecord(e.S, args...)
	case *obl.Field:
		return obl.FieldOf(s.hoist(e.X), e.S, e.I)
	case *obl.SeqApp:
		args := make([]obl.Expr, len(e.Args))
		for i, a := range e.Args {
			args[i] = s.hoist(a)
		}
		return &obl.SeqApp{Op: e.Op, S: e.S, Args: args}
	case *obl.ConstMap:
		return obl.MapOf(e.S, s.hoist(e.V))
	case *obl.Quant:
		sub := map[*obl.Var]obl.Expr{}
		for _, v := range obl.FreeVars(e) {
			if g := s.m.realSlot(v); g >= 0 {
				sub[v] = s.read(g, nil, obl.Ref(v))
			}
		}
		return obl.Subst(e, sub)
	}
	return e
}

// hoistSelect reads a cell m[k1]..[kn] of a global map in one access,
// after its indices.
func (s *splitter) hoistSelect(e *obl.Select) obl.Expr {
	var keys []obl.Expr
	var root obl.Expr = e
	for {
		sel, ok := root.(*obl.Select)
		if !ok {
			break
		}
		keys = append([]obl.Expr{sel.Key}, keys...)
		root = sel.Map
	}
	ref, ok := root.(*obl.VarRef)
	g := -1
	if ok {
		g = s.m.realSlot(ref.V)
	}
	if g < 0 {
		m := s.hoist(e.Map)
		return obl.Index(m, s.hoist(e.Key))
	}
	cell := obl.Expr(ref)
	for i, k := range keys {
		keys[i] = s.hoist(k)
	}
	for _, k := range keys {
		cell = obl.Index(cell, k)
	}
	return s.read(g, keys, cell)
}

// read adds a part that reads e, an access to global g, into a new
// temporary, and returns the temporary.
func (s *splitter) read(g int, keys []obl.Expr, e obl.Expr) obl.Expr {
	t := s.temp(sortOf(e))
	s.add(obl.AssignOne(t, e), &access{slot: g, keys: keys})
	return obl.Ref(t)
}

func sortOf(e obl.Expr) obl.Sort {
	s, err := obl.SortOf(e)
	if err != nil {
		panic(fmt.Sprintf("mc: ill-sorted expression %s: %v", e, err))
	}
	return s
}

// ---- Compiling split steps ----

// splitSteps cuts every step of a procedure for access atomicity. It
// runs before any of the procedure's code is compiled, because the
// temporaries become frame variables (registers right after the frame).
// A statement with at most one access stays whole.
func (m *model) splitSteps(cp *cproc) {
	if !m.access || cp.lp == nil {
		return
	}
	pool := map[string][]*obl.Var{} // temporaries by sort, shared by the statements
	cp.splits = map[int]*stepSplit{}
	for _, node := range cp.lp.Nodes {
		if node.Kind != layers.NodeStep {
			continue
		}
		stmts, irs := m.splitUnits(cp, node.Stmt)
		dry := &splitter{m: m, alloc: func(s obl.Sort) *obl.Var { return &obl.Var{Name: "tmp", Sort: s} }}
		for i, st := range stmts {
			dry.statement(st, irs[i])
		}
		if n := dry.accesses(); n == 0 || n == 1 && (!m.weak() || dry.parts[0].access != nil && dry.parts[0].access.slot < 0) {
			// The step stays whole: it makes no access, or one, and under
			// weak memory that one is a whole step (a [ ] group or a
			// call), not a read or write of a global, which the buffers
			// must see as such (so a group that is a plain store is cut).
			part := stepPart{cmd: irs[0]}
			if n == 1 {
				part.access = &access{slot: -1}
			}
			cp.splits[node.ID] = &stepSplit{parts: []stepPart{part}}
			continue
		}
		used := map[string]int{}
		sp := &splitter{m: m, alloc: func(s obl.Sort) *obl.Var {
			key := s.String()
			i := used[key]
			used[key]++
			if i == len(pool[key]) {
				pool[key] = append(pool[key], m.frameTemp(cp, s))
			}
			return pool[key][i]
		}}
		for i, st := range stmts {
			sp.statement(st, irs[i])
		}
		cp.splits[node.ID] = &stepSplit{parts: sp.parts, temps: sp.temps}
	}
}

// splitUnits returns the statements a step is cut as, with their IR:
// the step itself, or, under weak memory, the statements of a [ ] group
// that is a plain store (plainStore).
func (m *model) splitUnits(cp *cproc, st lang.Stmt) ([]lang.Stmt, []obl.Cmd) {
	if g, ok := st.(*lang.StepStmt); ok && m.weak() && m.plainStore(cp, g) {
		var irs []obl.Cmd
		for _, sub := range g.Body {
			irs = append(irs, m.withFreshTemps(cp, m.b.Stmt(sub, cp.env, stepMode)))
		}
		return g.Body, irs
	}
	return []lang.Stmt{st}, []obl.Cmd{m.withFreshTemps(cp, m.b.Stmt(st, cp.env, stepMode))}
}

// plainStore reports whether a [ ] group is, ghost code aside, one
// store: its statements are simple, and together they write one global
// of the implementation and read none. Under weak memory such a group is
// a buffered write with ghost bookkeeping attached, as proofs write
// them to tie a ghost update to an access, not a locked instruction.
func (m *model) plainStore(cp *cproc, g *lang.StepStmt) bool {
	dry := &splitter{m: m, alloc: func(s obl.Sort) *obl.Var { return &obl.Var{Name: "tmp", Sort: s} }}
	for _, sub := range g.Body {
		switch sub.(type) {
		case *lang.AssignStmt, *lang.HavocStmt, *lang.AssumeStmt, *lang.AssertStmt:
		default:
			return false
		}
		dry.statement(sub, m.withFreshTemps(cp, m.b.Stmt(sub, cp.env, stepMode)))
	}
	var accs []*access
	for _, p := range dry.parts {
		if p.access != nil {
			accs = append(accs, p.access)
		}
	}
	return len(accs) == 1 && accs[0].write && accs[0].slot >= 0
}

// frameTemp adds a temporary of sort s to the frame of cp.
func (m *model) frameTemp(cp *cproc, s obl.Sort) *obl.Var {
	v := m.b.NewVar("tmp", s)
	slot := m.nglob() + len(cp.frame)
	if cp.c.nreg != slot {
		panic("mc: a temporary is added to a frame after code was compiled")
	}
	cp.frame = append(cp.frame, v)
	cp.c.bind(v, slot)
	cp.zero = append(cp.zero, m.zeroOfSort(s))
	return v
}

func (m *model) zeroOfSort(s obl.Sort) int64 {
	switch s := s.(type) {
	case *obl.MapSort:
		return m.maps.constant(m.zeroOfSort(s.Val))
	case *obl.SeqSort:
		return m.maps.constant(0) // the empty sequence
	case *obl.RecordSort:
		vals := make([]int64, len(s.Fields))
		for i, f := range s.Fields {
			vals[i] = m.zeroOfSort(f.Sort)
		}
		return newRecord(m.maps, vals)
	}
	return 0
}

// stepIR is the IR a step node runs: its parts under access atomicity.
func (m *model) stepIR(cp *cproc, node *layers.Node) obl.Cmd {
	sp := cp.splits[node.ID]
	if sp == nil {
		return m.withFreshTemps(cp, m.b.Stmt(node.Stmt, cp.env, stepMode))
	}
	var cmds []obl.Cmd
	for _, p := range sp.parts {
		cmds = append(cmds, p.cmd)
	}
	return obl.Sequence(cmds...)
}

// splitCode compiles a split step with continuation k: every access is
// preceded by a pause point.
func (m *model) splitCode(cp *cproc, node *layers.Node, sp *stepSplit, k code) code {
	if len(sp.temps) > 0 {
		k = m.resetTemps(cp, sp.temps, k)
	}
	for i := len(sp.parts) - 1; i >= 0; i-- {
		p := sp.parts[i]
		if p.access == nil {
			k = cp.c.cmd(p.cmd, k)
			continue
		}
		k = m.noteAccess(cp, p.access, k)
		if m.weak() && p.access.write {
			k = m.bufferWrite(cp, node, p.access, k)
		}
		k = cp.c.cmd(p.cmd, k)
		a := p.access
		if m.weak() && a.slot < 0 && m.writesMemory(p.cmd) {
			k = drained(true, k)
			a = &access{slot: -1, locked: true}
		}
		k = m.pausePoint(cp, node, a, i, k)
	}
	return k
}

// pausePoint is where a thread stops before an access if it has made
// one already in this transition; the thread resumes there with the
// access. Pause points are numbered after the nodes of the graph.
func (m *model) pausePoint(cp *cproc, node *layers.Node, a *access, part int, k code) code {
	id := len(cp.nodes) + len(cp.pauses)
	first := part == 0
	c := func(x *exec) {
		if x.accessed {
			ru := x.run
			if path := ru.path; first && len(path) > 0 {
				// The statement has not started: a trace does not show it.
				ru.path = path[:len(path)-1]
				ru.wait(x, cp, id)
				ru.path = path
				return
			}
			ru.wait(x, cp, id)
			return
		}
		x.accessed = true
		k(x)
		x.accessed = false
	}
	what := a.name(m)
	if what == "" {
		what = "runs the step"
	}
	cp.pauses = append(cp.pauses, pausePoint{node: node, part: part, what: what, resume: traced(cp, node, c)})
	return c
}

// pausePoint is a point inside a step statement where a thread may stop
// (access atomicity).
type pausePoint struct {
	node   *layers.Node
	part   int    // the index of the part it runs first, in its node's split
	what   string // the access it waits to make: "writes count"
	resume code
}

// addPauses makes room for the pause points in the per-node tables.
func (cp *cproc) addPauses() {
	for _, p := range cp.pauses {
		cp.start = append(cp.start, p.resume)
		cp.ann = append(cp.ann, nil)
		cp.annReads = append(cp.annReads, 0)
		cp.yield = append(cp.yield, nil)
	}
}

// pauseAt returns the pause point with number node, or nil if node is a
// node of the graph.
func (cp *cproc) pauseAt(node int) *pausePoint {
	if i := node - len(cp.nodes); i >= 0 && cp.lp != nil {
		return &cp.pauses[i]
	}
	return nil
}

// resetTemps sets a statement's temporaries back to their zero values
// when it ends.
func (m *model) resetTemps(cp *cproc, temps []*obl.Var, k code) code {
	regs := make([]int, len(temps))
	zeros := make([]int64, len(temps))
	for i, v := range temps {
		regs[i], zeros[i] = cp.c.slot(v), m.zeroOfSort(v.Sort)
	}
	return func(x *exec) {
		var buf [8]int64
		olds := buf[:0]
		if len(regs) > len(buf) {
			olds = make([]int64, 0, len(regs))
		}
		olds = olds[:len(regs)]
		for i, r := range regs {
			olds[i], x.r[r] = x.r[r], zeros[i]
		}
		k(x)
		for i, r := range regs {
			x.r[r] = olds[i]
		}
	}
}

// noteAccess records, in a traced run, the access a part made with the
// value read or written.
func (m *model) noteAccess(cp *cproc, a *access, k code) code {
	if a.slot < 0 {
		return k
	}
	target := obl.Expr(obl.Ref(m.gvars[a.slot]))
	var keys []evalFn
	var keySorts []obl.Sort
	for _, key := range a.keys {
		target = obl.Index(target, key)
		keys = append(keys, cp.c.expr(key))
		keySorts = append(keySorts, sortOf(key))
	}
	val, sort := cp.c.expr(target), sortOf(target)
	verb := "reads "
	if a.write {
		verb = "writes "
	}
	if a.write && m.weak() {
		verb = "buffers "
	}
	name := m.globals[a.slot].Name
	return func(x *exec) {
		if x.run == nil || !x.run.tracing || len(x.run.path) == 0 {
			k(x)
			return
		}
		desc := verb + name
		var key0 int64
		for i, key := range keys {
			key0 = key(x.r)
			desc += "[" + cp.c.value(key0, keySorts[i]).String() + "]"
		}
		desc += " = " + cp.c.value(val(x.r), sort).String()
		if m.weak() && !a.write && x.run.buffered(a.slot, key0) {
			desc += " from its store buffer"
		}
		last := len(x.run.path) - 1
		x.run.path[last].access = desc
		k(x)
		x.run.path[last].access = ""
	}
}

// insideFragment reports whether a thread other than t waits at a point
// that is not a yield point: between two accesses of a fragment, under
// access atomicity.
func insideFragment(s *dstate, t int) bool {
	for u := range s.th {
		th := &s.th[u]
		if u == t || th.idle() {
			continue
		}
		f := &th.frames[len(th.frames)-1]
		if f.p.yield[f.node] == nil {
			return true
		}
	}
	return false
}
