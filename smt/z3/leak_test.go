package z3

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// rssBytes reads the resident set size from /proc/self/statm.
func rssBytes(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm:", err)
	}
	fields := strings.Fields(string(data))
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// TestNoLeaks runs 100 000 small queries on one context, each in its own
// arena scope, and checks that the binding's live references, Z3's own
// allocation estimate and the process RSS stay flat after warm-up. Every
// query builds terms, asserts and checks; every 4th also reads its model
// (the costliest part) and every 20th decodes an array value.
//
// Z3's incremental solver itself retains some 50-80 bytes per push/pop
// cycle (measured with Z3 4.8.12, independent of this binding: a fresh
// solver per query stays flat), so like smt the test replaces its solver
// every solverLife queries.
func TestNoLeaks(t *testing.T) {
	const total, warmup, solverLife = 100000, 20000, 1000
	n := total
	if testing.Short() {
		n = 40000
	}
	ctx := newTestContext(t)
	base := ctx.Live()
	var s *Solver
	var solverMark Mark
	bg := context.Background()
	x := "x"
	query := func(i int) {
		if i%solverLife == 0 {
			if s != nil {
				ctx.Release(solverMark)
			}
			solverMark = ctx.Mark()
			var err error
			if s, err = ctx.NewSolver(); err != nil {
				t.Fatal(err)
			}
		}
		m := ctx.Mark()
		defer ctx.Release(m)
		s.Push()
		defer s.Pop(1)
		xv := ctx.Const(x, ctx.IntSort())
		a := ctx.Const("a", ctx.ArraySort(ctx.IntSort(), ctx.IntSort()))
		k := ctx.Int(int64(i % 1000))
		s.Assert(ctx.Gt(xv, k))
		s.Assert(ctx.Eq(ctx.Select(a, xv), ctx.Add(xv, ctx.Int(1))))
		st, err := s.Check(bg)
		if err != nil || st != Sat {
			t.Fatalf("query %d: %v, %v", i, st, err)
		}
		if i%4 != 0 {
			return
		}
		mod, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		if v, err := mod.Int(xv); err != nil || v.Int64() <= int64(i%1000) {
			t.Fatalf("query %d: x = %v, %v", i, v, err)
		}
		if i%10 == 0 {
			if _, err := mod.Array(a); err != nil {
				t.Fatalf("query %d: %v", i, err)
			}
		}
	}
	for i := 0; i < warmup; i++ {
		query(i)
	}
	runtime.GC()
	rss0, z0 := rssBytes(t), MemoryInUse()
	for i := warmup; i < n; i++ {
		query(i)
		if live := ctx.Live() - base; live > 1 { // the solver
			t.Fatalf("query %d left %d live references", i, live)
		}
	}
	ctx.Release(solverMark)
	if ctx.Live() != base {
		t.Fatalf("%d live references after releasing everything", ctx.Live()-base)
	}
	runtime.GC()
	rss1, z1 := rssBytes(t), MemoryInUse()
	t.Logf("%d queries: RSS %d -> %d KiB, Z3 heap %d -> %d KiB", n, rss0>>10, rss1>>10, z0>>10, z1>>10)
	// A leak of one 50-byte object per query would add > 4 MiB.
	if z1 > z0+1<<20 {
		t.Errorf("Z3 heap grew from %d to %d bytes", z0, z1)
	}
	if rss1 > rss0+8<<20 {
		t.Errorf("RSS grew from %d to %d bytes", rss0, rss1)
	}
}
