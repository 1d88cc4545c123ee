package smt

import (
	"errors"
	"math/big"

	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt/z3"
)

// A modelReader reads a Z3 model back into Values.
type modelReader struct {
	en *encoder
	m  *z3.Model
	v  *vc
	// probes are the ground map indices of the vc, by sort, used for maps
	// whose value is not a finite map (computed on first need).
	probes map[string][]z3.Term
	consts map[*obl.Var]bool // the vc's constants
}

// counterexample builds the counterexample of a failing goal.
func (r *modelReader) counterexample(g *goal) (*obl.Counterexample, error) {
	cex := &obl.Counterexample{}
	for i, pv := range r.v.ob.Vars {
		before, err := r.value(r.en.constant(r.v.initial[i]), pv.Sort)
		if err != nil {
			return nil, err
		}
		after, err := r.value(r.en.constant(g.state[pv].(*obl.VarRef).V), pv.Sort)
		if err != nil {
			return nil, err
		}
		cex.Vars = append(cex.Vars, obl.VarValues{Var: pv, Before: before, After: after})
	}
	branches, err := r.path(g.block)
	if err != nil {
		return nil, err
	}
	cex.Branches = branches
	return cex, nil
}

// path recovers the choice branches taken on the way to b: walking back
// from b, any predecessor whose exit flag is true in the model lies on a
// path consistent with the model (join equalities are conditions of the
// branch blocks).
func (r *modelReader) path(b *block) ([]obl.BranchTaken, error) {
	var rev []obl.BranchTaken
	for b != nil {
		if b.branch != nil {
			rev = append(rev, *b.branch)
		}
		var next *block
		for _, p := range b.preds {
			ok, err := r.m.Bool(r.en.constant(p.exit))
			if err != nil {
				return nil, err
			}
			if ok {
				next = p
				break
			}
		}
		b = next
	}
	out := make([]obl.BranchTaken, len(rev))
	for i, br := range rev {
		out[len(rev)-1-i] = br
	}
	return out, nil
}

// value reads the value of t, a term of sort s, in the model.
func (r *modelReader) value(t z3.Term, s obl.Sort) (obl.Value, error) {
	switch s := s.(type) {
	case obl.BasicSort:
		if s == obl.IntSort {
			n, err := r.m.Int(t)
			if err != nil {
				return nil, err
			}
			return obl.IntVal{V: n}, nil
		}
		b, err := r.m.Bool(t)
		return obl.BoolVal(b), err
	case *obl.MapSort:
		return r.mapValue(t, s)
	case *obl.EnumSort:
		return r.enumValue(t, s)
	case *obl.RecordSort:
		return r.recordValue(t, s)
	case *obl.SeqSort:
		return r.seqValue(t, s)
	}
	return nil, errors.New("smt: unknown sort")
}

// maxSeqShown is the number of elements of a sequence a counterexample
// shows; the others are counted.
const maxSeqShown = 32

// seqValue reads a sequence: its length, then its elements.
func (r *modelReader) seqValue(t z3.Term, s *obl.SeqSort) (obl.Value, error) {
	ctx := r.en.ctx
	n, err := r.m.Int(ctx.SeqLen(t))
	if err != nil {
		return nil, err
	}
	sv := obl.SeqVal{S: s}
	shown := int64(maxSeqShown)
	if n.IsInt64() && n.Int64() < shown {
		shown = n.Int64()
	}
	for i := int64(0); i < shown; i++ {
		v, err := r.value(ctx.SeqNth(t, ctx.Int(i)), s.Elem)
		if err != nil {
			return nil, err
		}
		sv.Elems = append(sv.Elems, v)
	}
	if more := new(big.Int).Sub(n, big.NewInt(shown)); more.Sign() > 0 {
		sv.More = more
	}
	return sv, nil
}

func (r *modelReader) mapValue(t z3.Term, s *obl.MapSort) (obl.Value, error) {
	if es, ok := s.Key.(*obl.EnumSort); ok {
		return r.enumMap(t, s, es)
	}
	arr, err := r.m.Array(t)
	if errors.Is(err, z3.ErrNotFinite) {
		return r.probe(t, s)
	}
	if err != nil {
		return nil, err
	}
	mv := obl.MapVal{}
	for _, e := range arr.Entries {
		k, err := r.value(e.Key, s.Key)
		if err != nil {
			return nil, err
		}
		v, err := r.value(e.Value, s.Val)
		if err != nil {
			return nil, err
		}
		mv.Entries = append(mv.Entries, obl.MapEntry{Key: k, Val: v})
	}
	if !arr.Default.IsZero() {
		if mv.Default, err = r.value(arr.Default, s.Val); err != nil {
			return nil, err
		}
	}
	return mv.Normalize(), nil
}

// probe describes a map that is not finite by its values at the indices
// the obligation mentions; the default stays unknown.
func (r *modelReader) probe(t z3.Term, s *obl.MapSort) (obl.Value, error) {
	if es, ok := s.Key.(*obl.EnumSort); ok {
		return r.enumMap(t, s, es)
	}
	mv := obl.MapVal{}
	for _, k := range r.probeKeys(s.Key) {
		kv, err := r.value(k, s.Key)
		if err != nil {
			return nil, err
		}
		vv, err := r.value(r.en.ctx.Select(t, k), s.Val)
		if err != nil {
			return nil, err
		}
		mv.Entries = append(mv.Entries, obl.MapEntry{Key: kv, Val: vv})
	}
	return mv.Normalize(), nil
}

// probeKeys returns the terms of the ground map indices of sort s that
// occur in the vc.
func (r *modelReader) probeKeys(s obl.Sort) []z3.Term {
	if r.probes == nil {
		r.probes = make(map[string][]z3.Term)
		seen := make(map[obl.Expr]bool)
		visit := func(e obl.Expr) {
			obl.WalkExpr(e, func(e obl.Expr) {
				var k obl.Expr
				switch e := e.(type) {
				case *obl.Select:
					k = e.Key
				case *obl.Store:
					k = e.Key
				default:
					return
				}
				if seen[k] || !r.ground(k) {
					return
				}
				seen[k] = true
				ks, err := obl.SortOf(k)
				if err == nil {
					r.probes[ks.String()] = append(r.probes[ks.String()], r.en.term(k))
				}
			})
		}
		for _, d := range r.v.defs() {
			visit(d)
		}
		for _, g := range r.v.goals {
			visit(g.failure())
		}
	}
	return r.probes[s.String()]
}

// ground reports whether e mentions only constants of the vc (no
// quantifier-bound variables), so it can be evaluated in the model.
func (r *modelReader) ground(e obl.Expr) bool {
	if r.consts == nil {
		r.consts = make(map[*obl.Var]bool, len(r.v.consts))
		for _, c := range r.v.consts {
			r.consts[c] = true
		}
	}
	ok := true
	obl.WalkFree(e, nil, func(v *obl.Var) { ok = ok && r.consts[v] })
	return ok
}
