package obl

import (
	"strings"
	"testing"
)

func TestPrinter(t *testing.T) {
	x, y := intVar("x"), intVar("y")
	p, q := boolVar("p"), boolVar("q")
	m := mapVar("m", IntSort, IntSort)
	i := intVar("i")
	cases := []struct {
		e    Expr
		want string
	}{
		{Add(r(x), n(1)), "x + 1"},
		{Mul(Add(r(x), n(1)), r(y)), "(x + 1) * y"},
		{Sub(r(x), Sub(r(y), n(1))), "x - (y - 1)"},
		{Sub(Sub(r(x), r(y)), n(1)), "x - y - 1"},
		{Add(r(x), n(-3)), "x + -3"},
		{Neg(Add(r(x), r(y))), "-(x + y)"},
		{Not(Eq(r(x), r(y))), "!(x == y)"},
		{Implies(Implies(r(p), r(q)), r(p)), "(p ==> q) ==> p"},
		{Implies(r(p), Implies(r(q), r(p))), "p ==> q ==> p"},
		{Iff(And(r(p), r(q)), Or(r(p), r(q))), "p && q <==> p || q"},
		{And(Or(r(p), r(q)), r(p)), "(p || q) && p"},
		{Index(Update(r(m), r(x), n(1)), r(y)), "m[x := 1][y]"},
		{Forall(vars(i), Ge(Index(r(m), r(i)), n(0))), "forall i: int :: m[i] >= 0"},
		{And(r(p), Exists(vars(i), Eq(r(i), r(x)))), "p && (exists i: int :: i == x)"},
		{IfThenElse(r(p), r(x), r(y)), "if p then x else y"},
		{Add(IfThenElse(r(p), r(x), r(y)), n(1)), "(if p then x else y) + 1"},
		{Mod(Div(r(x), n(2)), n(3)), "x / 2 % 3"},
		{Div(r(x), Mod(r(y), n(3))), "x / (y % 3)"},
	}
	for _, c := range cases {
		if got := c.e.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

func TestPrinterDisambiguatesNames(t *testing.T) {
	x1, x2 := intVar("x"), intVar("x")
	if got := Add(r(x1), r(x2)).String(); got != "x + x_1" {
		t.Errorf("got %s, want x + x_1", got)
	}
}

func TestConstructorsFold(t *testing.T) {
	x := intVar("x")
	p := boolVar("p")
	cases := []struct {
		e    Expr
		want string
	}{
		{And(True(), r(p), True()), "p"},
		{And(r(p), False()), "false"},
		{And(), "true"},
		{Or(False(), r(p)), "p"},
		{Or(r(p), True()), "true"},
		{Or(), "false"},
		{Not(Not(r(p))), "p"},
		{Implies(True(), r(p)), "p"},
		{Implies(r(p), False()), "!p"},
		{Iff(r(p), True()), "p"},
		{Eq(r(x), r(x)), "true"},
		{Eq(n(1), n(2)), "false"},
		{Ne(n(1), n(2)), "true"},
		{Add(n(2), n(3)), "5"},
		{Add(r(x), n(0)), "x"},
		{Mul(n(1), r(x)), "x"},
		{Mul(r(x), n(0)), "0"},
		{Sub(n(2), n(5)), "-3"},
		{Neg(n(4)), "-4"},
		{Neg(Neg(r(x))), "x"},
		{Div(n(-7), n(2)), "-4"},
		{Mod(n(-7), n(2)), "1"},
		{Div(n(7), n(-2)), "-3"},
		{Mod(n(7), n(-2)), "1"},
		{Div(r(x), n(0)), "x / 0"},
		{Lt(n(1), n(2)), "true"},
		{Ge(n(1), n(2)), "false"},
		{IfThenElse(True(), r(x), n(1)), "x"},
		{IfThenElse(r(p), r(x), r(x)), "x"},
		{Index(Update(Ref(mapVar("m", IntSort, IntSort)), r(x), n(5)), r(x)), "5"},
		{Index(Update(Update(Ref(mapVar("m", IntSort, IntSort)), n(1), n(5)), n(2), n(6)), n(1)), "5"},
		{Index(Update(Ref(mapVar("m", IntSort, IntSort)), r(x), n(5)), n(1)), "m[x := 5][1]"},
		{Forall(vars(intVar("i")), r(p)), "p"},
	}
	for _, c := range cases {
		if got := c.e.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

func TestSubstParallel(t *testing.T) {
	x, y := intVar("x"), intVar("y")
	e := Sub(r(x), r(y))
	got := Subst(e, map[*Var]Expr{x: r(y), y: r(x)})
	if got.String() != "y - x" {
		t.Errorf("swap: got %s", got)
	}
	if Subst(e, map[*Var]Expr{}) != e {
		t.Error("empty substitution did not return e itself")
	}
	z := intVar("z")
	if Subst(e, map[*Var]Expr{z: n(1)}) != e {
		t.Error("substitution of an absent variable rebuilt e")
	}
}

func TestSubstAvoidsCapture(t *testing.T) {
	x, y, i := intVar("x"), intVar("y"), intVar("i")
	// forall i :: i > x, with x := i + 1: the bound i must be renamed.
	q := Forall(vars(i), Gt(r(i), r(x)))
	got := Subst(q, map[*Var]Expr{x: Add(r(i), n(1))})
	if s := got.String(); s != "forall i_1: int :: i_1 > i + 1" {
		t.Errorf("got %s", s)
	}
	gq := got.(*Quant)
	if gq.Bound[0] == i {
		t.Error("bound variable was not renamed")
	}
	if fv := FreeVars(got); len(fv) != 1 || fv[0] != i {
		t.Errorf("free vars = %v, want the outer i", fv)
	}
	// Bound variables shadow the substitution.
	got = Subst(q, map[*Var]Expr{i: n(7), x: r(y)})
	if s := got.String(); s != "forall i: int :: i > y" {
		t.Errorf("shadowing: got %s", s)
	}
}

func TestFreeVarsOrder(t *testing.T) {
	x, y, i := intVar("x"), intVar("y"), intVar("i")
	e := And(Gt(r(y), r(x)), Forall(vars(i), Gt(r(i), r(y))), Lt(r(x), n(3)))
	fv := FreeVars(e)
	if len(fv) != 2 || fv[0] != y || fv[1] != x {
		t.Errorf("FreeVars = %v, want [y x]", fv)
	}
}

func TestSortOf(t *testing.T) {
	x, p := intVar("x"), boolVar("p")
	m := mapVar("m", IntSort, BoolSort)
	good := map[Expr]Sort{
		Add(r(x), n(1)):              IntSort,
		Index(r(m), r(x)):            BoolSort,
		Update(r(m), r(x), r(p)):     m.Sort,
		Eq(r(m), r(m)):               BoolSort,
		IfThenElse(r(p), r(m), r(m)): m.Sort,
	}
	for e, want := range good {
		got, err := SortOf(e)
		if err != nil || !SortEqual(got, want) {
			t.Errorf("SortOf(%s) = %v, %v; want %v", e, got, err, want)
		}
	}
	bad := []Expr{
		&Binary{OpAdd, r(x), r(p)},
		&Binary{OpAnd, r(x), r(p)},
		&Binary{OpEq, r(x), r(p)},
		&Select{r(m), r(p)},
		&Select{r(x), r(x)},
		&Store{r(m), r(x), n(1)},
		&Ite{r(x), n(1), n(2)},
		&Ite{r(p), n(1), r(p)},
		&Unary{OpNot, r(x)},
		&Quant{Bound: vars(x), Body: r(x)},
	}
	for _, e := range bad {
		if _, err := SortOf(e); err == nil {
			t.Errorf("SortOf(%s) succeeded", e)
		}
	}
	if !SortEqual(&MapSort{IntSort, &MapSort{IntSort, BoolSort}}, &MapSort{IntSort, &MapSort{IntSort, BoolSort}}) {
		t.Error("equal nested map sorts differ")
	}
	if SortEqual(IntSort, BoolSort) || SortEqual(m.Sort, IntSort) {
		t.Error("different sorts are equal")
	}
	if s := (&MapSort{IntSort, &MapSort{IntSort, BoolSort}}).String(); s != "[int][int]bool" {
		t.Errorf("sort prints as %s", s)
	}
}

func TestNamer(t *testing.T) {
	x := intVar("x")
	nm := NewNamer(x)
	if a, b, c := nm.Name("x"), nm.Name("x"), nm.Name("y"); a != "x_1" || b != "x_2" || c != "y" {
		t.Errorf("names %s %s %s", a, b, c)
	}
	if v := nm.Fresh("y", BoolSort); v.Name != "y_1" || v.Sort != BoolSort {
		t.Errorf("Fresh = %s: %v", v.Name, v.Sort)
	}
}

func TestValidate(t *testing.T) {
	x, y := intVar("x"), intVar("y")
	p := boolVar("p")
	a := assert(True())
	cases := map[string]*Obligation{
		"undeclared":       newOb("u", vars(x), assert(Gt(r(y), n(0)))),
		"duplicate name":   newOb("d", vars(x, intVar("x")), assert(True())),
		"duplicate var":    newOb("d", vars(x, x), assert(True())),
		"assume not bool":  newOb("s", vars(x), &Assume{E: r(x)}),
		"assign sort":      newOb("s", vars(x, p), set(x, r(p))),
		"assign count":     newOb("c", vars(x, y), &Assign{Lhs: vars(x, y), Rhs: []Expr{n(1)}}),
		"assign twice":     newOb("c", vars(x), &Assign{Lhs: vars(x, x), Rhs: []Expr{n(1), n(2)}}),
		"havoc undeclared": newOb("h", vars(x), havoc(y)),
		"bound program var": newOb("b", vars(x),
			assert(&Quant{Bound: vars(x), Body: Gt(r(x), n(0))})),
		"assert reused": newOb("a", vars(x), a, a),
		"nil body":      {Name: "n", Vars: vars(x)},
	}
	for name, ob := range cases {
		if err := ob.Validate(); err == nil {
			t.Errorf("%s: Validate accepted\n%s", name, ob)
		}
	}
}

func TestObligationString(t *testing.T) {
	x, y := intVar("x"), intVar("y")
	m := mapVar("m", IntSort, &MapSort{Key: IntSort, Val: IntSort})
	ob := &Obligation{
		Name: "demo", Kind: "commutativity",
		Vars: vars(x, y, m),
		Body: seq(
			assume(Gt(r(x), n(0))),
			set(x, Add(r(x), n(1))),
			&Assign{Lhs: vars(x, y), Rhs: []Expr{r(y), r(x)}},
			AssignIndex(m, []Expr{r(x), n(2)}, r(y)),
			havoc(x, y),
			choice(set(x, n(1)), seq(assume(Lt(r(y), n(0))), set(x, n(2)))),
			assert(Gt(r(x), n(1))),
		),
		Groups: []VarGroup{{"globals", vars(x, m)}},
	}
	want := `// obligation demo
// kind: commutativity
// globals
var x: int;
var m: [int][int]int;
// other
var y: int;

assume x > 0;
x := x + 1;
x, y := y, x;
m[x][2] := y;
havoc x, y;
choice {
  x := 1;
} or {
  assume y < 0;
  x := 2;
}
assert x > 1;  // test: must hold at t.lip:1:2
`
	if got := ob.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var b strings.Builder
	if _, err := ob.WriteTo(&b); err != nil || b.String() != want {
		t.Errorf("WriteTo: %v", err)
	}
}
