package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/vcgen"
)

// procToAction checks method abstraction: procedure p at the lower layer
// refines action a at the upper one. Along every path through p's
// fragments, exactly one fragment performs a and the others leave the
// upper layer's state alone. It uses CIVL's instrumentation (DESIGN
// §4.3): pc records that the action happened, ok that some fragment
// matched it; g_old and o_old snapshot the upper globals and the outputs
// at each yield.
func (r *refiner) procToAction(p *Proc, a *Action) {
	if !r.methodShapeOK(p, a) {
		return
	}
	if d := a.Step.TooComplex(MethodAbstraction); d != nil {
		r.diags = append(r.diags, d)
		return
	}
	m := &methodCheck{r: r, b: NewBuilder(r.prog), p: p, a: a}
	m.setup()
	ob := m.b.Obligation(fmt.Sprintf("l%d-method-%s", r.lower.Num, p.Name()), MethodAbstraction, m.program())
	if m.err != nil {
		r.add(nil, m.err, MethodAbstraction, p.Decl.P)
		return
	}
	r.obs = append(r.obs, ob)
}

// methodShapeOK checks what method abstraction needs before building it:
// the action has the procedure's parameters and outputs, the procedure
// calls no procedure (their effect would not be atomic at this layer),
// and the action mentions no variable the lower layer lacks.
func (r *refiner) methodShapeOK(p *Proc, a *Action) bool {
	ok := true
	same := func(what string, ps, as []*lang.Param) {
		if len(ps) != len(as) {
			r.fail(Structure, fmt.Sprintf("%s has %d %s at layer %d but %d at layer %d", p.Name(), len(ps), what, r.lower.Num, len(as), r.upper.Num), a.Decl.P, p.Decl.P)
			ok = false
			return
		}
		for i := range ps {
			if ps[i].Name.Name != as[i].Name.Name || !lang.Identical(ps[i].Name.Obj.Type, as[i].Name.Obj.Type) {
				r.fail(Structure, fmt.Sprintf("%s %d of %s is %s: %s at layer %d but %s: %s at layer %d", what, i+1, p.Name(),
					ps[i].Name.Name, ps[i].Name.Obj.Type, r.lower.Num, as[i].Name.Name, as[i].Name.Obj.Type, r.upper.Num), as[i].Name.P, ps[i].Name.P)
				ok = false
			}
		}
	}
	same("parameters", p.Decl.Params, a.Decl.Params)
	same("outputs", p.Decl.Returns, a.Decl.Returns)
	for _, n := range p.Nodes {
		if n.Kind == NodeCall {
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
		add(ReadVars(e))
	}
	add(WrittenVars(a.Body.Stmts))
	lang.Inspect(a.Body.Stmts, func(s lang.Stmt) bool {
		for _, e := range lang.StmtExprs(s) {
			add(ReadVars(e))
		}
		return true
	})
	return out
}

// methodCheck builds the instrumented program of a method abstraction.
type methodCheck struct {
	r   *refiner
	b   *Builder
	p   *Proc
	a   *Action
	err error

	env     *Env         // lower globals and p's frame
	spec    *Env         // the action's frame: parameters bound to p's
	globals []*vcgen.Var // lower globals, havoced at yields
	upper   []*vcgen.Var // globals visible at the upper layer
	outs    []*vcgen.Var // p's outputs
	gOld    []*vcgen.Var // snapshots of upper
	oOld    []*vcgen.Var // snapshots of outs
	pc, ok  *vcgen.Var
	eval    vcgen.Expr // τ_A(g_old, g, params, outputs)
	gate    vcgen.Expr // gate(A) for p's parameters
}

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
	m.pc = b.NewVar("pc", vcgen.BoolSort)
	m.ok = b.NewVar("ok", vcgen.BoolSort)
	m.specFrame()
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
	var fresh []*vcgen.Var
	for _, o := range append(returnsOf(a), localsOf(a)...) {
		v := b.NewVar(o.Name+"@"+a.Name.Name, SortOf(o.Type))
		m.spec.Set(o, vcgen.Ref(v))
		fresh = append(fresh, v)
	}
	m.gate = wlp(b.ActionBody(a, m.spec, Mode{Check: true}), vcgen.Bool(true))
	pre := map[*vcgen.Var]vcgen.Expr{}
	post := map[*vcgen.Var]vcgen.Expr{}
	for i, v := range m.upper {
		pre[v], post[v] = vcgen.Ref(m.gOld[i]), vcgen.Ref(v)
	}
	for i, o := range a.Returns {
		post[m.spec.Var(o.Name.Obj)] = vcgen.Ref(m.outs[i])
	}
	// The action's outputs and locals start arbitrary: existentially.
	body := vcgen.Sequence(&vcgen.Havoc{Vars: fresh}, b.Stmts(a.Body.Stmts, m.spec, Assume))
	m.eval, m.err = vcgen.Relation(body, pre, post)
	if m.eval == nil {
		m.eval = vcgen.Bool(false)
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

func eqAll(xs, ys []*vcgen.Var) vcgen.Expr {
	var parts []vcgen.Expr
	for i := range xs {
		parts = append(parts, vcgen.Eq(vcgen.Ref(xs[i]), vcgen.Ref(ys[i])))
	}
	return vcgen.And(parts...)
}

func copyVars(dst, src []*vcgen.Var) vcgen.Cmd {
	a := &vcgen.Assign{Lhs: dst}
	for _, v := range src {
		a.Rhs = append(a.Rhs, vcgen.Ref(v))
	}
	return a
}

// program is the instrumented procedure: entry, body, exit.
func (m *methodCheck) program() vcgen.Cmd {
	b := m.b
	pcHead := map[*lang.WhileStmt]*vcgen.Var{}
	w := &Walk{B: b, Env: m.env, Proc: m.p, Mode: Assume, LoopHavoc: []*vcgen.Var{m.ok}}
	w.Reach = func(y *YieldPoint) vcgen.Cmd { return m.fragmentEnd(y) }
	w.Resume = func(y *YieldPoint) vcgen.Cmd {
		cmds := []vcgen.Cmd{
			copyVars(m.gOld, m.upper), copyVars(m.oOld, m.outs),
			&vcgen.Assume{E: vcgen.Or(vcgen.Ref(m.pc), m.gate)},
		}
		if y.Kind == YieldLoop {
			// ok is havoced at the head; pc ==> ok is invariant.
			cmds = append(cmds, &vcgen.Assume{E: vcgen.Implies(vcgen.Ref(m.pc), vcgen.Ref(m.ok))})
		}
		title := fmt.Sprintf("after the %s at line %d, other threads having run", y.Kind, y.Pos.Line)
		return vcgen.Sequence(append(cmds, b.Trace(title, fmt.Sprint(y.Pos.Line), m.upper))...)
	}
	w.Loop = func(ws *lang.WhileStmt) vcgen.Cmd {
		pcHead[ws] = b.NewVar("pc.loop", vcgen.BoolSort)
		return vcgen.AssignOne(pcHead[ws], vcgen.Ref(m.pc))
	}
	w.BackEdge = func(ws *lang.WhileStmt) vcgen.Cmd {
		return Check(MethodAbstraction, vcgen.Eq(vcgen.Ref(m.pc), vcgen.Ref(pcHead[ws])),
			fmt.Sprintf("%s does not refine action %s: an iteration of the loop at line %d that goes back to the loop head performs %s; it must happen in the iteration that leaves the loop",
				m.p.Name(), m.a.Name(), ws.P.Line, m.a.Name()), ws.P, m.a.Decl.P)
	}
	w.Exit = func() vcgen.Cmd {
		return Check(MethodAbstraction, vcgen.Ref(m.ok),
			fmt.Sprintf("%s does not refine action %s: on some path no fragment performs %s (no fragment's change of the globals and outputs is a step of %s)", m.p.Name(), m.a.Name(), m.a.Name(), m.a.Name()),
			m.p.Exit.Yield.Pos, m.a.Decl.P)
	}
	body := w.Body()
	entry := vcgen.And(b.AnnotationAfter(m.p.Entry.Yield, m.env), b.ParamFacts(m.p, m.env))
	return vcgen.Sequence(
		b.ClearTraces(),
		&vcgen.Assume{E: entry},
		&vcgen.Assume{E: m.gate},
		&vcgen.Assign{Lhs: []*vcgen.Var{m.pc, m.ok}, Rhs: []vcgen.Expr{vcgen.Bool(false), vcgen.Bool(false)}},
		copyVars(m.gOld, m.upper), copyVars(m.oOld, m.outs),
		body,
	)
}

// fragmentEnd checks the fragment that just ended at yield point y
// against the action and updates pc and ok.
func (m *methodCheck) fragmentEnd(y *YieldPoint) vcgen.Cmd {
	sameG, sameO := eqAll(m.upper, m.gOld), eqAll(m.outs, m.oOld)
	pc, ok := vcgen.Ref(m.pc), vcgen.Ref(m.ok)
	name, act := m.p.Name(), m.a.Name()
	pos := y.Pos
	trace := m.b.Trace(fmt.Sprintf("when the fragment ending at line %d ends", pos.Line), fmt.Sprint(pos.Line), append(append([]*vcgen.Var(nil), m.upper...), m.outs...))
	return vcgen.Sequence(
		trace,
		Check(MethodAbstraction, vcgen.Or(pc, sameG, m.eval),
			fmt.Sprintf("%s does not refine action %s: the fragment ending here changes the state in a way that does not match %s", name, act, act),
			pos, m.a.Decl.P),
		Check(MethodAbstraction, vcgen.Implies(pc, vcgen.And(sameG, sameO)),
			fmt.Sprintf("%s does not refine action %s: the fragment ending here changes the state or the outputs after %s was performed", name, act, act),
			pos, m.a.Decl.P),
		&vcgen.Assign{Lhs: []*vcgen.Var{m.pc, m.ok},
			Rhs: []vcgen.Expr{vcgen.Implies(sameG, pc), vcgen.Or(m.eval, vcgen.And(sameO, ok))}},
	)
}
