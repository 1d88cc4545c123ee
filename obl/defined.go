package obl

// Defined returns the condition under which evaluating e has a value:
// every divisor of a / or % that the evaluation reaches is nonzero, and
// every sequence element and slice it reaches is inside its sequence.
func Defined(e Expr) Expr { return definedBy(e, partialAny) }

// DivisorsNonzero returns the condition under which evaluating e divides
// by no zero.
func DivisorsNonzero(e Expr) Expr { return definedBy(e, partialDivision) }

// IndexesInRange returns the condition under which every sequence
// element s[i] and slice s[lo:hi] that evaluating e reaches is inside its
// sequence.
func IndexesInRange(e Expr) Expr { return definedBy(e, partialSeq) }

// A Partiality is a kind of operation that has no value on some
// arguments, with the condition under which an expression's evaluation
// avoids them and the message of a check that it does.
type Partiality struct {
	Cond func(Expr) Expr
	Msg  string
}

// Partialities are the kinds of partial operations, in the order in
// which their checks are made.
var Partialities = []Partiality{
	{DivisorsNonzero, "a divisor may be 0 here: division by zero is an error"},
	{IndexesInRange, "a sequence index may be out of range here: s[i] needs 0 <= i < len(s), s[lo:hi] needs 0 <= lo <= hi <= len(s)"},
}

// partial says which partial operations a definedness condition covers.
type partial int

const (
	partialDivision partial = 1 << iota
	partialSeq
	partialAny = partialDivision | partialSeq
)

// definedBy returns the condition under which the partial operations of
// kind k that evaluating e reaches have a value. Evaluation is
// short-circuit: the right operand of &&, || and ==> and the branches of
// if-then-else are reached only when the left operand or the condition
// says so. Under a quantifier the condition must hold for every value of
// the bound variables.
func definedBy(e Expr, k partial) Expr {
	switch e := e.(type) {
	case *Unary:
		return definedBy(e.X, k)
	case *Binary:
		return definedBinary(e, k)
	case *Ite:
		return And(definedBy(e.Cond, k), when(e.Cond, definedBy(e.Then, k)), when(Not(e.Cond), definedBy(e.Else, k)))
	case *Select:
		return And(definedBy(e.Map, k), definedBy(e.Key, k))
	case *Store:
		return And(definedBy(e.Map, k), definedBy(e.Key, k), definedBy(e.Val, k))
	case *Record:
		return definedAll(e.Args, k)
	case *SeqApp:
		d := definedAll(e.Args, k)
		if k&partialSeq != 0 {
			d = And(d, seqRange(e))
		}
		return d
	case *Field:
		return definedBy(e.X, k)
	case *ConstMap:
		return definedBy(e.V, k)
	case *Quant:
		d := definedBy(e.Body, k)
		if isTrue(d) {
			return d
		}
		return Forall(e.Bound, d)
	}
	return Bool(true)
}

func definedAll(es []Expr, k partial) Expr {
	parts := make([]Expr, len(es))
	for i, a := range es {
		parts[i] = definedBy(a, k)
	}
	return And(parts...)
}

func definedBinary(e *Binary, k partial) Expr {
	dx, dy := definedBy(e.X, k), definedBy(e.Y, k)
	switch e.Op {
	case OpDiv, OpMod:
		if k&partialDivision != 0 {
			return And(dx, dy, Ne(e.Y, Int(0)))
		}
	case OpAnd, OpImplies:
		return And(dx, when(e.X, dy))
	case OpOr:
		return And(dx, when(Not(e.X), dy))
	}
	return And(dx, dy)
}

// when returns c ==> d, and true when d is: a definedness condition is a
// formula, never evaluated, so c may be dropped even if c itself may have
// no value (Implies keeps such a c).
func when(c, d Expr) Expr {
	if isTrue(d) {
		return d
	}
	return Implies(c, d)
}

func isTrue(e Expr) bool {
	b, ok := e.(*BoolLit)
	return ok && b.V
}
