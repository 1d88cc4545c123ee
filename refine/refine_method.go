package refine

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// procToAction checks method abstraction: procedure p at the lower layer
// refines action a at the upper one. Along every path through p's
// fragments, exactly one fragment performs a and the others leave the
// upper layer's state alone. It uses CIVL's instrumentation (DESIGN
// §4.3): pc records that the action happened, ok that some fragment
// matched it; g_old and o_old snapshot the upper globals and the outputs
// at each yield.
func (r *refiner) procToAction(p *layers.Proc, a *layers.Action) {
	if !r.methodShapeOK(p, a) {
		return
	}
	if d := a.Step.TooComplex(MethodAbstraction); d != nil {
		r.diags = append(r.diags, d)
		return
	}
	m := &methodCheck{r: r, b: layers.NewBuilder(r.prog), p: p, a: a}
	m.setup()
	ob := m.b.Obligation(fmt.Sprintf("l%d-method-%s", r.lower.Num, p.Name()), MethodAbstraction, m.program())
	if m.err != nil {
		r.add(nil, m.err, MethodAbstraction, p.Decl.P)
		return
	}
	r.obs = append(r.obs, ob)
}

// methodShapeOK checks what method abstraction needs before building it
// (Refinement has checked that the signatures match): the procedure calls
// no procedure (their effect would not be atomic at this layer), and the
// action mentions no variable the lower layer lacks.
func (r *refiner) methodShapeOK(p *layers.Proc, a *layers.Action) bool {
	ok := true
	for _, n := range p.Nodes {
		if n.Kind == layers.NodeCall {
			r.fail(Structure, fmt.Sprintf("%s calls procedure %s, so it cannot be abstracted into action %s at layer %d: a procedure refined by an action may call only actions",
				p.Name(), n.Stmt.(*lang.CallStmt).Callee.Name, a.Name(), r.upper.Num), n.Pos(), a.Decl.P)
			ok = false
		}
	}
	for g := range actionGlobals(a.Decl) {
		if r.newAtUpper(g) {
			r.fail(Structure, fmt.Sprintf("action %s mentions %s, which layer %d does not have: method abstraction cannot introduce variables", a.Name(), g.Name, r.lower.Num), a.Decl.P)
			ok = false
		}
	}
	return ok
}

// actionGlobals returns the globals an action's requires and body read
// or write.
func actionGlobals(a *lang.Action) map[*lang.Object]bool {
	out := map[*lang.Object]bool{}
	add := func(m map[*lang.Object]bool) {
		for o := range m {
			if o.Kind == lang.ObjGlobal {
				out[o] = true
			}
		}
	}
	for _, e := range a.Requires {
		add(layers.ReadVars(e))
	}
	add(layers.WrittenVars(a.Body.Stmts))
	lang.Inspect(a.Body.Stmts, func(s lang.Stmt) bool {
		for _, e := range lang.StmtExprs(s) {
			add(layers.ReadVars(e))
		}
		return true
	})
	return out
}

// methodCheck builds the instrumented program of a method abstraction.
type methodCheck struct {
	r   *refiner
	b   *layers.Builder
	p   *layers.Proc
	a   *layers.Action
	err error

	env     *layers.Env // lower globals and p's frame
	spec    *layers.Env // the action's frame: parameters bound to p's
	globals []*obl.Var  // lower globals, havoced at yields
	upper   []*obl.Var  // globals visible at the upper layer
	outs    []*obl.Var  // p's outputs
	gOld    []*obl.Var  // snapshots of upper
	oOld    []*obl.Var  // snapshots of outs
	pc, ok  *obl.Var
	eval    obl.Expr // τ_A(g_old, g, params, outputs)
	gate    obl.Expr // gate(A) for p's parameters
	// For a public method, gateOld records whether gate(A) held where
	// the current fragment started (see publicGate).
	gateOld *obl.Var
}

// publicGate says how method abstraction treats the gate of the refined
// action. CIVL assumes it at the procedure's entry and, until the action
// happens, after every yield (pc || gate): that is sound when the caller
// is a procedure of the upper layer, whose checks prove the gate at the
// call, so that the gate holds at every moment the caller waits there
// (a moment where it did not would be a failure of the upper layer,
// which its checks rule out). A public method is called by clients
// outside the program, who guarantee its gate only at the instant of the
// call: other threads may falsify it before the action happens. So for a
// public method nothing about the gate is assumed; the gate must hold
// where the fragment that performs the action starts, and the caller's
// requires (what the entry annotation and non-interference give) is all
// that is known at entry (the client contract checks that the upper
// layer's requires implies it).
func (m *methodCheck) publicGate() bool { return m.p.Public }

func (m *methodCheck) setup() {
	b, r := m.b, m.r
	m.env = b.Frame(b.Globals(r.lower, "", "globals"), &m.p.Decl.Signature, "", "locals of "+m.p.Name())
	for _, g := range r.lower.Globals {
		v := m.env.Var(g)
		m.globals = append(m.globals, v)
		if r.visibleAtUpper(g) {
			m.upper = append(m.upper, v)
			m.gOld = append(m.gOld, b.NewVar(v.Name+".old", v.Sort))
		}
	}
	for _, o := range m.p.Decl.Returns {
		v := m.env.Var(o.Name.Obj)
		m.outs = append(m.outs, v)
		m.oOld = append(m.oOld, b.NewVar(v.Name+".old", v.Sort))
	}
	m.pc = b.NewVar("pc", obl.BoolSort)
	m.ok = b.NewVar("ok", obl.BoolSort)
	if m.publicGate() {
		m.gateOld = b.NewVar("gate.old", obl.BoolSort)
	}
	m.specFrame()
}

// atFragmentStart is what happens where a fragment starts, at entry and
// after every yield: for a public method, record whether the gate holds;
// otherwise assume it unless the action already happened.
func (m *methodCheck) atFragmentStart(entry bool) obl.Cmd {
	switch {
	case m.publicGate():
		return obl.AssignOne(m.gateOld, m.gate)
	case entry:
		return &obl.Assume{E: m.gate}
	}
	return &obl.Assume{E: obl.Or(obl.Ref(m.pc), m.gate)}
}

// specFrame binds the action's frame: its parameters are p's parameters,
// its outputs and locals are fresh. It computes the action's gate and
// its transition relation between g_old and the current state.
func (m *methodCheck) specFrame() {
	b, a := m.b, m.a.Decl
	m.spec = m.env.Child()
	for i, prm := range a.Params {
		m.spec.Set(prm.Name.Obj, m.env.Lookup(m.p.Decl.Params[i].Name.Obj))
	}
	var fresh []*obl.Var
	for _, o := range append(returnsOf(a), localsOf(a)...) {
		v := b.NewVar(o.Name+"@"+a.Name.Name, layers.SortOf(o.Type))
		m.spec.Set(o, obl.Ref(v))
		fresh = append(fresh, v)
	}
	m.gate = obl.WLP(b.ActionBody(a, m.spec, layers.Mode{Check: true}), obl.Bool(true))
	pre := map[*obl.Var]obl.Expr{}
	post := map[*obl.Var]obl.Expr{}
	for i, v := range m.upper {
		pre[v], post[v] = obl.Ref(m.gOld[i]), obl.Ref(v)
	}
	for i, o := range a.Returns {
		post[m.spec.Var(o.Name.Obj)] = obl.Ref(m.outs[i])
	}
	// The action's outputs and locals start arbitrary: existentially.
	body := obl.Sequence(&obl.Havoc{Vars: fresh}, b.Stmts(a.Body.Stmts, m.spec, layers.Assume))
	m.eval, m.err = obl.Relation(body, pre, post)
	if m.eval == nil {
		m.eval = obl.Bool(false)
	}
}

func returnsOf(a *lang.Action) []*lang.Object {
	var os []*lang.Object
	for _, p := range a.Returns {
		os = append(os, p.Name.Obj)
	}
	return os
}

func localsOf(a *lang.Action) []*lang.Object {
	var os []*lang.Object
	for _, d := range a.Locals {
		for _, n := range d.Names {
			os = append(os, n.Obj)
		}
	}
	return os
}

func eqAll(xs, ys []*obl.Var) obl.Expr {
	var parts []obl.Expr
	for i := range xs {
		parts = append(parts, obl.Eq(obl.Ref(xs[i]), obl.Ref(ys[i])))
	}
	return obl.And(parts...)
}

// program is the instrumented procedure: entry, body, exit.
func (m *methodCheck) program() obl.Cmd {
	b := m.b
	pcHead := map[*lang.WhileStmt]*obl.Var{}
	w := &layers.Walk{B: b, Env: m.env, Proc: m.p, Mode: layers.Assume, LoopHavoc: []*obl.Var{m.ok, m.pc}}
	w.Reach = func(y *layers.YieldPoint) obl.Cmd { return m.fragmentEnd(y) }
	w.Resume = func(y *layers.YieldPoint) obl.Cmd {
		cmds := []obl.Cmd{
			layers.CopyVars(m.gOld, m.upper), layers.CopyVars(m.oOld, m.outs), m.atFragmentStart(false),
		}
		if y.Kind == layers.YieldLoop {
			// pc and ok are havoced at the head; pc ==> ok is invariant,
			// and so is what the back edge checks (loopHeadPC).
			ws := y.Stmt.(*lang.WhileStmt)
			cmds = append(cmds, &obl.Assume{E: obl.And(obl.Implies(obl.Ref(m.pc), obl.Ref(m.ok)), m.loopHeadPC(ws, pcHead[ws]), m.retryLeavesDone(ws, pcHead[ws]))})
		}
		title := fmt.Sprintf("after the %s at line %d, other threads having run", y.Kind, y.Pos.Line)
		return obl.Sequence(append(cmds, b.Trace(title, fmt.Sprint(y.Pos.Line), m.upper))...)
	}
	w.Loop = func(ws *lang.WhileStmt) obl.Cmd {
		pcHead[ws] = b.NewVar("pc.loop", obl.BoolSort)
		return obl.Sequence(obl.AssignOne(pcHead[ws], obl.Ref(m.pc)), m.retryEntry(ws))
	}
	w.BackEdge = func(ws *lang.WhileStmt) obl.Cmd {
		return obl.Sequence(layers.Check(MethodAbstraction, m.loopHeadPC(ws, pcHead[ws]),
			fmt.Sprintf("%s does not refine action %s: an iteration of the loop at line %d performs %s and goes back to the loop head with the loop condition still true; it must happen in the iteration that leaves the loop",
				m.p.Name(), m.a.Name(), ws.P.Line, m.a.Name()), ws.P, m.a.Decl.P), m.retryBackEdge(ws, pcHead[ws]))
	}
	w.Exit = func() obl.Cmd {
		return layers.Check(MethodAbstraction, obl.Ref(m.ok),
			fmt.Sprintf("%s does not refine action %s: on some path no fragment performs %s (no fragment's change of the globals and outputs is a step of %s)", m.p.Name(), m.a.Name(), m.a.Name(), m.a.Name()),
			m.p.Exit.Yield.Pos, m.a.Decl.P)
	}
	body := w.Body()
	entry := obl.And(b.AnnotationAfter(m.p.Entry.Yield, m.env), b.ParamFacts(m.p, m.env))
	return obl.Sequence(
		b.ClearTraces(),
		&obl.Assume{E: entry},
		m.atFragmentStart(true),
		&obl.Assign{Lhs: []*obl.Var{m.pc, m.ok}, Rhs: []obl.Expr{obl.Bool(false), obl.Bool(false)}},
		layers.CopyVars(m.gOld, m.upper), layers.CopyVars(m.oOld, m.outs),
		body,
	)
}

// loopHeadPC is what holds of pc at the head of the loop ws, where
// pcHead is pc at the loop's entry: pc is unchanged, or the action
// happened in the loop and the loop condition is false, so the loop is
// left at once (the natural CAS retry loop: the iteration whose CAS
// succeeds sets ok and goes back to the head, whose test !ok ends the
// loop). The back edge checks it; the head, where pc is havoced with the
// locals the loop writes, assumes it. It is invariant because the
// condition reads only locals, which keep their values from the back
// edge through the head's yield to the test; a loop without a condition
// (*) may always go on, so there pc must be unchanged.
func (m *methodCheck) loopHeadPC(ws *lang.WhileStmt, pcHead *obl.Var) obl.Expr {
	same := obl.Eq(obl.Ref(m.pc), obl.Ref(pcHead))
	if ws.Cond == nil {
		return same
	}
	return obl.Or(same, obl.Not(m.b.Expr(ws.Cond, m.env)))
}

// fragmentEnd checks the fragment that just ended at yield point y
// against the action and updates pc and ok.
func (m *methodCheck) fragmentEnd(y *layers.YieldPoint) obl.Cmd {
	sameG, sameO := eqAll(m.upper, m.gOld), eqAll(m.outs, m.oOld)
	pc, ok := obl.Ref(m.pc), obl.Ref(m.ok)
	name, act := m.p.Name(), m.a.Name()
	pos := y.Pos
	trace := m.b.Trace(fmt.Sprintf("when the fragment ending at line %d ends", pos.Line), fmt.Sprint(pos.Line), append(append([]*obl.Var(nil), m.upper...), m.outs...))
	cmds := []obl.Cmd{
		trace, layers.Check(MethodAbstraction, obl.Or(pc, sameG, m.eval),
			fmt.Sprintf("%s does not refine action %s: the fragment ending here changes the state in a way that does not match %s", name, act, act),
			pos, m.a.Decl.P), layers.Check(MethodAbstraction, obl.Implies(pc, obl.And(sameG, sameO)),
			fmt.Sprintf("%s does not refine action %s: the fragment ending here changes the state or the outputs after %s was performed", name, act, act),
			pos, m.a.Decl.P),
	}
	performs := m.eval
	if m.publicGate() {
		// The fragment that changes the state performs the action: the
		// gate must hold where it starts. A fragment that changes
		// nothing performs it only if the gate held there too.
		gateOld := obl.Ref(m.gateOld)
		cmds = append(cmds, layers.Check(MethodAbstraction, obl.Or(pc, sameG, gateOld), m.gateMessage(pos), pos, m.gatePos()))
		performs = obl.And(m.eval, obl.Or(gateOld, obl.Not(sameG)))
	}
	return obl.Sequence(append(cmds, &obl.Assign{Lhs: []*obl.Var{m.pc, m.ok},
		Rhs: []obl.Expr{obl.Implies(sameG, pc), obl.Or(performs, obl.And(sameO, ok))}})...)
}

// gateMessage explains a failure of the gate where the action happens.
func (m *methodCheck) gateMessage(end lang.Pos) string {
	gate := "its asserts"
	if len(m.a.Decl.Requires) > 0 {
		var parts []string
		for _, e := range m.a.Decl.Requires {
			parts = append(parts, lang.ExprString(e))
		}
		gate = "requires " + strings.Join(parts, " && ")
	}
	msg := fmt.Sprintf("%s does not refine action %s: the fragment ending here performs %s, but the gate of %s (%s) may not hold where that fragment starts: a client guarantees it only when it calls %s, and other threads may have falsified it since; it must follow from %s's requires and annotations",
		m.p.Name(), m.a.Name(), m.a.Name(), m.a.Name(), gate, m.p.Name(), m.p.Name())
	if ws := writersOf(m.r.lower, gateReads(m.a.Decl)); len(ws) > 0 {
		msg += " (steps that write what the gate reads: " + ws + ")"
	}
	return msg
}

// gateReads returns the globals an action's gate (requires and asserts)
// reads.
func gateReads(a *lang.Action) map[*lang.Object]bool {
	reads := map[*lang.Object]bool{}
	add := func(e lang.Expr) {
		for o := range layers.ReadVars(e) {
			if o.Kind == lang.ObjGlobal {
				reads[o] = true
			}
		}
	}
	for _, e := range a.Requires {
		add(e)
	}
	lang.Inspect(a.Body.Stmts, func(s lang.Stmt) bool {
		if as, ok := s.(*lang.AssertStmt); ok {
			add(as.Cond)
		}
		return true
	})
	return reads
}

// writersOf names, for messages, the steps of layer l that write one of
// the variables in vars: those another thread may run to falsify a fact
// about them. It lists at most four.
func writersOf(l *layers.Layer, vars map[*lang.Object]bool) string {
	var names []string
	for _, s := range l.Steps {
		var w map[*lang.Object]bool
		if s.Action != nil {
			w = layers.WrittenVars(s.Action.Decl.Body.Stmts)
		} else {
			w = layers.WrittenVars([]lang.Stmt{s.Stmt})
		}
		for o := range w {
			if vars[o] {
				names = append(names, s.Name())
				break
			}
		}
	}
	if len(names) > 4 {
		names = append(names[:4], fmt.Sprintf("%d more", len(names)-4))
	}
	return strings.Join(names, ", ")
}

// gatePos is the position of the refined action's gate.
func (m *methodCheck) gatePos() lang.Pos {
	if len(m.a.Decl.Requires) > 0 {
		return m.a.Decl.Requires[0].Pos()
	}
	return m.a.Decl.P
}
