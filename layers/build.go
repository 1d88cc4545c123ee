package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
)

// Build constructs the view of every layer of a checked file.
func Build(f *lang.File, info *lang.Info) *Program {
	return buildView(f, info, false)
}

// ForExecution returns the view of prog that the model checker runs: the
// same, except that a call of a mover procedure is a call of the
// procedure, whose body other threads interleave with, rather than one
// step of its summary. The model checker is an oracle independent of the
// mover claims, so it must not assume that the claim holds.
func ForExecution(prog *Program) *Program {
	if prog.Exec || !hasMoverProcs(prog) {
		return prog
	}
	return buildView(prog.File, prog.Info, true)
}

func hasMoverProcs(prog *Program) bool {
	for _, l := range prog.Layers {
		if len(l.Summaries) > 0 {
			return true
		}
	}
	return false
}

func buildView(f *lang.File, info *lang.Info, exec bool) *Program {
	prog := &Program{File: f, Info: info, Exec: exec}
	public := map[string]bool{}
	for _, name := range info.PublicMethods() {
		public[name] = true
	}
	for i, li := range info.Layers {
		l := &Layer{Num: i, Program: prog, Decl: li.Layer}
		l.Globals = visibleGlobals(info, i)
		l.Invariants = layerInvariants(f, i, len(info.Layers)-1)
		for _, m := range li.Layer.Members {
			switch m := m.(type) {
			case *lang.Proc:
				l.Procs = append(l.Procs, buildProc(l, m, public[m.Name.Name]))
				if m.Summary != nil {
					l.Summaries = append(l.Summaries, &Action{Decl: m.Summary, Layer: l})
				}
			case *lang.Action:
				l.Actions = append(l.Actions, &Action{Decl: m, Layer: l, Public: public[m.Name.Name]})
			}
		}
		collectSteps(l)
		prog.Layers = append(prog.Layers, l)
	}
	return prog
}

func visibleGlobals(info *lang.Info, layer int) []*lang.Object {
	var gs []*lang.Object
	for _, g := range info.Globals {
		if g.Layers.Lo <= layer && layer <= g.Layers.Hi {
			gs = append(gs, g)
		}
	}
	return gs
}

func layerInvariants(f *lang.File, layer, top int) []lang.Expr {
	var invs []lang.Expr
	for _, d := range f.Invariants {
		lo, hi := 0, top
		if d.Layers != nil {
			lo, hi = d.Layers.Lo, d.Layers.Hi
		}
		if lo <= layer && layer <= hi {
			invs = append(invs, d.Expr)
		}
	}
	return invs
}

func buildProc(l *Layer, decl *lang.Proc, public bool) *Proc {
	return buildGraph(l, decl, public, false)
}

// ForExplore returns p as explore runs it: p itself, unless p has a
// parallel call, whose arms explore runs in every order; then a copy of
// p whose graph branches over the orders. The copy's nodes point at the
// same steps as p's.
func ForExplore(p *Proc) *Proc {
	par := false
	lang.Inspect(p.Decl.Body.Stmts, func(s lang.Stmt) bool {
		_, ok := s.(*lang.ParCallStmt)
		par = par || ok
		return !par
	})
	if !par {
		return p
	}
	q := buildGraph(p.Layer, p.Decl, p.Public, true)
	steps := map[lang.Stmt]*Step{}
	for _, n := range p.Nodes {
		if n.Step != nil {
			steps[n.Stmt] = n.Step
		}
	}
	for _, n := range q.Nodes {
		n.Step = steps[n.Stmt]
	}
	q.Steps = p.Steps
	return q
}

// buildGraph builds a procedure's graph and yield points; allOrders
// says how parallel calls are built (cfgBuilder).
func buildGraph(l *Layer, decl *lang.Proc, public, allOrders bool) *Proc {
	p := &Proc{Decl: decl, Layer: l, Public: public}
	b := &cfgBuilder{proc: p, allOrders: allOrders}
	b.buildCFG()
	for _, n := range p.Nodes {
		if y := newYieldPoint(p, n); y != nil {
			n.Yield = y
			if n.Kind != NodeExit {
				p.Yields = append(p.Yields, y)
			}
		}
	}
	p.Yields = append(p.Yields, p.Exit.Yield)
	p.locate()
	if public {
		p.Idle = idleYield(p)
	}
	return p
}

// idleYield returns, for a public procedure whose requires has conjuncts
// that read arguments other than linear ones and conjuncts that read
// only the shared state and the linear parameters (the thread), the
// second ones as the annotation of a thread between calls; nil if there
// are no such mixed requires. Before a thread's first call that part
// can hold already (it does not depend on arguments the client has yet
// to choose), and non-interference of this yield point proves that
// other threads keep it: the client contract uses it (refine_contract.go).
// A requires of one kind or the other needs none: non-interference of
// the entry annotation covers it.
func idleYield(p *Proc) *YieldPoint {
	var thread, args []lang.Expr
	for _, e := range p.Decl.Requires {
		for _, c := range lang.Conjuncts(e) {
			if readsNonLinearParam(c, &p.Decl.Signature) {
				args = append(args, c)
			} else {
				thread = append(thread, c)
			}
		}
	}
	if len(thread) == 0 || len(args) == 0 {
		return nil
	}
	return &YieldPoint{Kind: YieldIdle, Pos: thread[0].Pos(), Proc: p, Ann: thread}
}

// readsNonLinearParam reports whether e reads a parameter of sig that is
// not linear.
func readsNonLinearParam(e lang.Expr, sig *lang.Signature) bool {
	reads := ReadVars(e)
	for _, prm := range sig.Params {
		if !prm.Linear && reads[prm.Name.Obj] {
			return true
		}
	}
	return false
}

// newYieldPoint returns the yield point of a node, or nil if the node is
// not one.
func newYieldPoint(p *Proc, n *Node) *YieldPoint {
	y := &YieldPoint{Proc: p, Node: n, Stmt: n.Stmt}
	switch n.Kind {
	case NodeEntry:
		y.Kind, y.Pos, y.Ann = YieldEntry, p.Decl.P, p.Decl.Requires
		if len(p.Decl.Requires) > 0 {
			y.Pos = p.Decl.Requires[0].Pos()
		}
	case NodeExit:
		y.Kind, y.Pos, y.Ann = YieldExit, p.Decl.Body.End, p.Decl.Ensures
		if len(p.Decl.Ensures) > 0 {
			y.Pos = p.Decl.Ensures[0].Pos()
		}
	case NodeYield:
		y.Kind, y.Pos = YieldStmt, n.Stmt.Pos()
		if a := n.Stmt.(*lang.YieldStmt).Ann; a != nil {
			y.Ann = []lang.Expr{a}
		}
	case NodeLoopHead:
		y.Kind, y.Pos, y.Ann = YieldLoop, n.Stmt.Pos(), n.Stmt.(*lang.WhileStmt).Invariants
	case NodeCall:
		y.Kind, y.Pos, y.Par = YieldCall, n.Stmt.Pos(), n.Par
	default:
		return nil
	}
	return y
}

// collectSteps numbers the steps of a layer: the inline steps of its
// procedures in order, then its actions.
func collectSteps(l *Layer) {
	add := func(s *Step) {
		s.ID, s.Layer = len(l.Steps), l
		if s.Mover == lang.MoverNone {
			s.Mover = lang.MoverAtomic
		}
		l.Steps = append(l.Steps, s)
	}
	for _, p := range l.Procs {
		for _, n := range p.Nodes {
			if n.Kind != NodeStep {
				continue
			}
			if c, ok := n.Stmt.(*lang.CallStmt); ok {
				_ = c // calls of actions execute the action's step
				continue
			}
			s := &Step{Mover: lang.Base(n.Stmt).Mover, Pos: n.Stmt.Pos(), Proc: p, Stmt: n.Stmt, Node: n}
			n.Step = s
			s.Context = gateContext(n)
			p.Steps = append(p.Steps, s)
			add(s)
		}
	}
	for _, a := range append(append([]*Action{}, l.Actions...), l.Summaries...) {
		a.Step = &Step{Mover: a.Decl.Mover, Pos: a.Decl.P, Action: a}
		add(a.Step)
	}
	// Calls of actions and mover procedures point at the action's step.
	for _, p := range l.Procs {
		for _, n := range p.Nodes {
			if c, ok := n.Stmt.(*lang.CallStmt); ok && n.Kind == NodeStep {
				n.Step = l.calledAction(c).Step
			}
		}
	}
}

// calledAction returns the action whose step a call of an action or of a
// mover procedure executes.
func (l *Layer) calledAction(c *lang.CallStmt) *Action {
	want := lang.CalledAction(c)
	for _, a := range append(append([]*Action{}, l.Actions...), l.Summaries...) {
		if a.Decl == want {
			return a
		}
	}
	panic(fmt.Sprintf("layers: no action for the call of %s at %d:%d", c.Callee.Name, c.P.Line, c.P.Col))
}

// action returns the action of the layer named name, or nil.
func (l *Layer) action(name string) *Action {
	for _, a := range l.Actions {
		if a.Name() == name {
			return a
		}
	}
	return nil
}

// Action returns the action named name, or nil.
func (l *Layer) Action(name string) *Action { return l.action(name) }

// Proc returns the procedure named name, or nil.
func (l *Layer) Proc(name string) *Proc {
	for _, p := range l.Procs {
		if p.Name() == name {
			return p
		}
	}
	return nil
}
