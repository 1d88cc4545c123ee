package lang

// Stmt is a statement of an action or procedure body.
type Stmt interface {
	Node
	base() *StmtBase
}

// StmtClass classifies procedure statements (set by the checker).
type StmtClass int

// Statement classes. A step is an atomic unit that other threads can
// observe; a private statement touches locals only and is neutral for
// reduction; calls are steps (to actions) or yield points (to procedures).
const (
	ClassNone       StmtClass = iota // structural statements, or not yet checked
	ClassPrivate                     // simple statement reading and writing locals only
	ClassStep                        // simple statement or [..] group that mentions a global
	ClassActionCall                  // call of an action of the same layer: a step
	ClassProcCall                    // call of a procedure of the same layer: yields
)

var classNames = [...]string{"", "private", "step", "action call", "procedure call"}

func (c StmtClass) String() string { return classNames[c] }

// StmtBase holds what every statement has: its extent, its mover tag (if
// written) and its class.
type StmtBase struct {
	P        Pos
	End      Pos // position of the statement's last token
	Mover    Mover
	MoverPos Pos
	Class    StmtClass
}

func (b *StmtBase) Pos() Pos        { return b.P }
func (b *StmtBase) base() *StmtBase { return b }

// Base returns the common part of a statement.
func Base(s Stmt) *StmtBase { return s.base() }

// IsStep reports whether s is an atomic step (a simple statement or group
// mentioning a global, or a call of an action).
func IsStep(s Stmt) bool {
	c := s.base().Class
	return c == ClassStep || c == ClassActionCall
}

// LValue is an assignment target: a variable, possibly indexed (m[i][j]).
type LValue struct {
	Name *Ident
	Sels []*Selector // m[k].f[j] := ...: [k], .f, [j]
}

// Selector is a step of an assignment's target: a map index [Index] or a
// record field .Field (whose position in the record the checker sets).
type Selector struct {
	Index      Expr
	Field      *Ident
	FieldIndex int
}

// Indices returns the map indices of the target, in order.
func (lv *LValue) Indices() []Expr {
	var ks []Expr
	for _, s := range lv.Sels {
		if s.Index != nil {
			ks = append(ks, s.Index)
		}
	}
	return ks
}

// LeadingIndices returns the number of map indices before the first
// field selector: the target is a cell of a map up to there.
func (lv *LValue) LeadingIndices() int {
	n := 0
	for _, s := range lv.Sels {
		if s.Index == nil {
			break
		}
		n++
	}
	return n
}

// AssignStmt is `l1, l2 := e1, e2;` (a parallel assignment).
type AssignStmt struct {
	StmtBase
	Lhs []*LValue
	Rhs []Expr
	// Move marks `b := a` in a procedure between linear variables (set by
	// the checker): b receives a's identities and a is empty after.
	Move bool
}

// HavocStmt is `havoc x, y;`.
type HavocStmt struct {
	StmtBase
	Vars []*Ident
}

// AssumeStmt is `assume e;`.
type AssumeStmt struct {
	StmtBase
	Cond Expr
}

// AssertStmt is `assert e;`.
type AssertStmt struct {
	StmtBase
	Cond Expr
}

// StepStmt is `[ s1; s2; ... ]`: statements grouped into one atomic step.
type StepStmt struct {
	StmtBase
	Body []Stmt
}

// CallStmt is `call x, y := name(args);`.
type CallStmt struct {
	StmtBase
	Outs   []*Ident
	Callee *Ident
	Args   []Expr
}

// ParCallStmt is `call A(..) | x := B(..) | ...;`, a parallel call: its
// arms, each a call of an action of the same layer, run concurrently.
// The checker sets each arm's class; the statement itself is structure,
// like a block of its arms.
type ParCallStmt struct {
	StmtBase
	Arms []*CallStmt
	// Written is every arm as written, invariant arms included, in
	// textual order (what the formatter prints); Arms and Yields are
	// the checker's split of it.
	Written []*CallStmt
	// Yields are the arms that call yield invariants (CIVL's
	// `call P() | Y()`), which the checker takes out of Arms: each
	// maximal run of them is one yield point among the arms.
	Yields []*ParYield
}

// ParYield is a run of consecutive yield-invariant arms of a parallel
// call: a yield point whose annotation is the conjunction of the calls.
type ParYield struct {
	At    int         // how many of the call's Arms come before it
	Calls []*CallExpr // the yield invariant calls, in textual order
	Yield *YieldStmt  // the yield point: Ann is the calls' conjunction
}

// ArmStmts returns the arms as a statement list, in textual order: the
// order in which the static checks run them.
func (s *ParCallStmt) ArmStmts() []Stmt {
	out := make([]Stmt, len(s.Arms))
	for i, a := range s.Arms {
		out[i] = a
	}
	return out
}

// YieldStmt is `yield [e];`, an interleaving point with an annotation.
type YieldStmt struct {
	StmtBase
	Ann Expr // nil means true
	// Arms says that the yield is the invariant arms of a parallel call
	// (ParYield), not a statement of its own.
	Arms bool
}

// IfStmt is `if (e) {..} [else ..]`; Cond is nil for `if (*)`.
type IfStmt struct {
	StmtBase
	Cond Expr
	Then *Block
	Else Stmt // nil, *IfStmt or *BlockStmt
}

// WhileStmt is `while (e) invariant i; {..}`; Cond is nil for `while (*)`.
type WhileStmt struct {
	StmtBase
	Cond       Expr
	Invariants []Expr
	Body       *Block
}

// ChoiceStmt is `choice {..} or {..} ...`: nondeterministic choice.
type ChoiceStmt struct {
	StmtBase
	Branches []*Block
}

// FenceStmt is `fence;`: a store-load fence. Under a weak memory model
// (lipton explore --memory tso|pso) the thread's store buffers drain
// before it continues; under sequential consistency, which the static
// checks assume, it does nothing. It is a private statement.
type FenceStmt struct {
	StmtBase
}

// ReturnStmt is `return;`.
type ReturnStmt struct {
	StmtBase
}

// BreakStmt is `break;`: it leaves the innermost enclosing loop.
type BreakStmt struct {
	StmtBase
}

// BlockStmt is a block used as the else branch of an if.
type BlockStmt struct {
	StmtBase
	Block *Block
}

// Block is a brace-delimited statement list.
type Block struct {
	P     Pos
	End   Pos // position of the closing brace
	Stmts []Stmt
}

func (b *Block) Pos() Pos { return b.P }
