package lang

// Expr is an expression. After checking, Type() is its type.
type Expr interface {
	Node
	Type() Type
	expr()
}

// ExprBase holds what every expression has: a position and a type.
type ExprBase struct {
	P Pos
	T Type
}

func (b *ExprBase) Pos() Pos   { return b.P }
func (b *ExprBase) Type() Type { return b.T }
func (b *ExprBase) expr()      {}
func (x *Ident) expr()         {}

// Type returns the type of the object the identifier denotes.
func (x *Ident) Type() Type {
	if x.Obj == nil {
		return nil
	}
	return x.Obj.Type
}

// setType records the type of a checked expression; identifiers take
// theirs from their object.
func setType(e Expr, t Type) {
	if b, ok := e.(interface{ base() *ExprBase }); ok {
		b.base().T = t
	}
}

func (b *ExprBase) base() *ExprBase { return b }

// IntLit is an integer literal.
type IntLit struct {
	ExprBase
	Val int64
}

// BoolLit is true or false.
type BoolLit struct {
	ExprBase
	Val bool
}

// Op is an operator of a unary or binary expression.
type Op int

// Operators, in order of increasing binding strength of their groups.
const (
	OpIff     Op = iota // <==>
	OpImplies           // ==>
	OpOr                // ||
	OpAnd               // &&
	OpEq                // ==
	OpNe                // !=
	OpLt                // <
	OpLe                // <=
	OpGt                // >
	OpGe                // >=
	OpAdd               // +
	OpSub               // -
	OpMul               // *
	OpDiv               // /
	OpMod               // %
	OpNot               // !
	OpNeg               // unary -
)

var opNames = [...]string{"<==>", "==>", "||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "!", "-"}

func (op Op) String() string { return opNames[op] }

// Precedence returns the binding strength of a binary operator: higher
// binds tighter. <==> is weakest, ==> binds weaker than ||.
func (op Op) Precedence() int {
	switch op {
	case OpIff:
		return 1
	case OpImplies:
		return 2
	case OpOr:
		return 3
	case OpAnd:
		return 4
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return 5
	case OpAdd, OpSub:
		return 6
	default:
		return 7
	}
}

// UnaryExpr is !x or -x.
type UnaryExpr struct {
	ExprBase
	Op Op
	X  Expr
}

// BinaryExpr is x op y.
type BinaryExpr struct {
	ExprBase
	Op    Op
	OpPos Pos
	X, Y  Expr
}

// ConstMapExpr is [K]V(e), the map that is e at every key. (For an alias
// of a map type, M(e) is a CallExpr whose Func names the type.)
type ConstMapExpr struct {
	ExprBase
	MapType TypeExpr
	Val     Expr
}

// FieldExpr is the record field read x.f; Index is the field's position
// in the record (set by the checker).
type FieldExpr struct {
	ExprBase
	X     Expr
	Name  *Ident
	Index int
}

// IndexExpr is the map read m[k], or the sequence element s[i].
type IndexExpr struct {
	ExprBase
	Map, Key Expr
}

// UpdateExpr is the map update m[k := v], a new map.
type UpdateExpr struct {
	ExprBase
	Map, Key, Val Expr
}

// CondExpr is `if c then a else b`.
type CondExpr struct {
	ExprBase
	Cond, Then, Else Expr
}

// QuantExpr is `forall x: T :: e` or `exists x: T :: e`.
type QuantExpr struct {
	ExprBase
	Exists bool
	Vars   []*Param
	Body   Expr
}

// OldExpr is old(e): the value of e in the state where the current call
// of the procedure started running its body. Snaps are the snapshots of
// the globals e reads, directly or through functions (set by the
// checker); translating e with each global replaced by its snapshot
// gives old(e).
type OldExpr struct {
	ExprBase
	X     Expr
	Snaps []*OldSnapshot
}

// CallExpr is a call of a pure function f(args), or of a built-in
// function on sequences (len, append, concat), which Builtin names (set
// by the checker).
type CallExpr struct {
	ExprBase
	Func    *Ident
	Args    []Expr
	Builtin Builtin
}

// Builtin is a built-in function of the language.
type Builtin int

// The built-in functions: len(s), append(s, v), concat(s, t).
const (
	NotBuiltin Builtin = iota
	BuiltinLen
	BuiltinAppend
	BuiltinConcat
)

// SeqLitExpr is []T{e1, e2, ...}, the sequence of the given values
// ([]T{} is the empty sequence).
type SeqLitExpr struct {
	ExprBase
	SeqType TypeExpr
	Elems   []Expr
}

// SliceExpr is s[lo:hi], the elements of s from lo up to, not
// including, hi; Lo or Hi is nil when omitted (0 and len(s)).
type SliceExpr struct {
	ExprBase
	Seq, Lo, Hi Expr
}
