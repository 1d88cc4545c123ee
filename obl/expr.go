package obl

import "math/big"

// An Expr is an immutable expression. The concrete types are *IntLit,
// *BoolLit, *VarRef, *Unary, *Binary, *Ite, *Select, *Store and *Quant.
// Build expressions with the constructors (Int, Add, And, Index, Forall,
// ...), which fold trivial cases; never modify an expression after
// building it, since expressions share subtrees.
type Expr interface {
	// String prints the expression in lipton syntax.
	String() string
	isExpr()
}

// An IntLit is an integer literal. V is never nil and never mutated.
type IntLit struct{ V *big.Int }

// A BoolLit is true or false.
type BoolLit struct{ V bool }

// A VarRef is an occurrence of a variable.
type VarRef struct{ V *Var }

// A UnaryOp is a prefix operator.
type UnaryOp int

// The prefix operators.
const (
	OpNot UnaryOp = iota + 1 // boolean negation !x
	OpNeg                    // integer negation -x
)

// A Unary applies a prefix operator.
type Unary struct {
	Op UnaryOp
	X  Expr
}

// A BinaryOp is an infix operator.
type BinaryOp int

// The infix operators. Div and Mod are SMT-LIB's Euclidean integer
// division: for b != 0, a == b*(a/b) + a%b and 0 <= a%b < |b|. Division by
// zero is unspecified: a/0 and a%0 are some integers that depend only on a,
// and an obligation whose verdict depends on them is ill-posed. Eq and Ne
// apply to every sort (maps compare extensionally).
const (
	OpAdd BinaryOp = iota + 1
	OpSub
	OpMul
	OpDiv
	OpMod
	OpLt
	OpLe
	OpGt
	OpGe
	OpEq
	OpNe
	OpAnd
	OpOr
	OpImplies
	OpIff
)

// A Binary applies an infix operator.
type Binary struct {
	Op   BinaryOp
	X, Y Expr
}

// An Ite is a conditional expression: if Cond then Then else Else.
type Ite struct{ Cond, Then, Else Expr }

// A Select reads a map: Map[Key].
type Select struct{ Map, Key Expr }

// A Store is a map with one entry replaced: Map[Key := Val].
type Store struct{ Map, Key, Val Expr }

// A Quant is a quantified formula over the variables Bound, which are
// distinct from every variable bound outside it.
type Quant struct {
	Exists bool
	Bound  []*Var
	Body   Expr
}

func (*IntLit) isExpr()  {}
func (*BoolLit) isExpr() {}
func (*VarRef) isExpr()  {}
func (*Unary) isExpr()   {}
func (*Binary) isExpr()  {}
func (*Ite) isExpr()     {}
func (*Select) isExpr()  {}
func (*Store) isExpr()   {}
func (*Quant) isExpr()   {}

// Equal reports whether a and b are syntactically equal: the same tree
// with the same variables (bound variables compared by pointer too).
func Equal(a, b Expr) bool {
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *IntLit:
		b, ok := b.(*IntLit)
		return ok && a.V.Cmp(b.V) == 0
	case *BoolLit:
		b, ok := b.(*BoolLit)
		return ok && a.V == b.V
	case *EnumLit:
		b, ok := b.(*EnumLit)
		return ok && a.S.Name == b.S.Name && a.I == b.I
	case *VarRef:
		b, ok := b.(*VarRef)
		return ok && a.V == b.V
	case *Unary:
		b, ok := b.(*Unary)
		return ok && a.Op == b.Op && Equal(a.X, b.X)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && a.Op == b.Op && Equal(a.X, b.X) && Equal(a.Y, b.Y)
	case *Ite:
		b, ok := b.(*Ite)
		return ok && Equal(a.Cond, b.Cond) && Equal(a.Then, b.Then) && Equal(a.Else, b.Else)
	case *Select:
		b, ok := b.(*Select)
		return ok && Equal(a.Map, b.Map) && Equal(a.Key, b.Key)
	case *Store:
		b, ok := b.(*Store)
		return ok && Equal(a.Map, b.Map) && Equal(a.Key, b.Key) && Equal(a.Val, b.Val)
	case *Record:
		b, ok := b.(*Record)
		return ok && a.S.Name == b.S.Name && equalAll(a.Args, b.Args)
	case *Field:
		b, ok := b.(*Field)
		return ok && a.I == b.I && Equal(a.X, b.X)
	case *ConstMap:
		b, ok := b.(*ConstMap)
		return ok && SortEqual(a.S, b.S) && Equal(a.V, b.V)
	case *SeqApp:
		b, ok := b.(*SeqApp)
		return ok && a.Op == b.Op && SortEqual(a.S, b.S) && equalAll(a.Args, b.Args)
	case *Quant:
		b, ok := b.(*Quant)
		if !ok || a.Exists != b.Exists || len(a.Bound) != len(b.Bound) {
			return false
		}
		for i := range a.Bound {
			if a.Bound[i] != b.Bound[i] {
				return false
			}
		}
		return Equal(a.Body, b.Body)
	}
	return false
}

func equalAll(a, b []Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
