package movers

import (
	"fmt"
	"sort"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Linearity is the check kind of an action's moves of identities.
const Linearity obl.Kind = "linearity"

// linearPlace is a linear variable seen by one run of an action: its
// type and its value before (pre) and after (post) the action.
type linearPlace struct {
	typ       lang.Type
	pre, post obl.Expr
}

// linearity returns the obligation that action a moves identities
// without creating or duplicating one, or nil when a moves none (it has
// no linear_in parameter or linear output and writes no linear global).
// Per domain, from a state where the action's requires holds and what
// it may take (its linear_in parameters and the pools) is pairwise
// disjoint and disjoint from what it borrows (its other linear
// parameters):
//
//   - what it leaves (its linear outputs and the pools after it) is
//     pairwise disjoint, and
//   - every identity it leaves was among those it could take.
//
// Other threads' linear values are disjoint from the pools and from this
// thread's, so they stay disjoint from everything the action leaves:
// docs/checks.md ("Linear values") has the argument.
func linearity(a *layers.Action) *obl.Obligation {
	l := a.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	frame := b.Frame(env, &a.Decl.Signature, "", "locals of "+a.Name())
	body := b.Stmts(a.Decl.Body.Stmts, frame, layers.Assume)
	written := obl.Assigned(body)
	takes, lends, leaves := map[string][]linearPlace{}, map[string][]linearPlace{}, map[string][]linearPlace{}
	var snaps []*obl.Var
	var snapVals []obl.Expr
	moves := false
	for _, g := range l.Globals {
		if !g.Linear {
			continue
		}
		v := env.Var(g)
		old := b.NewVar(v.Name+".old", v.Sort)
		snaps, snapVals = append(snaps, old), append(snapVals, obl.Ref(v))
		dom := domainName(g.Type)
		takes[dom] = append(takes[dom], linearPlace{g.Type, obl.Ref(old), nil})
		leaves[dom] = append(leaves[dom], linearPlace{g.Type, nil, obl.Ref(v)})
		moves = moves || written[v]
	}
	for _, p := range a.Decl.Params {
		if !p.Linear {
			continue
		}
		dom, pl := domainName(p.Name.Obj.Type), linearPlace{p.Name.Obj.Type, frame.Lookup(p.Name.Obj), nil}
		if p.LinearIn {
			takes[dom], moves = append(takes[dom], pl), true
		} else {
			lends[dom] = append(lends[dom], pl)
		}
	}
	for _, r := range a.Decl.Returns {
		if r.Linear {
			dom := domainName(r.Name.Obj.Type)
			leaves[dom], moves = append(leaves[dom], linearPlace{r.Name.Obj.Type, nil, frame.Lookup(r.Name.Obj)}), true
		}
	}
	if !moves {
		return nil
	}
	var pre, post []obl.Expr
	for _, dom := range sortedDomains(takes, leaves) {
		pre = append(pre, pairwiseDisjoint(takes[dom], false)...)
		for _, t := range takes[dom] {
			for _, ln := range lends[dom] {
				pre = append(pre, layers.Disjoint(t.typ, t.pre, ln.typ, ln.pre))
			}
		}
		post = append(post, pairwiseDisjoint(leaves[dom], true)...)
		post = append(post, nothingCreated(b, takes[dom], leaves[dom]))
	}
	// Not the layer's invariants: they hold at yield points, and the
	// action may run inside a fragment after a step that broke one
	// (proofs/linmap/broken/linearity-invariant.lip).
	gate := b.Conj(a.Decl.Requires, frame)
	msg := fmt.Sprintf("action %s may create or duplicate identities: what it leaves (its linear outputs and the linear globals after it) may not be disjoint, or may hold an identity that was in none of its linear_in parameters and linear globals", a.Name())
	cmd := obl.Sequence(&obl.Assign{Lhs: snaps, Rhs: snapVals},
		&obl.Assume{E: obl.And(append([]obl.Expr{gate}, pre...)...)}, body,
		layers.Check(Linearity, obl.And(post...), msg, a.Decl.P))
	return b.Obligation(fmt.Sprintf("l%d-linearity-%s", l.Num, a.Name()), Linearity, cmd)
}

// domainName names the domain of a linear type.
func domainName(t lang.Type) string {
	dom, _, _ := lang.LinearDomain(t)
	if dom == nil {
		return "?"
	}
	return dom.String()
}

func sortedDomains(ms ...map[string][]linearPlace) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for d := range m {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	sort.Strings(out)
	return out
}

// pairwiseDisjoint is the disjointness of every two places, before the
// action or (post) after it.
func pairwiseDisjoint(ps []linearPlace, post bool) []obl.Expr {
	var facts []obl.Expr
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			a, b := ps[i].pre, ps[j].pre
			if post {
				a, b = ps[i].post, ps[j].post
			}
			facts = append(facts, layers.Disjoint(ps[i].typ, a, ps[j].typ, b))
		}
	}
	return facts
}

// nothingCreated says that every identity in leaves (sets, after the
// action) was in some place of takes (before it).
func nothingCreated(b *layers.Builder, takes, leaves []linearPlace) obl.Expr {
	if len(leaves) == 0 {
		return obl.True()
	}
	dom, _, _ := lang.LinearDomain(leaves[0].typ)
	x := &obl.Var{Name: "id", Sort: layers.SortOf(dom)}
	var left, took []obl.Expr
	for _, p := range leaves {
		left = append(left, layers.Member(p.typ, p.post, obl.Ref(x)))
	}
	for _, p := range takes {
		took = append(took, layers.Member(p.typ, p.pre, obl.Ref(x)))
	}
	return obl.Forall([]*obl.Var{x}, obl.Implies(obl.Or(left...), obl.Or(took...)))
}
