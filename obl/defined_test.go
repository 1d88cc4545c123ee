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
