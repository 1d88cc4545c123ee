package obl

import "testing"

// TestValidateMessages pins the message of each way an obligation can be
// malformed, so that the single-walk validation reports what the walks
// it replaced reported: the first undeclared free variable in walk
// order, before a quantifier binding a program variable.
func TestValidateMessages(t *testing.T) {
	x, y, z := intVar("x"), intVar("y"), intVar("z")
	i, j := intVar("i"), intVar("j")
	p := boolVar("p")
	a := assert(True())
	cases := []struct {
		name string
		ob   *Obligation
		want string
	}{
		{"undeclared", newOb("u", vars(x), assert(Gt(r(y), n(0)))), "undeclared variable y in y > 0"},
		{"first undeclared in walk order", newOb("u", vars(x), assert(Gt(Add(r(z), r(x)), r(y)))), "undeclared variable z in z + x > y"},
		{"undeclared under a quantifier", newOb("u", vars(x),
			assert(&Quant{Bound: vars(i), Body: Gt(r(i), r(y))})), "undeclared variable y in forall i: int :: i > y"},
		{"undeclared before a bound program variable", newOb("u", vars(x),
			assert(And(&Quant{Bound: vars(x), Body: Gt(r(x), n(0))}, Gt(r(y), n(0))))),
			"undeclared variable y in (forall x: int :: x > 0) && y > 0"},
		{"bound program variable", newOb("b", vars(x, y),
			assert(&Quant{Bound: vars(i, x, j, y), Body: Gt(r(x), n(0))})), "quantifier binds the program variable y"},
		{"first quantifier binding one", newOb("b", vars(x, y), assert(And(
			&Quant{Bound: vars(i), Body: &Quant{Bound: vars(y), Body: Gt(r(i), r(y))}},
			&Quant{Bound: vars(x), Body: Gt(r(x), n(0))}))), "quantifier binds the program variable y"},
		{"a bound variable is free again after its quantifier", newOb("u", vars(x),
			assert(And(&Quant{Bound: vars(i), Body: Gt(r(i), n(0))}, Gt(r(i), n(0))))),
			"undeclared variable i in (forall i: int :: i > 0) && i > 0"},
		{"duplicate name", newOb("d", vars(x, intVar("x")), assert(True())), `two variables named "x"`},
		{"duplicate var", newOb("d", vars(x, x), assert(True())), "variable x declared twice"},
		{"assume not bool", newOb("s", vars(x), &Assume{E: r(x)}), "x has sort int, want bool, in x"},
		{"ill-sorted", newOb("s", vars(x, p), assume(Gt(r(p), n(0)))), "p has sort bool, want int, in p > 0"},
		{"assign sort", newOb("s", vars(x, p), set(x, r(p))), "assignment to x: p has sort bool, want int, in p"},
		{"assign count", newOb("c", vars(x, y), &Assign{Lhs: vars(x, y), Rhs: []Expr{n(1)}}), "assignment of 1 expressions to 2 variables"},
		{"assign twice", newOb("c", vars(x, y), &Assign{Lhs: vars(x, y, x), Rhs: []Expr{n(1), n(2), n(3)}}), "variable x assigned twice in one assignment"},
		{"assign undeclared", newOb("c", vars(x), set(y, n(1))), "assignment to undeclared variable y"},
		{"havoc undeclared", newOb("h", vars(x), havoc(y)), "havoc of undeclared variable y"},
		{"assert reused", newOb("a", vars(x), a, a), "assert true occurs twice"},
		{"nil body", &Obligation{Name: "n", Vars: vars(x)}, "obligation without a body"},
	}
	for _, c := range cases {
		err := c.ob.Validate()
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestInspectShape checks the shape Inspect returns with a valid
// obligation.
func TestInspectShape(t *testing.T) {
	x, i, p := intVar("x"), intVar("i"), boolVar("p")
	ss := &SeqSort{Elem: IntSort}
	s := &Var{Name: "s", Sort: ss}
	m := &Var{Name: "m", Sort: &MapSort{Key: IntSort, Val: &SeqSort{Elem: BoolSort}}}
	sb := &Var{Name: "sb", Sort: ss}
	q := &Quant{Bound: vars(i), Body: Gt(r(i), r(x))}
	for _, c := range []struct {
		name string
		ob   *Obligation
		want Shape
	}{
		{"plain", newOb("a", vars(x), assume(Gt(r(x), n(0))), assert(Gt(r(x), n(1)))), Shape{}},
		{"quantified assume", newOb("a", vars(x), assume(q), assert(True())), Shape{Quantified: true}},
		{"quantified assignment", newOb("a", vars(x, p), set(p, q), assert(True())), Shape{Quantified: true}},
		{"quantifier in a branch", newOb("a", vars(x), choice(assume(True()), assert(q))), Shape{Quantified: true}},
		{"a sequence variable", newOb("b", vars(x, s), assert(Gt(r(x), n(1)))), Shape{Sequences: true}},
		{"a map to sequences", newOb("c", vars(x, m), assert(Gt(r(x), n(1)))), Shape{Sequences: true}},
		{"a sequence operation", newOb("d", vars(x), assert(Gt(SeqLength(&SeqApp{Op: SeqLit, S: ss}, ss), r(x)))), Shape{Sequences: true}},
		{"a bound sequence", newOb("e", vars(x), assert(&Quant{Bound: vars(sb), Body: True()})), Shape{Quantified: true, Sequences: true}},
	} {
		got, err := c.ob.Inspect()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
		if UsesSequences(c.ob) != got.Sequences {
			t.Errorf("%s: Sequences %v, UsesSequences %v", c.name, got.Sequences, !got.Sequences)
		}
	}
}

// TestPathBound checks the bound on Relation's paths against the paths
// it enumerates.
func TestPathBound(t *testing.T) {
	x := intVar("x")
	two := choice(set(x, n(1)), set(x, n(2)))
	three := choice(set(x, n(1)), seq(assume(Gt(r(x), n(0))), two))
	for _, c := range []struct {
		cmd  Cmd
		want int
	}{
		{set(x, n(1)), 1},
		{two, 2},
		{three, 3},
		{seq(two, three), 6},
		{seq(three, three, three, three, three, three, three), 1025}, // 2187, capped at limit+1
		{choice(), 0},
	} {
		if got := PathBound(c.cmd, 1024); got != c.want {
			t.Errorf("PathBound(%s) = %d, want %d", c.cmd, got, c.want)
		}
		if c.want > 0 && c.want <= 1024 {
			rel, err := Relation(c.cmd, nil, map[*Var]Expr{x: r(x)})
			if err != nil {
				t.Fatalf("Relation(%s): %v", c.cmd, err)
			}
			if paths := len(flattenOr(rel)); paths > c.want {
				t.Errorf("Relation(%s) has %d paths, bound %d", c.cmd, paths, c.want)
			}
		}
	}
	many := seq(three, three, three, three, three, three, three)
	if _, err := Relation(many, nil, nil); err == nil {
		t.Errorf("Relation of %d paths did not fail", 2187)
	}
}

// flattenOr returns the disjuncts of e.
func flattenOr(e Expr) []Expr {
	if b, ok := e.(*Binary); ok && b.Op == OpOr {
		return append(flattenOr(b.X), flattenOr(b.Y)...)
	}
	return []Expr{e}
}

// TestOpensWithAssume checks which commands extend an opening.
func TestOpensWithAssume(t *testing.T) {
	x := intVar("x")
	a := assume(Gt(r(x), n(0)))
	for _, c := range []struct {
		cmd  Cmd
		want bool
	}{
		{a, true},
		{seq(a, set(x, n(1))), true},
		{&Seq{Cmds: []Cmd{&Seq{}, a}}, true},
		{set(x, n(1)), false},
		{seq(), false},
		{seq(set(x, n(1)), a), false},
		{choice(a), false},
		{assert(True()), false},
	} {
		if got := OpensWithAssume(c.cmd); got != c.want {
			t.Errorf("OpensWithAssume(%s) = %v, want %v", c.cmd, got, c.want)
		}
	}
}
