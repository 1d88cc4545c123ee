package smt

import (
	"strings"

	"github.com/lipton-dev/lipton/obl"
)

// Z3's theory of sequences decides ground questions about elements of
// appended, sliced and concatenated sequences, but it does not produce
// the terms that a quantified fact about the original sequence needs to
// fire: from forall j :: q[j] == a[j] it does not conclude anything about
// append(q, v)[i], because nothing mentions q[i]. seqAxioms states, for
// every such term t in the vc, how an element of t in range relates to
// the elements of its operands; these facts hold in Z3's semantics of
// sequences, so adding them changes no answer, but their terms t[i] and
// s[i] let E-matching connect the quantifiers (an append and a slice of
// a sequence under a quantified invariant are proven at once instead of
// timing out).

// A slice s[lo:hi] is not Z3's seq.extract: Z3 decomposes every
// extracted sequence into a concatenation of fresh parts, and with a
// quantified invariant over the sequence those parts send E-matching into
// an endless search (a dequeue, q := q[1:], under the invariant that q
// mirrors an array timed out). A slice is instead an uninterpreted
// function of (s, lo, hi), one per sequence sort, and seqAxiom gives it
// its meaning where it has one: for 0 <= lo <= hi <= len(s), a sequence
// of length hi - lo whose element i is s[lo + i]. Sequences are equal
// when their lengths and elements are, so this fixes the slice exactly;
// out of range, the slice is some sequence, as the language leaves it
// unspecified.

// Equality of sequences is extensional: sequences with equal lengths
// and equal elements are equal. Z3 does not conclude s == t from facts
// about their elements, so for every equation between sequences lipton
// adds: if len(s) == len(t) and s != t, they differ at diff(s, t), an
// index inside both. diff is an uninterpreted function; the fact holds
// for the diff that picks such an index, so it changes no answer.

// seqFuncName is the name of the uninterpreted function that stands for
// op (a slice or a diff) on sequences of sort s.
func seqFuncName(op obl.SeqOp, s *obl.SeqSort) string {
	kind := "slice"
	if op == obl.SeqDiff {
		kind = "diff"
	}
	return "lipton." + kind + "." + strings.NewReplacer("(", "<", ")", ">", " ", "_").Replace(smtSort(s))
}

// isSeqFunc reports whether op is encoded by an uninterpreted function.
func isSeqFunc(op obl.SeqOp) bool { return op == obl.SeqSlice || op == obl.SeqDiff }

// usedSeqFuncs returns the slice and diff applications of v, one per
// function.
func usedSeqFuncs(v *vc) []*obl.SeqApp {
	var out []*obl.SeqApp
	seen := map[string]bool{}
	note := func(e obl.Expr) {
		if s, ok := e.(*obl.SeqApp); ok && isSeqFunc(s.Op) && !seen[seqFuncName(s.Op, s.S)] {
			seen[seqFuncName(s.Op, s.S)] = true
			out = append(out, s)
		}
	}
	for _, d := range v.defs() {
		obl.WalkExpr(d, note)
	}
	for _, g := range v.goals {
		obl.WalkExpr(g.failure(), note)
	}
	return out
}

// seqAxioms returns the element facts of the sequence operations that the
// conditions conds contain.
func seqAxioms(conds []obl.Expr) []obl.Expr {
	var out []obl.Expr
	seen := map[string]bool{}
	bound := boundVars(conds)
	for _, c := range conds {
		obl.WalkExpr(c, func(e obl.Expr) {
			if mentionsAny(e, bound) {
				return // a fact outside the quantifier cannot name its variable
			}
			var ax obl.Expr
			switch e := e.(type) {
			case *obl.SeqApp:
				ax = seqAxiom(e)
			case *obl.Binary:
				ax = extensionality(e)
			}
			if ax != nil && !seen[e.String()] {
				seen[e.String()] = true
				out = append(out, ax)
			}
		})
	}
	return out
}

// seqAxiom returns the element fact of t, or nil if t builds no sequence
// from others.
func seqAxiom(t *obl.SeqApp) obl.Expr {
	i := &obl.Var{Name: "seq_i", Sort: obl.IntSort}
	at := obl.SeqElem(t, t.S, obl.Ref(i))
	in := func(lo, hi obl.Expr) obl.Expr { return obl.And(obl.Le(lo, obl.Ref(i)), obl.Lt(obl.Ref(i), hi)) }
	lenOf := func(x obl.Expr) obl.Expr { return obl.SeqLength(x, t.S) }
	switch t.Op {
	case obl.SeqLit:
		var facts []obl.Expr
		for k, e := range t.Args {
			facts = append(facts, obl.Eq(obl.SeqElem(t, t.S, obl.Int(int64(k))), e))
		}
		return obl.And(obl.Eq(lenOf(t), obl.Int(int64(len(t.Args)))), obl.And(facts...))
	case obl.SeqAppend:
		s := t.Args[0]
		return obl.And(
			obl.Eq(obl.SeqElem(t, t.S, lenOf(s)), t.Args[1]),
			obl.Forall([]*obl.Var{i}, obl.Implies(in(obl.Int(0), lenOf(s)), obl.Eq(at, obl.SeqElem(s, t.S, obl.Ref(i))))))
	case obl.SeqSlice:
		s, lo, hi := t.Args[0], t.Args[1], t.Args[2]
		valid := obl.And(obl.Le(obl.Int(0), lo), obl.Le(lo, hi), obl.Le(hi, lenOf(s)))
		return obl.Implies(valid, obl.And(
			obl.Eq(lenOf(t), obl.Sub(hi, lo)),
			obl.Forall([]*obl.Var{i}, obl.Implies(in(obl.Int(0), obl.Sub(hi, lo)), obl.Eq(at, obl.SeqElem(s, t.S, obl.Add(lo, obl.Ref(i))))))))
	case obl.SeqConcat:
		a, b := t.Args[0], t.Args[1]
		return obl.Forall([]*obl.Var{i}, obl.And(
			obl.Implies(in(obl.Int(0), lenOf(a)), obl.Eq(at, obl.SeqElem(a, t.S, obl.Ref(i)))),
			obl.Implies(in(lenOf(a), obl.Add(lenOf(a), lenOf(b))), obl.Eq(at, obl.SeqElem(b, t.S, obl.Sub(obl.Ref(i), lenOf(a)))))))
	}
	return nil
}

// extensionality returns the diff fact of an equation or disequation
// between sequences, or nil if e is none.
func extensionality(e *obl.Binary) obl.Expr {
	if e.Op != obl.OpEq && e.Op != obl.OpNe {
		return nil
	}
	sort, err := obl.SortOf(e.X)
	s, ok := sort.(*obl.SeqSort)
	if err != nil || !ok {
		return nil
	}
	x, y := e.X, e.Y
	d := obl.SeqDiffOf(x, y, s)
	lenX := obl.SeqLength(x, s)
	return obl.Implies(obl.And(obl.Eq(lenX, obl.SeqLength(y, s)), obl.Ne(x, y)),
		obl.And(obl.Le(obl.Int(0), d), obl.Lt(d, lenX), obl.Ne(obl.SeqElem(x, s, d), obl.SeqElem(y, s, d))))
}

// boundVars returns the variables that quantifiers in conds bind.
func boundVars(conds []obl.Expr) map[*obl.Var]bool {
	out := map[*obl.Var]bool{}
	for _, c := range conds {
		obl.WalkExpr(c, func(e obl.Expr) {
			if q, ok := e.(*obl.Quant); ok {
				for _, v := range q.Bound {
					out[v] = true
				}
			}
		})
	}
	return out
}

// mentionsAny reports whether e has a free variable in vars.
func mentionsAny(e obl.Expr, vars map[*obl.Var]bool) bool {
	if len(vars) == 0 {
		return false
	}
	for _, v := range obl.FreeVars(e) {
		if vars[v] {
			return true
		}
	}
	return false
}
