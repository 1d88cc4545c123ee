package smt

import "github.com/lipton-dev/lipton/obl"

// proveCase is an obligation with its expected verdicts, one per assert in
// program order. Every case is also dumped as SMT-LIB2 and given to the z3
// binary, which must agree.
type proveCase struct {
	ob   *obl.Obligation
	want []obl.Verdict
}

const (
	P = obl.Proven
	F = obl.Failed
)

// proveCases returns fresh test obligations covering every command kind,
// maps (nested too), quantifiers and choice, with valid and invalid
// asserts.
func proveCases() []proveCase {
	var cs []proveCase
	add := func(ob *obl.Obligation, want ...obl.Verdict) { cs = append(cs, proveCase{ob, want}) }

	x, y, a, b := intVar("x"), intVar("y"), intVar("a"), intVar("b")
	add(newOb("assume_assign_assert", vars(x),
		assume(obl.Gt(r(x), n(0))), set(x, obl.Add(r(x), n(1))), assert(obl.Gt(r(x), n(1)))), P)
	add(newOb("assign_assert_fails", vars(x),
		set(x, obl.Add(r(x), n(1))), assert(obl.Gt(r(x), n(1)))), F)
	add(newOb("havoc_fails", vars(x), havoc(x), assert(obl.Gt(r(x), n(0)))), F)
	add(newOb("havoc_assume", vars(x),
		havoc(x), assume(obl.Gt(r(x), n(5))), assert(obl.Gt(r(x), n(0)))), P)
	add(newOb("parallel_swap", vars(x, y, a, b),
		&obl.Assign{Lhs: vars(a, b), Rhs: []obl.Expr{r(x), r(y)}},
		&obl.Assign{Lhs: vars(x, y), Rhs: []obl.Expr{r(y), r(x)}},
		assert(obl.And(obl.Eq(r(x), r(b)), obl.Eq(r(y), r(a))))), P)
	add(newOb("sequential_swap_fails", vars(x, y, a),
		set(a, r(x)), set(x, r(y)), set(y, r(x)), assert(obl.Eq(r(y), r(a)))), F)
	add(newOb("choice", vars(x),
		choice(set(x, n(1)), set(x, n(2))),
		assert(obl.Ge(r(x), n(1))), assert(obl.Eq(r(x), n(1)))), P, F)
	add(newOb("empty_choice_blocks", vars(x), choice(), assert(obl.False())), P)
	add(newOb("earlier_asserts_assumed", vars(x),
		assert(obl.Gt(r(x), n(0))), assert(obl.Gt(r(x), n(0))), assert(obl.Gt(r(x), n(5)))), F, P, F)
	add(newOb("choice_havoc_branch", vars(x),
		choice(havoc(x), set(x, n(0))), assert(obl.Eq(r(x), n(0)))), F)
	add(newOb("assert_in_branch", vars(x),
		choice(assert(obl.Gt(r(x), n(0))), seq()), assert(obl.Ge(r(x), n(-100)))), F, F)
	add(newOb("nested_choice", vars(x, y),
		choice(seq(set(y, n(1)), choice(set(x, n(10)), set(x, n(20)))), seq(set(y, n(2)), set(x, n(30)))),
		assert(obl.Or(obl.Eq(r(x), n(10)), obl.Eq(r(x), n(20)), obl.Eq(r(x), n(30)))),
		assert(obl.Implies(obl.Eq(r(y), n(1)), obl.Le(r(x), n(20)))),
		assert(obl.Ne(r(x), n(20)))), P, P, F)

	m, m2 := mapVar("m", obl.IntSort, obl.IntSort), mapVar("m2", obl.IntSort, obl.IntSort)
	k := intVar("k")
	add(newOb("map_update", vars(m), obl.AssignIndex(m, []obl.Expr{n(3)}, n(5)), assert(obl.Eq(obl.Index(r(m), n(3)), n(5))), assert(obl.Eq(obl.Index(r(m), n(4)), n(5)))), P, F)
	add(newOb("map_symbolic_key", vars(m, k, x),
		set(x, obl.Index(r(m), r(k))), obl.AssignIndex(m, []obl.Expr{r(k)}, obl.Add(r(x), n(1))), assert(obl.Gt(obl.Index(r(m), r(k)), r(x))), assert(obl.Eq(obl.Index(r(m), n(0)), r(x)))), P, F)
	add(newOb("map_extensional", vars(m, m2),
		set(m2, r(m)), obl.AssignIndex(m2, []obl.Expr{n(1)}, obl.Index(r(m), n(1))), assert(obl.Eq(r(m2), r(m)))), P)
	add(newOb("map_extensional_fails", vars(m, m2),
		set(m2, r(m)), obl.AssignIndex(m2, []obl.Expr{n(1)}, n(7)), assert(obl.Eq(r(m2), r(m)))), F)

	nm := mapVar("n", obl.IntSort, &obl.MapSort{Key: obl.IntSort, Val: obl.BoolSort})
	add(newOb("nested_map", vars(nm), obl.AssignIndex(nm, []obl.Expr{n(1), n(2)}, obl.True()), assert(obl.Index(obl.Index(r(nm), n(1)), n(2))),
		assert(obl.Index(obl.Index(r(nm), n(1)), n(3)))), P, F)

	i := intVar("i")
	add(newOb("forall_assume", vars(m),
		assume(obl.Forall(vars(i), obl.Ge(obl.Index(r(m), r(i)), n(0)))),
		assert(obl.Ge(obl.Index(r(m), n(7)), n(0))),
		assert(obl.Exists(vars(i), obl.Gt(obl.Index(r(m), r(i)), n(0))))), P, F)
	shadow := intVar("x") // a bound variable named like the program variable x
	add(newOb("bound_name_clash", vars(x),
		assume(obl.Eq(r(x), n(5))),
		assert(obl.Forall(vars(shadow), obl.Eq(obl.Add(r(shadow), n(0)), r(shadow)))),
		assert(obl.Forall(vars(shadow), obl.Implies(obl.Eq(r(shadow), r(x)), obl.Gt(r(shadow), n(4))))),
		assert(obl.Forall(vars(shadow), obl.Gt(r(shadow), r(x))))), P, P, F)

	add(newOb("div_mod", vars(x),
		assert(obl.And(obl.Ge(obl.Mod(r(x), n(3)), n(0)), obl.Lt(obl.Mod(r(x), n(3)), n(3)))),
		assert(obl.Eq(obl.Add(obl.Mul(n(3), obl.Div(r(x), n(3))), obl.Mod(r(x), n(3))), r(x))),
		assert(obl.Eq(obl.Mul(obl.Div(r(x), n(2)), n(2)), r(x)))), P, P, F)
	add(newOb("ite_abs", vars(x, y),
		set(y, obl.IfThenElse(obl.Gt(r(x), n(0)), r(x), obl.Neg(r(x)))),
		assert(obl.Ge(r(y), n(0))), assert(obl.Gt(r(y), n(0)))), P, F)

	p, q := boolVar("p"), boolVar("q")
	add(newOb("booleans", vars(p, q),
		assume(obl.Implies(r(p), r(q))), assume(r(p)),
		assert(r(q)), assert(obl.Iff(r(p), r(q))), assert(obl.Not(r(q)))), P, P, F)
	add(newOb("no_asserts", vars(x), set(x, n(1))))
	return cs
}
