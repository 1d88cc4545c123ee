package z3

import (
	"context"
	"errors"
	"math/big"
	"os"
	"os/signal"
	"strings"
	"testing"
	"time"
)

// newTestContext returns a context closed at the end of the test.
func newTestContext(t *testing.T) *Context {
	t.Helper()
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ctx.Close)
	return ctx
}

// solve asserts fs on a fresh solver and checks it.
func solve(t *testing.T, ctx *Context, fs ...Term) (*Solver, Status) {
	t.Helper()
	s, err := ctx.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	st, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

func TestSatModelInt(t *testing.T) {
	ctx := newTestContext(t)
	x := ctx.Const("x", ctx.IntSort())
	s, st := solve(t, ctx, ctx.Gt(x, ctx.Int(0)), ctx.Lt(x, ctx.Int(2)))
	if st != Sat {
		t.Fatalf("got %v, want sat", st)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Int(x)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int64() != 1 {
		t.Errorf("x = %v, want 1", v)
	}
}

func TestUnsat(t *testing.T) {
	ctx := newTestContext(t)
	x := ctx.Const("x", ctx.IntSort())
	if _, st := solve(t, ctx, ctx.Gt(x, ctx.Int(0)), ctx.Lt(x, ctx.Int(1))); st != Unsat {
		t.Fatalf("got %v, want unsat", st)
	}
}

func TestBigIntRoundTripAndOverflow(t *testing.T) {
	ctx := newTestContext(t)
	big100 := new(big.Int).Lsh(big.NewInt(1), 100)
	neg := new(big.Int).Neg(big100)
	x := ctx.Const("x", ctx.IntSort())
	y := ctx.Const("y", ctx.IntSort())
	s, st := solve(t, ctx, ctx.Eq(x, ctx.BigInt(big100)), ctx.Eq(y, ctx.Sub(ctx.BigInt(neg), ctx.Int(1))))
	if st != Sat {
		t.Fatalf("got %v", st)
	}
	m, _ := s.Model()
	v, err := m.Int(x)
	if err != nil || v.Cmp(big100) != 0 {
		t.Fatalf("x = %v (%v), want 2^100", v, err)
	}
	w, err := m.Int(y)
	want := new(big.Int).Sub(neg, big.NewInt(1))
	if err != nil || w.Cmp(want) != 0 {
		t.Fatalf("y = %v (%v), want %v", w, err, want)
	}
	xv, _ := m.Eval(x, true)
	if _, err := xv.Int64(); !errors.Is(err, ErrOverflow) {
		t.Errorf("Int64 of 2^100: err = %v, want ErrOverflow", err)
	}
	small, _ := m.Eval(ctx.Int(-42), true)
	if n, err := small.Int64(); err != nil || n != -42 {
		t.Errorf("Int64 = %d, %v; want -42", n, err)
	}
}

// evalInt evaluates a ground integer term in the model of "true".
func evalInt(t *testing.T, ctx *Context, e Term) int64 {
	t.Helper()
	s, st := solve(t, ctx, ctx.Bool(true))
	if st != Sat {
		t.Fatal(st)
	}
	m, _ := s.Model()
	v, err := m.Eval(e, true)
	if err != nil {
		t.Fatal(err)
	}
	n, err := v.Int64()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestArithmetic(t *testing.T) {
	ctx := newTestContext(t)
	i := ctx.Int
	cases := []struct {
		name string
		e    Term
		want int64
	}{
		{"add", ctx.Add(i(1), i(2), i(3)), 6},
		{"add0", ctx.Add(), 0},
		{"sub", ctx.Sub(i(10), i(3), i(2)), 5},
		{"mul", ctx.Mul(i(-3), i(4)), -12},
		{"div", ctx.Div(i(7), i(2)), 3},
		{"div-neg", ctx.Div(i(-7), i(2)), -4},
		{"div-negdivisor", ctx.Div(i(7), i(-2)), -3},
		{"mod-neg", ctx.Mod(i(-7), i(2)), 1},
		{"mod-negdivisor", ctx.Mod(i(7), i(-2)), 1},
		{"neg", ctx.Neg(i(5)), -5},
		{"ite", ctx.Ite(ctx.Lt(i(1), i(2)), i(10), i(20)), 10},
		{"select-store", ctx.Select(ctx.Store(ctx.Const("a", ctx.ArraySort(ctx.IntSort(), ctx.IntSort())), i(1), i(9)), i(1)), 9},
	}
	for _, c := range cases {
		if got := evalInt(t, ctx, c.e); got != c.want {
			t.Errorf("%s: %s = %d, want %d", c.name, c.e, got, c.want)
		}
	}
}

func TestBooleanConnectives(t *testing.T) {
	ctx := newTestContext(t)
	p := ctx.Const("p", ctx.BoolSort())
	q := ctx.Const("q", ctx.BoolSort())
	x := ctx.Const("x", ctx.IntSort())
	y := ctx.Const("y", ctx.IntSort())
	valid := []Term{
		ctx.Iff(ctx.Implies(p, q), ctx.Or(ctx.Not(p), q)),
		ctx.Iff(ctx.Not(ctx.And(p, q)), ctx.Or(ctx.Not(p), ctx.Not(q))),
		ctx.Implies(ctx.Distinct(x, y), ctx.Not(ctx.Eq(x, y))),
		ctx.Iff(ctx.Le(x, y), ctx.Not(ctx.Gt(x, y))),
		ctx.Iff(ctx.Ge(x, y), ctx.Not(ctx.Lt(x, y))),
		ctx.And(),
		ctx.Not(ctx.Or()),
		ctx.Distinct(x),
	}
	for _, f := range valid {
		if _, st := solve(t, ctx, ctx.Not(f)); st != Unsat {
			t.Errorf("%s: negation is %v, want unsat", f, st)
		}
	}
	if _, st := solve(t, ctx, ctx.Not(ctx.Implies(p, ctx.And(p, q)))); st != Sat {
		t.Errorf("p ==> p && q should not be valid")
	}
}

func TestQuantifiers(t *testing.T) {
	ctx := newTestContext(t)
	x := ctx.Const("x", ctx.IntSort())
	y := ctx.Const("y", ctx.IntSort())
	// forall x :: exists y :: y > x is valid.
	f := ctx.Forall([]Term{x}, ctx.Exists([]Term{y}, ctx.Gt(y, x)))
	if _, st := solve(t, ctx, ctx.Not(f)); st != Unsat {
		t.Errorf("negation of %s is %v, want unsat", f, st)
	}
	// exists x :: forall y :: y > x is false.
	g := ctx.Exists([]Term{x}, ctx.Forall([]Term{y}, ctx.Gt(y, x)))
	if _, st := solve(t, ctx, g); st != Unsat {
		t.Errorf("%s is %v, want unsat", g, st)
	}
	if !strings.Contains(f.String(), "forall") {
		t.Errorf("String() = %s", f)
	}
}

func TestSortErrorBecomesGoError(t *testing.T) {
	ctx := newTestContext(t)
	x := ctx.Const("x", ctx.IntSort())
	b := ctx.Const("b", ctx.BoolSort())
	sum := ctx.Add(x, b)
	if !sum.IsZero() {
		t.Fatalf("Add(int, bool) = %s, want zero term", sum)
	}
	var zerr *Error
	if !errors.As(ctx.Err(), &zerr) || !strings.Contains(zerr.Msg, "ort mismatch") {
		t.Fatalf("Err() = %v, want a sort mismatch *Error", ctx.Err())
	}
	// The error is sticky: derived terms stay zero and Assert reports it.
	if !ctx.Gt(sum, x).IsZero() {
		t.Error("term built from a zero term is not zero")
	}
	s, err := ctx.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(ctx.Bool(true)); err == nil {
		t.Error("Assert with a pending error succeeded")
	}
	ctx.ClearErr()
	if err := s.Assert(ctx.Eq(x, ctx.Int(3))); err != nil {
		t.Fatalf("after ClearErr: %v", err)
	}
	if st, err := s.Check(context.Background()); st != Sat || err != nil {
		t.Fatalf("Check = %v, %v", st, err)
	}
	// Asserting a non-boolean is a Z3 error returned directly.
	if err := s.Assert(x); err == nil {
		t.Error("asserting an integer succeeded")
	}
	// Selecting with a wrong index sort is an error too.
	a := ctx.Const("a", ctx.ArraySort(ctx.IntSort(), ctx.BoolSort()))
	if !ctx.Select(a, b).IsZero() || ctx.Err() == nil {
		t.Error("select with a boolean index did not fail")
	}
}

func TestPushPop(t *testing.T) {
	ctx := newTestContext(t)
	x := ctx.Const("x", ctx.IntSort())
	s, st := solve(t, ctx, ctx.Gt(x, ctx.Int(0)))
	if st != Sat {
		t.Fatal(st)
	}
	if err := s.Push(); err != nil {
		t.Fatal(err)
	}
	s.Assert(ctx.Lt(x, ctx.Int(0)))
	if st, _ := s.Check(context.Background()); st != Unsat {
		t.Fatalf("inside push: %v", st)
	}
	if err := s.Pop(1); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Check(context.Background()); st != Sat {
		t.Fatalf("after pop: %v", st)
	}
	if err := s.Pop(5); err == nil {
		t.Error("popping more scopes than pushed succeeded")
	}
}

func TestModelArrays(t *testing.T) {
	ctx := newTestContext(t)
	I, B := ctx.IntSort(), ctx.BoolSort()
	a := ctx.Const("a", ctx.ArraySort(I, I))
	nested := ctx.Const("n", ctx.ArraySort(I, ctx.ArraySort(I, B)))
	s, st := solve(t, ctx,
		ctx.Eq(ctx.Select(a, ctx.Int(3)), ctx.Int(7)),
		ctx.Eq(ctx.Select(a, ctx.Int(4)), ctx.Int(-2)),
		ctx.Select(ctx.Select(nested, ctx.Int(1)), ctx.Int(2)),
		ctx.Not(ctx.Select(ctx.Select(nested, ctx.Int(1)), ctx.Int(5))))
	if st != Sat {
		t.Fatal(st)
	}
	m, _ := s.Model()
	arr, err := m.Array(a)
	if err != nil {
		t.Fatal(err)
	}
	got := lookup(t, arr)
	if got[3] != "7" || got[4] != "-2" {
		t.Errorf("a = %v, want a[3] = 7 and a[4] = -2", got)
	}
	outer, err := m.Array(nested)
	if err != nil {
		t.Fatal(err)
	}
	inner := outer.Default
	for _, e := range outer.Entries {
		if k, _ := e.Key.Int64(); k == 1 {
			inner = e.Value
		}
	}
	row, err := m.Array(inner)
	if err != nil {
		t.Fatal(err)
	}
	gotRow := lookup(t, row)
	if gotRow[2] != "true" || gotRow[5] != "false" {
		t.Errorf("n[1] = %v, want n[1][2] and !n[1][5]", gotRow)
	}
}

// lookup flattens an array value with integer keys into key -> value text,
// resolving indices not in Entries to the default under key -1000.
func lookup(t *testing.T, arr *Array) map[int64]string {
	t.Helper()
	out := map[int64]string{}
	def := "?"
	if !arr.Default.IsZero() {
		def = arr.Default.String()
	}
	for _, k := range []int64{2, 3, 4, 5} {
		out[k] = def
	}
	for _, e := range arr.Entries {
		k, err := e.Key.Int64()
		if err != nil {
			t.Fatal(err)
		}
		out[k] = e.Value.String()
	}
	for k, v := range out {
		out[k] = strings.ReplaceAll(strings.ReplaceAll(v, "(- ", "-"), ")", "")
	}
	return out
}

func TestModelArrayLambda(t *testing.T) {
	ctx := newTestContext(t)
	I := ctx.IntSort()
	a := ctx.Const("a", ctx.ArraySort(I, I))
	i := ctx.Const("i", I)
	s, st := solve(t, ctx,
		ctx.Forall([]Term{i}, ctx.Implies(ctx.Gt(i, ctx.Int(10)), ctx.Eq(ctx.Select(a, i), ctx.Int(7)))),
		ctx.Eq(ctx.Select(a, ctx.Int(3)), ctx.Int(4)))
	if st != Sat {
		t.Fatal(st)
	}
	m, _ := s.Model()
	arr, err := m.Array(a)
	if err == nil {
		// A finite decoding is acceptable only if it is right.
		got := lookup(t, arr)
		if got[3] != "4" {
			t.Errorf("a[3] = %s, want 4", got[3])
		}
		return
	}
	if !errors.Is(err, ErrNotFinite) {
		t.Fatalf("err = %v, want ErrNotFinite", err)
	}
	v, err := m.Int(ctx.Select(a, ctx.Int(3)))
	if err != nil || v.Int64() != 4 {
		t.Errorf("a[3] = %v (%v), want 4", v, err)
	}
}

func TestBoolModel(t *testing.T) {
	ctx := newTestContext(t)
	p := ctx.Const("p", ctx.BoolSort())
	q := ctx.Const("q", ctx.BoolSort())
	s, st := solve(t, ctx, ctx.Not(p), ctx.Iff(q, ctx.Not(p)))
	if st != Sat {
		t.Fatal(st)
	}
	m, _ := s.Model()
	pv, err1 := m.Bool(p)
	qv, err2 := m.Bool(q)
	if err1 != nil || err2 != nil || pv || !qv {
		t.Errorf("p = %v, q = %v (%v, %v)", pv, qv, err1, err2)
	}
	x, _ := m.Eval(ctx.Const("x", ctx.IntSort()), true)
	if _, err := x.BoolValue(); err == nil {
		t.Error("BoolValue of an integer succeeded")
	}
}

// fermat asserts x^3 + y^3 == z^3 with x, y, z > 0, which Z3 cannot settle.
func fermat(ctx *Context) []Term {
	x := ctx.Const("x", ctx.IntSort())
	y := ctx.Const("y", ctx.IntSort())
	z := ctx.Const("z", ctx.IntSort())
	zero := ctx.Int(0)
	return []Term{
		ctx.Gt(x, zero), ctx.Gt(y, zero), ctx.Gt(z, zero),
		ctx.Eq(ctx.Add(ctx.Mul(x, x, x), ctx.Mul(y, y, y)), ctx.Mul(z, z, z)),
	}
}

func TestCancel(t *testing.T) {
	ctx := newTestContext(t)
	s, _ := ctx.NewSolver()
	for _, f := range fermat(ctx) {
		s.Assert(f)
	}
	// The check never ends by itself (Fermat): only the cancellation,
	// whenever the timer fires, ends it.
	cctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	st, err := s.Check(cctx)
	if err != nil {
		t.Fatal(err)
	}
	if st != Unknown || s.ReasonUnknown() != "canceled" {
		t.Errorf("got %v (%s), want unknown (canceled)", st, s.ReasonUnknown())
	}
	// Already canceled: refused without running.
	if st, err := s.Check(cctx); st != Unknown || err != nil || s.ReasonUnknown() != "canceled" {
		t.Errorf("pre-canceled check: %v, %v, %s", st, err, s.ReasonUnknown())
	}
	// The context is usable for the next query.
	s2, st2 := solve(t, ctx, ctx.Gt(ctx.Int(2), ctx.Int(1)))
	if st2 != Sat {
		t.Errorf("after cancel: %v (%s)", st2, s2.ReasonUnknown())
	}
}

func TestUseAfterReleasePanics(t *testing.T) {
	ctx := newTestContext(t)
	m := ctx.Mark()
	x := ctx.Const("x", ctx.IntSort())
	ctx.Release(m)
	if ctx.Live() != m.n {
		t.Fatalf("Live() = %d after release, want %d", ctx.Live(), m.n)
	}
	_ = ctx.Const("y", ctx.IntSort()) // reuses x's slot
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "released") {
			t.Errorf("recover() = %v, want a use-after-release panic", r)
		}
	}()
	ctx.Add(x, x)
}

func TestSortAccessors(t *testing.T) {
	ctx := newTestContext(t)
	arr := ctx.ArraySort(ctx.IntSort(), ctx.ArraySort(ctx.IntSort(), ctx.BoolSort()))
	if arr.Kind() != ArrayKind || arr.Domain().Kind() != IntKind || arr.Range().Range().Kind() != BoolKind {
		t.Errorf("kinds of %s wrong", arr)
	}
	first, second := ctx.ArraySort(ctx.IntSort(), ctx.IntSort()), ctx.ArraySort(ctx.IntSort(), ctx.IntSort())
	if first != second {
		t.Error("array sorts are not cached")
	}
	if got := ctx.Const("x", ctx.BoolSort()).Sort().Kind(); got != BoolKind {
		t.Errorf("sort kind %v, want bool", got)
	}
}

// TestParallelContexts runs independent contexts on several goroutines.
func TestParallelContexts(t *testing.T) {
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func(g int) {
			ctx, err := NewContext()
			if err != nil {
				errs <- err
				return
			}
			defer ctx.Close()
			s, _ := ctx.NewSolver()
			x := ctx.Const("x", ctx.IntSort())
			for i := 0; i < 200; i++ {
				s.Push()
				s.Assert(ctx.Eq(ctx.Mul(x, ctx.Int(2)), ctx.Int(int64(2*i+g))))
				st, err := s.Check(context.Background())
				if err != nil {
					errs <- err
					return
				}
				if want := map[bool]Status{true: Sat, false: Unsat}[g%2 == 0]; st != want {
					errs <- errors.New("wrong answer " + st.String())
					return
				}
				s.Pop(1)
			}
			errs <- nil
		}(g)
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestInterruptIsCleared checks that a context is fully usable after a
// check was interrupted: Z3 keeps a context canceled until the next check
// starts, so without the binding's reset a push would fail.
func TestInterruptIsCleared(t *testing.T) {
	ctx := newTestContext(t)
	s, _ := ctx.NewSolver()
	for _, f := range fermat(ctx) {
		s.Assert(f)
	}
	cctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if st, _ := s.Check(cctx); st != Unknown {
		t.Fatalf("check = %v, want unknown", st)
	}
	if err := s.Push(); err != nil {
		t.Fatalf("push after an interrupted check: %v", err)
	}
	x := ctx.Const("w", ctx.IntSort())
	if ctx.Gt(x, ctx.Int(1)).IsZero() {
		t.Fatalf("term after an interrupted check: %v", ctx.Err())
	}
}

// TestLateInterruptIsCleared makes the interrupt arrive after Z3 finished
// the check it was meant for, which leaves a Z3 context canceled, and
// checks that the binding clears it.
func TestLateInterruptIsCleared(t *testing.T) {
	ctx := newTestContext(t)
	s, _ := ctx.NewSolver()
	cctx, cancel := context.WithCancel(context.Background())
	interrupted := make(chan struct{})
	afterInterruptHook = func() { close(interrupted) }
	afterCheckHook = func() {
		cancel()
		<-interrupted // the watcher has interrupted Z3, after the check
	}
	st, err := s.Check(cctx)
	afterCheckHook, afterInterruptHook = nil, nil
	if st != Sat || err != nil {
		t.Fatalf("check = %v, %v; want sat", st, err)
	}
	if err := s.Push(); err != nil {
		t.Fatalf("push after a late interrupt: %v", err)
	}
}

// TestEarlyInterruptIsNotLost makes the interrupt arrive after the
// binding started watching the cancellation but before Z3's check begins:
// the check must still end as canceled. The check never ends by itself
// (Fermat); the resource limit only keeps a regression from hanging the
// suite.
func TestEarlyInterruptIsNotLost(t *testing.T) {
	ctx := newTestContext(t)
	s, _ := ctx.NewSolver()
	for _, f := range fermat(ctx) {
		s.Assert(f)
	}
	if err := s.SetRLimit(2_000_000); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(context.Background())
	interrupted := make(chan struct{})
	afterInterruptHook = func() { close(interrupted) }
	beforeCheckHook = func() {
		cancel()
		<-interrupted // the first interrupt arrived before the check
	}
	st, err := s.Check(cctx)
	beforeCheckHook, afterInterruptHook = nil, nil
	if err != nil {
		t.Fatal(err)
	}
	if st != Unknown || s.ReasonUnknown() != "canceled" {
		t.Fatalf("got %v (%s), want unknown (canceled)", st, s.ReasonUnknown())
	}
}

func TestCheckAssuming(t *testing.T) {
	ctx := newTestContext(t)
	x := ctx.Const("x", ctx.IntSort())
	a := ctx.Const("a", ctx.BoolSort())
	s, st := solve(t, ctx, ctx.Implies(a, ctx.Lt(x, ctx.Int(0))), ctx.Gt(x, ctx.Int(0)))
	if st != Sat {
		t.Fatal(st)
	}
	if st, err := s.CheckAssuming(context.Background(), a); st != Unsat || err != nil {
		t.Errorf("assuming a: %v, %v; want unsat", st, err)
	}
	if st, err := s.CheckAssuming(context.Background(), ctx.Not(a)); st != Sat || err != nil {
		t.Errorf("assuming !a: %v, %v; want sat", st, err)
	}
	if st, _ := s.Check(context.Background()); st != Sat {
		t.Errorf("the assumption outlived its check: %v", st)
	}
}

func TestFuncAndAsArray(t *testing.T) {
	ctx := newTestContext(t)
	I := ctx.IntSort()
	f := ctx.Func("f", I, I)
	s, st := solve(t, ctx,
		ctx.Eq(ctx.Apply(f, ctx.Int(1)), ctx.Int(5)),
		ctx.Eq(ctx.Apply(f, ctx.Int(2)), ctx.Int(7)),
		ctx.Eq(ctx.Select(ctx.AsArray(f), ctx.Int(3)), ctx.Int(9)))
	if st != Sat {
		t.Fatal(st)
	}
	m, _ := s.Model()
	// Through evaluation (a store chain in Z3 4.8.12) and through f's
	// interpretation in the model (the as-array shape of other versions).
	evaluated, err := m.Array(ctx.AsArray(f))
	if err != nil {
		t.Fatal(err)
	}
	interpreted, err := m.decodeArray(ctx.AsArray(f))
	if err != nil {
		t.Fatal(err)
	}
	for name, arr := range map[string]*Array{"evaluated": evaluated, "interpreted": interpreted} {
		got := lookup(t, arr)
		if got[2] != "7" || got[3] != "9" {
			t.Errorf("%s: f = %v, want f(2) = 7, f(3) = 9", name, got)
		}
	}
	if ctx.Apply(f, ctx.Bool(true)); ctx.Err() == nil {
		t.Error("applying f to a boolean did not fail")
	}
}

func TestSimpleSolver(t *testing.T) {
	ctx := newTestContext(t)
	s, err := ctx.NewSimpleSolver()
	if err != nil {
		t.Fatal(err)
	}
	x := ctx.Const("x", ctx.IntSort())
	s.Assert(ctx.Eq(ctx.Mul(ctx.Int(3), x), ctx.Int(12)))
	if st, err := s.Check(context.Background()); st != Sat || err != nil {
		t.Fatalf("%v, %v", st, err)
	}
	m, _ := s.Model()
	if v, err := m.Int(x); err != nil || v.Int64() != 4 {
		t.Errorf("x = %v, %v; want 4", v, err)
	}
	if !strings.Contains(s.String(), "(declare-fun x () Int)") {
		t.Errorf("String() = %q", s.String())
	}
}

func TestResetAndEvalWithoutCompletion(t *testing.T) {
	ctx := newTestContext(t)
	x := ctx.Const("x", ctx.IntSort())
	y := ctx.Const("y", ctx.IntSort())
	s, st := solve(t, ctx, ctx.Eq(x, ctx.Int(3)), ctx.Lt(x, ctx.Int(0)))
	if st != Unsat {
		t.Fatal(st)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	s.Assert(ctx.Eq(x, ctx.Int(3)))
	if st, _ := s.Check(context.Background()); st != Sat {
		t.Fatalf("after Reset: %v, want sat", st)
	}
	m, _ := s.Model()
	// Without completion, y (absent from the model) stays symbolic.
	v, err := m.Eval(ctx.Add(x, y), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.BigInt(); err == nil {
		t.Errorf("x + y without completion = %s, want a non-numeral", v)
	}
	if v, err := m.Eval(ctx.Add(x, y), true); err != nil || v.IsZero() {
		t.Fatalf("with completion: %v", err)
	} else if _, err := v.BigInt(); err != nil {
		t.Errorf("x + y with completion = %s, want a numeral", v)
	}
}

func TestInterruptible(t *testing.T) {
	ctx := newTestContext(t)
	s, _ := ctx.NewSolver()
	x := ctx.Const("x", ctx.IntSort())
	s.Assert(ctx.Gt(x, ctx.Int(3)))
	if st, _ := s.Check(context.Background()); st != Sat {
		t.Fatal(st)
	}
	m, _ := s.Model()
	// Not canceled: f runs normally.
	var v *big.Int
	var err error
	if ctx.Interruptible(context.Background(), func() { v, err = m.Int(x) }) || err != nil || v.Int64() <= 3 {
		t.Errorf("x = %v, %v", v, err)
	}
	// Canceled while f runs: the operations in f may fail, later ones work.
	cctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	afterInterruptHook = func() { close(done) }
	interrupted := ctx.Interruptible(cctx, func() {
		cancel()
		<-done // the watcher has interrupted Z3
	})
	afterInterruptHook = nil
	if !interrupted {
		t.Error("Interruptible did not report the interrupt")
	}
	if st, err := s.Check(context.Background()); st != Sat || err != nil {
		t.Errorf("after an interrupt: %v, %v", st, err)
	}
}

// TestRLimit: a check that exceeds its resource limit answers Unknown,
// the count it used is visible, and the solver answers afterwards. The
// outcome is the same on every run: the resource count does not depend
// on time.
func TestRLimit(t *testing.T) {
	ctx := newTestContext(t)
	s, err := ctx.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fermat(ctx) {
		s.Assert(f)
	}
	if err := s.SetRLimit(20000); err != nil {
		t.Fatal(err)
	}
	var used []uint64
	for i := 0; i < 2; i++ {
		before := s.ResourceCount()
		st, err := s.Check(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if st != Unknown || !strings.Contains(s.ReasonUnknown(), "resource limit") {
			t.Fatalf("got %v (%s), want unknown (resource limit)", st, s.ReasonUnknown())
		}
		used = append(used, s.ResourceCount()-before)
	}
	if used[0] < 20000 || used[0] > 40000 {
		t.Errorf("the check used %d resource units with a limit of 20000", used[0])
	}
	s.SetRLimit(0)
	s.Assert(ctx.Bool(false))
	if st, _ := s.Check(context.Background()); st != Unsat {
		t.Errorf("after the limit: %v, want unsat", st)
	}
}

// TestZ3LeavesSIGINTToGo: Z3 must not take over SIGINT during a check;
// when it did, it restored Go's handler without SA_ONSTACK, and a later
// Ctrl-C crashed the Go runtime instead of stopping lipton cleanly.
func TestZ3LeavesSIGINTToGo(t *testing.T) {
	signal.Notify(make(chan os.Signal, 1), os.Interrupt) // Go's handler is installed
	defer signal.Reset(os.Interrupt)
	if got := sigintOnStack(); got != 1 {
		t.Fatalf("before any check: SIGINT handler SA_ONSTACK = %d", got)
	}
	ctx := newTestContext(t)
	s, _ := ctx.NewSolver()
	s.Assert(ctx.Gt(ctx.Const("x", ctx.IntSort()), ctx.Int(1)))
	if st, err := s.Check(context.Background()); st != Sat || err != nil {
		t.Fatalf("check: %v, %v", st, err)
	}
	if got := sigintOnStack(); got != 1 {
		t.Errorf("after a check: SIGINT handler SA_ONSTACK = %d, want 1", got)
	}
}

// TestEnumSort checks enumeration sorts: the members are distinct and
// every value is a member, a model names the member, the sort is cached
// by name, and the solver's text declares the sort so that a fresh
// context parses it back.
func TestEnumSort(t *testing.T) {
	ctx := newTestContext(t)
	color, members := ctx.EnumSort("Color", []string{"Red", "Green", "Blue"})
	if color.IsZero() || len(members) != 3 {
		t.Fatalf("EnumSort: %v, %d members, err %v", color, len(members), ctx.Err())
	}
	if again, _ := ctx.EnumSort("Color", []string{"Red", "Green", "Blue"}); again != color {
		t.Error("enumeration sorts are not cached")
	}
	c := ctx.Const("c", color)
	s, err := ctx.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	// Every value is a member: c differs from Red and Green, so it is Blue.
	s.Assert(ctx.Not(ctx.Eq(c, members[0])))
	s.Assert(ctx.Not(ctx.Eq(c, members[1])))
	if st, err := s.Check(context.Background()); st != Sat || err != nil {
		t.Fatalf("check: %v %v", st, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Eval(c, true)
	if err != nil || v.String() != members[2].String() {
		t.Errorf("c = %v (%v), want %v", v, err, members[2])
	}
	s.Assert(ctx.Not(ctx.Eq(c, members[2])))
	if st, _ := s.Check(context.Background()); st != Unsat {
		t.Errorf("a fourth value of a three-member sort: %v", st)
	}
	// The text of a solver that has not been checked, as lipton prints
	// queries (a checked solver's text has its model converter too).
	unchecked, err := ctx.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		unchecked.Assert(ctx.Not(ctx.Eq(c, m)))
	}
	s = unchecked
	fresh := newTestContext(t)
	fs, err := fresh.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.AssertText(s.String()); err != nil {
		t.Fatalf("the solver's text does not parse back: %v\n%s", err, s.String())
	}
	if st, _ := fs.Check(context.Background()); st != Unsat {
		t.Errorf("parsed back: %v, want unsat", st)
	}
}

// TestTupleSort checks record sorts: construction and projection, and
// extensionality (two tuples with equal fields are equal), a model's
// value, and the solver's text parsed back in a fresh context.
func TestTupleSort(t *testing.T) {
	ctx := newTestContext(t)
	node, mk, proj := ctx.TupleSort("Node", []string{"Node.value", "Node.next"}, []Sort{ctx.IntSort(), ctx.BoolSort()})
	if node.IsZero() || len(proj) != 2 {
		t.Fatalf("TupleSort: %v, err %v", node, ctx.Err())
	}
	a, b := ctx.Const("a", node), ctx.Const("b", node)
	s, err := ctx.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	s.Assert(ctx.Eq(a, ctx.App(mk, ctx.Int(3), ctx.Bool(true))))
	s.Assert(ctx.Eq(ctx.App(proj[0], b), ctx.Int(3)))
	s.Assert(ctx.App(proj[1], b))
	if st, err := s.Check(context.Background()); st != Sat || err != nil {
		t.Fatalf("check: %v %v", st, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if v, err := m.Eval(ctx.App(proj[0], a), true); err != nil || v.String() != "3" {
		t.Errorf("a.value = %v (%v)", v, err)
	}
	s.Assert(ctx.Not(ctx.Eq(a, b)))
	if st, _ := s.Check(context.Background()); st != Unsat {
		t.Errorf("two tuples with equal fields differ: %v", st)
	}
	// The text of a solver that has not been checked, as lipton prints
	// queries (a checked solver's text has its model converter too).
	unchecked, err := ctx.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	unchecked.Assert(ctx.Eq(a, ctx.App(mk, ctx.Int(3), ctx.Bool(true))))
	unchecked.Assert(ctx.Eq(ctx.App(proj[0], b), ctx.Int(3)))
	unchecked.Assert(ctx.App(proj[1], b))
	unchecked.Assert(ctx.Not(ctx.Eq(a, b)))
	s = unchecked
	fresh := newTestContext(t)
	fs, err := fresh.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.AssertText(s.String()); err != nil {
		t.Fatalf("the solver's text does not parse back: %v\n%s", err, s.String())
	}
	if st, _ := fs.Check(context.Background()); st != Unsat {
		t.Errorf("parsed back: %v, want unsat", st)
	}
}
