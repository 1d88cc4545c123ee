package obl

import "testing"

// TestDefined: the well-definedness condition of an expression asks for
// the divisors that its short-circuit evaluation reaches, and only those.
func TestDefined(t *testing.T) {
	x, y := &Var{Name: "x", Sort: IntSort}, &Var{Name: "y", Sort: IntSort}
	b := &Var{Name: "b", Sort: BoolSort}
	X, Y, B := Ref(x), Ref(y), Ref(b)
	div := &Binary{Op: OpDiv, X: X, Y: Y}
	for _, tc := range []struct {
		e    Expr
		want Expr
	}{
		{Add(X, Y), Bool(true)},
		{div, Ne(Y, Int(0))},
		{&Binary{Op: OpMod, X: X, Y: Int(2)}, Ne(Int(2), Int(0))},
		{And(Ne(Y, Int(0)), Lt(div, Int(3))), Implies(Ne(Y, Int(0)), Ne(Y, Int(0)))},
		{Or(B, Lt(div, Int(3))), Implies(Not(B), Ne(Y, Int(0)))},
		{&Ite{Cond: B, Then: div, Else: X}, Implies(B, Ne(Y, Int(0)))},
	} {
		if got := Defined(tc.e); !Equal(got, tc.want) {
			t.Errorf("Defined(%s) = %s, want %s", tc.e, got, tc.want)
		}
	}
}

// TestFoldsKeepPartialOperands: a fold never drops an operand that code
// evaluates and that may have no value, so that the definedness checks,
// taken on the folded expression, still see the division (found by the
// adversarial review: 1 / z == 1 / z was folded to true, and a division
// by zero went unreported). Operands that evaluation does not reach may
// still be dropped.
func TestFoldsKeepPartialOperands(t *testing.T) {
	x, z := &Var{Name: "x", Sort: IntSort}, &Var{Name: "z", Sort: IntSort}
	m := &Var{Name: "m", Sort: &MapSort{Key: IntSort, Val: IntSort}}
	X, Z, M := Ref(x), Ref(z), Ref(m)
	div := Div(X, Z)
	divIs1 := Eq(div, Int(1))
	for _, tc := range []struct {
		name    string
		e       Expr
		partial bool // whether the folded expression still divides by z
	}{
		{"x/z == x/z", Eq(div, div), true},
		{"x/z != x/z", Ne(div, div), true},
		{"0 * (x/z)", Mul(Int(0), div), true},
		{"(x/z) * 0", Mul(div, Int(0)), true},
		{"x/z == 1 && false", And(divIs1, False()), true},
		{"x/z == 1 || true", Or(divIs1, True()), true},
		{"x/z == 1 ==> true", Implies(divIs1, True()), true},
		{"if x/z == 1 then x else x", IfThenElse(divIs1, X, X), true},
		{"m[x/z := 1][x/z]", Index(Update(M, div, Int(1)), div), true},
		{"m[1 := x/z][2]", Index(Update(M, Int(1), div), Int(2)), true},
		{"false && x/z == 1", And(False(), divIs1), false},
		{"true || x/z == 1", Or(True(), divIs1), false},
		{"false ==> x/z == 1", Implies(False(), divIs1), false},
		{"x/2 == x/2", Eq(Div(X, Int(2)), Div(X, Int(2))), false},
	} {
		if got := Defined(tc.e); isTrue(got) == tc.partial {
			t.Errorf("%s: folded to %s, defined when %s; want a condition on z: %v", tc.name, tc.e, got, tc.partial)
		}
	}
	if e := Eq(Div(X, Int(2)), Div(X, Int(2))); !isTrue(e) {
		t.Errorf("x/2 == x/2 folded to %s, want true: a total operand may be dropped", e)
	}
}
