package og

import (
	"fmt"

	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// interferer is code another thread may run atomically at this layer: the
// fragments of a procedure from one yield point, or a client's call of a
// public action.
type interferer struct {
	proc   *layers.Proc
	start  *layers.YieldPoint
	action *layers.Action
}

func (f interferer) name() string {
	if f.action != nil {
		return "action " + f.action.Name()
	}
	return fmt.Sprintf("%s %s", f.proc.Name(), from(f.start))
}

func interferers(l *layers.Layer) []interferer {
	var fs []interferer
	for _, p := range l.Procs {
		for _, y := range p.Yields {
			if y.Kind != layers.YieldExit {
				fs = append(fs, interferer{proc: p, start: y})
			}
		}
	}
	for _, a := range l.Actions {
		if a.Public {
			fs = append(fs, interferer{action: a})
		}
	}
	return fs
}

// nonInterference pairs every yield point of every procedure with every
// interferer run by another thread.
func nonInterference(l *layers.Layer) ([]*obl.Obligation, []layers.Skip) {
	var obs []*obl.Obligation
	var skipped []layers.Skip
	fs := interferers(l)
	for _, p := range l.Procs {
		targets := p.Yields
		if p.Idle != nil {
			targets = append(targets[:len(targets):len(targets)], p.Idle)
		}
		for _, y := range targets {
			if y.Kind == layers.YieldCall {
				continue // the callee's entry and exit annotations cover it
			}
			for _, f := range fs {
				ob, why := nonInterferenceCheck(y, f)
				if ob == nil {
					skipped = append(skipped, layers.Skip{Check: NonInterference, Layer: l.Num,
						Reason: fmt.Sprintf("%s vs %s: %s", y.Describe(), f.name(), why)})
					continue
				}
				if why, ok := layers.ImpossiblePair(ob); ok {
					skipped = append(skipped, layers.Skip{Check: NonInterference, Layer: l.Num,
						Reason: fmt.Sprintf("%s vs %s: %s", y.Describe(), f.name(), why)})
					continue
				}
				obs = append(obs, ob)
			}
		}
	}
	return obs, skipped
}

// The reasons a pair needs no obligation.
const (
	disjointFootprints = "disjoint footprints"
	invariantsOnly     = "it writes only what the layer's invariants read, and its own checks keep them"
)

// nonInterferenceCheck builds {ann(y)[t1] ∧ pre(f)[t2] ∧ t1 ≠ t2} f[t2]
// {ann(y)[t1]}, or returns nil and the reason when the pair needs none:
// f writes nothing ann(y) reads, or nothing that ann(y) reads beyond the
// layer's invariants. In the second case the rest of ann(y) is
// untouched, and the invariants hold after f in every execution because
// f's own obligations prove it: the sequential check of f's procedure
// ends every fragment with the next yield's annotation, invariants
// included, on every path that reaches the fragment (with other threads
// run at each yield as the annotations allow), and publicAction proves
// that a client's action keeps them from its requires and the
// invariants. (This obligation would ask more: f from any state its
// start annotation allows, whatever the path; so a failing invariant is
// now reported once, by f's own check, instead of once per yield point.)
// Without the skip, each copy of a procedure's fragments would be paired
// with every yield point of every other only to prove the invariants
// again.
func nonInterferenceCheck(y *layers.YieldPoint, f interferer) (*obl.Obligation, string) {
	l := y.Proc.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	title1 := fmt.Sprintf("thread 1 (%s, at line %d)", y.Proc.Name(), y.Pos.Line)
	env1 := b.Frame(env, &y.Proc.Decl.Signature, ".1", title1)
	target := b.AnnotationAt(y, env1)
	var code obl.Cmd
	var pre obl.Expr
	var distinct obl.Cmd
	if f.action != nil {
		env2 := b.Frame(env, &f.action.Decl.Signature, ".2", "thread 2 ("+f.action.Name()+")")
		pre = obl.And(b.Conj(f.action.Decl.Requires, env2), b.Conj(l.Invariants, env2))
		distinct = layers.Distinct(l.Globals, &y.Proc.Decl.Signature, env1, &f.action.Decl.Signature, env2)
		msg := func(what string) string {
			return fmt.Sprintf("%s may be invalidated by another thread running %s", what, f.name())
		}
		code = obl.Sequence(b.Stmts(f.action.Decl.Body.Stmts, env2, layers.Assume),
			b.CheckAnnotation(NonInterference, y, env1, msg, y.Pos, f.action.Decl.P))
	} else {
		env2 := b.Frame(env, &f.proc.Decl.Signature, ".2", "thread 2 ("+f.proc.Name()+")")
		pre = obl.And(b.AnnotationAfter(f.start, env2), b.ParamFacts(f.proc, env2))
		distinct = layers.Distinct(l.Globals, &y.Proc.Decl.Signature, env1, &f.proc.Decl.Signature, env2)
		g := &layers.Fragments{B: b, Env: env2, Proc: f.proc, Mode: layers.Assume}
		g.End = func(q *layers.YieldPoint) obl.Cmd {
			msg := func(what string) string {
				return fmt.Sprintf("%s may be invalidated by another thread running %s to line %d",
					what, f.name(), q.Pos.Line)
			}
			return b.CheckAnnotation(NonInterference, y, env1, msg, y.Pos, f.start.Pos, q.Pos)
		}
		code = g.From(f.start)
	}
	if !touches(code, target) {
		return nil, disjointFootprints
	}
	if !touches(code, b.OwnAnnotationAt(y, env1)) {
		return nil, invariantsOnly
	}
	facts := b.ParamFacts(y.Proc, env1)
	body := obl.Sequence(&obl.Assume{E: target}, &obl.Assume{E: facts}, &obl.Assume{E: pre}, distinct, code)
	kind := "ni"
	switch {
	case y.Kind == layers.YieldIdle:
		kind = "ni-idle" // at the line of the entry's requires: keep names apart
	case y.Kind == layers.YieldExit && y.Pos == y.Proc.Entry.Yield.Pos:
		kind = "ni-exit" // a preserves clause is the entry's and the exit's first
	}
	return b.Obligation(obName(l, kind, y.Proc.Name(), y.Pos.Line, f.key()), NonInterference, body), ""
}

func (f interferer) key() string {
	if f.action != nil {
		return f.action.Name()
	}
	return fmt.Sprintf("%s.%d", f.proc.Name(), f.start.Pos.Line)
}

// touches reports whether code writes a variable that e reads.
func touches(code obl.Cmd, e obl.Expr) bool {
	w := obl.Assigned(code)
	for _, v := range obl.FreeVars(e) {
		if w[v] {
			return true
		}
	}
	return false
}
