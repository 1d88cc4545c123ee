package obl

import (
	"strings"
	"testing"
)

func TestAssumedContradiction(t *testing.T) {
	t1, t2, c, d := intVar("tid.1"), intVar("tid.2"), intVar("ptTid"), intVar("other")
	x1, x2 := intVar("x"), intVar("x") // two variables, one name
	p := boolVar("p")
	eq := func(a, b Expr) Expr { return &Binary{OpEq, a, b} }
	ne := func(a, b Expr) Expr { return &Binary{OpNe, a, b} }
	tail := assert(&BoolLit{false})
	for _, tc := range []struct {
		name string
		body Cmd
		want string // the conflicting disequality, "" for none
	}{
		{"both threads pinned to one constant",
			seq(assume(eq(r(t1), r(c))), assume(And(r(p), eq(r(t2), r(c)))), assume(ne(r(t1), r(t2))), tail),
			"tid.1 != tid.2"},
		{"a chain of equations",
			seq(assume(And(eq(r(t1), r(c)), eq(r(c), r(d)))), assume(eq(r(d), r(t2))), assume(&Unary{OpNot, eq(r(t2), r(t1))}), tail),
			"tid.2 != tid.1"},
		{"a term unequal to itself", seq(assume(ne(Int(1), Int(1))), tail), "1 != 1"},
		{"pinned to different constants",
			seq(assume(eq(r(t1), r(c))), assume(eq(r(t2), r(d))), assume(ne(r(t1), r(t2))), tail), ""},
		{"an assignment ends the opening assumptions",
			seq(assume(eq(r(t1), r(c))), set(t2, r(c)), assume(eq(r(t2), r(c))), assume(ne(r(t1), r(t2))), tail), ""},
		{"a havoc ends them",
			seq(assume(eq(r(t1), r(c))), havoc(c), assume(eq(r(t2), r(c))), assume(ne(r(t1), r(t2))), tail), ""},
		{"a choice ends them",
			seq(choice(assume(eq(r(t1), r(c))), assume(&BoolLit{true})), assume(eq(r(t2), r(c))), assume(ne(r(t1), r(t2))), tail), ""},
		{"an assert ends them",
			seq(assume(eq(r(t1), r(c))), tail, assume(eq(r(t2), r(c))), assume(ne(r(t1), r(t2)))), ""},
		{"disjunctions are not facts",
			seq(assume(Or(eq(r(t1), r(c)), r(p))), assume(eq(r(t2), r(c))), assume(ne(r(t1), r(t2))), tail), ""},
		{"two variables with one name are distinct terms",
			seq(assume(eq(r(x1), Int(0))), assume(ne(r(x2), Int(0))), tail), ""},
	} {
		conflict, eqs, ok := AssumedContradiction(tc.body)
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s: contradiction %v by %v, want none", tc.name, conflict, eqs)
		case tc.want != "" && !ok:
			t.Errorf("%s: no contradiction, want %s", tc.name, tc.want)
		case ok && conflict.String() != tc.want:
			t.Errorf("%s: contradiction %v, want %s", tc.name, conflict, tc.want)
		}
	}
}

// TestAssumedContradictionExplains: the equations connect the two sides.
func TestAssumedContradictionExplains(t *testing.T) {
	a, b, c := intVar("a"), intVar("b"), intVar("c")
	body := seq(assume(And(&Binary{OpEq, r(a), r(b)}, &Binary{OpEq, r(c), r(b)})), assume(&Binary{OpNe, r(a), r(c)}))
	_, eqs, ok := AssumedContradiction(body)
	var got []string
	for _, e := range eqs {
		got = append(got, e.String())
	}
	if !ok || strings.Join(got, "; ") != "a == b; c == b" {
		t.Errorf("got %v (%v), want a == b; c == b", got, ok)
	}
}

func TestUsesSequences(t *testing.T) {
	s := &Var{Name: "s", Sort: &SeqSort{Elem: IntSort}}
	m := &Var{Name: "m", Sort: &MapSort{Key: IntSort, Val: &SeqSort{Elem: BoolSort}}}
	x := intVar("x")
	for _, c := range []struct {
		name string
		ob   *Obligation
		want bool
	}{
		{"no sequence", newOb("a", vars(x), assert(&Binary{OpEq, r(x), n(1)})), false},
		{"a sequence variable", newOb("b", vars(x, s), assert(&Binary{OpEq, r(x), n(1)})), true},
		{"a map to sequences", newOb("c", vars(x, m), assert(&Binary{OpEq, r(x), n(1)})), true},
	} {
		if got := UsesSequences(c.ob); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTermsShared: a numbering kept across openings (Terms) decides each
// as a fresh one does. Two variables with one name stay apart inside
// composite terms even when each was numbered in an earlier opening.
func TestTermsShared(t *testing.T) {
	x1, x2, y, z := intVar("x"), intVar("x"), intVar("y"), intVar("z")
	eq := func(a, b Expr) Expr { return &Binary{OpEq, a, b} }
	ne := func(a, b Expr) Expr { return &Binary{OpNe, a, b} }
	plus := func(v *Var) Expr { return &Binary{OpAdd, r(v), Int(1)} }
	tail := assert(&BoolLit{false})
	openings := []struct {
		body Cmd
		want string
	}{
		{seq(assume(eq(plus(x1), r(y))), assume(eq(r(y), r(z))), assume(ne(plus(x1), r(z))), tail), "x + 1 != z"},
		{seq(assume(eq(plus(x2), r(y))), assume(ne(plus(x1), r(y))), tail), ""},
		{seq(assume(eq(plus(x2), r(y))), assume(ne(plus(x2), r(y))), tail), "x + 1 != y"},
		{seq(assume(eq(r(x1), r(y))), assume(ne(r(x2), r(y))), tail), ""},
	}
	shared := NewTerms()
	for i, o := range openings {
		for _, terms := range []*Terms{shared, NewTerms()} {
			conflict, _, ok := terms.AssumedContradiction(o.body)
			got := ""
			if ok {
				got = conflict.String()
			}
			if got != o.want {
				t.Errorf("opening %d: conflict %q, want %q", i, got, o.want)
			}
		}
	}
}
