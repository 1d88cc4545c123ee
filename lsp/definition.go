package lsp

import (
	"context"
	"encoding/json"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/lsp/jsonrpc"
)

// definition answers textDocument/definition: the declaration of the
// name at the position and, for an action or a procedure, the
// declarations of the same name at the other layers (the same method,
// refined layer by layer), in the order of the layers.
func (s *server) definition(params json.RawMessage) (jsonrpc.Work, error) {
	var p PositionParams
	a, err := s.analysisAt(params, &p, func() string { return p.TextDocument.URI })
	if err != nil {
		return nil, err
	}
	return func(context.Context) (any, error) { return definitionsAt(a, p.Position), nil }, nil
}

// definitionsAt returns the locations, the declaration first; nil (JSON
// null) if the position is on no declared name or the text does not
// type-check.
func definitionsAt(a *analysis, pos Position) []Location {
	if a.info == nil {
		return nil
	}
	r := identAt(a.file, a.text.offset(pos))
	if r == nil || r.id.Obj == nil || !r.id.Obj.Pos.IsValid() {
		return nil
	}
	o := r.id.Obj
	locs := []Location{a.location(o.Pos, o.Name)}
	if o.Kind == lang.ObjAction || o.Kind == lang.ObjProc {
		for _, l := range a.info.Layers {
			if m := l.Members[o.Name]; m != nil && m.MemberName().P != o.Pos {
				locs = append(locs, a.location(m.MemberName().P, o.Name))
			}
		}
	}
	return locs
}

// location is the range of a name declared at p.
func (a *analysis) location(p lang.Pos, name string) Location {
	start := a.text.position(p.Line, p.Col)
	end := a.text.position(p.Line, p.Col+len(name))
	return Location{URI: a.uri, Range: Range{Start: start, End: end}}
}
