package mc

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// cproc is a compiled procedure, or a public action compiled as a
// procedure with two nodes: entry (0), where the call waits, and exit (1),
// reached by one step running the action's body.
type cproc struct {
	name   string
	idx    int
	sig    *lang.Signature
	lp     *layers.Proc // nil for an action
	action *lang.Action // nil for a procedure
	env    *layers.Env
	c      *compiler // registers: globals, then the frame, then temporaries
	frame  []*obl.Var
	zero   []int64 // initial frame values
	rets   []int   // the frame slots of the outputs
	entry  int
	exit   int

	// Per node ID. start is the code of the fragment that begins at a
	// yield point; code is a node's code (at a yield point: the end of a
	// fragment); ann is AnnotationAt of a yield point (nil: true).
	start    []code
	code     []code
	ann      []evalFn
	annReads []uint64
	yield    []*layers.YieldPoint
	nodes    []*layers.Node
	// mover is set for a mover procedure; moverCall, per node, for a
	// yield point at a call of one. A thread inside a mover procedure or
	// waiting at its call is inside its caller's fragment (midfrag.go).
	mover     bool
	moverCall []bool
	// Calls of procedures, per call node: the callee, the compiled
	// arguments, and the caller's frame slots receiving the outputs.
	callee []*cproc
	args   [][]evalFn
	outs   [][]int
	// gives are, per call node, the caller's frame slots that the call
	// empties (the linear sets passed to linear_in parameters), with the
	// empty set's value.
	gives [][]givenSlot
	after []code // the caller's code after a call returns

	// forks are the parallel calls with procedure arms, by node ID
	// (fork.go).
	forks map[int]*forkData

	method *method // the public method it implements, if any
	regs   []int64 // its register file

	// Access atomicity (access.go): the step statements cut into parts,
	// by node ID, and the pause points, numbered after the nodes.
	splits map[int]*stepSplit
	pauses []pausePoint

	// arbitrary are the frame slots that some path reads before writing
	// them (uninit.go): they start unset, and their value is chosen from
	// the domain when the code reads them (lazy.go). constMaps are such
	// slots of map type, which start as the constant default map.
	arbitrary []arbitrarySlot
	constMaps []int

	// dead are, per node ID, the frame slots dead there (dead.go).
	dead [][]int
}

// frameSlot returns the frame slot of a frame object.
func (p *cproc) frameSlot(o *lang.Object) int {
	v := p.env.Var(o)
	for i, f := range p.frame {
		if f == v {
			return i
		}
	}
	panic(fmt.Sprintf("mc: %s is not in the frame of %s", o.Name, p.name))
}

func (p *cproc) callees() []*cproc {
	var out []*cproc
	for _, q := range p.callee {
		if q != nil {
			out = append(out, q)
		}
	}
	return out
}

// isCall reports whether node n is a call of a procedure.
func (p *cproc) isCall(n int) bool { return n < len(p.callee) && p.callee[n] != nil }

func (m *model) newProc(mem lang.Member, sig *lang.Signature) *cproc {
	cp := &cproc{name: mem.MemberName().Name, idx: len(m.procs), sig: sig}
	cp.env = m.b.Frame(m.genv, sig, "", "")
	cp.c = m.newCompiler()
	cp.c.owner = cp
	g := m.nglob()
	for i, o := range sig.Frame() {
		v := cp.env.Var(o)
		cp.frame = append(cp.frame, v)
		cp.c.bind(v, g+i)
		cp.zero = append(cp.zero, m.zeroOf(o.Type))
	}
	for i := range sig.Returns {
		cp.rets = append(cp.rets, len(sig.Params)+i)
	}
	m.procs = append(m.procs, cp)
	return cp
}

// mode is how steps are translated: asserts are checked (or, on the
// specification side, assumed by the compiler).
var stepMode = layers.Mode{Check: true, Kind: "gate"}

// compileAction compiles a public action as a two-node procedure.
func (m *model) compileAction(cp *cproc) {
	a := cp.action
	cp.entry, cp.exit = 0, 1
	cp.start = make([]code, 2)
	cp.code = make([]code, 2)
	cp.ann = make([]evalFn, 2)
	cp.annReads = make([]uint64, 2)
	cp.yield = make([]*layers.YieldPoint, 2)
	var body obl.Cmd
	if m.spec {
		body = m.b.ActionBody(a, cp.env, stepMode) // the requires guards the step
	} else {
		body = m.b.Stmts(a.Body.Stmts, cp.env, stepMode) // the requires guarded the call
	}
	m.findArbitrary(cp, body)
	if len(a.Ensures) > 0 {
		e := m.b.Conj(a.Ensures, cp.env)
		cp.ann[1], cp.annReads[1] = cp.c.expr(e), m.globalMask(e)
	}
	cp.code[0] = m.yieldCode(cp, 0, a.P)
	cp.code[1] = m.yieldCode(cp, 1, a.Body.End)
	cp.start[0] = cp.c.cmd(body, cp.code[1])
	if m.weak() && m.writesMemory(body) {
		cp.start[0] = drained(true, cp.start[0]) // a locked instruction
	}
}

// compileProc compiles a procedure's control-flow graph.
func (m *model) compileProc(cp *cproc) {
	p := cp.lp
	n := len(p.Nodes)
	cp.entry, cp.exit = p.Entry.ID, p.Exit.ID
	cp.nodes = p.Nodes
	m.findArbitrary(cp, nil)
	m.splitSteps(cp)
	cp.start = make([]code, n)
	cp.code = make([]code, n)
	cp.after = make([]code, n)
	cp.ann = make([]evalFn, n)
	cp.annReads = make([]uint64, n)
	cp.yield = make([]*layers.YieldPoint, n)
	cp.moverCall = make([]bool, n)
	cp.mover = p.Decl.Mover != lang.MoverNone
	codes := cp.code
	for _, node := range p.Nodes {
		if node.Kind == layers.NodeFork {
			codes[node.ID] = traced(cp, node, m.compileFork(cp, node))
			cp.after[node.ID] = m.succ(codes, node)
			continue
		}
		if node.IsYield() {
			y := node.Yield
			cp.yield[node.ID] = y
			e := m.b.AnnotationAt(y, cp.env)
			if isMoverCall(y) {
				// Only the callee's requires, its gate: the caller is
				// inside a fragment, where the invariants may not hold.
				cp.moverCall[node.ID], m.moverProcs = true, true
				e = m.b.OwnAnnotationAt(y, cp.env)
			}
			if lit, ok := e.(*obl.BoolLit); !ok || !lit.V {
				cp.ann[node.ID], cp.annReads[node.ID] = cp.c.expr(e), m.globalMask(e)
			}
			codes[node.ID] = m.yieldCode(cp, node.ID, y.Pos)
			continue
		}
		codes[node.ID] = m.nodeCode(cp, node, m.succ(codes, node))
	}
	for _, node := range p.Nodes {
		if node.Kind == layers.NodeFork {
			for _, arm := range node.Arms {
				if arm != nil {
					codes[arm.ID] = m.nodeCode(cp, arm, actionArmCode(cp))
				}
			}
		}
		if !node.IsYield() {
			continue
		}
		switch node.Kind {
		case layers.NodeCall:
			m.compileCall(cp, node)
			cp.after[node.ID] = m.succ(codes, node)
		case layers.NodeExit:
		case layers.NodeEntry:
			// the body starts: old(e) reads the globals as they are now
			cp.start[node.ID] = cp.c.cmd(m.b.TakeOld(cp.sig, cp.env), m.succ(codes, node))
		default:
			cp.start[node.ID] = m.succ(codes, node)
		}
	}
	cp.addPauses()
	m.findDead(cp)
}

// succ returns code that runs the successors of node.
func (m *model) succ(codes []code, node *layers.Node) code {
	ids := make([]int, len(node.Succs))
	for i, s := range node.Succs {
		ids[i] = s.ID
	}
	if len(ids) == 1 {
		id := ids[0]
		return func(x *exec) { codes[id](x) }
	}
	return func(x *exec) {
		for _, id := range ids {
			codes[id](x)
			if x.stop {
				return
			}
		}
	}
}

// nodeCode compiles a node that is not a yield point.
func (m *model) nodeCode(cp *cproc, node *layers.Node, k code) code {
	var c code
	switch node.Kind {
	case layers.NodeStep, layers.NodePrivate:
		if _, ok := node.Stmt.(*lang.FenceStmt); ok {
			c = m.fenceCode(cp, node, k)
			break
		}
		if sp := cp.splits[node.ID]; sp != nil {
			c = m.splitCode(cp, node, sp, k)
			break
		}
		c = cp.c.cmd(m.withFreshTemps(cp, m.b.Stmt(node.Stmt, cp.env, stepMode)), k)
	case layers.NodeCond:
		if node.Cond == nil {
			c = k
			break
		}
		e := m.b.Expr(node.Cond, cp.env)
		if node.Negated {
			e = obl.Not(e)
		}
		c = cp.c.cmd(&obl.Assume{E: e}, k)
	case layers.NodePrivateLoop:
		c = m.privateLoop(cp, node.Stmt.(*lang.WhileStmt), k)
	default: // NodeJoin
		return k
	}
	return traced(cp, node, c)
}

// traced records the node, of procedure cp, in the path of a traced run.
func traced(cp *cproc, node *layers.Node, c code) code {
	return func(x *exec) {
		if x.run == nil || !x.run.tracing {
			c(x)
			return
		}
		x.run.path = append(x.run.path, traceEntry{node: node, proc: cp})
		c(x)
		x.run.path = x.run.path[:len(x.run.path)-1]
	}
}

// compileCall compiles the arguments and outputs of a call of a
// procedure at node.
func (m *model) compileCall(cp *cproc, node *layers.Node) {
	if cp.callee == nil {
		n := len(cp.nodes)
		cp.callee, cp.args, cp.outs, cp.gives = make([]*cproc, n), make([][]evalFn, n), make([][]int, n), make([][]givenSlot, n)
	}
	call := node.Stmt.(*lang.CallStmt)
	callee := m.procOf[node.Yield.Callee()]
	cp.callee[node.ID] = callee
	for i, a := range call.Args {
		prm := callee.sig.Params[i]
		cp.args[node.ID] = append(cp.args[node.ID], cp.c.expr(m.b.Expr(a, cp.env)))
		if id, ok := a.(*lang.Ident); ok && prm.LinearIn {
			o := id.Obj
			cp.gives[node.ID] = append(cp.gives[node.ID], givenSlot{slot: cp.frameSlot(o), empty: m.zeroOf(o.Type)})
		}
	}
	for _, o := range call.Outs {
		cp.outs[node.ID] = append(cp.outs[node.ID], cp.frameSlot(o.Obj))
	}
}

// yieldCode is the end of a fragment at yield point node: its
// annotation must hold, and the thread waits there. Annotations are not
// checked on the specification side, nor under access atomicity, where
// they may be false while another thread is inside a fragment (they are
// proven for fragment-atomic runs).
func (m *model) yieldCode(cp *cproc, node int, pos lang.Pos) code {
	check := !m.spec && !m.access
	return func(x *exec) {
		ann := cp.ann[node]
		if check && ann != nil && !x.run.skipAnnotation(cp, node) {
			x.run.atYield = cp.yield[node]
			holds := ann(x.r) != 0
			x.run.atYield = nil
			if !holds {
				x.run.annotationFailed(x, cp, node)
				return
			}
		}
		x.run.reach(x, cp, node)
	}
}

// privateLoop compiles a loop without steps: it runs concretely, its
// invariants checked at the head on entry and after every iteration.
// Loop states already seen on this entry are not explored again, so a
// loop that cycles through finitely many states ends.
func (m *model) privateLoop(cp *cproc, w *lang.WhileStmt, k code) code {
	var cond evalFn
	if w.Cond != nil {
		cond = cp.c.expr(m.b.Expr(w.Cond, cp.env))
	}
	var inv code = func(x *exec) {}
	var head code
	loopBack := func(x *exec) { head(x) }
	if len(w.Invariants) > 0 && !m.access { // annotations: see yieldCode
		a := layers.Check("loop invariant", m.b.Conj(w.Invariants, cp.env),
			fmt.Sprintf("the invariant of the loop at line %d does not hold", w.P.Line), w.P)
		inv = cp.c.cmd(a, func(x *exec) {})
	}
	invOK := func(x *exec) bool {
		ok := true
		saved := x.onFail
		x.onFail = func(x *exec, a *obl.Assert) { ok = false; saved(x, a) }
		inv(x)
		x.onFail = saved
		return ok
	}
	body := m.privStmts(cp, w.Body.Stmts, loopBack, k) // a break continues after the loop
	// The states the loop has passed, one set per active entry of the
	// loop, live in the exec (x.loops[loop]), not in this closure: the
	// workers of a parallel search run the same compiled code at once.
	loop := new(privateLoopID)
	head = func(x *exec) {
		seen := x.loops[loop]
		s := seen[len(seen)-1]
		key := regsKey(x.r)
		if s[key] {
			return
		}
		if len(s) >= maxEnum {
			fail("the loop at line %d runs through more than %d states", w.P.Line, maxEnum)
		}
		s[key] = true
		if !invOK(x) {
			return
		}
		if cond == nil || cond(x.r) != 0 {
			body(x)
		}
		if !x.stop && (cond == nil || cond(x.r) == 0) {
			k(x)
		}
	}
	return func(x *exec) {
		if x.loops == nil {
			x.loops = map[*privateLoopID][]map[string]bool{}
		}
		x.loops[loop] = append(x.loops[loop], map[string]bool{})
		head(x)
		x.loops[loop] = x.loops[loop][:len(x.loops[loop])-1]
	}
}

// privateLoopID identifies one compiled private loop.
type privateLoopID struct{ _ byte }

func regsKey(r []int64) string {
	b := make([]byte, 0, 8*len(r))
	for _, v := range r {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
	}
	return string(b)
}

// privStmts compiles private statements (the body of a loop without
// steps), which may nest such loops; k follows them, brk follows the
// innermost loop they are in (where a break goes).
func (m *model) privStmts(cp *cproc, ss []lang.Stmt, k, brk code) code {
	for i := len(ss) - 1; i >= 0; i-- {
		k = m.privStmt(cp, ss[i], k, brk)
	}
	return k
}

func (m *model) privStmt(cp *cproc, s lang.Stmt, k, brk code) code {
	switch s := s.(type) {
	case *lang.WhileStmt:
		return m.privateLoop(cp, s, k)
	case *lang.BreakStmt:
		return brk
	case *lang.ReturnStmt:
		// to the exit, whose code is compiled by then
		return func(x *exec) { cp.code[cp.exit](x) }
	case *lang.BlockStmt:
		return m.privStmts(cp, s.Block.Stmts, k, brk)
	case *lang.ChoiceStmt:
		var brs []code
		for _, b := range s.Branches {
			brs = append(brs, m.privStmts(cp, b.Stmts, k, brk))
		}
		return choiceOf(brs)
	case *lang.IfStmt:
		then := m.privStmts(cp, s.Then.Stmts, k, brk)
		els := k
		if s.Else != nil {
			els = m.privStmt(cp, s.Else, k, brk)
		}
		if s.Cond == nil {
			return choiceOf([]code{then, els})
		}
		c := cp.c.expr(m.b.Expr(s.Cond, cp.env))
		return func(x *exec) {
			if c(x.r) != 0 {
				then(x)
			} else {
				els(x)
			}
		}
	}
	return cp.c.cmd(m.b.Stmt(s, cp.env, stepMode), k)
}

func choiceOf(brs []code) code {
	return func(x *exec) {
		for _, b := range brs {
			b(x)
			if x.stop {
				return
			}
		}
	}
}

// failingPart returns the first part of the annotation of yield point y
// that is false in x's registers, when the annotation calls yield
// invariants (so that the message names the failing one, as lipton check
// does), or nil. A part that would read a value not chosen yet (lazy.go)
// is skipped.
func (m *model) failingPart(x *exec, p *cproc, y *layers.YieldPoint) (found *layers.AnnotationPart) {
	parts := m.b.AnnotationParts(y, p.env)
	if len(parts) < 2 && (len(parts) == 0 || parts[0].Pos == nil) {
		return nil
	}
	for i := range parts {
		if m.partFalse(x, p, parts[i].E) {
			return &parts[i]
		}
	}
	return nil
}

func (m *model) partFalse(x *exec, p *cproc, e obl.Expr) (isFalse bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, lazy := r.(unsetRead); !lazy {
				panic(r)
			}
			isFalse = false
		}
	}()
	// e is compiled now, after the registers were laid out: its
	// quantifiers' bound variables get new registers, past the end of
	// x.r, so it runs on a copy with room for them.
	fn := p.c.expr(e)
	r := make([]int64, max(len(x.r), p.c.nreg))
	copy(r, x.r)
	return fn(r) == 0
}
