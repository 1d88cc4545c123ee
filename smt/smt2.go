package smt

import (
	"bufio"
	"fmt"
	"github.com/lipton-dev/lipton/obl"
	"io"
	"math/big"
	"strings"
)

// WriteSMT2 writes ob as an SMT-LIB2 script that asks Z3 the same
// questions as Prover: the definitions of the passive program, then for
// each assert, in program order, a push/pop block with one (check-sat)
// whose answer is unsat if the assert holds and sat if it fails.
func WriteSMT2(w io.Writer, ob *obl.Obligation) error {
	shape, err := ob.Inspect()
	if err != nil {
		return fmt.Errorf("obligation %s: %v", ob.Name, err)
	}
	v := passify(ob, shape)
	sw := &smtWriter{w: bufio.NewWriter(w), p: v.printer()}
	sw.script(v)
	return sw.w.Flush()
}

// printer returns a printer that knows the names of the vc's constants,
// in declaration order, so both backends name everything alike.
func (v *vc) printer() *obl.Printer {
	return obl.NewPrinterNaming(smtClean, v.consts)
}

// smtWriter prints SMT-LIB2.
type smtWriter struct {
	w *bufio.Writer
	p *obl.Printer
}

func (sw *smtWriter) script(v *vc) {
	ob := v.ob
	sw.comment("lipton obligation " + ob.Name)
	if ob.Kind != "" {
		sw.comment("kind: " + string(ob.Kind))
	}
	sw.comment("One (check-sat) per assert, in program order: unsat means the assert")
	sw.comment("holds, sat that it fails. Each assert is checked assuming the asserts")
	sw.comment("before it hold. Run: z3 -smt2 FILE (add -T:SECONDS for a time limit).")
	sw.comment("x@0 is the initial value of variable x, x@k its k-th later incarnation;")
	sw.comment("ok@b implies that block b is reached and its conditions hold, reach@b")
	sw.comment("that join block b is reached.")
	if !v.quantified {
		sw.context(v)
		for i, g := range v.goals {
			sw.goal(v, i, g)
			sw.w.WriteString("(push 1)\n")
			sw.failure(g)
			sw.w.WriteString("(pop 1)\n")
		}
		return
	}
	sw.comment("The obligation has quantifiers, so each assert is a problem of its own,")
	sw.comment("separated by (reset): without push/pop Z3 preprocesses the problem,")
	sw.comment("which its quantifier instantiation needs. lipton asks each query this")
	sw.comment("way unless an incremental attempt already found it unsat.")
	for i, g := range v.goals {
		if i > 0 {
			sw.w.WriteString("(reset)\n")
		}
		sw.goal(v, i, g)
		sw.context(v)
		sw.failure(g)
	}
}

// context declares the vc's constants and asserts its definitions.
func (sw *smtWriter) context(v *vc) {
	for _, s := range usedDatatypes(v) {
		sw.declareDatatype(s)
	}
	for _, f := range usedSeqFuncs(v) {
		seq := smtSort(f.S)
		if f.Op == obl.SeqSlice {
			fmt.Fprintf(sw.w, "(declare-fun %s (%s Int Int) %s)\n", symbol(seqFuncName(f.Op, f.S)), seq, seq)
		} else {
			fmt.Fprintf(sw.w, "(declare-fun %s (%s %s) Int)\n", symbol(seqFuncName(f.Op, f.S)), seq, seq)
		}
	}
	for _, c := range v.consts {
		fmt.Fprintf(sw.w, "(declare-const %s %s)\n", symbol(sw.p.Name(c)), smtSort(c.Sort))
	}
	for _, d := range v.defs() {
		sw.w.WriteString("(assert ")
		sw.expr(d)
		sw.w.WriteString(")\n")
	}
}

// goal prints the comment that introduces goal i.
func (sw *smtWriter) goal(v *vc, i int, g *goal) {
	sw.comment(fmt.Sprintf("assert %d of %d: %s", i+1, len(v.goals), obl.DescribeAssert(g.assert)))
	sw.comment("  " + g.assert.E.String())
}

// failure asserts the failure of g and checks it.
func (sw *smtWriter) failure(g *goal) {
	sw.w.WriteString("(assert ")
	sw.expr(g.failure())
	sw.w.WriteString(")\n(check-sat)\n")
}

func (sw *smtWriter) comment(s string) {
	for _, line := range strings.Split(s, "\n") {
		sw.w.WriteString("; " + line + "\n")
	}
}

// symbol returns name as an SMT-LIB symbol, quoted unless it is simple.
func symbol(name string) string {
	simple := name != "" && !(name[0] >= '0' && name[0] <= '9')
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("~!@$%^&*_-+=<>.?/", r)) {
			simple = false
		}
	}
	if simple && !smtReserved[name] {
		return name
	}
	return "|" + smtClean(name) + "|"
}

// smtClean replaces the characters a quoted SMT-LIB symbol cannot contain.
func smtClean(name string) string {
	if !strings.ContainsAny(name, `|\`) {
		return name
	}
	return strings.NewReplacer("|", "_", `\`, "_").Replace(name)
}

// smtReserved are SMT-LIB reserved words and the theory symbols a
// variable name could shadow.
var smtReserved = map[string]bool{
	"_": true, "!": true, "as": true, "let": true, "exists": true, "forall": true,
	"match": true, "par": true, "true": true, "false": true, "not": true, "and": true,
	"or": true, "ite": true, "select": true, "store": true, "div": true, "mod": true,
	"abs": true, "distinct": true, "Int": true, "Bool": true, "Array": true, "Seq": true,
	"assert": true, "push": true, "pop": true, "NUMERAL": true, "DECIMAL": true, "STRING": true,
}

func smtSort(s obl.Sort) string {
	switch s := s.(type) {
	case *obl.EnumSort:
		return symbol(enumSortName(s))
	case *obl.RecordSort:
		return symbol(recordSortName(s))
	case obl.BasicSort:
		if s == obl.IntSort {
			return "Int"
		}
		return "Bool"
	case *obl.MapSort:
		return "(Array " + smtSort(s.Key) + " " + smtSort(s.Val) + ")"
	case *obl.SeqSort:
		return "(Seq " + smtSort(s.Elem) + ")"
	}
	return "?"
}

// smtOps maps operators to SMT-LIB function symbols; Ne is printed as
// (not (= x y)).
var smtOps = map[obl.BinaryOp]string{
	obl.OpAdd: "+", obl.OpSub: "-", obl.OpMul: "*", obl.OpDiv: "div", obl.OpMod: "mod",
	obl.OpLt: "<", obl.OpLe: "<=", obl.OpGt: ">", obl.OpGe: ">=", obl.OpEq: "=",
	obl.OpAnd: "and", obl.OpOr: "or", obl.OpImplies: "=>", obl.OpIff: "=",
}

func (sw *smtWriter) expr(e obl.Expr) {
	w := sw.w
	switch e := e.(type) {
	case *obl.IntLit:
		if e.V.Sign() < 0 {
			fmt.Fprintf(w, "(- %s)", new(big.Int).Neg(e.V))
		} else {
			w.WriteString(e.V.String())
		}
	case *obl.BoolLit:
		fmt.Fprint(w, e.V)
	case *obl.EnumLit:
		w.WriteString(symbol(enumMemberName(e.S, e.I)))
	case *obl.Record:
		sw.app(symbol(recordSortName(e.S)), e.Args...)
	case *obl.Field:
		sw.app(symbol(recordFieldName(e.S, e.I)), e.X)
	case *obl.ConstMap:
		sw.app("(as const "+smtSort(e.S)+")", e.V)
	case *obl.SeqApp:
		sw.seq(e)
	case *obl.VarRef:
		w.WriteString(symbol(sw.p.Name(e.V)))
	case *obl.Unary:
		if e.Op == obl.OpNot {
			sw.app("not", e.X)
		} else {
			sw.app("-", e.X)
		}
	case *obl.Binary:
		if e.Op == obl.OpNe {
			w.WriteString("(not ")
			sw.app("=", e.X, e.Y)
			w.WriteString(")")
			return
		}
		sw.app(smtOps[e.Op], flattenOp(e)...)
	case *obl.Ite:
		sw.app("ite", e.Cond, e.Then, e.Else)
	case *obl.Select:
		sw.app("select", e.Map, e.Key)
	case *obl.Store:
		sw.app("store", e.Map, e.Key, e.Val)
	case *obl.Quant:
		sw.quant(e)
	}
}

func (sw *smtWriter) app(fn string, args ...obl.Expr) {
	sw.w.WriteString("(" + fn)
	for _, a := range args {
		sw.w.WriteByte(' ')
		sw.expr(a)
	}
	sw.w.WriteByte(')')
}

func (sw *smtWriter) quant(q *obl.Quant) {
	if q.Exists {
		sw.w.WriteString("(exists (")
	} else {
		sw.w.WriteString("(forall (")
	}
	for i, v := range q.Bound {
		if i > 0 {
			sw.w.WriteByte(' ')
		}
		fmt.Fprintf(sw.w, "(%s %s)", symbol(sw.p.Name(v)), smtSort(v.Sort))
	}
	sw.w.WriteString(") ")
	sw.expr(q.Body)
	sw.w.WriteByte(')')
}

// flattenOp returns the operands of e, flattening left-nested chains of an
// associative operator (the shape And, Or, Add and Mul build) into one
// n-ary application.
func flattenOp(e *obl.Binary) []obl.Expr {
	switch e.Op {
	case obl.OpAnd, obl.OpOr, obl.OpAdd, obl.OpMul:
	default:
		return []obl.Expr{e.X, e.Y}
	}
	n := 1 // the operands of the left-nested chain of e.Op
	for b, ok := e.X.(*obl.Binary); ok && b.Op == e.Op; b, ok = b.X.(*obl.Binary) {
		n++
	}
	out := make([]obl.Expr, n+1)
	var cur obl.Expr = e
	for i := n; i > 0; i-- {
		b := cur.(*obl.Binary)
		out[i], cur = b.Y, b.X
	}
	out[0] = cur
	return out
}

// seq prints a sequence operation: Z3's seq.len, seq.nth, seq.++ and
// seq.unit, and the slice and diff functions of the sort (seqFuncName).
func (sw *smtWriter) seq(e *obl.SeqApp) {
	w := sw.w
	switch e.Op {
	case obl.SeqLit:
		sw.seqLit(e.S, e.Args)
	case obl.SeqLen:
		sw.app("seq.len", e.Args[0])
	case obl.SeqAt:
		sw.app("seq.nth", e.Args...)
	case obl.SeqSlice, obl.SeqDiff:
		sw.app(symbol(seqFuncName(e.Op, e.S)), e.Args...)
	case obl.SeqAppend:
		w.WriteString("(seq.++ ")
		sw.expr(e.Args[0])
		w.WriteByte(' ')
		sw.app("seq.unit", e.Args[1])
		w.WriteByte(')')
	case obl.SeqConcat:
		sw.app("seq.++", e.Args...)
	}
}

// seqLit prints a sequence literal: the empty sequence of its sort, one
// unit, or the concatenation of the units.
func (sw *smtWriter) seqLit(s *obl.SeqSort, elems []obl.Expr) {
	switch len(elems) {
	case 0:
		sw.w.WriteString("(as seq.empty " + smtSort(s) + ")")
	case 1:
		sw.app("seq.unit", elems[0])
	default:
		sw.w.WriteString("(seq.++")
		for _, x := range elems {
			sw.w.WriteByte(' ')
			sw.app("seq.unit", x)
		}
		sw.w.WriteByte(')')
	}
}
