package z3

import (
	"context"
	"strings"
	"testing"
)

// TestParseAndTranslateModel prints a query, parses it into a fresh
// context, solves it there with a seed, and reads the model back in the
// first context.
func TestParseAndTranslateModel(t *testing.T) {
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	x := ctx.Const("x", ctx.IntSort())
	m := ctx.Const("m", ctx.ArraySort(ctx.IntSort(), ctx.IntSort()))
	printer, _ := ctx.NewSimpleSolver()
	printer.Assert(ctx.And(ctx.Gt(x, ctx.Int(41)), ctx.Lt(x, ctx.Int(43)), ctx.Eq(ctx.Select(m, x), ctx.Int(7))))
	text := printer.String()
	if !strings.Contains(text, "declare-fun x") {
		t.Fatalf("printed query lacks declarations:\n%s", text)
	}

	fresh, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	s, _ := fresh.NewSolver()
	if err := s.AssertText(text); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSeed(5); err != nil {
		t.Fatal(err)
	}
	st, err := s.Check(context.Background())
	if err != nil || st != Sat {
		t.Fatalf("check: %v %v", st, err)
	}
	model, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	back, err := model.TranslateTo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := back.Int(x); err != nil || v.Int64() != 42 {
		t.Errorf("x in the translated model: %v %v", v, err)
	}
	if v, err := back.Int(ctx.Select(m, x)); err != nil || v.Int64() != 7 {
		t.Errorf("m[x] in the translated model: %v %v", v, err)
	}
}

func TestAssertTextError(t *testing.T) {
	ctx, _ := NewContext()
	defer ctx.Close()
	s, _ := ctx.NewSolver()
	if err := s.AssertText("(assert (> y 0))"); err == nil {
		t.Error("an undeclared constant must be an error")
	}
}
