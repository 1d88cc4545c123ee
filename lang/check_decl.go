package lang

// Checks of the top-level declarations: layer numbering, names, types,
// constants, variables, functions and invariants.

func (c *checker) checkLayerNumbers() {
	first := map[int]*Layer{}
	for i, l := range c.file.Layers {
		switch prev := first[l.Num]; {
		case prev != nil:
			c.errorf(l.P, "layer %d is declared twice (first at %s)", l.Num, prev.P)
		case l.Num == i:
		case i == 0:
			c.errorf(l.P, "layers are numbered from 0: the first layer must be layer 0, not layer %d", l.Num)
		default:
			c.errorf(l.P, "layer %d follows layer %d: layers must be numbered consecutively, so this should be layer %d", l.Num, c.file.Layers[i-1].Num, i)
		}
		if first[l.Num] == nil {
			first[l.Num] = l
		}
		c.info.Layers = append(c.info.Layers, &LayerInfo{Layer: l, Members: map[string]Member{}})
	}
	c.top = len(c.file.Layers) - 1
}

func (c *checker) declareTopLevel() {
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *TypeDecl:
			c.declare(d.Name, &Object{Kind: ObjType, Decl: d})
			switch e := d.Type.(type) {
			case *EnumTypeExpr:
				c.declareEnum(d, e)
			case *RecordTypeExpr:
				d.Name.Obj.Type = &RecordType{Name: d.Name.Name}
			}
		case *ConstDecl:
			c.declare(d.Name, &Object{Kind: ObjConst, Decl: d})
			c.info.Consts = append(c.info.Consts, d.Name.Obj)
		case *VarDecl:
			c.declare(d.Name, &Object{Kind: ObjGlobal, Decl: d, Ghost: d.Ghost})
			c.info.Globals = append(c.info.Globals, d.Name.Obj)
		case *FuncDecl:
			if d.Name.Name == "old" {
				c.errorf(d.Name.P, "a function cannot be named old: old(e) is the value of e at the start of the procedure's body")
			}
			c.declare(d.Name, &Object{Kind: ObjFunc, Decl: d, Func: &FuncInfo{YieldInv: d.YieldInv}})
			c.info.Funcs = append(c.info.Funcs, d.Name.Obj)
		}
	}
}

// declareEnum makes the type of an enumeration declaration and declares
// its members, which are constants of the type. The type is complete at
// once, so that it is the same type wherever it is named.
func (c *checker) declareEnum(d *TypeDecl, e *EnumTypeExpr) {
	t := &EnumType{Name: d.Name.Name}
	if d.Name.Obj != nil && d.Name.Obj.Decl == d {
		d.Name.Obj.Type = t
	}
	for _, m := range e.Members {
		o := &Object{Kind: ObjEnumMember, Type: t}
		c.declare(m, o)
		t.Members = append(t.Members, o)
	}
}

func (c *checker) checkTypeDecls() {
	for _, d := range c.file.Types {
		c.aliasType(d.Name.Obj, nil)
	}
	c.checkRecordTypes()
}

// aliasType resolves an alias, reporting cycles. visiting holds the
// aliases being resolved on the current path.
func (c *checker) aliasType(o *Object, visiting map[*Object]bool) Type {
	if o.Type != nil || o.Decl == nil {
		return o.Type
	}
	if visiting[o] {
		c.errorf(o.Pos, "type %s is defined in terms of itself", o.Name)
		o.Type = Int // stop the cycle; the error is reported
		return o.Type
	}
	if visiting == nil {
		visiting = map[*Object]bool{}
	}
	visiting[o] = true
	t := c.resolveType(o.Decl.(*TypeDecl).Type, visiting)
	if o.Type == nil {
		o.Type = t
	}
	return o.Type
}

// typeOf resolves a type expression.
func (c *checker) typeOf(t TypeExpr) Type { return c.resolveType(t, nil) }

func (c *checker) resolveType(t TypeExpr, visiting map[*Object]bool) Type {
	switch t := t.(type) {
	case *NamedType:
		o := c.scope.lookup(t.Name.Name)
		switch {
		case o == nil:
			c.errorf(t.Name.P, "unknown type %s", t.Name.Name)
			return nil
		case o.Kind != ObjType:
			c.errorf(t.Name.P, "%s is %s, not a type", o.Name, article(o.Kind.String()))
			return nil
		}
		t.Name.Obj = o
		return c.aliasType(o, visiting)
	case *MapTypeExpr:
		k, v := c.resolveType(t.Key, visiting), c.resolveType(t.Val, visiting)
		if k == nil || v == nil {
			return nil
		}
		if !IsKeyType(k) {
			c.errorf(t.Key.Pos(), "map keys must be int, bool or an enumeration, not %s", k)
			return nil
		}
		return &MapType{Key: k, Val: v}
	case *SeqTypeExpr:
		if e := c.resolveType(t.Elem, visiting); e != nil {
			return &SeqType{Elem: e}
		}
	}
	return nil
}

func (c *checker) checkConstsAndVars() {
	for _, d := range c.file.Consts {
		d.Name.Obj.Type = c.typeOf(d.Type)
	}
	for _, d := range c.file.Vars {
		o := d.Name.Obj
		o.Type = c.typeOf(d.Type)
		o.Layers = c.layerRange(d.Layers)
		c.checkLinearGlobal(d)
	}
}

// layerRange validates a `layers a..b` clause; nil means every layer.
func (c *checker) layerRange(r *LayerRange) LayerRange {
	if r == nil {
		return LayerRange{Lo: 0, Hi: max(c.top, 0)}
	}
	switch {
	case r.Lo > r.Hi:
		c.errorf(r.P, "empty layer range %d..%d: the first layer must not exceed the last", r.Lo, r.Hi)
	case r.Hi > c.top:
		c.errorf(r.P, "layer range %d..%d goes beyond the last layer, %d", r.Lo, r.Hi, c.top)
	}
	return *r
}

func (c *checker) checkFuncs() {
	// Signatures first, so that a body may call a function declared
	// after it.
	for _, d := range c.file.Funcs {
		fi := d.Name.Obj.Func
		for _, p := range d.Params {
			// a yield invariant's linear parameters are linear values of
			// the invariant as a thread of its own (og: invariant arms)
			fi.Params = append(fi.Params, &Object{Kind: ObjBound, Type: c.typeOf(p.Type), Linear: p.Linear && d.YieldInv})
		}
		if d.YieldInv {
			c.checkYieldInvDecl(d)
		}
		fi.Result = c.typeOf(d.Result)
		d.Name.Obj.Type = fi.Result
	}
	callees := map[*Object][]*Object{}
	for _, d := range c.file.Funcs {
		fi := d.Name.Obj.Func
		c.pushScope()
		for i, p := range d.Params {
			if (p.Linear || p.Ghost) && !d.YieldInv {
				c.errorf(p.Name.P, "function parameters cannot be linear or ghost")
			}
			c.declare(p.Name, fi.Params[i])
		}
		ctx := &exprCtx{fn: d.Name.Obj}
		what := "the body of function " + d.Name.Name
		if d.YieldInv {
			what = "a clause of yield invariant " + d.Name.Name
			for _, e := range d.Conjuncts {
				c.expect(e, Bool, ctx, what)
			}
			typeConjunction(d)
		} else {
			c.expect(d.Body, fi.Result, ctx, what)
		}
		callees[d.Name.Obj] = ctx.callees
		c.popScope()
	}
	c.closeFuncGlobals(callees)
	c.checkYieldInvGlobals()
}

// closeFuncGlobals computes the globals each function reads through the
// functions it calls, and reports recursion.
func (c *checker) closeFuncGlobals(callees map[*Object][]*Object) {
	state := map[*Object]int{} // 0 new, 1 on stack, 2 done
	var visit func(f *Object)
	visit = func(f *Object) {
		state[f] = 1
		for _, g := range callees[f] {
			switch state[g] {
			case 1:
				c.errorf(f.Decl.(*FuncDecl).P, "%s %s is recursive (it calls %s, which calls %s back): functions and yield invariants must not be recursive", kindName(f), f.Name, g.Name, f.Name)
			case 0:
				visit(g)
			}
			f.Func.Globals = unionObjs(f.Func.Globals, g.Func.Globals)
			f.Func.Consts = unionObjs(f.Func.Consts, g.Func.Consts)
		}
		state[f] = 2
	}
	for _, f := range c.info.Funcs {
		if state[f] == 0 {
			visit(f)
		}
	}
}

func unionObjs(a, b []*Object) []*Object {
	for _, o := range b {
		found := false
		for _, p := range a {
			found = found || p == o
		}
		if !found {
			a = append(a, o)
		}
	}
	return a
}

// checkInitializers checks constant values and variable initializers:
// they are evaluated before any layer runs, so they read no globals.
func (c *checker) checkInitializers() {
	declared := map[*Object]bool{}
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *ConstDecl:
			if d.Value != nil {
				ctx := &exprCtx{globalBan: "a constant's value", constsBefore: declared}
				c.expect(d.Value, d.Name.Obj.Type, ctx, "the value of constant "+d.Name.Name)
			}
			declared[d.Name.Obj] = true
		case *VarDecl:
			if d.Init != nil {
				ctx := &exprCtx{globalBan: "an initial value", constsBefore: declared}
				c.expect(d.Init, d.Name.Obj.Type, ctx, "the initial value of "+d.Name.Name)
			}
		}
	}
}

func (c *checker) checkInvariants() {
	for _, d := range c.file.Invariants {
		r := c.layerRange(d.Layers)
		c.expect(d.Expr, Bool, &exprCtx{layers: &r}, "an invariant")
	}
}
