package lang

import "fmt"

// Pos is a source position. Line and Col are 1-based; Col counts bytes.
type Pos struct {
	File   string
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether p denotes a real source position.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	if !p.IsValid() {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Node is any node of the syntax tree.
type Node interface {
	Pos() Pos
}

// File is a parsed .lip file.
type File struct {
	Name     string
	Src      []byte
	Decls    []Decl // in source order
	Comments []*Comment

	// Convenience views of Decls, by kind, in source order.
	Types      []*TypeDecl
	Consts     []*ConstDecl
	Vars       []*VarDecl
	Funcs      []*FuncDecl
	Invariants []*InvariantDecl
	Layers     []*Layer
	Instances  []*Instance
}

// Comment is a // or /* */ comment, kept for the formatter.
type Comment struct {
	P    Pos
	Text string
}

// Ident is a use or a declaration of a name. After checking, Obj is the
// object the name denotes.
type Ident struct {
	P    Pos
	Name string
	Obj  *Object
}

func (x *Ident) Pos() Pos { return x.P }

// ---- Types ----

// TypeExpr is the syntax of a type.
type TypeExpr interface {
	Node
	typeExpr()
}

// NamedType is int, bool or a declared alias.
type NamedType struct{ Name *Ident }

// MapTypeExpr is [K]V.
type MapTypeExpr struct {
	P        Pos
	Key, Val TypeExpr
}

func (t *NamedType) Pos() Pos { return t.Name.P }

// SeqTypeExpr is []T.
type SeqTypeExpr struct {
	P    Pos
	Elem TypeExpr
}

func (t *SeqTypeExpr) Pos() Pos { return t.P }
func (*SeqTypeExpr) typeExpr()  {}

// RecordTypeExpr is record { f: T, g: U, ... }, the right-hand side of a
// type declaration.
type RecordTypeExpr struct {
	P      Pos
	Fields []*Param // names and types; never linear or ghost
}

func (t *RecordTypeExpr) Pos() Pos { return t.P }
func (*RecordTypeExpr) typeExpr()  {}

// EnumTypeExpr is enum { A, B, ... }, the right-hand side of a type
// declaration.
type EnumTypeExpr struct {
	P       Pos
	Members []*Ident
}

func (t *EnumTypeExpr) Pos() Pos { return t.P }
func (*EnumTypeExpr) typeExpr()  {}

func (t *MapTypeExpr) Pos() Pos { return t.P }
func (*NamedType) typeExpr()    {}
func (*MapTypeExpr) typeExpr()  {}

// ---- Declarations ----

// Decl is a top-level declaration.
type Decl interface {
	Node
	decl()
}

// LayerRange is the `layers lo..hi` clause of a variable or invariant.
type LayerRange struct {
	P      Pos
	Lo, Hi int
}

// TypeDecl is `type Name = T;`.
type TypeDecl struct {
	P    Pos
	Name *Ident
	Type TypeExpr
}

// ConstDecl is `const Name: T [= e];`; without a value it is uninterpreted.
type ConstDecl struct {
	P     Pos
	Name  *Ident
	Type  TypeExpr
	Value Expr // may be nil
}

// VarDecl is `[ghost] var Name: T [= e] [layers a..b];`.
type VarDecl struct {
	P      Pos
	Linear bool // a pool of identities that no thread holds (a set type)
	Ghost  bool
	Name   *Ident
	Type   TypeExpr
	Init   Expr        // nil: arbitrary initial value
	Layers *LayerRange // nil: every layer
}

// FuncDecl is a pure function `function f(params): T { e }`.
//
// A yield invariant, `yield invariant Y(params) [layers a..b] { e1; e2; }`,
// is a FuncDecl with YieldInv set: its result is bool and its Body is the
// conjunction of Conjuncts. It is called only as a conjunct of a
// procedure's annotations (docs/language.md, "Yield invariants"), where
// it stands for its conjuncts, like CIVL's `call Y(...)` at a yield.
type FuncDecl struct {
	P      Pos
	Name   *Ident
	Params []*Param
	Result TypeExpr
	Body   Expr

	YieldInv  bool
	Layers    *LayerRange // yield invariants only; nil: every layer
	Conjuncts []Expr      // yield invariants only
	End       Pos         // yield invariants only: the closing brace
}

// InvariantDecl is `invariant e [layers a..b];`, conjoined to every yield
// annotation at its layers.
type InvariantDecl struct {
	P      Pos
	Expr   Expr
	Layers *LayerRange
}

// Layer is `layer N { actions and procedures }`.
type Layer struct {
	P       Pos
	End     Pos // position of the closing brace
	Num     int
	Members []Member // actions and procedures in source order
}

// Instance is a finite instance for the model checker (DESIGN §2.3).
type Instance struct {
	P       Pos
	End     Pos
	Name    *Ident
	Threads []*ThreadDecl
	Ints    *IntRange // nil: the default domain
}

// ThreadDecl is `thread role(tid = a..b, s = {..} ...) calls m1(p in
// a..b), m2 max N;`.
type ThreadDecl struct {
	P        Pos
	Role     *Ident
	TidParam *Ident
	Tids     *IntRange
	Sets     []*ThreadSets // linear sets of the role's threads
	Calls    []*CallSpec
	Max      int // maximal number of calls per thread; 0 if not given
	MaxPos   Pos
}

// ThreadSets is `s = {a..b, c} {d}`: the value of the linear set
// parameter s for each thread of a role, in the order of the thread ids.
type ThreadSets struct {
	Param *Ident
	Sets  []*SetLit
}

// SetLit is `{a..b, c}`: a finite set of integers, written as ranges.
type SetLit struct {
	P     Pos
	Elems []*IntRange
}

// Values returns the members of the set, each once, in ascending order
// of first appearance within the ranges.
func (s *SetLit) Values() []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, r := range s.Elems {
		for v := r.Lo; v <= r.Hi; v++ {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// CallSpec names a method a thread may call and the domains of arguments.
type CallSpec struct {
	Method *Ident
	Args   []*ArgSpec
}

// ArgSpec is `param in a..b`.
type ArgSpec struct {
	Param *Ident
	Range *IntRange
}

// IntRange is `a..b` (or a single `a`, where Lo == Hi).
type IntRange struct {
	P      Pos
	Lo, Hi int64
	Single bool // written as one number
}

func (d *TypeDecl) Pos() Pos      { return d.P }
func (d *ConstDecl) Pos() Pos     { return d.P }
func (d *VarDecl) Pos() Pos       { return d.P }
func (d *FuncDecl) Pos() Pos      { return d.P }
func (d *InvariantDecl) Pos() Pos { return d.P }
func (d *Layer) Pos() Pos         { return d.P }
func (d *Instance) Pos() Pos      { return d.P }
func (*TypeDecl) decl()           {}
func (*ConstDecl) decl()          {}
func (*VarDecl) decl()            {}
func (*FuncDecl) decl()           {}
func (*InvariantDecl) decl()      {}
func (*Layer) decl()              {}
func (*Instance) decl()           {}

// Mover is the mover type of an action or a step.
type Mover int

// Mover types. MoverNone means no tag was written; it means non-mover.
const (
	MoverNone Mover = iota
	MoverAtomic
	MoverRight
	MoverLeft
	MoverBoth
)

var moverNames = [...]string{"", "atomic", "right", "left", "both"}

func (m Mover) String() string { return moverNames[m] }

// IsRight reports whether m is a right mover or a both mover.
func (m Mover) IsRight() bool { return m == MoverRight || m == MoverBoth }

// IsLeft reports whether m is a left mover or a both mover.
func (m Mover) IsLeft() bool { return m == MoverLeft || m == MoverBoth }

// Member is an action or a procedure of a layer.
type Member interface {
	Node
	MemberName() *Ident
	Sig() *Signature
}

// Signature is what actions and procedures share: a name, parameters,
// outputs, a contract and locals.
type Signature struct {
	Name     *Ident
	Params   []*Param
	Returns  []*Param
	Requires []Expr
	Ensures  []Expr
	// Preserves holds the clauses written `preserves e`: each is also in
	// Requires and in Ensures (the same node), and is kept here so that
	// the formatter prints it as written and the checker checks it once.
	Preserves []Expr
	Locals    []*LocalDecl
	Layer     *Layer
	// Public says that the declaration is marked public, with the word
	// at PublicPos (docs/language.md, "Public methods").
	Public    bool
	PublicPos Pos
	// Olds are the hidden locals that hold the values, at the start of
	// the procedure's body, of the globals its old(e) expressions read
	// (set by the checker). They are part of the frame, after Locals.
	Olds []*OldSnapshot
	// Held are the hidden linear locals of a procedure's linear_in
	// parameters (set by the checker, in the order of the parameters):
	// what the procedure still owns of each. A parameter is a value and
	// never changes; its held local starts as that value and is emptied
	// when the procedure gives it away. They are part of the frame, after
	// Olds.
	Held []*Object
}

// OldSnapshot pairs a global variable with the hidden local of a
// procedure that holds its value at the start of the procedure's body:
// old(e) reads the snapshot wherever e reads the global. The snapshot is
// a thread-local copy, so other threads never change it.
type OldSnapshot struct {
	Global *Object
	Snap   *Object
}

// Action is `[mover] action name(params) [returns (outs)] specs { body }`.
type Action struct {
	P        Pos
	Mover    Mover
	MoverPos Pos
	Signature
	Body *Block
	// Of, for the summary of a mover procedure, is that procedure; the
	// summary is not a member of the layer's declaration.
	Of *Proc
}

// Proc is `[mover] proc name(params) [returns (outs)] specs [derive] { locals; stmts }`.
type Proc struct {
	P Pos
	// Mover, if not MoverNone, makes the procedure a mover procedure: a
	// call of it at its layer is one step of this mover type, whose
	// transition is its body's (Summary). MoverPos is where the word is.
	Mover    Mover
	MoverPos Pos
	// Summary is the action a mover procedure stands for at its layer:
	// the procedure's signature and body as one atomic step (set by the
	// checker; nil for other procedures).
	Summary *Action
	Signature
	// Split, if set, says that the procedure is one copy of a procedure
	// of the layer below, split by path (docs/language.md, "Path
	// splitting and loop peeling").
	Split *SplitClause
	// Peel says that the procedure is its namesake at the layer below
	// with the retry loop peeled off; PeelPos is where the word peel is.
	Peel    bool
	PeelPos Pos
	Body    *Block
}

// SplitClause is `split Of when Cond`: the procedure is the copy of Of
// (at the layer below) that assumes Cond where the copies split.
type SplitClause struct {
	P    Pos
	Of   *Ident
	Cond Expr
}

func (a *Action) Pos() Pos           { return a.P }
func (p *Proc) Pos() Pos             { return p.P }
func (a *Action) MemberName() *Ident { return a.Name }
func (p *Proc) MemberName() *Ident   { return p.Name }
func (a *Action) Sig() *Signature    { return &a.Signature }
func (p *Proc) Sig() *Signature      { return &p.Signature }

// Param is a parameter, an output or a quantifier variable.
type Param struct {
	Name   *Ident
	Type   TypeExpr
	Linear bool
	// LinearIn marks a linear_in parameter (Linear is set too): the
	// action takes the argument's identities from its caller, whose
	// variable is empty after the call.
	LinearIn bool
	Ghost    bool
}

// LocalDecl is `[linear] [ghost] var a, b: T;`.
type LocalDecl struct {
	P      Pos
	Linear bool // identities the thread owns (a set type, initially empty)
	Ghost  bool
	Names  []*Ident
	Type   TypeExpr
}

func (d *LocalDecl) Pos() Pos { return d.P }
