package lsp

import "github.com/lipton-dev/lipton/lang"

// nameRef is an identifier of a file, with the member and layer it is
// in (nil outside layers).
type nameRef struct {
	id     *lang.Ident
	member lang.Member
	layer  *lang.Layer
}

// identAt returns the identifier whose text contains the byte offset
// off (or ends at it), or nil.
func identAt(f *lang.File, off int) *nameRef {
	var found *nameRef
	walkIdents(f, func(r nameRef) {
		start := r.id.P.Offset
		if r.id.P.IsValid() && start <= off && off <= start+len(r.id.Name) && (found == nil || start == off) {
			found = &r
		}
	})
	return found
}

// walkIdents calls visit for every identifier of f: declarations and
// uses, in types, expressions and statements.
func walkIdents(f *lang.File, visit func(nameRef)) {
	w := identWalker{visit: visit}
	for _, d := range f.Decls {
		w.decl(d)
	}
}

type identWalker struct {
	visit  func(nameRef)
	member lang.Member
	layer  *lang.Layer
}

func (w *identWalker) ident(id *lang.Ident) {
	if id != nil {
		w.visit(nameRef{id: id, member: w.member, layer: w.layer})
	}
}

func (w *identWalker) decl(d lang.Decl) {
	switch d := d.(type) {
	case *lang.TypeDecl:
		w.ident(d.Name)
		w.typ(d.Type)
	case *lang.ConstDecl:
		w.ident(d.Name)
		w.typ(d.Type)
		w.expr(d.Value)
	case *lang.VarDecl:
		w.ident(d.Name)
		w.typ(d.Type)
		w.expr(d.Init)
	case *lang.FuncDecl:
		w.ident(d.Name)
		w.params(d.Params)
		w.typ(d.Result)
		w.expr(d.Body)
		w.exprs(d.Conjuncts)
	case *lang.InvariantDecl:
		w.expr(d.Expr)
	case *lang.Layer:
		w.layer = d
		for _, m := range d.Members {
			w.member = m
			w.member1(m)
		}
		w.layer, w.member = nil, nil
	case *lang.Instance:
		w.ident(d.Name)
		for _, t := range d.Threads {
			w.ident(t.Role)
			w.ident(t.TidParam)
			for _, c := range t.Calls {
				w.ident(c.Method)
				for _, a := range c.Args {
					w.ident(a.Param)
				}
			}
		}
	}
}

func (w *identWalker) member1(m lang.Member) {
	sig := m.Sig()
	w.ident(sig.Name)
	w.params(sig.Params)
	w.params(sig.Returns)
	w.exprs(sig.Requires)
	w.exprs(sig.Ensures)
	for _, l := range sig.Locals {
		for _, n := range l.Names {
			w.ident(n)
		}
		w.typ(l.Type)
	}
	var body *lang.Block
	switch m := m.(type) {
	case *lang.Action:
		body = m.Body
	case *lang.Proc:
		body = m.Body
		if m.Split != nil {
			w.ident(m.Split.Of)
			w.expr(m.Split.Cond)
		}
	}
	if body != nil {
		lang.Inspect(body.Stmts, func(s lang.Stmt) bool {
			w.stmt(s)
			return true
		})
	}
}

func (w *identWalker) stmt(s lang.Stmt) {
	switch s := s.(type) {
	case *lang.AssignStmt:
		for _, lv := range s.Lhs {
			w.ident(lv.Name)
			for _, sel := range lv.Sels {
				w.ident(sel.Field)
			}
		}
	case *lang.HavocStmt:
		for _, id := range s.Vars {
			w.ident(id)
		}
	case *lang.CallStmt:
		for _, id := range s.Outs {
			w.ident(id)
		}
		w.ident(s.Callee)
	}
	w.exprs(lang.StmtExprs(s))
}

func (w *identWalker) params(ps []*lang.Param) {
	for _, p := range ps {
		w.ident(p.Name)
		w.typ(p.Type)
	}
}

func (w *identWalker) exprs(es []lang.Expr) {
	for _, e := range es {
		w.expr(e)
	}
}

func (w *identWalker) expr(e lang.Expr) {
	lang.InspectExpr(e, func(x lang.Expr) bool {
		switch x := x.(type) {
		case *lang.Ident:
			w.ident(x)
		case *lang.FieldExpr:
			w.ident(x.Name)
		case *lang.CallExpr:
			w.ident(x.Func)
		case *lang.QuantExpr:
			w.params(x.Vars)
		case *lang.SeqLitExpr:
			w.typ(x.SeqType)
		case *lang.ConstMapExpr:
			w.typ(x.MapType)
		}
		return true
	})
}

func (w *identWalker) typ(t lang.TypeExpr) {
	switch t := t.(type) {
	case *lang.NamedType:
		w.ident(t.Name)
	case *lang.MapTypeExpr:
		w.typ(t.Key)
		w.typ(t.Val)
	case *lang.SeqTypeExpr:
		w.typ(t.Elem)
	case *lang.RecordTypeExpr:
		w.params(t.Fields)
	case *lang.EnumTypeExpr:
		for _, m := range t.Members {
			w.ident(m)
		}
	}
}

// stmtChain returns the statements of member bodies that contain the
// byte offset off, outermost first, with the member and layer they are
// in; nil if off is in no statement.
func stmtChain(f *lang.File, off int) ([]lang.Stmt, lang.Member, *lang.Layer) {
	for _, l := range f.Layers {
		for _, m := range l.Members {
			var body *lang.Block
			switch m := m.(type) {
			case *lang.Action:
				body = m.Body
			case *lang.Proc:
				body = m.Body
			}
			if body == nil || off < m.Pos().Offset || off > body.End.Offset {
				continue
			}
			var chain []lang.Stmt
			lang.Inspect(body.Stmts, func(s lang.Stmt) bool {
				b := lang.Base(s)
				if off < b.P.Offset || off > b.End.Offset {
					return false
				}
				chain = append(chain, s)
				return true
			})
			return chain, m, l
		}
	}
	return nil, nil, nil
}
