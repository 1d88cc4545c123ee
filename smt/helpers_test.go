package smt

import (
	"github.com/lipton-dev/lipton/obl"
	"math/big"
)

// Test helpers for building obligations tersely.

func intVar(name string) *obl.Var  { return &obl.Var{Name: name, Sort: obl.IntSort} }
func boolVar(name string) *obl.Var { return &obl.Var{Name: name, Sort: obl.BoolSort} }
func mapVar(name string, key, val obl.Sort) *obl.Var {
	return &obl.Var{Name: name, Sort: &obl.MapSort{Key: key, Val: val}}
}

func r(v *obl.Var) obl.Expr     { return obl.Ref(v) }
func n(k int64) obl.Expr        { return obl.Int(k) }
func assume(e obl.Expr) obl.Cmd { return &obl.Assume{E: e} }
func assert(e obl.Expr) *obl.Assert {
	return &obl.Assert{E: e, Kind: "test", Msg: "must hold", Pos: []obl.Pos{{File: "t.lip", Line: 1, Col: 2}}}
}
func set(v *obl.Var, e obl.Expr) obl.Cmd { return obl.AssignOne(v, e) }
func havoc(vs ...*obl.Var) obl.Cmd       { return &obl.Havoc{Vars: vs} }
func choice(brs ...obl.Cmd) obl.Cmd      { return &obl.Choice{Branches: brs} }
func seq(cs ...obl.Cmd) obl.Cmd          { return obl.Sequence(cs...) }
func newOb(name string, vars []*obl.Var, body ...obl.Cmd) *obl.Obligation {
	return &obl.Obligation{Name: name, Kind: "test", Vars: vars, Body: obl.Sequence(body...)}
}
func vars(vs ...*obl.Var) []*obl.Var { return vs }

func bigOf(v obl.Value) *big.Int { return v.(obl.IntVal).V }
