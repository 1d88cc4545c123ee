package lang

// EraseGhost turns a checked file into the implementation it proves:
// layer 0 without ghost code. It keeps the declarations layer 0 uses and
// removes ghost variables, ghost locals and parameters, statements that
// write only ghosts, ghost targets of assignments, asserts and clauses
// that mention ghost state, and every layer above 0. Yields stay, without
// annotations that mention ghosts: they are the implementation's
// interleaving points (the yield-invariant arms of a parallel call
// become plain yield points, eraseParCall). The result is a new *File sharing no statements
// with f; print it with Format. Ghost code never influences real state
// (the checker enforces it), so what remains behaves as the proven
// program does.
func EraseGhost(f *File) *File {
	out := &File{Name: f.Name, Src: f.Src}
	er := &eraser{src: f.Src}
	var removed [][2]int // offset ranges of removed declarations
	prevEnd := 0
	for _, d := range f.Decls {
		ext := declExtent(f.Src, d)
		if e := er.eraseDecl(d); e != nil {
			out.Decls = append(out.Decls, e)
		} else {
			// The comments between the previous declaration and this
			// one are about this one: they go with it.
			removed = append(removed, [2]int{prevEnd + 1, ext[1]})
		}
		prevEnd = ext[1]
	}
	if d := er.emptyYieldDecl(); d != nil {
		out.Decls = insertBeforeLayers(out.Decls, d)
	}
	for _, c := range f.Comments {
		if !inRanges(c.P.Offset, removed) {
			out.Comments = append(out.Comments, c)
		}
	}
	return out
}

// insertBeforeLayers inserts d before the first layer of decls.
func insertBeforeLayers(decls []Decl, d Decl) []Decl {
	i := 0
	for i < len(decls) {
		if _, ok := decls[i].(*Layer); ok {
			break
		}
		i++
	}
	return append(decls[:i:i], append([]Decl{d}, decls[i:]...)...)
}

// declExtent returns the offsets a declaration spans: a layer to its
// closing brace, any other declaration to the end of its line (where a
// trailing comment about it would be).
func declExtent(src []byte, d Decl) [2]int {
	start := d.Pos().Offset
	end := start
	if l, ok := d.(*Layer); ok {
		end = l.End.Offset
	}
	for end < len(src) && src[end] != '\n' {
		end++
	}
	return [2]int{start, end}
}

func inRanges(off int, ranges [][2]int) bool {
	for _, r := range ranges {
		if r[0] <= off && off <= r[1] {
			return true
		}
	}
	return false
}

// mentionsGhostState reports whether e reads a ghost variable, directly
// or through a function.
func mentionsGhostState(e Expr) bool { return e != nil && mentionsGhost(e) }

func (er *eraser) eraseDecl(d Decl) Decl {
	switch d := d.(type) {
	case *VarDecl:
		if d.Ghost {
			return nil
		}
		c := *d
		c.Layers = nil
		return &c
	case *FuncDecl:
		if d.YieldInv || mentionsGhostState(d.Body) {
			return nil
		}
	case *InvariantDecl:
		if mentionsGhostState(d.Expr) || d.Layers != nil && d.Layers.Lo > 0 {
			return nil
		}
		c := *d
		c.Layers = nil
		return &c
	case *Layer:
		if d.Num != 0 {
			return nil
		}
		c := *d
		c.Members = nil
		for _, m := range d.Members {
			c.Members = append(c.Members, er.eraseMember(m))
		}
		return &c
	}
	return d
}

func (er *eraser) eraseMember(m Member) Member {
	switch m := m.(type) {
	case *Action:
		c := *m
		c.Signature = eraseSignature(m.Signature)
		c.Body = er.eraseBlock(m.Body)
		return &c
	case *Proc:
		c := *m
		c.Signature = eraseSignature(m.Signature)
		c.Body = er.eraseBlock(m.Body)
		return &c
	}
	return m
}

func eraseSignature(s Signature) Signature {
	c := s
	c.Params = realParams(s.Params)
	c.Returns = realParams(s.Returns)
	// A preserves clause is one node in Requires, Ensures and Preserves:
	// erase it once, so that it stays one node (the formatter prints it
	// once, as preserves).
	erased := map[Expr]Expr{}
	c.Preserves = realExprsMemo(s.Preserves, erased, readsOnlyParams)
	c.Requires = realExprsMemo(s.Requires, erased, readsOnlyParams)
	c.Ensures = realExprsMemo(s.Ensures, erased, nil)
	c.Locals = nil
	for _, d := range s.Locals {
		if !d.Ghost {
			c.Locals = append(c.Locals, d)
		}
	}
	return c
}

func realParams(ps []*Param) []*Param {
	var out []*Param
	for _, p := range ps {
		if !p.Ghost {
			out = append(out, p)
		}
	}
	return out
}

// realExprs keeps, of each clause, the conjuncts that mention no ghost
// state (yield invariants are ghost): `requires n != 0 && Free(tid)`
// keeps `requires n != 0`, which the implementation's clients still owe.
// A clause with no real conjunct is dropped.
func realExprs(es []Expr) []Expr { return realExprsMemo(es, map[Expr]Expr{}, nil) }

// realExprsMemo is realExprs with the erased form of each clause kept in
// erased, so that a clause met twice gives one node. A clause that
// mentions ghost state keeps its real conjuncts that satisfy keep (none
// if keep is nil).
func realExprsMemo(es []Expr, erased map[Expr]Expr, keep func(Expr) bool) []Expr {
	var out []Expr
	for _, e := range es {
		r, ok := erased[e]
		if !ok {
			r = realConjuncts(e, keep)
			erased[e] = r
		}
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// realConjuncts returns e if it mentions no ghost state, else the
// conjunction of its conjuncts that mention none and satisfy keep (nil if
// there are none). Requires keep their facts about parameters
// (`requires n != 0 && Free(tid)` keeps n != 0): they are what the
// implementation's clients owe, and they hold wherever the procedure
// runs. Other real conjuncts of a clause that needs ghost state may need
// it to be true or stable, so they go with it.
func realConjuncts(e Expr, keep func(Expr) bool) Expr {
	if !mentionsGhostState(e) {
		return e
	}
	if keep == nil {
		return nil
	}
	var real Expr
	for _, k := range Conjuncts(e) {
		if mentionsGhostState(k) || !keep(k) {
			continue
		}
		if real == nil {
			real = k
		} else {
			real = &BinaryExpr{ExprBase: ExprBase{P: real.Pos(), T: Bool}, Op: OpAnd, OpPos: k.Pos(), X: real, Y: k}
		}
	}
	return real
}

func (er *eraser) eraseBlock(b *Block) *Block {
	return &Block{P: b.P, End: b.End, Stmts: er.eraseStmts(b.Stmts)}
}

func (er *eraser) eraseStmts(ss []Stmt) []Stmt {
	var out []Stmt
	for _, s := range ss {
		if p, ok := s.(*ParCallStmt); ok {
			out = append(out, er.eraseParCall(p)...)
		} else if e := er.eraseStmt(s); e != nil {
			out = append(out, e)
		}
	}
	return out
}

func isGhostVar(id *Ident) bool { return id.Obj != nil && id.Obj.Ghost }

// eraseStmt returns s without its ghost parts, or nil if nothing real
// remains. A parallel call may become several statements: eraseStmts
// erases it (eraseParCall).
func (er *eraser) eraseStmt(s Stmt) Stmt {
	switch s := s.(type) {
	case *AssignStmt:
		c := *s
		c.Lhs, c.Rhs = nil, nil
		for i, lv := range s.Lhs {
			if !isGhostVar(lv.Name) {
				c.Lhs, c.Rhs = append(c.Lhs, lv), append(c.Rhs, s.Rhs[i])
			}
		}
		if len(c.Lhs) == 0 {
			return nil
		}
		return &c
	case *HavocStmt:
		c := *s
		c.Vars = nil
		for _, id := range s.Vars {
			if !isGhostVar(id) {
				c.Vars = append(c.Vars, id)
			}
		}
		if len(c.Vars) == 0 {
			return nil
		}
		return &c
	case *AssertStmt:
		if mentionsGhostState(s.Cond) {
			return nil
		}
	case *YieldStmt:
		if mentionsGhostState(s.Ann) {
			c := *s
			c.Ann = nil
			return &c
		}
	case *StepStmt:
		c := *s
		c.Body = er.eraseStmts(s.Body)
		if len(c.Body) == 0 {
			return nil
		}
		return &c
	case *IfStmt:
		c := *s
		c.Then = er.eraseBlock(s.Then)
		if s.Else != nil {
			c.Else = er.eraseStmt(s.Else)
		}
		return &c
	case *BlockStmt:
		return &BlockStmt{StmtBase: s.StmtBase, Block: er.eraseBlock(s.Block)}
	case *WhileStmt:
		c := *s
		c.Invariants = realExprs(s.Invariants)
		c.Body = er.eraseBlock(s.Body)
		return &c
	case *ChoiceStmt:
		c := *s
		c.Branches = nil
		for _, b := range s.Branches {
			c.Branches = append(c.Branches, er.eraseBlock(b))
		}
		return &c
	case *CallStmt:
		return eraseCall(s)
	}
	return s
}

// eraseCall drops the ghost arguments and outputs of a call.
func eraseCall(s *CallStmt) Stmt {
	c := *s
	c.Args, c.Outs = nil, nil
	if o := s.Callee.Obj; o != nil && o.Decl != nil {
		sig := o.Decl.(Member).Sig()
		for i, a := range s.Args {
			if i < len(sig.Params) && !sig.Params[i].Ghost {
				c.Args = append(c.Args, a)
			}
		}
	}
	for _, out := range s.Outs {
		if !isGhostVar(out) {
			c.Outs = append(c.Outs, out)
		}
	}
	return &c
}

// readsOnlyParams reports whether e reads no global variable, directly
// or through a function. old(...) reads the procedure's snapshots,
// thread-local values, not globals.
func readsOnlyParams(e Expr) bool {
	global := false
	InspectExpr(e, func(x Expr) bool {
		switch x := x.(type) {
		case *OldExpr:
			return false
		case *Ident:
			global = global || x.Obj != nil && x.Obj.Kind == ObjGlobal
		case *CallExpr:
			global = global || x.Func.Obj != nil && x.Func.Obj.Func != nil && len(x.Func.Obj.Func.Globals) > 0
		}
		return !global
	})
	return !global
}
