package lang

import "fmt"

// exprCtx says where an expression appears, and so what it may read.
type exprCtx struct {
	// layers is the range of layers at which the expression is evaluated:
	// every global it reads must be visible at all of them. nil means no
	// layer (function bodies: checked where the function is used).
	layers *LayerRange
	// ghostBan, if set, names the place where ghosts may not be read
	// ("an assume"), because the value would influence real state.
	ghostBan string
	// globalBan, if set, names the place where globals may not be read.
	globalBan string
	// fn is the function whose body this is: globals read and functions
	// called are recorded in it.
	fn      *Object
	callees []*Object
	// constsBefore, if set, limits constants to those declared before.
	constsBefore map[*Object]bool
	// oldOK says that old(e) may appear here: in a procedure's ensures,
	// yield annotations, loop invariants and asserts. inOld is the old
	// expression being checked, if any.
	oldOK bool
	inOld *OldExpr
	// yieldInvs holds the calls of yield invariants allowed here: in a
	// procedure's annotation, its top-level conjuncts (nil elsewhere).
	yieldInvs map[*CallExpr]bool
}

// expect checks e and reports an error if its type is not want.
func (c *checker) expect(e Expr, want Type, ctx *exprCtx, what string) {
	t := c.expr(e, ctx)
	if t != nil && want != nil && !Identical(t, want) {
		c.errorf(e.Pos(), "%s must have type %s, but has type %s", what, want, t)
	}
}

// expr checks e and returns its type, or nil after an error.
func (c *checker) expr(e Expr, ctx *exprCtx) Type {
	t := c.expr1(e, ctx)
	if t != nil {
		setType(e, t)
	}
	return t
}

func (c *checker) expr1(e Expr, ctx *exprCtx) Type {
	switch e := e.(type) {
	case *IntLit:
		return Int
	case *BoolLit:
		return Bool
	case *Ident:
		return c.ident(e, ctx)
	case *UnaryExpr:
		want := Bool
		if e.Op == OpNeg {
			want = Int
		}
		if t := c.expr(e.X, ctx); t != nil && !Identical(t, want) {
			c.errorf(e.P, "operator %s needs %s operand, not %s", e.Op, article(want.String()), t)
			return nil
		}
		return want
	case *BinaryExpr:
		return c.binary(e, ctx)
	case *IndexExpr:
		return c.index(e.Map, e.Key, nil, e.P, ctx)
	case *UpdateExpr:
		return c.index(e.Map, e.Key, e.Val, e.P, ctx)
	case *CondExpr:
		c.expect(e.Cond, Bool, ctx, "the condition of an if-expression")
		a, b := c.expr(e.Then, ctx), c.expr(e.Else, ctx)
		if a != nil && b != nil && !Identical(a, b) {
			c.errorf(e.P, "the branches of an if-expression must have the same type, but have %s and %s", a, b)
			return nil
		}
		return a
	case *QuantExpr:
		return c.quant(e, ctx)
	case *CallExpr:
		return c.call(e, ctx)
	case *OldExpr:
		return c.old(e, ctx)
	case *FieldExpr:
		return c.fieldRead(e, ctx)
	case *ConstMapExpr:
		mt, _ := c.typeOf(e.MapType).(*MapType)
		return c.constMap(e.Val, mt, ctx)
	case *SeqLitExpr:
		return c.seqLit(e, ctx)
	case *SliceExpr:
		return c.slice(e, ctx)
	}
	panic(fmt.Sprintf("unexpected expression %T", e))
}

func (c *checker) ident(id *Ident, ctx *exprCtx) Type {
	o := c.scope.lookup(id.Name)
	if o == nil {
		c.errorf(id.P, "%s is not declared", id.Name)
		return nil
	}
	id.Obj = o
	switch o.Kind {
	case ObjType:
		c.errorf(id.P, "%s is a type, not a value", id.Name)
		return nil
	case ObjFunc, ObjBuiltin:
		c.errorf(id.P, "function %s must be called: %s(...)", id.Name, id.Name)
		return nil
	case ObjConst:
		if ctx.constsBefore != nil && !ctx.constsBefore[o] {
			c.errorf(id.P, "constant %s is used before its declaration", id.Name)
		}
		if ctx.fn != nil {
			ctx.fn.Func.Consts = unionObjs(ctx.fn.Func.Consts, []*Object{o})
		}
	case ObjGlobal:
		if ctx.inOld != nil {
			c.readOld(id.P, o, ctx)
			break
		}
		c.readGlobal(id, o, ctx)
	case ObjLocal, ObjReturn:
		if ctx.inOld != nil {
			c.errorf(id.P, "old(...) is the state where the procedure's body started, where %s %s has no value yet; old may read only globals, parameters and constants", o.Kind, id.Name)
			return nil
		}
	}
	if o.Ghost && ctx.ghostBan != "" {
		c.errorf(id.P, "ghost variable %s cannot be read in %s: ghost state must never influence real state", id.Name, ctx.ghostBan)
	}
	return o.Type
}

// readGlobal records a read of a global and checks that it may be read
// here.
func (c *checker) readGlobal(id *Ident, o *Object, ctx *exprCtx) {
	c.globalSeen = true
	if ctx.fn != nil {
		ctx.fn.Func.Globals = unionObjs(ctx.fn.Func.Globals, []*Object{o})
	}
	if ctx.globalBan != "" {
		c.errorf(id.P, "global variable %s cannot be read in %s", id.Name, ctx.globalBan)
	}
	c.checkVisible(id.P, o, "variable "+o.Name, ctx)
}

// checkVisible reports a global that is not visible at every layer of
// the context.
func (c *checker) checkVisible(pos Pos, o *Object, what string, ctx *exprCtx) {
	if ctx.layers == nil {
		return
	}
	r, v := *ctx.layers, o.Layers
	if r.Lo < v.Lo || r.Hi > v.Hi {
		c.errorf(pos, "%s is not visible at layer %d (%s is declared for layers %d..%d)", what, outside(r, v), o.Name, v.Lo, v.Hi)
	}
}

// outside returns a layer of r that is not in v.
func outside(r, v LayerRange) int {
	if r.Lo < v.Lo {
		return r.Lo
	}
	return r.Hi
}

func (c *checker) binary(e *BinaryExpr, ctx *exprCtx) Type {
	x, y := c.expr(e.X, ctx), c.expr(e.Y, ctx)
	if x == nil || y == nil {
		return nil
	}
	switch e.Op {
	case OpEq, OpNe:
		if !Identical(x, y) {
			c.errorf(e.OpPos, "%s compares values of the same type, but here compares %s with %s", e.Op, x, y)
			return nil
		}
		return Bool
	case OpAnd, OpOr, OpImplies, OpIff:
		return c.operands(e, x, y, Bool, Bool)
	case OpLt, OpLe, OpGt, OpGe:
		return c.operands(e, x, y, Int, Bool)
	default:
		return c.operands(e, x, y, Int, Int)
	}
}

func (c *checker) operands(e *BinaryExpr, x, y, want, result Type) Type {
	if !Identical(x, want) || !Identical(y, want) {
		c.errorf(e.OpPos, "operator %s needs %s operands, but has %s and %s", e.Op, want, x, y)
		return nil
	}
	return result
}

// index checks m[k] (val == nil) and m[k := val].
func (c *checker) index(m, k, val Expr, pos Pos, ctx *exprCtx) Type {
	mt, kt := c.expr(m, ctx), c.expr(k, ctx)
	var vt Type
	if val != nil {
		vt = c.expr(val, ctx)
	}
	if mt == nil {
		return nil
	}
	if st, ok := mt.(*SeqType); ok {
		return c.seqIndex(st, k, kt, val, pos)
	}
	mapT, ok := mt.(*MapType)
	if !ok {
		c.errorf(pos, "only maps and sequences can be indexed, and this is %s", article(mt.String()))
		return nil
	}
	if kt != nil && !Identical(kt, mapT.Key) {
		c.errorf(k.Pos(), "map key must have type %s, not %s", mapT.Key, kt)
	}
	if val == nil {
		return mapT.Val
	}
	if vt != nil && !Identical(vt, mapT.Val) {
		c.errorf(val.Pos(), "map value must have type %s, not %s", mapT.Val, vt)
	}
	return mapT
}

func (c *checker) quant(e *QuantExpr, ctx *exprCtx) Type {
	c.pushScope()
	defer c.popScope()
	for _, v := range e.Vars {
		t := c.typeOf(v.Type)
		if t != nil && !IsKeyType(t) {
			c.errorf(v.Name.P, "quantified variables must be int, bool or an enumeration, not %s", t)
		}
		c.declare(v.Name, &Object{Kind: ObjBound, Type: t})
	}
	c.expect(e.Body, Bool, ctx, "the body of a quantifier")
	return Bool
}

func (c *checker) call(e *CallExpr, ctx *exprCtx) Type {
	for _, a := range e.Args {
		c.expr(a, ctx)
	}
	o := c.scope.lookup(e.Func.Name)
	if o == nil {
		c.errorf(e.Func.P, "function %s is not declared", e.Func.Name)
		return nil
	}
	e.Func.Obj = o
	if o.Kind == ObjBuiltin {
		return c.builtin(e)
	}
	if rt, ok := o.Type.(*RecordType); ok && o.Kind == ObjType {
		return c.construct(e, rt)
	}
	if mt, ok := o.Type.(*MapType); ok && o.Kind == ObjType {
		if len(e.Args) != 1 {
			c.errorf(e.P, "%s(e) is the map that is e at every key: it takes one value, not %d", o.Name, len(e.Args))
			return mt
		}
		return c.constMapValue(e.Args[0], mt)
	}
	if o.Kind != ObjFunc {
		c.errorf(e.Func.P, "%s is %s, not a function", o.Name, article(o.Kind.String()))
		return nil
	}
	fi := o.Func
	if len(e.Args) != len(fi.Params) {
		c.errorf(e.P, "%s %s takes %d argument(s), but is called with %d", kindName(o), o.Name, len(fi.Params), len(e.Args))
		return fi.Result
	}
	for i, a := range e.Args {
		if t := a.Type(); t != nil && fi.Params[i].Type != nil && !Identical(t, fi.Params[i].Type) {
			c.errorf(a.Pos(), "argument %d of %s must have type %s, not %s", i+1, o.Name, fi.Params[i].Type, t)
		}
	}
	if fi.YieldInv {
		c.callYieldInv(e, o, ctx)
	}
	c.callFunc(e, o, ctx)
	return fi.Result
}

// callFunc applies the rules about the globals a function reads.
func (c *checker) callFunc(e *CallExpr, o *Object, ctx *exprCtx) {
	if ctx.fn != nil {
		ctx.callees = append(ctx.callees, o)
		return // checked where the calling function is used
	}
	for _, k := range o.Func.Consts {
		if ctx.constsBefore != nil && !ctx.constsBefore[k] {
			c.errorf(e.P, "function %s reads constant %s, which is not declared yet (a value may use only constants declared before it)", o.Name, k.Name)
			return
		}
	}
	if ctx.inOld != nil {
		for _, g := range o.Func.Globals {
			c.readOld(e.P, g, ctx)
		}
		return
	}
	for _, g := range o.Func.Globals {
		c.globalSeen = true
		if ctx.globalBan != "" {
			c.errorf(e.P, "function %s reads global variable %s, so it cannot be used in %s", o.Name, g.Name, ctx.globalBan)
			return
		}
		if g.Ghost && ctx.ghostBan != "" {
			c.errorf(e.P, "function %s reads ghost variable %s, so it cannot be used in %s", o.Name, g.Name, ctx.ghostBan)
			return
		}
		c.checkVisible(e.P, g, fmt.Sprintf("function %s reads %s, which", o.Name, g.Name), ctx)
	}
}
