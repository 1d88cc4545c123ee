package obl

// Test helpers for building obligations tersely.

func intVar(name string) *Var  { return &Var{Name: name, Sort: IntSort} }
func boolVar(name string) *Var { return &Var{Name: name, Sort: BoolSort} }
func mapVar(name string, key, val Sort) *Var {
	return &Var{Name: name, Sort: &MapSort{Key: key, Val: val}}
}

func r(v *Var) Expr     { return Ref(v) }
func n(k int64) Expr    { return Int(k) }
func assume(e Expr) Cmd { return &Assume{E: e} }
func assert(e Expr) *Assert {
	return &Assert{E: e, Kind: "test", Msg: "must hold", Pos: []Pos{{File: "t.lip", Line: 1, Col: 2}}}
}
func set(v *Var, e Expr) Cmd { return AssignOne(v, e) }
func havoc(vs ...*Var) Cmd   { return &Havoc{Vars: vs} }
func choice(brs ...Cmd) Cmd  { return &Choice{Branches: brs} }
func seq(cs ...Cmd) Cmd      { return Sequence(cs...) }
func newOb(name string, vars []*Var, body ...Cmd) *Obligation {
	return &Obligation{Name: name, Kind: "test", Vars: vars, Body: Sequence(body...)}
}
func vars(vs ...*Var) []*Var { return vs }
