package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The concrete syntax as participle grammar structs (prefix g). They
// mirror the text closely, with one struct per precedence level of the
// expression grammar; convert.go turns them into the AST.

type gFile struct {
	Decls []*gDecl `parser:"@@*"`
}

type gDecl struct {
	Type     *gTypeDecl  `parser:"  @@"`
	Const    *gConstDecl `parser:"| @@"`
	Var      *gVarDecl   `parser:"| @@"`
	Func     *gFuncDecl  `parser:"| @@"`
	Inv      *gInvDecl   `parser:"| @@"`
	YieldInv *gYieldInv  `parser:"| @@"`
	Layer    *gLayer     `parser:"| @@"`
	Instance *gInstance  `parser:"| @@"`
}

type gTypeDecl struct {
	Pos    lexer.Position
	Name   *gIdent  `parser:"'type' @@ '='"`
	Enum   *gEnum   `parser:"( @@"`
	Record *gRecord `parser:"| @@"`
	Type   *gType   `parser:"| @@ ) ';'"`
}

type gRecord struct {
	Pos    lexer.Position
	Fields []*gRecField `parser:"'record' '{' @@ (',' @@)* '}'"`
}

type gRecField struct {
	Name *gIdent `parser:"@@ ':'"`
	Type *gType  `parser:"@@"`
}

type gEnum struct {
	Pos     lexer.Position
	Members []*gIdent `parser:"'enum' '{' @@ (',' @@)* '}'"`
}

type gConstDecl struct {
	Pos   lexer.Position
	Name  *gIdent `parser:"'const' @@ ':'"`
	Type  *gType  `parser:"@@"`
	Value *gExpr  `parser:"('=' @@)? ';'"`
}

type gVarDecl struct {
	Pos    lexer.Position
	Linear bool         `parser:"@'linear'?"`
	Ghost  bool         `parser:"@'ghost'?"`
	Name   *gIdent      `parser:"'var' @@ ':'"`
	Type   *gType       `parser:"@@"`
	Init   *gExpr       `parser:"('=' @@)?"`
	Layers *gLayerRange `parser:"@@? ';'"`
}

type gLayerRange struct {
	Pos lexer.Position
	Lo  string `parser:"'layers' @Int '..'"`
	Hi  string `parser:"@Int"`
}

type gFuncDecl struct {
	Pos    lexer.Position
	Name   *gIdent   `parser:"'function' @@"`
	Params []*gParam `parser:"'(' (@@ (',' @@)*)? ')' ':'"`
	Result *gType    `parser:"@@"`
	Body   *gExpr    `parser:"'{' @@ '}'"`
}

type gInvDecl struct {
	Pos    lexer.Position
	Expr   *gExpr       `parser:"'invariant' @@"`
	Layers *gLayerRange `parser:"@@? ';'"`
}

type gYieldInv struct {
	Pos    lexer.Position
	Name   *gIdent      `parser:"'yield' 'invariant' @@"`
	Params []*gParam    `parser:"'(' (@@ (',' @@)*)? ')'"`
	Layers *gLayerRange `parser:"@@? '{'"`
	Body   []*gExpr     `parser:"(@@ ';')+"`
	End    gEnd         `parser:"@@"`
}

type gLayer struct {
	Pos     lexer.Position
	Num     string     `parser:"'layer' @Int '{'"`
	Members []*gMember `parser:"@@*"`
	End     gEnd       `parser:"@@"`
}

// gEnd captures the position of a closing brace.
type gEnd struct {
	Pos lexer.Position
	Tok string `parser:"@'}'"`
}

// gMember is an action or a procedure; a mover type before proc makes a
// mover procedure (docs/language.md, "Mover procedures").
type gMember struct {
	Public *gPublic `parser:"@@?"`
	Mover  *gMover  `parser:"@@?"`
	Action *gAction `parser:"( @@"`
	Proc   *gProc   `parser:"| @@ )"`
}

type gPublic struct {
	Pos lexer.Position
	Kw  string `parser:"@'public'"`
}

type gAction struct {
	Pos     lexer.Position
	Name    *gIdent   `parser:"'action' @@"`
	Params  []*gParam `parser:"'(' (@@ (',' @@)*)? ')'"`
	Returns []*gParam `parser:"('returns' '(' (@@ (',' @@)*)? ')')?"`
	Specs   []*gSpec  `parser:"@@*"`
	Body    *gBlock   `parser:"@@"`
}

type gProc struct {
	Pos     lexer.Position
	Name    *gIdent   `parser:"'proc' @@"`
	Params  []*gParam `parser:"'(' (@@ (',' @@)*)? ')'"`
	Returns []*gParam `parser:"('returns' '(' (@@ (',' @@)*)? ')')?"`
	Specs   []*gSpec  `parser:"@@*"`
	Derive  *gDerive  `parser:"@@?"`
	Body    *gBlock   `parser:"@@"`
}

// gDerive says how a procedure is obtained from the layer below by one
// of the transformations of Appendix B of the Chase-Lev paper: `split P
// when e` (a copy of P that assumes e where the copies split) or `peel`
// (the namesake's retry loop with its failing iterations peeled off).
// split, when and peel are not reserved words.
type gDerive struct {
	Pos   lexer.Position
	Split *gIdent `parser:"( 'split' @@"`
	When  *gExpr  `parser:"  'when' @@ ';'?"`
	Peel  bool    `parser:"| @'peel' ';'? )"`
}

type gMover struct {
	Pos  lexer.Position
	Kind string `parser:"@('right' | 'left' | 'both' | 'atomic')"`
}

type gSpec struct {
	Kind string `parser:"@('requires' | 'ensures' | 'preserves')"`
	Expr *gExpr `parser:"@@ ';'?"`
}

type gParam struct {
	Linear string  `parser:"@('linear' | 'linear_in')?"`
	Ghost  bool    `parser:"@'ghost'?"`
	Name   *gIdent `parser:"@@ ':'"`
	Type   *gType  `parser:"@@"`
}

type gIdent struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

// gType is a type: a name, []T or [K]V. After '[' one token decides
// between a sequence (']') and a map (a key type).
type gType struct {
	Pos     lexer.Position
	Bracket *gBracketType `parser:"  '[' @@"`
	Name    *gIdent       `parser:"| @@"`
}

type gBracketType struct {
	Pos  lexer.Position
	Elem *gType    `parser:"  ']' @@"`
	Map  *gMapType `parser:"| @@"`
}

type gMapType struct {
	Key *gType `parser:"@@ ']'"`
	Val *gType `parser:"@@"`
}

type gLocal struct {
	Pos    lexer.Position
	Linear bool      `parser:"@'linear'?"`
	Ghost  bool      `parser:"@'ghost'?"`
	Names  []*gIdent `parser:"'var' @@ (',' @@)* ':'"`
	Type   *gType    `parser:"@@ ';'"`
}

type gBlock struct {
	Pos   lexer.Position
	Stmts []*gStmt `parser:"'{' @@*"`
	End   gEnd     `parser:"@@"`
}

type gStmt struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Mover  *gMover   `parser:"@@?"`
	Local  *gLocal   `parser:"(  @@"`
	Yield  *gYield   `parser:" | @@"`
	If     *gIf      `parser:" | @@"`
	While  *gWhile   `parser:" | @@"`
	Choice *gChoice  `parser:" | @@"`
	Return *gKeyword `parser:" | @@"`
	Break  *gBreak   `parser:" | @@"`
	Fence  bool      `parser:" | @'fence' ';'"`
	Call   *gCall    `parser:" | @@"`
	Step   *gStep    `parser:" | @@"`
	Havoc  []*gIdent `parser:" | 'havoc' @@ (',' @@)* ';'"`
	Assume *gExpr    `parser:" | 'assume' @@ ';'"`
	Assert *gExpr    `parser:" | 'assert' @@ ';'"`
	Assign *gAssign  `parser:" | @@ )"`
}

type gKeyword struct {
	Tok string `parser:"@'return' ';'"`
}

type gBreak struct {
	Tok string `parser:"@'break' ';'"`
}

type gYield struct {
	Ann *gExpr `parser:"'yield' @@? ';'"`
}

type gIf struct {
	Star   bool     `parser:"'if' '(' ( @'*'"`
	Cond   *gExpr   `parser:"| @@ ) ')'"`
	Then   *gBlock  `parser:"@@"`
	ElseIf *gIfStmt `parser:"( 'else' ( @@"`
	Else   *gBlock  `parser:"| @@ ) )?"`
}

// gIfStmt wraps an else-if so that it gets its own position.
type gIfStmt struct {
	Pos    lexer.Position
	EndPos lexer.Position
	If     *gIf `parser:"@@"`
}

type gWhile struct {
	Star bool     `parser:"'while' '(' ( @'*'"`
	Cond *gExpr   `parser:"| @@ ) ')'"`
	Invs []*gExpr `parser:"('invariant' @@ ';'?)*"`
	Body *gBlock  `parser:"@@"`
}

type gChoice struct {
	First *gBlock   `parser:"'choice' @@"`
	Rest  []*gBlock `parser:"('or' @@)+"`
}

// gCall is `call f(args);` or `call x, y := f(args);`, followed by the
// further arms of a parallel call, `| g(args) | z := h(args)`. The first name is
// parsed before it is known whether it is an output or the callee, so
// that the parser never has to back up.
type gCall struct {
	First  *gIdent   `parser:"'call' @@"`
	More   []*gIdent `parser:"( (',' @@)* ':='"`
	Callee *gIdent   `parser:"  @@ )?"`
	Args   []*gExpr  `parser:"'(' (@@ (',' @@)*)? ')'"`
	Arms   []*gArm   `parser:"('|' @@)* ';'"`
}

// gArm is a further arm of a parallel call, `| x := g(args)`, shaped as
// the first arm of gCall.
type gArm struct {
	Pos    lexer.Position
	EndPos lexer.Position
	First  *gIdent   `parser:"@@"`
	More   []*gIdent `parser:"( (',' @@)* ':='"`
	Callee *gIdent   `parser:"  @@ )?"`
	Args   []*gExpr  `parser:"'(' (@@ (',' @@)*)? ')'"`
}

type gStep struct {
	Stmts []*gStmt `parser:"'[' @@*"`
	Close string   `parser:"@']' ';'?"`
}

type gAssign struct {
	Lhs []*gLValue `parser:"@@ (',' @@)* ':='"`
	Rhs []*gExpr   `parser:"@@ (',' @@)* ';'"`
}

type gLValue struct {
	Name *gIdent `parser:"@@"`
	Sels []*gSel `parser:"@@*"`
}

// gSel is a selector of an assignment's target: [k] or .field.
type gSel struct {
	Index *gExpr  `parser:"  '[' @@ ']'"`
	Field *gIdent `parser:"| '.' @@"`
}

// ---- Instances ----

type gInstance struct {
	Pos   lexer.Position
	Name  *gIdent        `parser:"'instance' @@ '{'"`
	Items []*gInstanceIt `parser:"@@*"`
	End   gEnd           `parser:"@@"`
}

type gInstanceIt struct {
	Thread *gThread `parser:"  @@"`
	Ints   *gRange  `parser:"| 'ints' @@ ';'"`
}

type gThread struct {
	Pos      lexer.Position
	Role     *gIdent     `parser:"'thread' @@ '('"`
	TidParam *gIdent     `parser:"@@ '='"`
	Tids     *gRange     `parser:"@@"`
	Sets     []*gThrSet  `parser:"(',' @@)* ')'"`
	Calls    []*gCallSpc `parser:"'calls' @@ (',' @@)*"`
	Max      *gMax       `parser:"@@? ';'"`
}

// gThrSet is `perms = {0..1} {2, 3}`: the linear set of each thread.
type gThrSet struct {
	Param *gIdent    `parser:"@@ '='"`
	Sets  []*gSetLit `parser:"@@+"`
}

type gSetLit struct {
	Pos   lexer.Position
	Elems []*gRange `parser:"'{' (@@ (',' @@)*)? '}'"`
}

type gMax struct {
	Pos lexer.Position
	N   string `parser:"'max' @Int"`
}

type gCallSpc struct {
	Method *gIdent    `parser:"@@"`
	Args   []*gArgSpc `parser:"('(' @@ (',' @@)* ')')?"`
}

type gArgSpc struct {
	Param *gIdent `parser:"@@ 'in'"`
	Range *gRange `parser:"@@"`
}

type gRange struct {
	Pos   lexer.Position
	LoNeg bool   `parser:"@'-'?"`
	Lo    string `parser:"@Int"`
	HiNeg bool   `parser:"('..' @'-'?"`
	Hi    string `parser:"   @Int)?"`
}

var fileParser = participle.MustBuild[gFile](
	participle.Lexer(tokenDefinition{}),
	participle.UseLookahead(0),
)
