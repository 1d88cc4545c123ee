package movers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Arm order (docs/checks.md, "Parallel calls", "When an arm fails").
// The static checks run the arms of a parallel call in textual order.
// The reduction that justifies it moves every arm to its textual place,
// which is enough for executions in which every arm succeeds. But an arm
// may also run, and fail, before an arm written before it has run: then
// the textual order must fail too, and it could instead run the earlier
// arm first and make the later arm's gate true, or block in it. A left
// mover written earlier cannot (failure preservation and non-blocking
// hold for it against every step); a non-mover or right mover written
// earlier gets the two checks against each arm written after it:
//
//   - failure preservation: {¬g(later) ∧ g(earlier)} earlier {¬g(later)};
//   - non-blocking: from g(earlier) ∧ ¬g(later), earlier has an execution.
//
// With procedure arms the earlier arm is a whole procedure, which may
// not end: the gate of every action arm after the first procedure arm
// is asserted where the procedures start (layers: lateArmParts) and must
// be kept by every step of every thread (gate preservation, as for a
// left mover), so it still holds whenever the arm runs.

// armOrder adds the arm-order obligations of the parallel calls of
// layer l's procedures.
func (c *collector) armOrder(l *layers.Layer) {
	pairs := map[[2]int]bool{}
	stable := map[*layers.Step]bool{}
	for _, p := range l.Procs {
		for _, pc := range parCalls(p) {
			arms := armSteps(p, pc)
			if layers.HasProcArm(pc) {
				for _, s := range lateArms(pc, arms) {
					if !s.Mover.IsLeft() && !stable[s] && c.usable(s) {
						stable[s] = true
						c.gateStable(l, s)
					}
				}
				continue
			}
			for j, early := range arms {
				if early == nil || early.Mover.IsLeft() {
					continue
				}
				for _, later := range arms[j+1:] {
					key := [2]int{early.ID, later.ID}
					if later == nil || pairs[key] || !c.usable(early) || !c.usable(later) {
						continue
					}
					pairs[key] = true
					c.armPair(pc, early, later)
				}
			}
		}
	}
}

// parCalls returns the parallel calls in p's body.
func parCalls(p *layers.Proc) []*lang.ParCallStmt {
	var out []*lang.ParCallStmt
	lang.Inspect(p.Decl.Body.Stmts, func(s lang.Stmt) bool {
		if pc, ok := s.(*lang.ParCallStmt); ok {
			out = append(out, pc)
		}
		return true
	})
	return out
}

// armSteps returns the step of each arm of pc, nil for a procedure arm.
func armSteps(p *layers.Proc, pc *lang.ParCallStmt) []*layers.Step {
	byStmt := map[lang.Stmt]*layers.Step{}
	for _, n := range p.Nodes {
		if n.Kind == layers.NodeStep && n.Arm {
			byStmt[n.Stmt] = n.Step
		}
	}
	out := make([]*layers.Step, len(pc.Arms))
	for i, arm := range pc.Arms {
		out[i] = byStmt[arm]
	}
	return out
}

// lateArms returns the steps of the action arms of pc written after its
// first procedure arm.
func lateArms(pc *lang.ParCallStmt, arms []*layers.Step) []*layers.Step {
	var out []*layers.Step
	proc := false
	for i, arm := range pc.Arms {
		proc = proc || arm.Class == lang.ClassProcCall
		if proc && arms[i] != nil {
			out = append(out, arms[i])
		}
	}
	return out
}

// gateStable adds gate preservation of s's gate by every step of layer
// l that writes what the gate reads. The right movers' are among the
// mover obligations already.
func (c *collector) gateStable(l *layers.Layer, s *layers.Step) {
	for _, x := range l.Steps {
		if x.Mover.IsRight() || !c.usable(x) {
			continue
		}
		if disjoint(c.fps[x].writes, c.fps[s].gateReads) {
			c.skip(GatePreservation, x, s, "disjoint footprints")
			continue
		}
		c.addPair(x, s, gatePreservation(x, s), nil)
	}
}

// armPair adds failure preservation and non-blocking of the arm early
// against the arm later, written after it in pc.
func (c *collector) armPair(pc *lang.ParCallStmt, early, later *layers.Step) {
	if isTrue(layers.NewBuilder(later.Layer.Program), later) {
		c.skip(FailurePreservation, later, early, "the later arm's gate is true")
		return
	}
	if disjoint(c.fps[early].writes, c.fps[later].gateReads) {
		c.skip(FailurePreservation, later, early, "disjoint footprints")
	} else {
		c.addPair(later, early, armFailurePreservation(pc, later, early), nil)
	}
	ob, err := armNonBlocking(pc, later, early)
	c.addPair(later, early, ob, err)
}

// isTrue reports whether s's gate is the literal true.
func isTrue(b *layers.Builder, s *layers.Step) bool {
	env := b.Globals(s.Layer, "", "")
	lit, ok := b.Gate(s, b.Thread(env, s, "", "")).(*obl.BoolLit)
	return ok && lit == obl.True()
}

// armFailurePreservation: the arm early, written before the arm later
// in pc, does not make later's failing gate hold.
func armFailurePreservation(pc *lang.ParCallStmt, later, early *layers.Step) *obl.Obligation {
	p := newPair(later, early)
	b := p.b
	not := obl.Not(b.Gate(later, p.e1))
	msg := fmt.Sprintf("%s (%s), an arm of the parallel call at line %d, may make the gate of %s, an arm written after it, true from a state where it is false: %s may run first and fail, which the textual order hides",
		early.Name(), moverWord(early), pc.P.Line, later.Name(), later.Name())
	body := obl.Sequence(p.assumeDist, &obl.Assume{E: obl.And(not, b.Gate(early, p.e2))},
		b.Body(early, p.e2, layers.Assume),
		layers.Check(FailurePreservation, not, msg, pc.P, early.Pos, later.Pos))
	return b.Obligation(fmt.Sprintf("l%d-armfail-%d-%d", later.Layer.Num, later.ID, early.ID), FailurePreservation, body)
}

// armNonBlocking: where the gate of the arm later fails, the arm early,
// written before it in pc, can run (or fails itself).
func armNonBlocking(pc *lang.ParCallStmt, later, early *layers.Step) (*obl.Obligation, error) {
	p := newPair(later, early)
	b := p.b
	rel, err := obl.Relation(b.Body(early, p.e2, layers.Assume), nil, nil)
	if err != nil {
		return nil, tooManyPaths(NonBlocking, early, later, err)
	}
	msg := fmt.Sprintf("%s (%s), an arm of the parallel call at line %d, may block where the gate of %s, an arm written after it, is false: %s may run first and fail, which the textual order hides",
		early.Name(), moverWord(early), pc.P.Line, later.Name(), later.Name())
	body := obl.Sequence(p.assumeDist,
		&obl.Assume{E: obl.And(obl.Not(b.Gate(later, p.e1)), b.Gate(early, p.e2))},
		layers.Check(NonBlocking, rel, msg, pc.P, early.Pos, later.Pos))
	return b.Obligation(fmt.Sprintf("l%d-armblock-%d-%d", later.Layer.Num, later.ID, early.ID), NonBlocking, body), nil
}
