package obl

import (
	"strconv"
	"strings"
)

// Operator precedences of the lipton expression syntax, loosest first.
// Quantifiers and conditionals extend as far right as possible, so they
// bind loosest of all.
const (
	precOpen    = iota // quantifier, if-then-else
	precIff            // <==>, non-associative
	precImplies        // ==>, right-associative
	precOr             // ||
	precAnd            // &&
	precCmp            // == != < <= > >=, non-associative
	precAdd            // + -
	precMul            // * / %
	precUnary          // ! -
	precPostfix        // m[k], m[k := v]
	precAtom
)

var binaryInfo = map[BinaryOp]struct {
	sym  string
	prec int
}{
	OpAdd: {"+", precAdd}, OpSub: {"-", precAdd},
	OpMul: {"*", precMul}, OpDiv: {"/", precMul}, OpMod: {"%", precMul},
	OpLt: {"<", precCmp}, OpLe: {"<=", precCmp}, OpGt: {">", precCmp}, OpGe: {">=", precCmp},
	OpEq: {"==", precCmp}, OpNe: {"!=", precCmp},
	OpAnd: {"&&", precAnd}, OpOr: {"||", precOr},
	OpImplies: {"==>", precImplies}, OpIff: {"<==>", precIff},
}

func (op BinaryOp) String() string { return binaryInfo[op].sym }

func (op UnaryOp) String() string {
	if op == OpNot {
		return "!"
	}
	return "-"
}

// A Printer prints expressions, giving distinct variables distinct names:
// a variable whose name is taken by another variable gets a suffix.
type Printer struct {
	names map[*Var]string
	taken map[string]bool
	// clean, if set, rewrites a variable's name into the target syntax
	// before uniqueness is ensured.
	clean func(string) string
}

// NewPrinter returns a printer; clean, if not nil, rewrites a variable's
// name into the target syntax (the SMT-LIB2 printer's) before
// uniqueness is ensured.
func NewPrinter(clean func(string) string) *Printer {
	return &Printer{names: make(map[*Var]string), taken: make(map[string]bool), clean: clean}
}

// NewPrinterNaming returns a printer as NewPrinter does that has named
// vars, in order, with room for as many names: naming every constant of
// a vc was a tenth of the Z3 encoder's time while the maps grew.
func NewPrinterNaming(clean func(string) string, vars []*Var) *Printer {
	p := &Printer{names: make(map[*Var]string, len(vars)), taken: make(map[string]bool, len(vars)), clean: clean}
	for _, v := range vars {
		p.Name(v)
	}
	return p
}

// Name returns the display name of v.
func (p *Printer) Name(v *Var) string {
	if n, ok := p.names[v]; ok {
		return n
	}
	base := v.Name
	if p.clean != nil {
		base = p.clean(base)
	}
	n := base
	for i := 1; p.taken[n] || n == ""; i++ {
		n = base + "_" + strconv.Itoa(i)
	}
	p.names[v] = n
	p.taken[n] = true
	return n
}

// precOf returns the precedence of e's outermost operator.
func precOf(e Expr) int {
	switch e := e.(type) {
	case *Quant, *Ite:
		return precOpen
	case *Binary:
		return binaryInfo[e.Op].prec
	case *Unary:
		return precUnary
	case *Select, *Store, *Field:
		return precPostfix
	case *SeqApp:
		if e.Op == SeqAt || e.Op == SeqSlice {
			return precPostfix
		}
	case *IntLit:
		if e.V.Sign() < 0 {
			return precUnary
		}
	}
	return precAtom
}

// expr prints e, parenthesized if its precedence is below min.
func (p *Printer) expr(b *strings.Builder, e Expr, min int) {
	if precOf(e) < min {
		b.WriteByte('(')
		defer b.WriteByte(')')
	}
	switch e := e.(type) {
	case *IntLit:
		b.WriteString(e.V.String())
	case *BoolLit:
		b.WriteString(strconv.FormatBool(e.V))
	case *EnumLit:
		b.WriteString(e.String())
	case *VarRef:
		b.WriteString(p.Name(e.V))
	case *Unary:
		b.WriteString(e.Op.String())
		p.expr(b, e.X, precPostfix) // -(-x) and !(!p), never -- or !!
	case *Binary:
		p.binary(b, e)
	case *Ite:
		b.WriteString("if ")
		p.expr(b, e.Cond, precOpen)
		b.WriteString(" then ")
		p.expr(b, e.Then, precOpen)
		b.WriteString(" else ")
		p.expr(b, e.Else, precOpen)
	case *Select:
		p.expr(b, e.Map, precPostfix)
		b.WriteByte('[')
		p.expr(b, e.Key, precOpen)
		b.WriteByte(']')
	case *Store:
		p.expr(b, e.Map, precPostfix)
		b.WriteByte('[')
		p.expr(b, e.Key, precOpen)
		b.WriteString(" := ")
		p.expr(b, e.Val, precOpen)
		b.WriteByte(']')
	case *Quant:
		p.quant(b, e)
	case *Record:
		b.WriteString(e.S.Name)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			p.expr(b, a, precOpen)
		}
		b.WriteByte(')')
	case *ConstMap:
		b.WriteString(e.S.String())
		b.WriteByte('(')
		p.expr(b, e.V, precOpen)
		b.WriteByte(')')
	case *SeqApp:
		p.printSeq(b, e)
	case *Field:
		p.expr(b, e.X, precPostfix)
		b.WriteByte('.')
		b.WriteString(e.S.Fields[e.I].Name)
	default:
		b.WriteString("<nil>")
	}
}

func (p *Printer) binary(b *strings.Builder, e *Binary) {
	info := binaryInfo[e.Op]
	left, right := info.prec, info.prec+1 // left-associative
	switch info.prec {
	case precImplies:
		left, right = info.prec+1, info.prec
	case precCmp, precIff:
		left = info.prec + 1
	}
	p.expr(b, e.X, left)
	b.WriteString(" " + info.sym + " ")
	p.expr(b, e.Y, right)
}

func (p *Printer) quant(b *strings.Builder, q *Quant) {
	if q.Exists {
		b.WriteString("exists ")
	} else {
		b.WriteString("forall ")
	}
	for i, v := range q.Bound {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name(v) + ": " + v.Sort.String())
	}
	b.WriteString(" :: ")
	p.expr(b, q.Body, precOpen)
}

// exprString prints e with a fresh Printer. Free variables are named
// first, so they keep their names and a bound variable that clashes with
// one gets the suffix.
func exprString(e Expr) string {
	var b strings.Builder
	p := NewPrinter(nil)
	for _, v := range FreeVars(e) {
		p.Name(v)
	}
	p.expr(&b, e, precOpen)
	return b.String()
}

func (e *IntLit) String() string  { return exprString(e) }
func (e *BoolLit) String() string { return exprString(e) }
func (e *VarRef) String() string  { return exprString(e) }
func (e *Unary) String() string   { return exprString(e) }
func (e *Binary) String() string  { return exprString(e) }
func (e *Ite) String() string     { return exprString(e) }
func (e *Select) String() string  { return exprString(e) }
func (e *Store) String() string   { return exprString(e) }
func (e *Quant) String() string   { return exprString(e) }
