package smt

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt/z3"
)

// An encoder translates expressions of one vc into Z3 terms. Constants are
// named as in the SMT-LIB2 dump; every *Var gets a distinct name, which
// matters for quantifiers: Z3 binds a constant by name and sort.
type encoder struct {
	ctx *z3.Context
	// names names the constants; nil when every constant's own name is
	// the one the printer would give it (plainNames).
	names  *obl.Printer
	consts map[*obl.Var]z3.Term
	memo   map[obl.Expr]z3.Term
	slices map[string]z3.Func // the slice and diff functions, by name
	// operands is the stack of the operands of the n-ary applications
	// being translated (nary).
	operands []z3.Term
}

func newEncoder(ctx *z3.Context, v *vc, spare *encoderMaps) *encoder {
	en := &encoder{ctx: ctx}
	en.consts, en.memo = spare.take(len(v.consts), memoSize(v))
	en.operands, spare.operands = spare.operands[:0], nil
	if !plainNames(v) {
		en.names = v.printer()
	}
	return en
}

// encoderMaps keeps the maps of a Prover's last encoder for the next
// one: an obligation's memo and constants were a tenth of all the
// checker's allocation on Chase-Lev, made again for every obligation.
// A Prover encodes one obligation at a time, so one pair is enough.
type encoderMaps struct {
	consts   map[*obl.Var]z3.Term
	memo     map[obl.Expr]z3.Term
	operands []z3.Term // the encoder's stack, see encoder.nary
}

// reuseLimit is the most entries a map may have held to be kept: clearing
// a map costs time in proportion to the room it grew to, which one large
// obligation would make every later one pay.
const reuseLimit = 4096

// take returns empty maps for an obligation with about nconsts constants
// and memo entries: the kept ones, or new ones of that size.
func (m *encoderMaps) take(nconsts, nmemo int) (map[*obl.Var]z3.Term, map[obl.Expr]z3.Term) {
	consts, memo := m.consts, m.memo
	m.consts, m.memo = nil, nil
	if consts == nil {
		consts = make(map[*obl.Var]z3.Term, nconsts)
	}
	if memo == nil {
		memo = make(map[obl.Expr]z3.Term, nmemo)
	}
	return consts, memo
}

// keep empties the maps of en, which is done, and keeps them for the
// next encoder unless they grew large.
func (m *encoderMaps) keep(en *encoder) {
	if len(en.consts) <= reuseLimit {
		clear(en.consts)
		m.consts = en.consts
	}
	if len(en.memo) <= reuseLimit {
		clear(en.memo)
		m.memo = en.memo
	}
	m.operands = en.operands[:0]
	en.consts, en.memo, en.operands = nil, nil, nil
}

// plainNames reports whether the printer would give every constant of
// v its own name, so that the encoder need not build the printer (a
// fifth of the encoding's time on Chase-Lev). The constants are the
// incarnations x@k of the program variables, which are distinct because
// the program variables' names are, and the block flags ok@n and
// reach@n, which only the incarnations of variables named ok and reach
// could take; smtClean changes only names with | or \. Variables bound
// by quantifiers get names beside these, so a quantified vc keeps the
// printer.
func plainNames(v *vc) bool {
	if v.quantified {
		return false
	}
	for _, x := range v.ob.Vars {
		if x.Name == "ok" || x.Name == "reach" || strings.ContainsAny(x.Name, `|\`) {
			return false
		}
	}
	return true
}

// name returns the name of the constant standing for v.
func (en *encoder) name(v *obl.Var) string {
	if en.names == nil {
		return v.Name
	}
	return en.names.Name(v)
}

func (en *encoder) sort(s obl.Sort) z3.Sort {
	switch s := s.(type) {
	case obl.BasicSort:
		if s == obl.IntSort {
			return en.ctx.IntSort()
		}
		return en.ctx.BoolSort()
	case *obl.MapSort:
		return en.ctx.ArraySort(en.sort(s.Key), en.sort(s.Val))
	case *obl.EnumSort:
		zs, _ := en.enum(s)
		return zs
	case *obl.RecordSort:
		zs, _, _ := en.record(s)
		return zs
	case *obl.SeqSort:
		return en.ctx.SeqSort(en.sort(s.Elem))
	}
	panic(fmt.Sprintf("smt: unknown sort %v", s))
}

// constant returns the Z3 constant standing for v.
func (en *encoder) constant(v *obl.Var) z3.Term {
	t, ok := en.consts[v]
	if !ok {
		t = en.ctx.Const(en.name(v), en.sort(v.Sort))
		en.consts[v] = t
	}
	return t
}

// memoSize is room for the memo of v's encoding, so that the map
// rarely grows: measured on Chase-Lev and the Treiber stacks, the memo
// has a median of 4.7 entries per condition (the condition and its
// inner nodes), and two per goal and per block (definitions and failure
// formulas); this estimate is exceeded by 40 % of their obligations.
func memoSize(v *vc) int {
	n := 2 * len(v.goals)
	for _, b := range v.blocks {
		n += 2 + 5*len(b.conds)
	}
	return n
}

// term translates e; errors are recorded on the z3.Context (see
// z3.Context.Err) and surface when the term is asserted. A variable is
// not memoised: it has its constant, and references are rarely shared.
func (en *encoder) term(e obl.Expr) z3.Term {
	if r, ok := e.(*obl.VarRef); ok {
		return en.constant(r.V)
	}
	if t, ok := en.memo[e]; ok {
		return t
	}
	t := en.translate(e)
	en.memo[e] = t
	return t
}

func (en *encoder) translate(e obl.Expr) z3.Term {
	ctx := en.ctx
	switch e := e.(type) {
	case *obl.IntLit:
		return ctx.BigInt(e.V)
	case *obl.BoolLit:
		return ctx.Bool(e.V)
	case *obl.EnumLit:
		_, members := en.enum(e.S)
		return members[e.I]
	case *obl.Record:
		_, mk, _ := en.record(e.S)
		args := make([]z3.Term, len(e.Args))
		for i, a := range e.Args {
			args[i] = en.term(a)
		}
		return ctx.App(mk, args...)
	case *obl.Field:
		_, _, proj := en.record(e.S)
		return ctx.App(proj[e.I], en.term(e.X))
	case *obl.ConstMap:
		return ctx.ConstArray(en.sort(e.S.Key), en.term(e.V))
	case *obl.SeqApp:
		return en.seq(e)
	case *obl.VarRef:
		return en.constant(e.V)
	case *obl.Unary:
		if e.Op == obl.OpNot {
			return ctx.Not(en.term(e.X))
		}
		return ctx.Neg(en.term(e.X))
	case *obl.Binary:
		return en.binary(e)
	case *obl.Ite:
		return ctx.Ite(en.term(e.Cond), en.term(e.Then), en.term(e.Else))
	case *obl.Select:
		return ctx.Select(en.term(e.Map), en.term(e.Key))
	case *obl.Store:
		return ctx.Store(en.term(e.Map), en.term(e.Key), en.term(e.Val))
	case *obl.Quant:
		bound := make([]z3.Term, len(e.Bound))
		for i, v := range e.Bound {
			bound[i] = en.constant(v)
		}
		if e.Exists {
			return ctx.Exists(bound, en.term(e.Body))
		}
		return ctx.Forall(bound, en.term(e.Body))
	}
	panic(fmt.Sprintf("smt: unknown expression %T", e))
}

// nary translates a chain of one associative operator into one
// application. The operands' terms are kept on en.operands, a stack the
// nested translations share, instead of an array each.
func (en *encoder) nary(e *obl.Binary) z3.Term {
	base := len(en.operands)
	for _, x := range flattenOp(e) {
		t := en.term(x)
		en.operands = append(en.operands, t)
	}
	args := en.operands[base:]
	defer func() { en.operands = en.operands[:base] }()
	switch e.Op {
	case obl.OpAnd:
		return en.ctx.And(args...)
	case obl.OpOr:
		return en.ctx.Or(args...)
	case obl.OpAdd:
		return en.ctx.Add(args...)
	}
	return en.ctx.Mul(args...)
}

func (en *encoder) binary(e *obl.Binary) z3.Term {
	ctx := en.ctx
	switch e.Op {
	case obl.OpAnd, obl.OpOr, obl.OpAdd, obl.OpMul:
		return en.nary(e)
	}
	x, y := en.term(e.X), en.term(e.Y)
	switch e.Op {
	case obl.OpSub:
		return ctx.Sub(x, y)
	case obl.OpDiv:
		return ctx.Div(x, y)
	case obl.OpMod:
		return ctx.Mod(x, y)
	case obl.OpLt:
		return ctx.Lt(x, y)
	case obl.OpLe:
		return ctx.Le(x, y)
	case obl.OpGt:
		return ctx.Gt(x, y)
	case obl.OpGe:
		return ctx.Ge(x, y)
	case obl.OpEq:
		return ctx.Eq(x, y)
	case obl.OpNe:
		return ctx.Not(ctx.Eq(x, y))
	case obl.OpImplies:
		return ctx.Implies(x, y)
	case obl.OpIff:
		return ctx.Iff(x, y)
	}
	panic(fmt.Sprintf("smt: unknown operator %d", e.Op))
}

// seq translates a sequence operation to Z3's theory of sequences.
func (en *encoder) seq(e *obl.SeqApp) z3.Term {
	ctx := en.ctx
	args := make([]z3.Term, len(e.Args))
	for i, a := range e.Args {
		args[i] = en.term(a)
	}
	switch e.Op {
	case obl.SeqLit:
		if len(args) == 0 {
			return ctx.SeqEmpty(en.sort(e.S))
		}
		for i, a := range args {
			args[i] = ctx.SeqUnit(a)
		}
		return ctx.SeqConcat(args...)
	case obl.SeqLen:
		return ctx.SeqLen(args[0])
	case obl.SeqAt:
		return ctx.SeqNth(args[0], args[1])
	case obl.SeqSlice, obl.SeqDiff:
		return ctx.App(en.seqFunc(e.Op, e.S), args...)
	case obl.SeqAppend:
		return ctx.SeqConcat(args[0], ctx.SeqUnit(args[1]))
	}
	return ctx.SeqConcat(args...)
}

// seqFunc returns the function of the encoding that stands for op (a
// slice or a diff) on sequences of sort s (see seqFuncName).
func (en *encoder) seqFunc(op obl.SeqOp, s *obl.SeqSort) z3.Func {
	name := seqFuncName(op, s)
	if f, ok := en.slices[name]; ok {
		return f
	}
	if en.slices == nil {
		en.slices = make(map[string]z3.Func)
	}
	zs, i := en.sort(s), en.ctx.IntSort()
	var f z3.Func
	if op == obl.SeqSlice {
		f = en.ctx.FuncN(name, []z3.Sort{zs, i, i}, zs)
	} else {
		f = en.ctx.FuncN(name, []z3.Sort{zs, zs}, i)
	}
	en.slices[name] = f
	return f
}
