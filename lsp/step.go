package lsp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// stmtHover describes the statement at byte offset off: the step it
// belongs to, or what kind of statement it is if it is no step; "" if
// off is in no member's body.
func stmtHover(a *analysis, off int) string {
	chain, m, l := stmtChain(a.file, off)
	if m == nil {
		return ""
	}
	layer := layerOf(a.prog, l)
	if layer == nil {
		return ""
	}
	name := m.MemberName().Name
	switch m.(type) {
	case *lang.Action:
		if act := layer.Action(name); act != nil {
			return stepText(act.Step)
		}
	case *lang.Proc:
		p := layer.Proc(name)
		if p == nil || len(chain) == 0 {
			return ""
		}
		chain, invArm := armChain(chain, off)
		if invArm != nil {
			return stmtText(name, l.Num, invArm.Pos().Line, invariantArmText(chain[len(chain)-1].(*lang.ParCallStmt)))
		}
		for i := len(chain) - 1; i >= 0; i-- {
			if st := p.StepOf(chain[i]); st != nil {
				return stepText(st)
			}
		}
		return otherStmtText(chain, name, l.Num)
	}
	return ""
}

// layerOf returns the view of a layer declaration.
func layerOf(prog *layers.Program, decl *lang.Layer) *layers.Layer {
	for _, l := range prog.Layers {
		if l.Decl == decl {
			return l
		}
	}
	return nil
}

// moverText names a step's mover type as reports do.
func moverText(m lang.Mover) string {
	switch m {
	case lang.MoverRight, lang.MoverLeft, lang.MoverBoth:
		return m.String() + " mover"
	}
	return "non-mover (atomic)"
}

// stepText describes a step: its layer and mover type, its gate and its
// footprint.
func stepText(st *layers.Step) string {
	var b strings.Builder
	if st.Action != nil {
		fmt.Fprintf(&b, "**action** `%s` at layer %d: **%s**, one atomic step", st.Action.Name(), st.Layer.Num, moverText(st.Mover))
	} else {
		fmt.Fprintf(&b, "**step** of `%s` at layer %d (line %d): **%s**", st.Proc.Name(), st.Layer.Num, st.Pos.Line, moverText(st.Mover))
		if lang.Base(st.Stmt).Mover == lang.MoverNone {
			b.WriteString(" (untagged)")
		}
	}
	b.WriteString("\n\n**gate**: " + strings.Join(gateParts(st), "; "))
	fp := stepFootprint(st)
	fmt.Fprintf(&b, "\n\n**footprint**: reads %s; writes %s; the gate reads %s", names(fp.reads), names(fp.writes), names(fp.gateReads))
	return b.String()
}

// otherStmtText describes a statement that is not a step. An arm of a
// parallel call is the last statement of chain after the call.
func otherStmtText(chain []lang.Stmt, proc string, layer int) string {
	s := chain[len(chain)-1]
	what := "a private statement: it reads and writes locals only, so it is no step (it moves with its neighbours)"
	switch s := s.(type) {
	case *lang.YieldStmt:
		what = "a yield point: other threads may run here; its annotation must hold, and stay true while they do"
	case *lang.CallStmt:
		if len(chain) > 1 {
			if par, ok := chain[len(chain)-2].(*lang.ParCallStmt); ok {
				what = armText(par, s)
				break
			}
		}
		switch {
		case layers.IsMoverCall(s):
			what = "a call of a mover procedure of the same layer: one step of its mover type (the procedure's summary), no yield point"
		case s.Callee.Obj != nil && s.Callee.Obj.Kind == lang.ObjProc:
			what = "a call of a procedure of the same layer: a yield point before and after it"
		case s.Callee.Obj != nil && s.Callee.Obj.Kind == lang.ObjAction:
			what = "a call of an action of the same layer: a step, with the action's mover type and gate"
		}
	case *lang.ParCallStmt:
		what = parCallText(s)
	case *lang.IfStmt, *lang.WhileStmt, *lang.ChoiceStmt, *lang.BlockStmt:
		what = "control flow: its branches' statements are the steps"
	}
	return stmtText(proc, layer, s.Pos().Line, what)
}

// stmtText is the hover text of a statement that is not a step.
func stmtText(proc string, layer, line int, what string) string {
	return fmt.Sprintf("**statement** of `%s` at layer %d (line %d): %s", proc, layer, line, what)
}

// gateParts are the parts of a step's gate, as source text (DESIGN §3):
// an action's requires and asserts; an inline step's asserts, the
// requires of its procedure about parameters only, and the annotations
// of the yields it directly follows.
func gateParts(st *layers.Step) []string {
	var parts []string
	code := func(e lang.Expr) string { return "`" + lang.ExprString(e) + "`" }
	var body []lang.Stmt
	if st.Action != nil {
		for _, e := range st.Action.Decl.Requires {
			parts = append(parts, "requires "+code(e))
		}
		body = st.Action.Decl.Body.Stmts
	} else {
		body = []lang.Stmt{st.Stmt}
	}
	lang.Inspect(body, func(s lang.Stmt) bool {
		if as, ok := s.(*lang.AssertStmt); ok {
			parts = append(parts, "assert "+code(as.Cond))
		}
		return true
	})
	if st.Proc != nil {
		for _, e := range st.Proc.Decl.Requires {
			for _, c := range lang.Conjuncts(e) {
				if readsOnlyParams(c) {
					parts = append(parts, "requires "+code(c)+" (about parameters, which never change)")
				}
			}
		}
		parts = append(parts, contextParts(st)...)
	}
	if len(parts) == 0 {
		return []string{"`true`"}
	}
	return parts
}

// contextParts are the annotations of the yields an inline step directly
// follows, one per path, without the facts about locals that private
// statements on the path overwrote.
func contextParts(st *layers.Step) []string {
	if st.Context == nil {
		return nil
	}
	var parts []string
	for _, p := range st.Context.Paths {
		var facts []string
		for _, ann := range p.Yield.Ann {
			for _, c := range lang.Conjuncts(ann) {
				if !readsAny(c, p.Assigned) {
					facts = append(facts, lang.ExprString(c))
				}
			}
		}
		for _, n := range p.Conds {
			if n.Cond == nil {
				continue
			}
			c := lang.ExprString(n.Cond)
			if n.Negated {
				c = "!(" + c + ")"
			}
			facts = append(facts, c)
		}
		if len(facts) > 0 {
			parts = append(parts, fmt.Sprintf("after %s: `%s`", p.Yield.Describe(), strings.Join(facts, " && ")))
		}
	}
	if len(parts) > 0 && len(st.Layer.Invariants) > 0 {
		parts = append(parts, "and the layer's invariants")
	}
	return parts
}

func readsOnlyParams(e lang.Expr) bool {
	for o := range layers.ReadVars(e) {
		if o.Kind != lang.ObjParam {
			return false
		}
	}
	return true
}

func readsAny(e lang.Expr, objs map[*lang.Object]bool) bool {
	for o := range layers.ReadVars(e) {
		if objs[o] {
			return true
		}
	}
	return false
}

// footprint is what a step does to the globals.
type footprint struct {
	reads, writes, gateReads map[*lang.Object]bool
}

// stepFootprint computes a step's footprint from its translation, as the
// mover checks do (package movers), so that what the hover shows is what
// decides whether two steps need a commutativity check.
func stepFootprint(s *layers.Step) footprint {
	l := s.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "")
	objOf := map[*obl.Var]*lang.Object{}
	for _, g := range l.Globals {
		objOf[env.Var(g)] = g
	}
	te := b.Thread(env, s, "", "")
	body := b.Body(s, te, layers.Assume)
	globals := func(vs map[*obl.Var]bool) map[*lang.Object]bool {
		out := map[*lang.Object]bool{}
		for v := range vs {
			if o := objOf[v]; o != nil {
				out[o] = true
			}
		}
		return out
	}
	gate := map[*obl.Var]bool{}
	for _, v := range obl.FreeVars(b.Gate(s, te)) {
		gate[v] = true
	}
	return footprint{reads: globals(obl.Reads(body)), writes: globals(obl.Assigned(body)), gateReads: globals(gate)}
}

// names lists objects as code, sorted: "`H`, `T`", or "nothing".
func names(objs map[*lang.Object]bool) string {
	var ns []string
	for o := range objs {
		ns = append(ns, "`"+o.Name+"`")
	}
	if len(ns) == 0 {
		return "nothing"
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}
