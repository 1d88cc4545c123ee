package og

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Check kinds of the obligations of this package.
const (
	Sequential      obl.Kind = "sequential"
	NonInterference obl.Kind = "non-interference"
	Initial         obl.Kind = "initial state"
)

// Check returns the Owicki-Gries findings of layer l: its obligations,
// and the pairs it skipped because their footprints are disjoint.
func Check(l *layers.Layer) layers.Findings {
	var f layers.Findings
	f.Obligations = append(f.Obligations, initial(l)...)
	for _, p := range l.Procs {
		f.Obligations = append(f.Obligations, sequential(p))
	}
	for _, a := range l.Actions {
		if a.Public {
			f.Obligations = append(f.Obligations, publicAction(a))
		}
	}
	ni, skipped := nonInterference(l)
	f.Obligations, f.Skipped = append(f.Obligations, ni...), skipped
	f.Obligations = append(f.Obligations, yieldArmStability(l)...)
	return f.InLayer(l.Num)
}

// obName makes a readable, unique obligation name.
func obName(l *layers.Layer, kind string, parts ...any) string {
	s := fmt.Sprintf("l%d-%s", l.Num, kind)
	for _, p := range parts {
		s += fmt.Sprintf("-%v", p)
	}
	return s
}

// from names the start of a fragment in messages.
func from(y *layers.YieldPoint) string {
	if y.Kind == layers.YieldEntry {
		return fmt.Sprintf("from the entry of %s", y.Proc.Name())
	}
	return fmt.Sprintf("from line %d", y.Pos.Line)
}

// sequential checks every fragment of p in the context of the path that
// reaches it (DESIGN §4.1, as CIVL does it): at each yield point the
// annotation must hold; then other threads run, so the globals take any
// values the annotation allows, while p's locals keep theirs, since no
// other thread can change them. Every gate met on the way must hold.
func sequential(p *layers.Proc) *obl.Obligation {
	b := layers.NewBuilder(p.Layer.Program)
	env := b.Globals(p.Layer, "", "globals")
	env = b.Frame(env, &p.Decl.Signature, "", "locals of "+p.Name())
	var state []*obl.Var
	for _, g := range p.Layer.Globals {
		state = append(state, env.Var(g))
	}
	for _, o := range p.Decl.Frame() {
		state = append(state, env.Var(o))
	}
	w := &layers.Walk{B: b, Env: env, Proc: p, Mode: layers.Mode{Check: true, Kind: Sequential}}
	w.Reach = func(q *layers.YieldPoint) obl.Cmd {
		msg := func(what string) string {
			if q.Kind == layers.YieldExit {
				return fmt.Sprintf("%s may not hold at exit", what)
			}
			return fmt.Sprintf("%s may not hold when %s reaches it", what, p.Name())
		}
		return b.CheckAnnotation(Sequential, q, env, msg, q.Pos)
	}
	w.Resume = func(q *layers.YieldPoint) obl.Cmd {
		title := fmt.Sprintf("after the %s at line %d, other threads having run", q.Kind, q.Pos.Line)
		return b.Trace(title, fmt.Sprint(q.Pos.Line), state)
	}
	body := w.Body()
	start := obl.And(b.AnnotationAfter(p.Entry.Yield, env), b.ParamFacts(p, env), layers.OwnLinearFacts(p.Layer.Globals, &p.Decl.Signature, env))
	return b.Obligation(obName(p.Layer, "seq", p.Name()), Sequential,
		obl.Sequence(b.ClearTraces(), &obl.Assume{E: start}, body))
}

// publicAction checks that an action called by clients meets its
// asserts and ensures and keeps the layer's invariants.
func publicAction(a *layers.Action) *obl.Obligation {
	l := a.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	env = b.Frame(env, &a.Decl.Signature, "", "locals of "+a.Name())
	inv := b.Conj(l.Invariants, env)
	post := obl.And(b.Conj(a.Decl.Ensures, env), inv)
	msg := fmt.Sprintf("the ensures of action %s or the layer's invariants may not hold after it", a.Name())
	cmds := []obl.Cmd{
		&obl.Assume{E: obl.And(b.Conj(a.Decl.Requires, env), inv, layers.OwnLinearFacts(l.Globals, &a.Decl.Signature, env))},
		b.Stmts(a.Decl.Body.Stmts, env, layers.Mode{Check: true, Kind: Sequential}),
	}
	if lit, ok := post.(*obl.BoolLit); !ok || !lit.V {
		cmds = append(cmds, layers.Check(Sequential, post, msg, a.Decl.P))
	}
	body := obl.Sequence(cmds...)
	return b.Obligation(obName(l, "seq", a.Name()), Sequential, body)
}

// initial checks that the layer's invariants hold in the initial state,
// and that its linear globals (pools) of one domain share no identity
// there: every check assumes the pools pairwise disjoint (an action's
// linearity check assumes what it may take disjoint), and an identity
// in two pools at the start could be handed to two threads
// (proofs/linmap/broken/pools-overlap.lip).
func initial(l *layers.Layer) []*obl.Obligation {
	pairs := overlappingPools(l)
	if len(l.Invariants) == 0 && len(pairs) == 0 {
		return nil
	}
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	init := &obl.Assign{}
	for _, g := range l.Globals {
		if d := g.Decl.(*lang.VarDecl); d.Init != nil {
			init.Lhs = append(init.Lhs, env.Var(g))
			init.Rhs = append(init.Rhs, b.Expr(d.Init, env))
		}
	}
	var asserts []obl.Cmd
	for _, inv := range l.Invariants {
		msg := fmt.Sprintf("this invariant of layer %d may not hold in the initial state", l.Num)
		asserts = append(asserts, layers.Check(Initial, b.Expr(inv, env), msg, inv.Pos()))
	}
	for _, p := range pairs {
		g, h := p[0], p[1]
		msg := fmt.Sprintf("the linear globals %s and %s may share an identity in the initial state: the pools of one domain must be disjoint (a global without an initial value may hold any identities), or an identity in both could be handed out twice", g.Name, h.Name)
		disjoint := layers.Disjoint(g.Type, env.Lookup(g), h.Type, env.Lookup(h))
		asserts = append(asserts, layers.Check(Initial, disjoint, msg, h.Decl.Pos(), g.Decl.Pos()))
	}
	body := obl.Sequence(append([]obl.Cmd{init}, asserts...)...)
	return []*obl.Obligation{b.Obligation(obName(l, "init"), Initial, body)}
}

// overlappingPools returns the pairs of linear globals of layer l whose
// domains agree: sets and linear maps of one identity type.
func overlappingPools(l *layers.Layer) [][2]*lang.Object {
	var pools []*lang.Object
	for _, g := range l.Globals {
		if g.Linear {
			pools = append(pools, g)
		}
	}
	var pairs [][2]*lang.Object
	for i, g := range pools {
		dg, _, okG := lang.LinearDomain(g.Type)
		for _, h := range pools[i+1:] {
			if dh, _, okH := lang.LinearDomain(h.Type); okG && okH && lang.Identical(dg, dh) {
				pairs = append(pairs, [2]*lang.Object{g, h})
			}
		}
	}
	return pairs
}
