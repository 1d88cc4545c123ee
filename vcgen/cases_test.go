package vcgen

// proveCase is an obligation with its expected verdicts, one per assert in
// program order. Every case is also dumped as SMT-LIB2 and given to the z3
// binary, which must agree.
type proveCase struct {
	ob   *Obligation
	want []Verdict
}

const (
	P = Proven
	F = Failed
)

// proveCases returns fresh test obligations covering every command kind,
// maps (nested too), quantifiers and choice, with valid and invalid
// asserts.
func proveCases() []proveCase {
	var cs []proveCase
	add := func(ob *Obligation, want ...Verdict) { cs = append(cs, proveCase{ob, want}) }

	x, y, a, b := intVar("x"), intVar("y"), intVar("a"), intVar("b")
	add(newOb("assume_assign_assert", vars(x),
		assume(Gt(r(x), n(0))), set(x, Add(r(x), n(1))), assert(Gt(r(x), n(1)))), P)
	add(newOb("assign_assert_fails", vars(x),
		set(x, Add(r(x), n(1))), assert(Gt(r(x), n(1)))), F)
	add(newOb("havoc_fails", vars(x), havoc(x), assert(Gt(r(x), n(0)))), F)
	add(newOb("havoc_assume", vars(x),
		havoc(x), assume(Gt(r(x), n(5))), assert(Gt(r(x), n(0)))), P)
	add(newOb("parallel_swap", vars(x, y, a, b),
		&Assign{Lhs: vars(a, b), Rhs: []Expr{r(x), r(y)}},
		&Assign{Lhs: vars(x, y), Rhs: []Expr{r(y), r(x)}},
		assert(And(Eq(r(x), r(b)), Eq(r(y), r(a))))), P)
	add(newOb("sequential_swap_fails", vars(x, y, a),
		set(a, r(x)), set(x, r(y)), set(y, r(x)), assert(Eq(r(y), r(a)))), F)
	add(newOb("choice", vars(x),
		choice(set(x, n(1)), set(x, n(2))),
		assert(Ge(r(x), n(1))), assert(Eq(r(x), n(1)))), P, F)
	add(newOb("empty_choice_blocks", vars(x), choice(), assert(False())), P)
	add(newOb("earlier_asserts_assumed", vars(x),
		assert(Gt(r(x), n(0))), assert(Gt(r(x), n(0))), assert(Gt(r(x), n(5)))), F, P, F)
	add(newOb("choice_havoc_branch", vars(x),
		choice(havoc(x), set(x, n(0))), assert(Eq(r(x), n(0)))), F)
	add(newOb("assert_in_branch", vars(x),
		choice(assert(Gt(r(x), n(0))), seq()), assert(Ge(r(x), n(-100)))), F, F)
	add(newOb("nested_choice", vars(x, y),
		choice(seq(set(y, n(1)), choice(set(x, n(10)), set(x, n(20)))), seq(set(y, n(2)), set(x, n(30)))),
		assert(Or(Eq(r(x), n(10)), Eq(r(x), n(20)), Eq(r(x), n(30)))),
		assert(Implies(Eq(r(y), n(1)), Le(r(x), n(20)))),
		assert(Ne(r(x), n(20)))), P, P, F)

	m, m2 := mapVar("m", IntSort, IntSort), mapVar("m2", IntSort, IntSort)
	k := intVar("k")
	add(newOb("map_update", vars(m),
		AssignIndex(m, []Expr{n(3)}, n(5)),
		assert(Eq(Index(r(m), n(3)), n(5))), assert(Eq(Index(r(m), n(4)), n(5)))), P, F)
	add(newOb("map_symbolic_key", vars(m, k, x),
		set(x, Index(r(m), r(k))), AssignIndex(m, []Expr{r(k)}, Add(r(x), n(1))),
		assert(Gt(Index(r(m), r(k)), r(x))), assert(Eq(Index(r(m), n(0)), r(x)))), P, F)
	add(newOb("map_extensional", vars(m, m2),
		set(m2, r(m)), AssignIndex(m2, []Expr{n(1)}, Index(r(m), n(1))),
		assert(Eq(r(m2), r(m)))), P)
	add(newOb("map_extensional_fails", vars(m, m2),
		set(m2, r(m)), AssignIndex(m2, []Expr{n(1)}, n(7)),
		assert(Eq(r(m2), r(m)))), F)

	nm := mapVar("n", IntSort, &MapSort{Key: IntSort, Val: BoolSort})
	add(newOb("nested_map", vars(nm),
		AssignIndex(nm, []Expr{n(1), n(2)}, True()),
		assert(Index(Index(r(nm), n(1)), n(2))),
		assert(Index(Index(r(nm), n(1)), n(3)))), P, F)

	i := intVar("i")
	add(newOb("forall_assume", vars(m),
		assume(Forall(vars(i), Ge(Index(r(m), r(i)), n(0)))),
		assert(Ge(Index(r(m), n(7)), n(0))),
		assert(Exists(vars(i), Gt(Index(r(m), r(i)), n(0))))), P, F)
	shadow := intVar("x") // a bound variable named like the program variable x
	add(newOb("bound_name_clash", vars(x),
		assume(Eq(r(x), n(5))),
		assert(Forall(vars(shadow), Eq(Add(r(shadow), n(0)), r(shadow)))),
		assert(Forall(vars(shadow), Implies(Eq(r(shadow), r(x)), Gt(r(shadow), n(4))))),
		assert(Forall(vars(shadow), Gt(r(shadow), r(x))))), P, P, F)

	add(newOb("div_mod", vars(x),
		assert(And(Ge(Mod(r(x), n(3)), n(0)), Lt(Mod(r(x), n(3)), n(3)))),
		assert(Eq(Add(Mul(n(3), Div(r(x), n(3))), Mod(r(x), n(3))), r(x))),
		assert(Eq(Mul(Div(r(x), n(2)), n(2)), r(x)))), P, P, F)
	add(newOb("ite_abs", vars(x, y),
		set(y, IfThenElse(Gt(r(x), n(0)), r(x), Neg(r(x)))),
		assert(Ge(r(y), n(0))), assert(Gt(r(y), n(0)))), P, F)

	p, q := boolVar("p"), boolVar("q")
	add(newOb("booleans", vars(p, q),
		assume(Implies(r(p), r(q))), assume(r(p)),
		assert(r(q)), assert(Iff(r(p), r(q))), assert(Not(r(q)))), P, P, F)
	add(newOb("no_asserts", vars(x), set(x, n(1))))
	return cs
}
