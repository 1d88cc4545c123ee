package randprog

import (
	"fmt"
	"strings"
)

// opKindsFor lists the operations a method may perform on g: the
// discipline of g decides which writes are allowed, and blocking assumes
// are kept away from lock-protected and per-thread variables (a blocking
// both mover is not one).
func opKindsFor(g *global, owner bool) []opKind {
	readOnly := g.pol == polReadOnly || (g.pol == polOwner && !owner)
	switch {
	case g.typ == tSeq && readOnly:
		return []opKind{opLen}
	case g.typ == tSeq:
		return []opKind{opLen, opPush, opPush, opPop}
	case readOnly:
		return []opKind{opRead, opRead, opAssume}
	case g.typ == tBool:
		return []opKind{opRead, opWrite, opFlip, opTestSet, opAssume}
	case g.pol == polSlot || g.pol == polLocked:
		return []opKind{opRead, opWrite, opAdd, opAdd, opFetchAdd, opCondDec, opCopy}
	}
	return []opKind{opRead, opWrite, opAdd, opAdd, opFetchAdd, opCondDec, opCopy, opAssume}
}

// newOp chooses an operation of method m on g.
func (gen *gen) newOp(m *method, g *global) *op {
	kinds := opKindsFor(g, m.owner)
	o := &op{kind: kinds[gen.r.Intn(len(kinds))], g: g, loc: gen.location(m, g)}
	if o.kind == opCopy {
		o.src = gen.copySource(g)
		if o.src == nil {
			o.kind = opAdd
		} else {
			o.srcLoc = gen.location(m, o.src)
		}
	}
	switch o.kind {
	case opRead, opFetchAdd, opLen, opPop:
		o.out = m.newOutput(g.valueType())
	case opCondDec, opTestSet:
		o.out = m.newOutput(tBool)
	}
	o.val, o.nonNeg = gen.value(m, g.valueType())
	o.c = gen.r.Intn(2)
	return o
}

// valueType is the type of the values stored at a location of g.
func (g *global) valueType() varType {
	if g.typ == tBool {
		return tBool
	}
	return tInt
}

// location is how method m accesses g: the variable itself, or the map
// entry its discipline allows.
func (gen *gen) location(m *method, g *global) string {
	if g.typ != tMap { // a sequence is one location too
		return g.name
	}
	switch {
	case g.pol == polSlot:
		return g.name + "[tid]"
	case m.hasK && gen.r.Intn(2) == 0:
		return g.name + "[k]"
	}
	return fmt.Sprintf("%s[%d]", g.name, gen.r.Intn(2))
}

// copySource picks another int variable with the same discipline to copy
// from, or nil.
func (gen *gen) copySource(g *global) *global {
	var cands []*global
	for _, h := range gen.globals {
		if h != g && h.typ != tBool && h.typ != tSeq && h.pol == g.pol && h.pol != polSlot {
			cands = append(cands, h)
		}
	}
	if len(cands) == 0 || g.pol == polSlot {
		return nil
	}
	return cands[gen.r.Intn(len(cands))]
}

// value chooses a value to write or add, and whether it is non-negative
// for every argument the method accepts.
func (gen *gen) value(m *method, t varType) (string, bool) {
	if t == tBool {
		return []string{"true", "false"}[gen.r.Intn(2)], false
	}
	vals := []string{"1", "1", "2", "0", "-1"}
	if m.hasK {
		vals = append(vals, "k", "k", "k + 1")
	}
	v := vals[gen.r.Intn(len(vals))]
	nonNeg := !strings.HasPrefix(v, "-") && (!strings.Contains(v, "k") || m.kNonNeg)
	return v, nonNeg
}

// specText is the operation as statements of an atomic action.
func (o *op) specText() []string {
	l := o.loc
	switch o.kind {
	case opRead:
		return []string{o.out + " := " + l + ";"}
	case opWrite:
		return []string{l + " := " + o.val + ";"}
	case opAdd:
		return []string{l + " := " + l + " + " + paren(o.val) + ";"}
	case opFetchAdd:
		return []string{o.out + " := " + l + ";", l + " := " + l + " + " + paren(o.val) + ";"}
	case opCondDec:
		return []string{fmt.Sprintf("if (%s > %d) { %s := %s - 1; %s := true; } else { %s := false; }",
			l, o.c, l, l, o.out, o.out)}
	case opCopy:
		return []string{l + " := " + o.srcLoc + ";"}
	case opAssume:
		return []string{"assume " + o.condition(l) + ";"}
	case opFlip:
		return []string{l + " := !" + l + ";"}
	case opTestSet:
		return []string{fmt.Sprintf("if (!%s) { %s := true; %s := true; } else { %s := false; }", l, l, o.out, o.out)}
	case opLen:
		return []string{o.out + " := len(" + l + ");"}
	case opPush:
		return []string{l + " := append(" + l + ", " + o.val + ");"}
	case opPop:
		return []string{fmt.Sprintf("if (len(%s) > 0) { %s := %s[0]; %s := %s[1:]; } else { %s := -1; }", l, o.out, l, l, l, o.out)}
	}
	panic("unknown operation")
}

// condition is what opAssume waits for.
func (o *op) condition(l string) string {
	if o.g.typ == tBool {
		if o.c == 0 {
			return "!" + l
		}
		return l
	}
	return fmt.Sprintf("%s > %d", l, o.c-1)
}

// singleAccess reports whether the operation reads or writes its
// location once, so that it is a step without a [ ] group.
func (o *op) singleAccess() bool {
	switch o.kind {
	case opRead, opWrite, opAssume, opLen:
		return true
	}
	return false
}

// paren parenthesizes a compound value.
func paren(v string) string {
	if strings.Contains(v, " ") {
		return "(" + v + ")"
	}
	return v
}

// piece is one statement of the split form of an operation: a step that
// accesses one location once, or a private statement.
type piece struct {
	text  string
	g     *global // nil: private
	loc   string
	write bool
	into  string // a read: the local read into
	rhs   string // a write: the value written
}

// pieces is the split form of an operation: each access its own step,
// with temporaries of m carrying the values between them.
func (o *op) pieces(m *method) []piece {
	l := o.loc
	read := func(into string, g *global, loc string) piece {
		return piece{text: into + " := " + loc + ";", g: g, loc: loc, into: into}
	}
	write := func(rhs string) piece {
		return piece{text: l + " := " + rhs + ";", g: o.g, loc: l, write: true, rhs: rhs}
	}
	private := func(s string) piece { return piece{text: s} }
	switch o.kind {
	case opRead:
		return []piece{read(o.out, o.g, l)}
	case opWrite:
		return []piece{write(o.val)}
	case opAssume:
		return []piece{{text: "assume " + o.condition(l) + ";", g: o.g, loc: l}}
	case opCopy:
		t := m.newTemp(tInt)
		return []piece{read(t, o.src, o.srcLoc), write(t)}
	case opLen:
		return []piece{{text: o.out + " := len(" + l + ");", g: o.g, loc: l}}
	case opPush, opPop:
		return o.seqPieces(m, read, write, private)
	case opFlip, opTestSet:
		u := m.newTemp(tBool)
		if o.kind == opFlip {
			return []piece{read(u, o.g, l), write("!" + u)}
		}
		return []piece{read(u, o.g, l), private(o.out + " := !" + u + ";"), write("true")}
	}
	t := m.newTemp(tInt)
	switch o.kind {
	case opAdd:
		return []piece{read(t, o.g, l), write(t + " + " + paren(o.val))}
	case opFetchAdd:
		return []piece{read(t, o.g, l), private(o.out + " := " + t + ";"), write(t + " + " + paren(o.val))}
	}
	cond := fmt.Sprintf("%s := %s > %d;", o.out, t, o.c)
	return []piece{read(t, o.g, l), private(cond), write(fmt.Sprintf("if %s then %s - 1 else %s", o.out, t, t))}
}

// seqPieces is the split form of a push or a pop: read the sequence into
// a temporary, compute, write the new sequence back.
func (o *op) seqPieces(m *method, read func(string, *global, string) piece, write func(string) piece, private func(string) piece) []piece {
	s := m.newTemp(tSeq)
	if o.kind == opPush {
		return []piece{read(s, o.g, o.loc), write("append(" + s + ", " + o.val + ")")}
	}
	pop := fmt.Sprintf("if (len(%s) > 0) { %s := %s[0]; } else { %s := -1; }", s, o.out, s, o.out)
	return []piece{read(s, o.g, o.loc), private(pop), write(fmt.Sprintf("if len(%s) > 0 then %s[1:] else %s", s, s, s))}
}

// newOutput adds an output of type t to m and returns its name.
func (m *method) newOutput(t varType) string {
	base := "r"
	if t == tBool {
		base = "ok"
	}
	return m.addVar(&m.outs, base, t)
}

// newTemp adds a local of type t to m and returns its name.
func (m *method) newTemp(t varType) string {
	base := map[varType]string{tInt: "t", tBool: "u", tSeq: "s"}[t]
	return m.addVar(&m.temps, base, t)
}

// isTemp reports whether name is a local of the implementation.
func (m *method) isTemp(name string) bool {
	for _, p := range m.temps {
		if p.name == name {
			return true
		}
	}
	return false
}

// addVar appends a variable named base, base2, base3, ... to list.
func (m *method) addVar(list *[]param, base string, t varType) string {
	n := 1
	for _, p := range append(append([]param{}, m.outs...), m.temps...) {
		if p.typ == t && strings.HasPrefix(p.name, base) {
			n++
		}
	}
	name := base
	if n > 1 || base == "t" || base == "u" || base == "s" {
		name = fmt.Sprintf("%s%d", base, n)
	}
	*list = append(*list, param{name, t})
	return name
}
