package randprog

import (
	"fmt"
	"math/rand"

	"github.com/lipton-dev/lipton/lang"
)

// The kinds of mutation, as a mutant's header names them.
const (
	MutMover         = "mover tag"
	MutDropYield     = "drop yield"
	MutWeakenAnn     = "weaken annotation"
	MutStrengthAnn   = "strengthen annotation"
	MutWeakenGate    = "weaken gate"
	MutStrengthGate  = "strengthen gate"
	MutSpecGate      = "strengthen spec gate"
	MutRequiresFalse = "requires false"
	MutReorder       = "reorder statements"
	MutDropCAS       = "drop compare-and-swap"
	MutConstant      = "change constant"
	MutOperator      = "change operator"
	MutLessEq        = "swap < and <="
	MutDropAssume    = "drop assume"
	MutDropAssert    = "drop assert"
	MutDropStmt      = "drop statement"
	MutLinearMode    = "linear mode"
)

// mutator collects the places where a file can be mutated, by kind,
// then applies one.
type mutator struct {
	r      *rand.Rand
	f      *lang.File
	info   *lang.Info
	top    int
	kinds  []string                   // kinds with a site, in the order met
	byKind map[string][]func() string // per kind, mutations that apply themselves and say what they did
}

// Mutate returns src with one random mutation, chosen uniformly among
// the kinds that have a place to apply in src, then among those places;
// the mutant's first line says what was changed. An instance whose
// threads make unbounded or many calls is bounded to keep exploration
// short. It returns false when src does not type-check or offers no
// place to mutate.
func Mutate(r *rand.Rand, src string) (string, bool) {
	f, info, err := lang.ParseAndCheck("mutant.lip", []byte(src))
	if err != nil {
		return src, false
	}
	mu := &mutator{r: r, f: f, info: info, top: info.TopLayer(), byKind: map[string][]func() string{}}
	mu.collect()
	if len(mu.kinds) == 0 {
		return src, false
	}
	kind := mu.kinds[r.Intn(len(mu.kinds))]
	sites := mu.byKind[kind]
	header := "// mutant (" + kind + "): " + sites[r.Intn(len(sites))]() + "\n"
	if shrunk := shrinkInstances(f); shrunk != "" {
		header += "// instance bounded: " + shrunk + "\n"
	}
	return header + string(lang.Format(f)), true
}

// add records a possible mutation of a kind.
func (mu *mutator) add(kind string, apply func() string) {
	if mu.byKind[kind] == nil {
		mu.kinds = append(mu.kinds, kind)
	}
	mu.byKind[kind] = append(mu.byKind[kind], apply)
}

// collect walks the file and records every possible mutation.
func (mu *mutator) collect() {
	for _, d := range mu.f.Invariants {
		lo, hi := 0, mu.top
		if d.Layers != nil {
			lo, hi = d.Layers.Lo, d.Layers.Hi
		}
		sc := mu.globalScope(lo, hi)
		where := fmt.Sprintf("invariant at line %d", d.P.Line)
		mu.annotation(sc, where, &d.Expr)
		mu.exprSites(d.Expr, where)
	}
	for _, v := range mu.f.Vars {
		if v.Init != nil {
			mu.exprSites(v.Init, "initial value of "+v.Name.Name)
		}
	}
	for _, fn := range mu.f.Funcs {
		mu.exprSites(fn.Body, "function "+fn.Name.Name)
	}
	for _, l := range mu.f.Layers {
		for _, m := range l.Members {
			switch m := m.(type) {
			case *lang.Action:
				mu.action(l.Num, m)
			case *lang.Proc:
				mu.proc(l.Num, m)
			}
		}
	}
}

// action records the mutations of an action: its mover type, its gate,
// its body.
func (mu *mutator) action(layer int, a *lang.Action) {
	where := fmt.Sprintf("layer %d action %s", layer, a.Name.Name)
	mu.add(MutMover, func() string {
		old := a.Mover
		a.Mover = mu.otherMover(old)
		return fmt.Sprintf("%s (line %d): %s instead of %s", where, a.P.Line, moverWord(a.Mover), moverWord(old))
	})
	mu.gate(mu.memberScope(layer, &a.Signature, false, false), where, &a.Signature, layer == mu.top)
	mu.block(mu.memberScope(layer, &a.Signature, true, true), where, &a.Body.Stmts, true)
	mu.linearModes(where, &a.Signature)
}

// linearModes records flipping a linear set parameter between linear (the
// caller lends it) and linear_in (the callee takes it): a callee that
// keeps what it only borrowed duplicates identities, one that takes what
// its caller keeps using loses them.
func (mu *mutator) linearModes(where string, sig *lang.Signature) {
	for _, p := range sig.Params {
		if _, isSet, _ := lang.LinearDomain(p.Name.Obj.Type); !p.Linear || !isSet || sig.Public {
			continue
		}
		mu.add(MutLinearMode, func() string {
			p.LinearIn = !p.LinearIn
			if p.LinearIn {
				return fmt.Sprintf("%s: parameter %s linear_in instead of linear", where, p.Name.Name)
			}
			return fmt.Sprintf("%s: parameter %s linear instead of linear_in", where, p.Name.Name)
		})
	}
}

// proc records the mutations of a procedure: its contract (annotations
// of its entry and exit) and its body.
func (mu *mutator) proc(layer int, p *lang.Proc) {
	where := fmt.Sprintf("layer %d proc %s", layer, p.Name.Name)
	if p.Mover != lang.MoverNone {
		mu.add(MutMover, func() string {
			old := p.Mover
			p.Mover = mu.otherMover(old)
			return fmt.Sprintf("%s (line %d): mover procedure %s instead of %s", where, p.P.Line, moverWord(p.Mover), moverWord(old))
		})
	}
	sc := mu.memberScope(layer, &p.Signature, false, false)
	for i := range p.Requires {
		mu.annotation(sc, fmt.Sprintf("%s requires (line %d)", where, p.Requires[i].Pos().Line), &p.Requires[i])
		mu.exprSites(p.Requires[i], where+" requires")
	}
	sc = mu.memberScope(layer, &p.Signature, true, false)
	for i := range p.Ensures {
		mu.annotation(sc, fmt.Sprintf("%s ensures (line %d)", where, p.Ensures[i].Pos().Line), &p.Ensures[i])
		mu.exprSites(p.Ensures[i], where+" ensures")
	}
	mu.add(MutRequiresFalse, func() string {
		p.Requires = append(p.Requires, &lang.BoolLit{Val: false})
		return where + ": requires false added"
	})
	mu.block(mu.memberScope(layer, &p.Signature, true, true), where, &p.Body.Stmts, false)
	mu.linearModes(where, &p.Signature)
}

// gate records the mutations of an action's requires: weakened,
// strengthened, false; at the top layer, strengthened as a
// specification gate that clients guarantee only at the call.
func (mu *mutator) gate(sc *scope, where string, sig *lang.Signature, top bool) {
	for i := range sig.Requires {
		slot := &sig.Requires[i]
		w := fmt.Sprintf("%s requires (line %d)", where, (*slot).Pos().Line)
		mu.add(MutWeakenGate, func() string { return w + ": " + mu.weaken(slot) })
		mu.exprSites(*slot, where+" requires")
	}
	strengthen := func() string {
		atom := mu.atom(sc)
		sig.Requires = append(sig.Requires, atom)
		return fmt.Sprintf("%s: requires %s added", where, lang.ExprString(atom))
	}
	mu.add(MutStrengthGate, strengthen)
	if top {
		mu.add(MutSpecGate, strengthen)
	}
	mu.add(MutRequiresFalse, func() string {
		sig.Requires = append(sig.Requires, &lang.BoolLit{Val: false})
		return where + ": requires false added"
	})
}

// annotation records weakening and strengthening an annotation.
func (mu *mutator) annotation(sc *scope, where string, slot *lang.Expr) {
	if *slot != nil {
		mu.add(MutWeakenAnn, func() string { return where + ": " + mu.weaken(slot) })
	}
	mu.add(MutStrengthAnn, func() string {
		atom := mu.atom(sc)
		if *slot == nil {
			*slot = atom
		} else {
			*slot = and(*slot, atom)
		}
		return fmt.Sprintf("%s: conjunct %s added", where, lang.ExprString(atom))
	})
}

// otherMover is a mover type different from m.
func (mu *mutator) otherMover(m lang.Mover) lang.Mover {
	all := []lang.Mover{lang.MoverAtomic, lang.MoverRight, lang.MoverLeft, lang.MoverBoth}
	for {
		n := all[mu.r.Intn(len(all))]
		if n != m && !(m == lang.MoverNone && n == lang.MoverAtomic) {
			return n
		}
	}
}

// moverWord names a mover type for a description.
func moverWord(m lang.Mover) string {
	if m == lang.MoverNone {
		return "untagged"
	}
	return m.String()
}

// shrinkInstances bounds the calls of every thread to at most three, so
// that exploring a mutant stays short; it says what it changed.
func shrinkInstances(f *lang.File) string {
	changed := ""
	for _, in := range f.Instances {
		for _, t := range in.Threads {
			if t.Max == 0 || t.Max > 3 {
				changed += fmt.Sprintf(" %s.%s max %d -> 3;", in.Name.Name, t.Role.Name, t.Max)
				t.Max = 3
			}
		}
	}
	return changed
}
