package lang

// Checks of record types (docs/language.md, "Types"): the fields of a
// declaration, field reads x.f, and construction Node(e1, e2, ...), which
// gives every field a value, in the order of the declaration.

// checkRecordTypes resolves the fields of every record declaration and
// rejects a record that contains itself, directly or through other
// records, maps or sequences: its values would be infinite.
func (c *checker) checkRecordTypes() {
	var recs []*TypeDecl
	for _, d := range c.file.Types {
		rte, ok := d.Type.(*RecordTypeExpr)
		if !ok {
			continue
		}
		rt, ok := d.Name.Obj.Type.(*RecordType)
		if !ok || d.Name.Obj.Decl != d {
			continue // a duplicate declaration, reported
		}
		seen := map[string]bool{}
		for _, f := range rte.Fields {
			if seen[f.Name.Name] {
				c.errorf(f.Name.P, "record %s has two fields named %s", rt.Name, f.Name.Name)
			}
			seen[f.Name.Name] = true
			rt.Fields = append(rt.Fields, RecordField{Name: f.Name.Name, Type: c.typeOf(f.Type)})
		}
		recs = append(recs, d)
	}
	for _, d := range recs {
		rt := d.Name.Obj.Type.(*RecordType)
		for _, f := range rt.Fields {
			if containsRecord(f.Type, rt, map[Type]bool{}) {
				c.errorf(d.Name.P, "record %s contains itself (through field %s): its values would be infinite; refer to other records by an int identifier, as a map from identifiers to records", rt.Name, f.Name)
				break
			}
		}
	}
}

// containsRecord reports whether values of type t contain a value of record
// type r.
func containsRecord(t Type, r *RecordType, seen map[Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch t := t.(type) {
	case *RecordType:
		if t == r {
			return true
		}
		for _, f := range t.Fields {
			if containsRecord(f.Type, r, seen) {
				return true
			}
		}
	case *MapType:
		return containsRecord(t.Key, r, seen) || containsRecord(t.Val, r, seen)
	case *SeqType:
		return containsRecord(t.Elem, r, seen)
	}
	return false
}

// fieldRead checks x.f.
func (c *checker) fieldRead(e *FieldExpr, ctx *exprCtx) Type {
	t := c.expr(e.X, ctx)
	if t == nil {
		return nil
	}
	i, ft := c.field(t, e.Name, ExprString(e.X))
	e.Index = i
	return ft
}

// field resolves field name of a value of type t (what names the value
// in messages) and returns its position and type, or -1 and nil after an
// error (none if t is nil: the error is reported).
func (c *checker) field(t Type, name *Ident, what string) (int, Type) {
	if t == nil {
		return -1, nil
	}
	rt, ok := t.(*RecordType)
	if !ok {
		c.errorf(name.P, "%s has no field %s: it is %s, not a record", what, name.Name, article(t.String()))
		return -1, nil
	}
	i := rt.FieldIndex(name.Name)
	if i < 0 {
		c.errorf(name.P, "record %s has no field %s (its fields: %s)", rt.Name, name.Name, rt.fieldNames())
		return -1, nil
	}
	return i, rt.Fields[i].Type
}

// construct checks Node(e1, e2, ...), whose arguments were checked by
// the caller.
func (c *checker) construct(e *CallExpr, rt *RecordType) Type {
	if len(e.Args) != len(rt.Fields) {
		c.errorf(e.P, "record %s has %d field(s) (%s), but is built with %d value(s)", rt.Name, len(rt.Fields), rt.fieldNames(), len(e.Args))
		return rt
	}
	for i, a := range e.Args {
		if t := a.Type(); t != nil && rt.Fields[i].Type != nil && !Identical(t, rt.Fields[i].Type) {
			c.errorf(a.Pos(), "field %s of %s has type %s, not %s (the values of a record are its fields, in order)", rt.Fields[i].Name, rt.Name, rt.Fields[i].Type, t)
		}
	}
	return rt
}

// constMap checks [K]V(e): e, checked here, must have type V.
func (c *checker) constMap(e Expr, mt *MapType, ctx *exprCtx) Type {
	c.expr(e, ctx)
	if mt == nil {
		return nil
	}
	return c.constMapValue(e, mt)
}

// constMapValue checks the type of the checked value of a constant map.
func (c *checker) constMapValue(e Expr, mt *MapType) Type {
	if t := e.Type(); t != nil && mt.Val != nil && !Identical(t, mt.Val) {
		c.errorf(e.Pos(), "the value of a constant map of type %s must have type %s, not %s", mt, mt.Val, t)
	}
	return mt
}
