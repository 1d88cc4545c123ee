package og

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
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
	pairs := newOpenings(l)
	writes := make([]map[*lang.Object]bool, len(fs))
	names := make([]string, len(fs)) // for the skip reasons: most pairs are skipped
	for i, f := range fs {
		writes[i], names[i] = globalsWritten(l, f), f.name()
	}
	for _, p := range l.Procs {
		targets := p.Yields
		if p.Idle != nil {
			targets = append(targets[:len(targets):len(targets)], p.Idle)
		}
		for _, y := range targets {
			if y.Kind == layers.YieldCall {
				continue // the callee's entry and exit annotations cover it
			}
			reads, described := globalsRead(y), y.Describe()
			for i, f := range fs {
				why := reads.skip(writes[i])
				var ob *obl.Obligation
				if why == "" {
					var decided bool
					if why, decided = pairs.impossible(y, f); why == "" {
						ob, why = nonInterferenceCheck(y, f, decided)
					}
				}
				if ob != nil {
					obs = append(obs, ob)
					continue
				}
				skipped = append(skipped, layers.Skip{Check: NonInterference, Layer: l.Num,
					Reason: described + " vs " + names[i] + ": " + why})
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
//
// The two skips are decided by the caller from the globals y's
// annotation reads and f may write (annotationReads.skip), before f's
// code is built: most pairs are skipped, and building the code of each
// was most of the generation's time. For the same reason a pair that no
// two threads can form (layers.ImpossibleOpening) is decided here from
// the obligation's opening facts, and nil is returned with the reason;
// the whole body is decided again (layers.ImpossiblePair) only if f's
// code starts with assumptions that add to those facts. The caller
// decides most openings without building the pair (openings); when it
// found the opening possible (openingDecided), it is not decided again.
func nonInterferenceCheck(y *layers.YieldPoint, f interferer, openingDecided bool) (*obl.Obligation, string) {
	l := y.Proc.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	title1 := fmt.Sprintf("thread 1 (%s, at line %d)", y.Proc.Name(), y.Pos.Line)
	env1 := b.Frame(env, &y.Proc.Decl.Signature, ".1", title1)
	target := b.AnnotationAt(y, env1)
	check := func(msg func(string) string, pos ...lang.Pos) obl.Cmd {
		return b.CheckAnnotation(NonInterference, y, env1, msg, pos...)
	}
	pre, distinct, code := interfererRun(b, env, thread1{l, &y.Proc.Decl.Signature, env1, y.Pos, check}, f)
	facts := obl.And(b.ParamFacts(y.Proc, env1), layers.HeldAtEntry(y, env1))
	opening := obl.Sequence(&obl.Assume{E: target}, &obl.Assume{E: facts}, &obl.Assume{E: pre}, distinct)
	if !openingDecided {
		if why, ok := layers.ImpossibleOpening(opening); ok {
			return nil, why // decided before f's code is built, which is most of the cost
		}
	}
	run := code()
	body := obl.Sequence(opening, run)
	if obl.OpensWithAssume(run) {
		if why, ok := layers.ImpossibleOpening(body); ok {
			return nil, why
		}
	}
	kind := "ni"
	switch {
	case y.Kind == layers.YieldIdle:
		kind = "ni-idle" // at the line of the entry's requires: keep names apart
	case y.Kind == layers.YieldExit && y.Pos == y.Proc.Entry.Yield.Pos:
		kind = "ni-exit" // a preserves clause is the entry's and the exit's first
	}
	return b.Obligation(obName(l, kind, y.Proc.Name(), y.Pos.Line, f.key()), NonInterference, body), ""
}

// thread1 is what a non-interference obligation keeps: thread 1's
// frame (sig, bound in env), its position, and the check of its
// annotation, which f's code ends with.
type thread1 struct {
	layer *layers.Layer
	sig   *lang.Signature
	env   *layers.Env
	pos   lang.Pos
	check func(msg func(string) string, pos ...lang.Pos) obl.Cmd
}

// interfererRun binds thread 2's frame for f and returns what thread 2
// is assumed to satisfy where f starts, the distinctness of the two
// threads' linear parameters, and a function that builds f's code, which
// ends by checking thread 1's annotation (t.check).
func interfererRun(b *layers.Builder, env *layers.Env, t thread1, f interferer) (obl.Expr, obl.Cmd, func() obl.Cmd) {
	if f.action != nil {
		env2 := b.Frame(env, &f.action.Decl.Signature, ".2", "thread 2 ("+f.action.Name()+")")
		pre := interfererPre(b, t.layer, env2, f)
		distinct := layers.Distinct(t.layer.Globals, t.sig, t.env, &f.action.Decl.Signature, env2)
		msg := func(what string) string {
			return fmt.Sprintf("%s may be invalidated by another thread running %s", what, f.name())
		}
		return pre, distinct, func() obl.Cmd {
			return obl.Sequence(b.Stmts(f.action.Decl.Body.Stmts, env2, layers.Assume),
				t.check(msg, t.pos, f.action.Decl.P))
		}
	}
	env2 := b.Frame(env, &f.proc.Decl.Signature, ".2", "thread 2 ("+f.proc.Name()+")")
	pre := interfererPre(b, t.layer, env2, f)
	distinct := layers.Distinct(t.layer.Globals, t.sig, t.env, &f.proc.Decl.Signature, env2)
	g := &layers.Fragments{B: b, Env: env2, Proc: f.proc, Mode: layers.Assume}
	g.End = func(q *layers.YieldPoint) obl.Cmd {
		msg := func(what string) string {
			return fmt.Sprintf("%s may be invalidated by another thread running %s to line %d",
				what, f.name(), q.Pos.Line)
		}
		return t.check(msg, t.pos, f.start.Pos, q.Pos)
	}
	return pre, distinct, func() obl.Cmd { return g.From(f.start) }
}

// interfererPre returns what thread 2, bound in env2, is assumed to
// satisfy where f starts: an action's requires and the layer's
// invariants, or what holds after f's start and the procedure's
// parameter facts.
func interfererPre(b *layers.Builder, l *layers.Layer, env2 *layers.Env, f interferer) obl.Expr {
	if f.action != nil {
		return obl.And(b.Conj(f.action.Decl.Requires, env2), b.Conj(l.Invariants, env2))
	}
	return obl.And(b.AnnotationAfter(f.start, env2), b.ParamFacts(f.proc, env2))
}

func (f interferer) key() string {
	if f.action != nil {
		return f.action.Name()
	}
	return fmt.Sprintf("%s.%d", f.proc.Name(), f.start.Pos.Line)
}

// globalsWritten returns the globals of layer l that f's code may
// write. The code is built as nonInterferenceCheck builds it, with the
// same globals environment and f's frame, but with nothing at the yield
// points that end it: what is checked there is asserts, which write
// nothing. Another thread's code shares only the globals (and the
// constants, which nothing writes) with thread 1's annotation, so these
// are all it can change of that annotation.
func globalsWritten(l *layers.Layer, f interferer) map[*lang.Object]bool {
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	var code obl.Cmd
	if f.action != nil {
		env2 := b.Frame(env, &f.action.Decl.Signature, ".2", "thread 2")
		code = b.Stmts(f.action.Decl.Body.Stmts, env2, layers.Assume)
	} else {
		env2 := b.Frame(env, &f.proc.Decl.Signature, ".2", "thread 2")
		g := &layers.Fragments{B: b, Env: env2, Proc: f.proc, Mode: layers.Assume}
		g.End = func(*layers.YieldPoint) obl.Cmd { return obl.Sequence() }
		code = g.From(f.start)
	}
	assigned := obl.Assigned(code)
	writes := make(map[*lang.Object]bool)
	for _, g := range l.Globals {
		if assigned[env.Var(g)] {
			writes[g] = true
		}
	}
	return writes
}

// annotationReads is what the annotation of a yield point reads of the
// globals: all of it, and the part that is not the layer's invariants.
type annotationReads struct {
	all, own map[*lang.Object]bool
}

// globalsRead returns the globals y's annotation reads, built as
// nonInterferenceCheck builds the annotation.
func globalsRead(y *layers.YieldPoint) annotationReads {
	l := y.Proc.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	env1 := b.Frame(env, &y.Proc.Decl.Signature, ".1", "thread 1")
	return annotationReads{
		all: readGlobals(b.AnnotationAt(y, env1), l, env),
		own: readGlobals(b.OwnAnnotationAt(y, env1), l, env),
	}
}

// readGlobals returns the globals of layer l that e, built over the
// globals environment env, reads.
func readGlobals(e obl.Expr, l *layers.Layer, env *layers.Env) map[*lang.Object]bool {
	free := make(map[*obl.Var]bool)
	for _, v := range obl.FreeVars(e) {
		free[v] = true
	}
	reads := make(map[*lang.Object]bool)
	for _, g := range l.Globals {
		if free[env.Var(g)] {
			reads[g] = true
		}
	}
	return reads
}

// skip returns why a thread that writes the globals in writes needs no
// non-interference obligation against this annotation, or "" if it
// needs one.
func (r annotationReads) skip(writes map[*lang.Object]bool) string {
	switch {
	case !intersects(r.all, writes):
		return disjointFootprints
	case !intersects(r.own, writes):
		return invariantsOnly
	}
	return ""
}

func intersects(a, b map[*lang.Object]bool) bool {
	for g := range a {
		if b[g] {
			return true
		}
	}
	return false
}
