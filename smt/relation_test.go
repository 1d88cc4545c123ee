package smt

import (
	"errors"
	"github.com/lipton-dev/lipton/obl"
	"strings"
	"testing"
)

// commutes builds the obligation τ(s1);τ(s2) ⊆ τ(s2);τ(s1) over vars: it
// snapshots the state, runs s1 then s2, and asserts that s2 then s1 can
// lead from the snapshot to the current state.
func commutes(t *testing.T, name string, gvars []*obl.Var, s1, s2 obl.Cmd) *obl.Obligation {
	t.Helper()
	namer := obl.NewNamer(gvars...)
	pre := make(map[*obl.Var]obl.Expr)
	post := make(map[*obl.Var]obl.Expr)
	var snaps []*obl.Var
	var rhs []obl.Expr
	for _, v := range gvars {
		old := namer.Fresh(v.Name+"_old", v.Sort)
		snaps = append(snaps, old)
		rhs = append(rhs, obl.Ref(v))
		pre[v] = obl.Ref(old)
		post[v] = obl.Ref(v)
	}
	rel, err := obl.Relation(obl.Sequence(s2, s1), pre, post)
	if err != nil {
		t.Fatal(err)
	}
	a := &obl.Assert{E: rel, Kind: "commutativity", Msg: "steps do not commute"}
	return &obl.Obligation{
		Name: name, Kind: "commutativity",
		Vars:   append(append([]*obl.Var{}, gvars...), snaps...),
		Body:   obl.Sequence(&obl.Assign{Lhs: snaps, Rhs: rhs}, s1, s2, a),
		Groups: []obl.VarGroup{{Name: "globals", Vars: gvars}, {Name: "snapshot", Vars: snaps}},
	}
}

func verdictOf(t *testing.T, ob *obl.Obligation) obl.Verdict {
	t.Helper()
	res := proveAll(t, ob, Options{})
	if len(res.Results) != 1 {
		t.Fatalf("%d results", len(res.Results))
	}
	return res.Results[0].Verdict
}

func TestRelationIncrementsCommute(t *testing.T) {
	x := intVar("x")
	inc := set(x, obl.Add(r(x), n(1)))
	if v := verdictOf(t, commutes(t, "inc_inc", vars(x), inc, inc)); v != obl.Proven {
		t.Errorf("x := x+1 vs x := x+1: %v, want proven", v)
	}
}

func TestRelationIncrementAndDoubleDoNotCommute(t *testing.T) {
	x := intVar("x")
	inc := set(x, obl.Add(r(x), n(1)))
	dbl := set(x, obl.Mul(n(2), r(x)))
	if v := verdictOf(t, commutes(t, "inc_dbl", vars(x), inc, dbl)); v != obl.Failed {
		t.Errorf("x := x+1 vs x := 2*x: %v, want failed", v)
	}
}

func TestRelationMapWritesCommute(t *testing.T) {
	m, i, j := mapVar("m", obl.IntSort, obl.IntSort), intVar("i"), intVar("j")
	w1 := seq(assume(obl.Ne(r(i), r(j))), obl.AssignIndex(m, []obl.Expr{r(i)}, n(1)))
	w2 := obl.AssignIndex(m, []obl.Expr{r(j)}, n(2))
	if v := verdictOf(t, commutes(t, "writes_distinct", vars(m, i, j), w1, w2)); v != obl.Proven {
		t.Errorf("writes at distinct keys: %v, want proven", v)
	}
	w1 = obl.AssignIndex(m, []obl.Expr{r(i)}, n(1))
	if v := verdictOf(t, commutes(t, "writes_same", vars(m, i, j), w1, w2)); v != obl.Failed {
		t.Errorf("writes at possibly equal keys: %v, want failed", v)
	}
}

func TestRelationHavocCommutes(t *testing.T) {
	// havoc x; assume x > y commutes with y := y (a read-only step of y).
	x, y, z := intVar("x"), intVar("y"), intVar("z")
	s1 := seq(havoc(x), assume(obl.Gt(r(x), r(y))))
	s2 := set(z, r(y))
	if v := verdictOf(t, commutes(t, "havoc_read", vars(x, y, z), s1, s2)); v != obl.Proven {
		t.Errorf("%v, want proven", v)
	}
	// It does not commute with y := y + 10: afterwards x > y may fail.
	s3 := set(y, obl.Add(r(y), n(10)))
	if v := verdictOf(t, commutes(t, "havoc_write", vars(x, y, z), s1, s3)); v != obl.Failed {
		t.Errorf("%v, want failed", v)
	}
}

func TestRelationEliminatesSyntacticWitness(t *testing.T) {
	x, y := intVar("x"), intVar("y")
	c := seq(havoc(x), assume(obl.Eq(r(x), obl.Add(r(y), n(1)))), assert(obl.Gt(r(x), r(y))))
	rel, err := obl.Relation(c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := rel.String(); strings.Contains(s, "exists") || s != "y + 1 > y" {
		t.Errorf("relation = %s, want y + 1 > y without exists", s)
	}
	// The witness may also come from the post-state.
	z := intVar("z")
	c = seq(havoc(x), assume(obl.Eq(obl.Mul(r(x), r(x)), n(4))))
	rel, err = obl.Relation(c, nil, map[*obl.Var]obl.Expr{x: r(z)})
	if err != nil {
		t.Fatal(err)
	}
	if s := rel.String(); s != "z * z == 4" {
		t.Errorf("relation = %s, want z * z == 4", s)
	}
}

func TestRelationKeepsExistentialWithoutWitness(t *testing.T) {
	x, y := intVar("x"), intVar("y")
	c := seq(havoc(x), assume(obl.Gt(r(x), r(y))), set(y, r(x)))
	rel, err := obl.Relation(c, nil, map[*obl.Var]obl.Expr{y: obl.Ref(intVar("y_post"))})
	if err != nil {
		t.Fatal(err)
	}
	// y_post == x' is a witness for x'; with only x > y it would stay.
	if s := rel.String(); s != "y_post > y" {
		t.Errorf("relation = %s, want y_post > y", s)
	}
	rel, err = obl.Relation(seq(havoc(x), assume(obl.Gt(r(x), r(y)))), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := rel.String(); s != "exists x': int :: x' > y" {
		t.Errorf("relation = %s, want exists x': int :: x' > y", s)
	}
}

func TestRelationChoiceAndPre(t *testing.T) {
	x, z, x0 := intVar("x"), intVar("z"), intVar("x0")
	c := choice(set(x, n(1)), set(x, obl.Add(r(x), n(2))), seq(assume(obl.False()), set(x, n(9))))
	rel, err := obl.Relation(c, map[*obl.Var]obl.Expr{x: r(x0)}, map[*obl.Var]obl.Expr{x: r(z)})
	if err != nil {
		t.Fatal(err)
	}
	if s := rel.String(); s != "z == 1 || z == x0 + 2" {
		t.Errorf("relation = %s, want z == 1 || z == x0 + 2", s)
	}
}

func TestRelationPathCap(t *testing.T) {
	x := intVar("x")
	var cmds []obl.Cmd
	for i := 0; i < 11; i++ { // 2^11 = 2048 paths
		cmds = append(cmds, choice(set(x, obl.Add(r(x), n(1))), set(x, obl.Add(r(x), n(2)))))
	}
	if _, err := obl.Relation(obl.Sequence(cmds...), nil, nil); !errors.Is(err, obl.ErrTooManyPaths) {
		t.Errorf("err = %v, want ErrTooManyPaths", err)
	}
	if _, err := obl.RelationLimit(obl.Sequence(cmds[:3]...), nil, nil, 8); err != nil {
		t.Errorf("8 paths under a cap of 8: %v", err)
	}
	if _, err := obl.RelationLimit(obl.Sequence(cmds[:4]...), nil, nil, 8); !errors.Is(err, obl.ErrTooManyPaths) {
		t.Errorf("16 paths under a cap of 8: err = %v", err)
	}
}

func TestRelationNonBlocking(t *testing.T) {
	// g(L) ==> exists post. τ(L) for L = havoc x; assume x > y.
	x, y := intVar("x"), intVar("y")
	xp := intVar("x_post")
	L := seq(havoc(x), assume(obl.Gt(r(x), r(y))))
	rel, err := obl.Relation(L, nil, map[*obl.Var]obl.Expr{x: r(xp)})
	if err != nil {
		t.Fatal(err)
	}
	ob := newOb("nonblocking", vars(x, y), assert(obl.Exists(vars(xp), rel)))
	if v := verdictOf(t, ob); v != obl.Proven {
		t.Errorf("%v, want proven", v)
	}
	// With assume x > y && x < y + 1 it blocks.
	L = seq(havoc(x), assume(obl.And(obl.Gt(r(x), r(y)), obl.Lt(r(x), obl.Add(r(y), n(1))))))
	rel, _ = obl.Relation(L, nil, map[*obl.Var]obl.Expr{x: r(xp)})
	ob = newOb("blocking", vars(x, y), assert(obl.Exists(vars(xp), rel)))
	if v := verdictOf(t, ob); v != obl.Failed {
		t.Errorf("%v, want failed", v)
	}
}
