package obl

import "math/big"

// Shared literals; expressions are immutable, so sharing is safe.
var (
	trueLit  = &BoolLit{true}
	falseLit = &BoolLit{false}
)

// Int returns the integer literal n.
func Int(n int64) *IntLit { return &IntLit{big.NewInt(n)} }

// BigInt returns the integer literal n. It copies n.
func BigInt(n *big.Int) *IntLit { return &IntLit{new(big.Int).Set(n)} }

// Bool returns the literal b.
func Bool(b bool) *BoolLit {
	if b {
		return trueLit
	}
	return falseLit
}

// True and False return the boolean literals.
func True() *BoolLit { return trueLit }

// False returns the literal false.
func False() *BoolLit { return falseLit }

// Ref returns an occurrence of v.
func Ref(v *Var) *VarRef { return &VarRef{v} }

// isBool reports whether e is the boolean literal b.
func isBool(e Expr, b bool) bool {
	l, ok := e.(*BoolLit)
	return ok && l.V == b
}

// intLit returns the value of an integer literal, or nil.
func intLit(e Expr) *big.Int {
	if l, ok := e.(*IntLit); ok {
		return l.V
	}
	return nil
}

// Not returns !x, folding literals and double negation.
func Not(x Expr) Expr {
	switch x := x.(type) {
	case *BoolLit:
		return Bool(!x.V)
	case *Unary:
		if x.Op == OpNot {
			return x.X
		}
	}
	return &Unary{OpNot, x}
}

// Neg returns -x, folding literals and double negation.
func Neg(x Expr) Expr {
	if n := intLit(x); n != nil {
		return &IntLit{new(big.Int).Neg(n)}
	}
	if u, ok := x.(*Unary); ok && u.Op == OpNeg {
		return u.X
	}
	return &Unary{OpNeg, x}
}

// And returns the conjunction of xs, dropping true operands; it is false if
// an operand is false (and the operands before it always have a value)
// and true if xs is empty.
func And(xs ...Expr) Expr {
	var out Expr
	for _, x := range xs {
		switch {
		case isBool(x, false) && (out == nil || total(out)):
			return falseLit
		case isBool(x, false):
			return &Binary{OpAnd, out, x} // operands after x are not evaluated
		case isBool(x, true):
		case out == nil:
			out = x
		default:
			out = &Binary{OpAnd, out, x}
		}
	}
	if out == nil {
		return trueLit
	}
	return out
}

// Or returns the disjunction of xs, dropping false operands; it is true if
// an operand is true (and the operands before it always have a value) and
// false if xs is empty.
func Or(xs ...Expr) Expr {
	var out Expr
	for _, x := range xs {
		switch {
		case isBool(x, true) && (out == nil || total(out)):
			return trueLit
		case isBool(x, true):
			return &Binary{OpOr, out, x} // operands after x are not evaluated
		case isBool(x, false):
		case out == nil:
			out = x
		default:
			out = &Binary{OpOr, out, x}
		}
	}
	if out == nil {
		return falseLit
	}
	return out
}

// Implies returns x ==> y, folding literal operands.
func Implies(x, y Expr) Expr {
	switch {
	case isBool(x, true):
		return y
	case isBool(x, false), isBool(y, true) && total(x):
		return trueLit
	case isBool(y, false):
		return Not(x)
	}
	return &Binary{OpImplies, x, y}
}

// Iff returns x <==> y, folding literal operands.
func Iff(x, y Expr) Expr {
	switch {
	case isBool(x, true):
		return y
	case isBool(y, true):
		return x
	case isBool(x, false):
		return Not(y)
	case isBool(y, false):
		return Not(x)
	}
	return &Binary{OpIff, x, y}
}

// Eq returns x == y; it is true for syntactically equal operands that
// always have a value, and folded for literals.
func Eq(x, y Expr) Expr {
	if Equal(x, y) && total(x) {
		return trueLit
	}
	if isLit(x) && isLit(y) {
		return falseLit // distinct literals of the same sort
	}
	return &Binary{OpEq, x, y}
}

// Ne returns x != y, folded like Eq.
func Ne(x, y Expr) Expr {
	if Equal(x, y) && total(x) {
		return falseLit
	}
	if isLit(x) && isLit(y) {
		return trueLit
	}
	return &Binary{OpNe, x, y}
}

// total says whether e has a value wherever it is evaluated (no division
// by a possibly zero divisor, no possibly out-of-range sequence access).
// The folds drop an operand only if it is total: the definedness checks
// are taken on the folded expression, and code that evaluates 1 / z must
// be checked for z != 0 even where the value does not matter
// (1 / z == 1 / z, 0 * (1 / z)).
func total(e Expr) bool { return isTrue(Defined(e)) }

func isLit(e Expr) bool {
	switch e.(type) {
	case *IntLit, *BoolLit, *EnumLit:
		return true
	}
	return false
}

// Add returns x + y, folding literals and adding zero.
func Add(x, y Expr) Expr {
	a, b := intLit(x), intLit(y)
	switch {
	case a != nil && b != nil:
		return &IntLit{new(big.Int).Add(a, b)}
	case a != nil && a.Sign() == 0:
		return y
	case b != nil && b.Sign() == 0:
		return x
	}
	return &Binary{OpAdd, x, y}
}

// Sub returns x - y, folding literals and subtracting zero.
func Sub(x, y Expr) Expr {
	a, b := intLit(x), intLit(y)
	switch {
	case a != nil && b != nil:
		return &IntLit{new(big.Int).Sub(a, b)}
	case b != nil && b.Sign() == 0:
		return x
	}
	return &Binary{OpSub, x, y}
}

// Mul returns x * y, folding literals and multiplication by 0 and 1.
func Mul(x, y Expr) Expr {
	a, b := intLit(x), intLit(y)
	switch {
	case a != nil && b != nil:
		return &IntLit{new(big.Int).Mul(a, b)}
	case a != nil && a.Sign() == 0 && total(y), b != nil && b.Cmp(big.NewInt(1)) == 0:
		return x
	case b != nil && b.Sign() == 0 && total(x), a != nil && a.Cmp(big.NewInt(1)) == 0:
		return y
	}
	return &Binary{OpMul, x, y}
}

// Div returns the Euclidean quotient x / y, folding literals with a
// nonzero divisor.
func Div(x, y Expr) Expr {
	a, b := intLit(x), intLit(y)
	if a != nil && b != nil && b.Sign() != 0 {
		q, _ := euclid(a, b)
		return &IntLit{q}
	}
	return &Binary{OpDiv, x, y}
}

// Mod returns the Euclidean remainder x % y, folding literals with a
// nonzero divisor.
func Mod(x, y Expr) Expr {
	a, b := intLit(x), intLit(y)
	if a != nil && b != nil && b.Sign() != 0 {
		_, r := euclid(a, b)
		return &IntLit{r}
	}
	return &Binary{OpMod, x, y}
}

// euclid returns the Euclidean quotient and remainder of a by b != 0,
// which is what big.Int's DivMod computes.
func euclid(a, b *big.Int) (q, r *big.Int) {
	return new(big.Int).DivMod(a, b, new(big.Int))
}

// compare builds an integer comparison, folding literals.
func compare(op BinaryOp, x, y Expr) Expr {
	a, b := intLit(x), intLit(y)
	if a != nil && b != nil {
		c := a.Cmp(b)
		switch op {
		case OpLt:
			return Bool(c < 0)
		case OpLe:
			return Bool(c <= 0)
		case OpGt:
			return Bool(c > 0)
		case OpGe:
			return Bool(c >= 0)
		}
	}
	return &Binary{op, x, y}
}

// Lt returns x < y.
func Lt(x, y Expr) Expr { return compare(OpLt, x, y) }

// Le returns x <= y.
func Le(x, y Expr) Expr { return compare(OpLe, x, y) }

// Gt returns x > y.
func Gt(x, y Expr) Expr { return compare(OpGt, x, y) }

// Ge returns x >= y.
func Ge(x, y Expr) Expr { return compare(OpGe, x, y) }

// BinaryOf returns x op y built with the folding constructor for op.
func BinaryOf(op BinaryOp, x, y Expr) Expr {
	switch op {
	case OpAdd:
		return Add(x, y)
	case OpSub:
		return Sub(x, y)
	case OpMul:
		return Mul(x, y)
	case OpDiv:
		return Div(x, y)
	case OpMod:
		return Mod(x, y)
	case OpLt, OpLe, OpGt, OpGe:
		return compare(op, x, y)
	case OpEq:
		return Eq(x, y)
	case OpNe:
		return Ne(x, y)
	case OpAnd:
		return And(x, y)
	case OpOr:
		return Or(x, y)
	case OpImplies:
		return Implies(x, y)
	case OpIff:
		return Iff(x, y)
	}
	return &Binary{op, x, y}
}

// IfThenElse returns if c then x else y, folding a literal condition and
// equal branches.
func IfThenElse(c, x, y Expr) Expr {
	switch {
	case isBool(c, true), Equal(x, y) && total(c):
		return x
	case isBool(c, false):
		return y
	}
	return &Ite{c, x, y}
}

// Index returns the map read m[k]. A read through a store at a
// syntactically equal key is folded, and a store at a different literal key
// is skipped.
func Index(m, k Expr) Expr {
	for {
		s, ok := m.(*Store)
		if !ok {
			break
		}
		if Equal(s.Key, k) && total(s.Map) && total(k) {
			return s.Val
		}
		if !(isLit(s.Key) && isLit(k)) || !total(s.Val) {
			break
		}
		m = s.Map
	}
	return &Select{m, k}
}

// Update returns the map m[k := v].
func Update(m, k, v Expr) Expr { return &Store{m, k, v} }

// Forall returns the universal quantification of body over bound,
// dropping variables that do not occur free in body.
func Forall(bound []*Var, body Expr) Expr { return quant(false, bound, body) }

// Exists returns the existential quantification of body over bound,
// dropping variables that do not occur free in body.
func Exists(bound []*Var, body Expr) Expr { return quant(true, bound, body) }

func quant(exists bool, bound []*Var, body Expr) Expr {
	if _, ok := body.(*BoolLit); ok {
		return body
	}
	free := freeSet(body)
	var used []*Var
	for _, v := range bound {
		if free[v] {
			used = append(used, v)
		}
	}
	if len(used) == 0 {
		return body
	}
	return &Quant{exists, used, body}
}

// Conjuncts splits a formula at its top-level conjunctions (true has
// none).
func Conjuncts(e Expr) []Expr { return appendConjuncts(nil, e) }

// appendConjuncts appends the conjuncts of e to out, in order.
func appendConjuncts(out []Expr, e Expr) []Expr {
	if b, ok := e.(*Binary); ok && b.Op == OpAnd {
		return appendConjuncts(appendConjuncts(out, b.X), b.Y)
	}
	if l, ok := e.(*BoolLit); ok && l.V {
		return out
	}
	return append(out, e)
}
