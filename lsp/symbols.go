package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/lsp/jsonrpc"
)

// documentSymbol answers textDocument/documentSymbol: the layers with
// their procedures and actions, and the top-level declarations. It needs
// only a parse: a text with type errors has its outline too.
func (s *server) documentSymbol(params json.RawMessage) (jsonrpc.Work, error) {
	var p DocumentParams
	a, err := s.analysisAt(params, &p, func() string { return p.TextDocument.URI })
	if err != nil {
		return nil, err
	}
	return func(context.Context) (any, error) { return symbols(a), nil }, nil
}

// symbols is the outline of a parsed text, in source order; empty if it
// does not parse.
func symbols(a *analysis) []DocumentSymbol {
	out := []DocumentSymbol{}
	if a.file == nil {
		return out
	}
	for _, d := range a.file.Decls {
		if sym, ok := a.declSymbol(d); ok {
			out = append(out, sym)
		}
	}
	return out
}

func (a *analysis) declSymbol(d lang.Decl) (DocumentSymbol, bool) {
	switch d := d.(type) {
	case *lang.Layer:
		sym := a.symbol(fmt.Sprintf("layer %d", d.Num), "", SymbolNamespace, d.P, d.End, d.P, len("layer"))
		for _, m := range d.Members {
			sym.Children = append(sym.Children, a.memberSymbol(m))
		}
		return sym, true
	case *lang.VarDecl:
		detail := lang.TypeString(d.Type)
		if d.Ghost {
			detail = "ghost " + detail
		}
		return a.lineSymbol(d.Name, detail, SymbolVariable, d.P), true
	case *lang.ConstDecl:
		return a.lineSymbol(d.Name, lang.TypeString(d.Type), SymbolConstant, d.P), true
	case *lang.TypeDecl:
		return a.lineSymbol(d.Name, "type", SymbolClass, d.P), true
	case *lang.FuncDecl:
		kind := "function"
		if d.YieldInv {
			kind = "yield invariant"
		}
		return a.lineSymbol(d.Name, kind, SymbolFunction, d.P), true
	case *lang.Instance:
		return a.symbol(d.Name.Name, "instance", SymbolObject, d.P, d.End, d.Name.P, len(d.Name.Name)), true
	}
	return DocumentSymbol{}, false
}

// memberSymbol is the symbol of an action or a procedure, from its
// declaration to the end of its body.
func (a *analysis) memberSymbol(m lang.Member) DocumentSymbol {
	name := m.MemberName()
	switch m := m.(type) {
	case *lang.Action:
		detail := "action"
		if m.Mover != lang.MoverNone {
			detail = moverText(m.Mover) + " action"
		}
		return a.symbol(name.Name, detail, SymbolEvent, m.P, m.Body.End, name.P, len(name.Name))
	case *lang.Proc:
		return a.symbol(name.Name, "procedure", SymbolFunction, m.P, m.Body.End, name.P, len(name.Name))
	}
	return a.symbol(name.Name, "", SymbolFunction, m.Pos(), m.Pos(), name.P, len(name.Name))
}

// symbol makes a symbol that spans from to the token at end, with its
// name of n bytes at sel.
func (a *analysis) symbol(name, detail string, kind int, from, end, sel lang.Pos, n int) DocumentSymbol {
	rng := Range{Start: a.text.position(from.Line, from.Col), End: a.text.position(end.Line, end.Col+1)}
	selRange := Range{Start: a.text.position(sel.Line, sel.Col), End: a.text.position(sel.Line, sel.Col+n)}
	return DocumentSymbol{Name: name, Detail: detail, Kind: kind, Range: rng, SelectionRange: selRange}
}

// lineSymbol is the symbol of a one-line declaration: it spans the rest
// of the line.
func (a *analysis) lineSymbol(id *lang.Ident, detail string, kind int, from lang.Pos) DocumentSymbol {
	lineEnd := len(a.text.line(from.Line-1)) + 1
	sym := a.symbol(id.Name, detail, kind, from, lang.Pos{Line: from.Line, Col: lineEnd}, id.P, len(id.Name))
	sym.Range.End = a.text.position(from.Line, lineEnd)
	return sym
}
