package layers

import (
	"math/big"
	"sync"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/vcgen"
)

// pinnedCache remembers, per signature, the linear parameters that its
// requires fixes to a constant.
var pinnedCache sync.Map // *lang.Signature -> map[string]*big.Int

// pinned returns the linear parameters of sig that its requires pins to a
// constant: a top-level conjunct (after inlining functions) tid == c.
func (p *Program) pinned(sig *lang.Signature) map[string]*big.Int {
	if v, ok := pinnedCache.Load(sig); ok {
		return v.(map[string]*big.Int)
	}
	b := NewBuilder(p)
	env := b.Frame(b.GlobalsOf(p.Info.Globals, "", ""), sig, "", "")
	linear := map[*vcgen.Var]string{}
	for _, prm := range sig.Params {
		if prm.Linear {
			linear[env.Var(prm.Name.Obj)] = prm.Name.Name
		}
	}
	out := map[string]*big.Int{}
	for _, c := range conjuncts(b.Conj(sig.Requires, env)) {
		if name, val, ok := pinnedConjunct(c, linear); ok {
			out[name] = val
		}
	}
	pinnedCache.Store(sig, out)
	return out
}

// pinnedConjunct recognizes v == c and c == v for a linear parameter v
// and an integer literal c.
func pinnedConjunct(e vcgen.Expr, linear map[*vcgen.Var]string) (string, *big.Int, bool) {
	b, ok := e.(*vcgen.Binary)
	if !ok || b.Op != vcgen.OpEq {
		return "", nil, false
	}
	for _, pair := range [][2]vcgen.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		ref, isRef := pair[0].(*vcgen.VarRef)
		lit, isLit := pair[1].(*vcgen.IntLit)
		if isRef && isLit && linear[ref.V] != "" {
			return linear[ref.V], lit.V, true
		}
	}
	return "", nil, false
}

// Exclusive reports whether two threads running members with signatures
// s1 and s2 can never run at the same time: some linear parameter of
// each is pinned by its requires to the same constant, and linear values
// of different threads are distinct. It returns the constraint, for
// messages.
func (p *Program) Exclusive(s1, s2 *lang.Signature) (string, bool) {
	p1, p2 := p.pinned(s1), p.pinned(s2)
	for n1, v1 := range p1 {
		for n2, v2 := range p2 {
			if v1.Cmp(v2) == 0 && sameLinearType(s1, n1, s2, n2) {
				return n1 + " == " + v1.String(), true
			}
		}
	}
	return "", false
}

func sameLinearType(s1 *lang.Signature, n1 string, s2 *lang.Signature, n2 string) bool {
	var t1, t2 lang.Type
	for _, p := range s1.Params {
		if p.Name.Name == n1 {
			t1 = p.Name.Obj.Type
		}
	}
	for _, p := range s2.Params {
		if p.Name.Name == n2 {
			t2 = p.Name.Obj.Type
		}
	}
	return t1 != nil && t2 != nil && lang.Identical(t1, t2)
}
