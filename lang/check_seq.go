package lang

// Checks of sequences (docs/language.md, "Types"): []T{e1, ...}, s[i],
// s[lo:hi], and the built-in functions len(s), append(s, v) and
// concat(s, t). A sequence is a value: it is never updated in place, so
// s[i := v] and an assignment to s[i] are errors.

// seqLit checks []T{e1, e2, ...}.
func (c *checker) seqLit(e *SeqLitExpr, ctx *exprCtx) Type {
	st, _ := c.typeOf(e.SeqType).(*SeqType)
	for i, x := range e.Elems {
		t := c.expr(x, ctx)
		if st != nil && t != nil && !Identical(t, st.Elem) {
			c.errorf(x.Pos(), "element %d of a sequence of type %s must have type %s, not %s", i+1, st, st.Elem, t)
		}
	}
	if st == nil {
		return nil
	}
	return st
}

// seqIndex checks s[i] (val == nil); s[i := v] is an error.
func (c *checker) seqIndex(st *SeqType, k Expr, kt Type, val Expr, pos Pos) Type {
	if val != nil {
		c.errorf(pos, "a sequence cannot be updated in place: build a new one with slices, append and concat (s[:i] and s[i+1:])")
		return nil
	}
	if kt != nil && !Identical(kt, Int) {
		c.errorf(k.Pos(), "a sequence index must have type int, not %s", kt)
	}
	return st.Elem
}

// slice checks s[lo:hi].
func (c *checker) slice(e *SliceExpr, ctx *exprCtx) Type {
	t := c.expr(e.Seq, ctx)
	for _, b := range []Expr{e.Lo, e.Hi} {
		if b != nil {
			c.expect(b, Int, ctx, "a slice bound")
		}
	}
	if t == nil {
		return nil
	}
	st, ok := t.(*SeqType)
	if !ok {
		c.errorf(e.P, "only sequences can be sliced, and this is %s", article(t.String()))
		return nil
	}
	return st
}

// builtin checks a call of len, append or concat.
func (c *checker) builtin(e *CallExpr) Type {
	want := 1
	switch e.Func.Name {
	case "len":
		e.Builtin = BuiltinLen
	case "append":
		e.Builtin, want = BuiltinAppend, 2
	case "concat":
		e.Builtin, want = BuiltinConcat, 2
	}
	if len(e.Args) != want {
		c.errorf(e.P, "built-in function %s takes %d argument(s), but is called with %d", e.Func.Name, want, len(e.Args))
		return nil
	}
	t := e.Args[0].Type()
	if t == nil {
		return nil
	}
	st, ok := t.(*SeqType)
	if !ok {
		c.errorf(e.Args[0].Pos(), "the first argument of %s must be a sequence, not %s", e.Func.Name, article(t.String()))
		return nil
	}
	switch e.Builtin {
	case BuiltinLen:
		return Int
	case BuiltinAppend:
		c.seqArg(e, 1, st.Elem)
	case BuiltinConcat:
		c.seqArg(e, 1, st)
	}
	return st
}

// seqArg reports argument i of a built-in call that does not have type
// want.
func (c *checker) seqArg(e *CallExpr, i int, want Type) {
	if t := e.Args[i].Type(); t != nil && !Identical(t, want) {
		c.errorf(e.Args[i].Pos(), "argument %d of %s must have type %s, not %s", i+1, e.Func.Name, want, t)
	}
}
