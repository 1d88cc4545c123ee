package smt

import (
	"context"
	"fmt"
	"github.com/lipton-dev/lipton/obl"
	"syscall"
	"testing"
	"time"
)

// typicalBatch returns n small obligations of the shapes the mover and
// refinement checks produce for a work-stealing deque: commutativity of a
// put and a steal (snapshot, two steps, assert the relation of the swapped
// steps), gate preservation, and a refinement-style check with several
// asserts. Constants vary with the index so no two queries are identical;
// a few obligations fail.
func typicalBatch(n int) []*obl.Obligation {
	var obs []*obl.Obligation
	for i := 0; len(obs) < n; i++ {
		obs = append(obs, benchCommute(i), benchGate(i), benchRefine(i))
	}
	return obs[:n]
}

// dequeVars are the globals and two threads' locals of the deque.
type dequeVars struct {
	H, T, items, tid1, tid2, task1, res2, t1 *obl.Var
}

func newDequeVars() dequeVars {
	return dequeVars{
		H: intVar("H"), T: intVar("T"), items: mapVar("items", obl.IntSort, obl.IntSort),
		tid1: intVar("tid1"), tid2: intVar("tid2"), task1: intVar("task1"), res2: intVar("res2"), t1: intVar("t1"),
	}
}

// put is the owner's atomic push: items[T] := task; T := T + 1.
func (d dequeVars) put(k int) obl.Cmd {
	return seq(assume(obl.Eq(r(d.tid1), n(0))), assume(obl.Le(r(d.H), r(d.T))), obl.AssignIndex(d.items, []obl.Expr{r(d.T)}, obl.Add(r(d.task1), n(int64(k%3)))), set(d.T, obl.Add(r(d.T), n(1))))
}

// steal takes the oldest item, or fails with -1.
func (d dequeVars) steal() obl.Cmd {
	return seq(assume(obl.Ne(r(d.tid2), n(0))),
		choice(
			seq(assume(obl.Lt(r(d.H), r(d.T))), set(d.res2, obl.Index(r(d.items), r(d.H))), set(d.H, obl.Add(r(d.H), n(1)))),
			set(d.res2, n(-1))))
}

func benchCommute(k int) *obl.Obligation {
	d := newDequeVars()
	globals := vars(d.H, d.T, d.items, d.res2)
	namer := obl.NewNamer(append(globals, d.tid1, d.tid2, d.task1, d.t1)...)
	pre, post := map[*obl.Var]obl.Expr{}, map[*obl.Var]obl.Expr{}
	var snaps []*obl.Var
	var rhs []obl.Expr
	for _, v := range globals {
		old := namer.Fresh(v.Name+"_old", v.Sort)
		snaps, rhs = append(snaps, old), append(rhs, r(v))
		pre[v], post[v] = r(old), r(v)
	}
	s1, s2 := d.put(k), d.steal()
	rel, err := obl.Relation(obl.Sequence(s2, s1), pre, post)
	if err != nil {
		panic(err)
	}
	// With H < T the steal cannot see the pushed item and the steps
	// commute; when H == T is possible (k%4 == 3) they do not.
	inv := obl.Lt(r(d.H), obl.Sub(r(d.T), n(int64(k%5))))
	if k%4 == 3 {
		inv = obl.Le(r(d.H), r(d.T))
	}
	body := seq(assume(obl.Ne(r(d.tid1), r(d.tid2))), assume(inv),
		&obl.Assign{Lhs: snaps, Rhs: rhs}, s1, s2,
		&obl.Assert{E: rel, Kind: "commutativity", Msg: "put and steal do not commute"})
	return &obl.Obligation{Name: fmt.Sprintf("commute_%d", k), Kind: "commutativity",
		Vars: append(append(globals, d.tid1, d.tid2, d.task1, d.t1), snaps...), Body: body}
}

func benchGate(k int) *obl.Obligation {
	d := newDequeVars()
	gate := obl.And(obl.Le(r(d.H), r(d.T)), obl.Ne(r(d.tid2), n(0)))
	body := seq(assume(obl.Ne(r(d.tid1), r(d.tid2))), assume(gate), assume(obl.Ge(r(d.H), n(int64(k%7)))),
		d.put(k),
		&obl.Assert{E: obl.Le(r(d.H), r(d.T)), Kind: "gate preservation", Msg: "put breaks steal's gate"},
		&obl.Assert{E: obl.Gt(r(d.T), n(int64(k%7))), Kind: "gate preservation", Msg: "T bound"},
		&obl.Assert{E: obl.Eq(obl.Index(r(d.items), obl.Sub(r(d.T), n(1))), obl.Add(r(d.task1), n(int64(k%3)))), Kind: "gate preservation", Msg: "item stored"})
	return &obl.Obligation{Name: fmt.Sprintf("gate_%d", k), Kind: "gate preservation",
		Vars: vars(d.H, d.T, d.items, d.tid1, d.tid2, d.task1, d.res2, d.t1), Body: body}
}

func benchRefine(k int) *obl.Obligation {
	d := newDequeVars()
	Hold, Told := intVar("H_old"), intVar("T_old")
	pc := boolVar("pc")
	body := seq(assume(obl.Le(r(d.H), r(d.T))), assume(obl.Eq(r(d.tid1), n(0))),
		&obl.Assign{Lhs: vars(Hold, Told, pc), Rhs: []obl.Expr{r(d.H), r(d.T), obl.False()}},
		set(d.t1, r(d.T)), obl.AssignIndex(d.items, []obl.Expr{r(d.t1)}, r(d.task1)), &obl.Assert{E: obl.Or(r(pc), obl.And(obl.Eq(r(Hold), r(d.H)), obl.Eq(r(Told), r(d.T)))), Kind: "refinement", Msg: "modifies state in a way that does not match the refined action"},
		set(d.T, obl.Add(r(d.t1), n(1))),
		&obl.Assert{E: obl.Or(r(pc), obl.Eq(r(d.T), obl.Add(r(Told), n(1)))), Kind: "refinement", Msg: "modifies state in a way that does not match the refined action"},
		set(pc, obl.True()),
		&obl.Assert{E: obl.Implies(r(pc), obl.Gt(r(d.T), r(d.H))), Kind: "refinement", Msg: "modifies state after the action"},
		&obl.Assert{E: obl.Ge(r(d.T), obl.Add(r(d.H), n(int64(k%4)))), Kind: "refinement", Msg: "bound"})
	return &obl.Obligation{Name: fmt.Sprintf("refine_%d", k), Kind: "refinement",
		Vars: vars(d.H, d.T, d.items, d.tid1, d.tid2, d.task1, d.res2, d.t1, Hold, Told, pc), Body: body}
}

// TestTypicalBatchVerdicts pins the verdicts of the benchmark batch, so the
// benchmark measures real work.
func TestTypicalBatchVerdicts(t *testing.T) {
	obs := typicalBatch(12)
	want := [][]obl.Verdict{
		{P}, {P, P, P}, {P, P, P, P},
		{P}, {P, P, P}, {P, P, P, P},
		{P}, {P, P, P}, {P, P, P, F},
		{F}, {P, P, P}, {P, P, P, F},
	}
	for i, r := range Discharge(context.Background(), obs, Options{Jobs: 2}) {
		checkVerdicts(t, proveCase{obs[i], want[i]}, r)
	}
	for i, ob := range obs[:6] { // also through the z3 binary
		checkVerdicts(t, proveCase{ob, want[i]}, proveAll(t, ob, Options{}))
	}
}

// benchmarkDischarge discharges a batch of typical obligations per
// iteration and reports obligations per second of wall time, and CPU time
// per obligation (which is less sensitive to other load on the machine).
func benchmarkDischarge(b *testing.B, opts Options) {
	obs := typicalBatch(240)
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		for _, r := range Discharge(context.Background(), obs, opts) {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	}
	total := float64(b.N * len(obs))
	b.ReportMetric(total/time.Since(start).Seconds(), "obligations/s")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/total, "cpu-µs/obligation")
}

// cpuTime returns the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkDischarge(b *testing.B) {
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			benchmarkDischarge(b, Options{Jobs: jobs})
		})
	}
}

func BenchmarkEncoding(b *testing.B) {
	for _, enc := range []struct {
		name string
		enc  Encoding
	}{{"per-assert", PerAssert}, {"labelled", Labelled}} {
		b.Run(enc.name, func(b *testing.B) {
			benchmarkDischarge(b, Options{Jobs: 1, Encoding: enc.enc})
		})
	}
}
