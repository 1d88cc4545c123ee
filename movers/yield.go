package movers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// phase is the state of the atomicity automaton.
type phase int

const (
	rightPhase phase = iota // before the commit point: right and both movers
	leftPhase               // after it: left and both movers
)

// visit is a node of the automaton's product with a procedure's graph.
type visit struct {
	node  *layers.Node
	phase phase
}

// YieldSufficiency checks that between any two yield points of every
// procedure of the layer the steps match (R|B)* [N] (L|B)*, so that each
// fragment can be reduced to one atomic step. It returns one diagnostic
// per offending step.
func YieldSufficiency(l *layers.Layer) []*layers.Diagnostic {
	var diags []*layers.Diagnostic
	for _, p := range l.Procs {
		diags = append(diags, procYieldSufficiency(p)...)
		diags = append(diags, loopsAfterCommit(p)...)
	}
	return diags
}

func procYieldSufficiency(p *layers.Proc) []*layers.Diagnostic {
	pred := map[visit]visit{}
	var queue []visit
	for _, n := range p.Nodes {
		if n.IsYield() && n.Kind != layers.NodeExit {
			v := visit{n, rightPhase}
			pred[v] = v
			queue = append(queue, v)
		}
	}
	reported := map[*layers.Node]bool{}
	var diags []*layers.Diagnostic
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, m := range v.node.Succs {
			if m.IsYield() {
				continue // the fragment ends here
			}
			next, ok := advance(v.phase, m)
			if !ok {
				if !reported[m] {
					reported[m] = true
					diags = append(diags, yieldDiagnostic(p, pred, v, m))
				}
				continue
			}
			w := visit{m, next}
			if _, seen := pred[w]; !seen {
				pred[w] = v
				queue = append(queue, w)
			}
		}
	}
	return diags
}

// advance runs the automaton over node n. Private statements, branches
// and joins leave the phase unchanged.
func advance(ph phase, n *layers.Node) (phase, bool) {
	if n.Kind != layers.NodeStep {
		return ph, true
	}
	m := n.Step.Mover
	switch {
	case ph == rightPhase && m.IsRight():
		return rightPhase, true
	case ph == rightPhase:
		return leftPhase, true
	case m.IsLeft():
		return leftPhase, true
	}
	return ph, false
}

// yieldDiagnostic explains a violation: the path of steps from the last
// yield point to the offending step m, reached from v.
func yieldDiagnostic(p *layers.Proc, pred map[visit]visit, v visit, m *layers.Node) *layers.Diagnostic {
	var path []*layers.Node
	start := v
	for {
		path = append([]*layers.Node{start.node}, path...)
		if pred[start] == start {
			break
		}
		start = pred[start]
	}
	var commit *layers.Node // the step that ended the right-mover phase
	notes := []string{fmt.Sprintf("path from the %s at line %d:", start.node.Yield.Kind, start.node.Yield.Pos.Line)}
	ph := rightPhase
	for _, n := range append(path[1:], m) {
		if n.Kind != layers.NodeStep {
			continue
		}
		notes = append(notes, fmt.Sprintf("  line %d: %-20s %s", n.Pos().Line, moverName(n.Step.Mover), stepText(n)))
		if ph == rightPhase && !n.Step.Mover.IsRight() {
			commit, ph = n, leftPhase
		}
	}
	msg := fmt.Sprintf("in %s, this %s step follows the %s step at line %d without a yield in between; "+
		"steps between yields must match (right|both)* [atomic] (left|both)*: add a yield before it, or change a mover type",
		p.Name(), moverName(m.Step.Mover), moverName(commit.Step.Mover), commit.Pos().Line)
	return &layers.Diagnostic{
		Check:   YieldSufficient,
		Subject: p.Name(),
		Layer:   p.Layer.Num,
		Msg:     msg,
		Pos:     []lang.Pos{m.Pos(), commit.Pos(), start.node.Yield.Pos},
		Notes:   notes,
	}
}

func moverName(m lang.Mover) string {
	if m == lang.MoverAtomic || m == lang.MoverNone {
		return "non-mover (atomic)"
	}
	return m.String() + "-mover"
}

// stepText is a one-line rendering of a step's statement.
func stepText(n *layers.Node) string { return lang.StmtString(n.Stmt) }
