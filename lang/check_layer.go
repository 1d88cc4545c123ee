package lang

// Checks of layers, their actions and procedures.

func (c *checker) checkLayers() {
	for i, l := range c.file.Layers {
		li := c.info.Layers[i]
		for _, m := range l.Members {
			c.declareMember(li, m)
			c.declareSignature(m.Sig())
		}
	}
	c.checkContiguous()
	for i, l := range c.file.Layers {
		c.layer = i
		for _, m := range l.Members {
			c.checkMember(m)
		}
		c.checkMoverRecursion(l)
	}
}

// checkContiguous rejects a name declared at two layers but not at one
// between them: a method is followed from layer to layer by its name, and
// refinement relates each layer to the next, so a name that disappears
// and comes back would be two unrelated members under one name.
func (c *checker) checkContiguous() {
	layers := c.info.Layers
	for i, li := range layers {
		for _, m := range li.Layer.Members {
			name := m.MemberName().Name
			if i > 0 && layers[i-1].Members[name] != nil {
				continue // reported, if at all, at its first layer
			}
			gap := -1
			for j := i + 1; j < len(layers); j++ {
				if layers[j].Members[name] == nil {
					if gap < 0 {
						gap = j
					}
				} else if gap >= 0 {
					c.errorf(layers[j].Members[name].Pos(), "%s is declared at layers %d and %d but not at layer %d: a name is followed from each layer to the next, so the layers that declare it must be consecutive",
						name, i, j, gap)
					break
				}
			}
		}
	}
}

func (c *checker) declareMember(li *LayerInfo, m Member) {
	id := m.MemberName()
	kind := ObjProc
	if _, ok := m.(*Action); ok {
		kind = ObjAction
	}
	id.Obj = &Object{Kind: kind, Name: id.Name, Pos: id.P, Decl: m}
	if prev := li.Members[id.Name]; prev != nil {
		c.errorf(id.P, "%s is already declared in layer %d at %s", id.Name, li.Layer.Num, prev.Pos())
		return
	}
	if o := c.scope.lookup(id.Name); o != nil {
		c.errorf(id.P, "%s is already declared%s", id.Name, prevDecl(o))
		return
	}
	li.Members[id.Name] = m
}

// declareSignature creates the objects of a member's parameters and
// outputs, so that calls can be checked before the callee's body.
func (c *checker) declareSignature(sig *Signature) {
	for _, p := range sig.Params {
		p.Name.Obj = &Object{Kind: ObjParam, Type: c.typeOf(p.Type), Ghost: p.Ghost, Linear: p.Linear}
	}
	for _, p := range sig.Returns {
		p.Name.Obj = &Object{Kind: ObjReturn, Type: c.typeOf(p.Type), Ghost: p.Ghost, Linear: p.Linear}
	}
}

func (c *checker) checkMember(m Member) {
	c.member = m
	defer func() { c.member = nil }()
	errsBefore := len(c.errs)
	sig := m.Sig()
	c.pushScope()
	defer c.popScope()
	for _, p := range sig.Params {
		c.declare(p.Name, p.Name.Obj)
		if p.Linear && p.Ghost {
			c.errorf(p.Name.P, "a linear parameter cannot be ghost")
		}
		if t := p.Name.Obj.Type; p.Linear && t != nil {
			if _, _, ok := LinearDomain(t); !ok {
				c.errorf(p.Name.P, "linear parameter %s has type %s: a linear parameter holds an identity (int, bool or an enumeration), a set of them ([T]bool) or a linear map (a record { dom: [T]bool, val: [T]V })", p.Name.Name, t)
			}
		}
	}
	_, isProc := m.(*Proc)
	for _, e := range sig.Requires {
		c.expect(e, Bool, c.specCtx(e, isProc, false), "a requires clause")
	}
	for _, p := range sig.Returns {
		c.declare(p.Name, p.Name.Obj)
	}
	for _, e := range without(sig.Ensures, sig.Preserves) {
		c.expect(e, Bool, c.specCtx(e, isProc, isProc), "an ensures clause")
	}
	c.holdLinearIns(m)
	for _, d := range sig.Locals {
		t := c.typeOf(d.Type)
		for _, n := range d.Names {
			c.declare(n, &Object{Kind: ObjLocal, Type: t, Ghost: d.Ghost, Linear: d.Linear})
		}
	}
	c.checkLinearSig(m)
	if isProc {
		c.checkEnsuresLinearIn(sig)
	}
	switch m := m.(type) {
	case *Action:
		c.block(m.Body, stmtCtx{action: true})
	case *Proc:
		if m.Split != nil {
			// The condition is assumed where the copies split and must be
			// one the original can evaluate there: its locals and
			// parameters, as Rule 1 of the paper's Appendix B asks.
			c.expect(m.Split.Cond, Bool, &exprCtx{layers: c.here(), globalBan: "a split condition", ghostBan: "a split condition"}, "a split condition")
			c.resolveSplitOf(m.Split)
		}
		c.block(m.Body, stmtCtx{})
		if len(c.errs) == errsBefore {
			// on a well-typed body only: errors there would cascade
			c.checkLinearFlow(m)
		}
		if m.Mover != MoverNone {
			c.moverProcBody(m)
		}
	}
}

// resolveSplitOf points the name after split at the procedure of the
// layer below that the copy is made from, for the editor's go-to
// definition; whether there is one is refinement's to report.
func (c *checker) resolveSplitOf(sc *SplitClause) {
	if c.layer == 0 {
		return
	}
	if p := c.info.Layers[c.layer-1].Proc(sc.Of.Name); p != nil {
		sc.Of.Obj = p.Name.Obj
	}
}

// here returns the layer range of the member being checked.
func (c *checker) here() *LayerRange { return &LayerRange{Lo: c.layer, Hi: c.layer} }
