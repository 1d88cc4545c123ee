package movers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Private code after the commit point. Reduction runs a fragment as one
// atomic block; in the real program the fragment's steps are spread out,
// and once its commit step (the non-mover, or the first left mover) has
// run, other threads may see its effect. So everything after the commit
// point must be able to complete: left movers must not block (the
// non-blocking check), and neither may private code there. A private
// assume that is false, or a private loop that never ends, would leave a
// thread stuck after an effect that the atomic fragment never has. A
// private statement with an assume gets a non-blocking obligation; a
// private loop is rejected by yield sufficiency, since lipton cannot
// prove that a loop terminates.

// afterCommit is a private node reached after a commit step.
type afterCommit struct {
	node, commit *layers.Node
	start        *layers.YieldPoint // the yield point the fragment starts at
}

// privatesAfterCommit returns the private statements and private loops
// of p that some path reaches after a commit step without a yield in
// between, each once, with the commit step of the first such path found.
func privatesAfterCommit(p *layers.Proc) []afterCommit {
	type state struct {
		node, commit *layers.Node
		start        *layers.YieldPoint
	}
	seen := map[[2]*layers.Node]bool{}
	var queue []state
	for _, n := range p.Nodes {
		if n.IsYield() && n.Kind != layers.NodeExit {
			queue = append(queue, state{node: n, start: n.Yield})
		}
	}
	found := map[*layers.Node]bool{}
	var out []afterCommit
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, m := range s.node.Succs {
			if m.IsYield() {
				continue
			}
			next := state{node: m, commit: s.commit, start: s.start}
			if m.Kind == layers.NodeStep && s.commit == nil && !m.Step.Mover.IsRight() {
				next.commit = m
			}
			if next.commit != nil && isPrivate(m) && !found[m] {
				found[m] = true
				out = append(out, afterCommit{node: m, commit: next.commit, start: s.start})
			}
			// One visit per node and phase: the commit step recorded is
			// the first one found, enough for a message.
			key := [2]*layers.Node{m, nil}
			if next.commit != nil {
				key[1] = m
			}
			if !seen[key] {
				seen[key] = true
				queue = append(queue, next)
			}
		}
	}
	return out
}

func isPrivate(n *layers.Node) bool {
	return n.Kind == layers.NodePrivate || n.Kind == layers.NodePrivateLoop
}

// mayBlock reports whether a private statement contains an assume.
func mayBlock(s lang.Stmt) bool {
	found := false
	lang.Inspect([]lang.Stmt{s}, func(s lang.Stmt) bool {
		_, ok := s.(*lang.AssumeStmt)
		found = found || ok
		return !found
	})
	return found
}

// loopsAfterCommit reports the private loops of p after a commit point.
func loopsAfterCommit(p *layers.Proc) []*layers.Diagnostic {
	var diags []*layers.Diagnostic
	for _, a := range privatesAfterCommit(p) {
		if a.node.Kind != layers.NodePrivateLoop {
			continue
		}
		msg := fmt.Sprintf("in %s, the private loop at line %d may run after the %s step at line %d without a yield in between: after its commit step a fragment must be able to complete, and lipton cannot prove that a loop terminates; add a yield before the loop, or move it before the commit step",
			p.Name(), a.node.Pos().Line, moverName(a.commit.Step.Mover), a.commit.Pos().Line)
		diags = append(diags, &layers.Diagnostic{Check: YieldSufficient, Subject: p.Name(), Layer: p.Layer.Num,
			Msg: msg, Pos: []lang.Pos{a.node.Pos(), a.commit.Pos(), a.start.Pos}})
	}
	return diags
}

// privateNonBlocking builds, for a procedure with private statements
// that may block after a commit point, one obligation that walks the
// procedure and asserts, at each of them, that it can execute.
func privateNonBlocking(p *layers.Proc) *obl.Obligation {
	blocking := map[lang.Stmt]afterCommit{}
	for _, a := range privatesAfterCommit(p) {
		if a.node.Kind == layers.NodePrivate && mayBlock(a.node.Stmt) {
			blocking[a.node.Stmt] = a
		}
	}
	if len(blocking) == 0 {
		return nil
	}
	b := layers.NewBuilder(p.Layer.Program)
	env := b.Globals(p.Layer, "", "globals")
	env = b.Frame(env, &p.Decl.Signature, "", "locals of "+p.Name())
	w := &layers.Walk{B: b, Env: env, Proc: p, Mode: layers.Assume}
	w.Reach = func(*layers.YieldPoint) obl.Cmd { return obl.Sequence() }
	w.Before = func(s lang.Stmt) obl.Cmd {
		a, ok := blocking[s]
		if !ok {
			return obl.Sequence()
		}
		can, err := obl.Relation(b.Stmt(s, env, layers.Assume), nil, nil)
		if err != nil {
			can = obl.Bool(false) // too many paths: not proven
		}
		msg := fmt.Sprintf("in %s, the statement at line %d may block after the %s step at line %d: after its commit step a fragment must be able to complete (other threads may already see the step's effect), so private code there must not block; add a yield before it, or move it before the commit step",
			p.Name(), s.Pos().Line, moverName(a.commit.Step.Mover), a.commit.Pos().Line)
		return layers.Check(NonBlocking, can, msg, s.Pos(), a.commit.Pos())
	}
	start := obl.And(b.AnnotationAfter(p.Entry.Yield, env), b.ParamFacts(p, env))
	return b.Obligation(fmt.Sprintf("l%d-nonblocking-private-%s", p.Layer.Num, p.Name()), NonBlocking,
		obl.Sequence(&obl.Assume{E: start}, w.Body()))
}
