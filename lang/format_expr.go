package lang

import (
	"strconv"
	"strings"
)

// ExprString prints an expression in canonical form with the fewest
// parentheses that keep its structure.
func ExprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

// TypeString prints a type expression.
func TypeString(t TypeExpr) string {
	switch t := t.(type) {
	case *NamedType:
		return t.Name.Name
	case *MapTypeExpr:
		return "[" + TypeString(t.Key) + "]" + TypeString(t.Val)
	case *SeqTypeExpr:
		return "[]" + TypeString(t.Elem)
	case *RecordTypeExpr:
		fields := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fields[i] = f.Name.Name + ": " + TypeString(f.Type)
		}
		return "record { " + strings.Join(fields, ", ") + " }"
	case *EnumTypeExpr:
		names := make([]string, len(t.Members))
		for i, m := range t.Members {
			names[i] = m.Name
		}
		return "enum { " + strings.Join(names, ", ") + " }"
	}
	return "?"
}

// open reports whether e extends as far right as possible when parsed
// (quantifiers and if-expressions), so it needs parentheses as an operand.
func open(e Expr) bool {
	switch e.(type) {
	case *QuantExpr, *CondExpr:
		return true
	}
	return false
}

func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *IntLit:
		b.WriteString(strconv.FormatInt(e.Val, 10))
	case *BoolLit:
		b.WriteString(strconv.FormatBool(e.Val))
	case *Ident:
		b.WriteString(e.Name)
	case *UnaryExpr:
		b.WriteString(e.Op.String())
		_, un := e.X.(*UnaryExpr)
		// -(5) must not print as -5, which parses as a literal, nor
		// -(5[k]) as -5[k]; - -x would read badly.
		writeOperand(b, e.X, startsWithLit(e.X) || un || isBinary(e.X) || open(e.X))
	case *BinaryExpr:
		writeBinary(b, e)
	case *IndexExpr:
		writeOperand(b, e.Map, needsParensAsBase(e.Map))
		b.WriteString("[")
		writeExpr(b, e.Key)
		b.WriteString("]")
	case *UpdateExpr:
		writeOperand(b, e.Map, needsParensAsBase(e.Map))
		b.WriteString("[")
		writeExpr(b, e.Key)
		b.WriteString(" := ")
		writeExpr(b, e.Val)
		b.WriteString("]")
	case *ConstMapExpr:
		b.WriteString(TypeString(e.MapType))
		b.WriteString("(")
		writeExpr(b, e.Val)
		b.WriteString(")")
	case *SeqLitExpr:
		b.WriteString(TypeString(e.SeqType))
		b.WriteString("{")
		writeList(b, e.Elems)
		b.WriteString("}")
	case *SliceExpr:
		writeOperand(b, e.Seq, needsParensAsBase(e.Seq))
		b.WriteString("[")
		if e.Lo != nil {
			writeExpr(b, e.Lo)
		}
		b.WriteString(":")
		if e.Hi != nil {
			writeExpr(b, e.Hi)
		}
		b.WriteString("]")
	case *FieldExpr:
		_, lit := e.X.(*IntLit)
		writeOperand(b, e.X, needsParensAsBase(e.X) || lit) // (5).f: never a literal 5.
		b.WriteString(".")
		b.WriteString(e.Name.Name)
	case *CondExpr:
		b.WriteString("if ")
		writeExpr(b, e.Cond)
		b.WriteString(" then ")
		writeExpr(b, e.Then)
		b.WriteString(" else ")
		writeExpr(b, e.Else)
	case *QuantExpr:
		writeQuant(b, e)
	case *OldExpr:
		b.WriteString("old(")
		writeExpr(b, e.X)
		b.WriteString(")")
	case *CallExpr:
		b.WriteString(e.Func.Name)
		b.WriteString("(")
		writeList(b, e.Args)
		b.WriteString(")")
	}
}

// writeList writes expressions separated by commas.
func writeList(b *strings.Builder, es []Expr) {
	for i, a := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, a)
	}
}

// startsWithLit reports whether e is printed starting with an integer
// literal (a literal, or a map read or update of one).
func startsWithLit(e Expr) bool {
	switch e := e.(type) {
	case *IntLit:
		return true
	case *IndexExpr:
		return startsWithLit(e.Map) && !needsParensAsBase(e.Map)
	case *UpdateExpr:
		return startsWithLit(e.Map) && !needsParensAsBase(e.Map)
	case *FieldExpr:
		return startsWithLit(e.X) && !needsParensAsBase(e.X)
	case *SliceExpr:
		return startsWithLit(e.Seq) && !needsParensAsBase(e.Seq)
	}
	return false
}

func isBinary(e Expr) bool { _, ok := e.(*BinaryExpr); return ok }

func needsParensAsBase(e Expr) bool {
	switch e := e.(type) {
	case *UnaryExpr, *BinaryExpr, *CondExpr, *QuantExpr:
		return true
	case *IntLit:
		return e.Val < 0
	}
	return false
}

func writeOperand(b *strings.Builder, e Expr, parens bool) {
	if parens {
		b.WriteString("(")
	}
	writeExpr(b, e)
	if parens {
		b.WriteString(")")
	}
}

func writeBinary(b *strings.Builder, e *BinaryExpr) {
	p := e.Op.Precedence()
	writeOperand(b, e.X, operandParens(e.X, p, e.Op == OpImplies || p == 5))
	b.WriteString(" " + e.Op.String() + " ")
	writeOperand(b, e.Y, operandParens(e.Y, p, e.Op != OpImplies))
}

// operandParens decides parentheses for an operand of an operator of
// precedence p; sameNeeds says whether an operand of the same precedence
// on this side needs them (associativity).
func operandParens(x Expr, p int, sameNeeds bool) bool {
	if open(x) {
		return true
	}
	bx, ok := x.(*BinaryExpr)
	if !ok {
		return false
	}
	q := bx.Op.Precedence()
	return q < p || q == p && sameNeeds
}

func writeQuant(b *strings.Builder, e *QuantExpr) {
	if e.Exists {
		b.WriteString("exists ")
	} else {
		b.WriteString("forall ")
	}
	// Variables declared together (x, y: T) share their type expression
	// and are printed together.
	for i, v := range e.Vars {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.Name.Name)
		if i+1 == len(e.Vars) || e.Vars[i+1].Type != v.Type {
			b.WriteString(": " + TypeString(v.Type))
		}
	}
	b.WriteString(" :: ")
	writeExpr(b, e.Body)
}
