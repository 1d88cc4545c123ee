package obl

// Defined returns the condition under which evaluating e divides by no
// zero: every divisor of a / or % that the evaluation reaches is nonzero.
// Evaluation is short-circuit: the right operand of &&, || and ==> and
// the branches of if-then-else are reached only when the left operand or
// the condition says so. Under a quantifier the condition must hold for
// every value of the bound variables.
func Defined(e Expr) Expr {
	switch e := e.(type) {
	case *Unary:
		return Defined(e.X)
	case *Binary:
		return definedBinary(e)
	case *Ite:
		return And(Defined(e.Cond), Implies(e.Cond, Defined(e.Then)), Implies(Not(e.Cond), Defined(e.Else)))
	case *Select:
		return And(Defined(e.Map), Defined(e.Key))
	case *Store:
		return And(Defined(e.Map), Defined(e.Key), Defined(e.Val))
	case *Record:
		parts := make([]Expr, len(e.Args))
		for i, a := range e.Args {
			parts[i] = Defined(a)
		}
		return And(parts...)
	case *Field:
		return Defined(e.X)
	case *ConstMap:
		return Defined(e.V)
	case *Quant:
		d := Defined(e.Body)
		if isTrue(d) {
			return d
		}
		return Forall(e.Bound, d)
	}
	return Bool(true)
}

func definedBinary(e *Binary) Expr {
	dx, dy := Defined(e.X), Defined(e.Y)
	switch e.Op {
	case OpDiv, OpMod:
		return And(dx, dy, Ne(e.Y, Int(0)))
	case OpAnd, OpImplies:
		return And(dx, Implies(e.X, dy))
	case OpOr:
		return And(dx, Implies(Not(e.X), dy))
	}
	return And(dx, dy)
}

func isTrue(e Expr) bool {
	b, ok := e.(*BoolLit)
	return ok && b.V
}
