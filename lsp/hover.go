package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/lsp/jsonrpc"
)

// hover answers textDocument/hover: on a name, its declaration and the
// layers where it exists; in a statement, the step it belongs to (its
// layer, mover type, gate and footprint). Both, for a name inside a
// step.
func (s *server) hover(params json.RawMessage) (jsonrpc.Work, error) {
	var p PositionParams
	a, err := s.analysisAt(params, &p, func() string { return p.TextDocument.URI })
	if err != nil {
		return nil, err
	}
	return func(context.Context) (any, error) { return hoverAt(a, p.Position), nil }, nil
}

// hoverAt is the hover at a position, or nil (JSON null) if there is
// nothing to say or the text does not type-check.
func hoverAt(a *analysis, pos Position) *Hover {
	if a.info == nil {
		return nil
	}
	off := a.text.offset(pos)
	var parts []string
	var rng *Range
	if r := identAt(a.file, off); r != nil && r.id.Obj != nil {
		parts = append(parts, nameHover(a, r))
		rg := a.text.tokenRange(r.id.P.Line, r.id.P.Col)
		rng = &rg
	}
	if a.prog != nil {
		if text := stmtHover(a, off); text != "" {
			parts = append(parts, text)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return &Hover{Contents: MarkupContent{Kind: "markdown", Value: strings.Join(parts, "\n\n---\n\n")}, Range: rng}
}

// nameHover describes the object a name denotes: what it is, its
// declaration, and the layers where it exists.
func nameHover(a *analysis, r *nameRef) string {
	o := r.id.Obj
	var b strings.Builder
	head := fmt.Sprintf("**%s** `%s`", o.Kind, o.Name)
	if o.Type != nil && o.Kind != lang.ObjType && o.Kind != lang.ObjAction && o.Kind != lang.ObjProc && o.Kind != lang.ObjFunc {
		head = fmt.Sprintf("**%s** `%s: %s`", o.Kind, o.Name, o.Type)
	}
	if o.Ghost {
		head += " (ghost)"
	}
	if o.Linear {
		head += " (linear)"
	}
	b.WriteString(head)
	if o.Pos.IsValid() {
		decl := strings.TrimSpace(a.text.line(o.Pos.Line - 1))
		fmt.Fprintf(&b, "\n\n```lipton\n%s\n```\ndeclared at line %d", decl, o.Pos.Line)
	}
	if where := layersOf(a, o, r); where != "" {
		b.WriteString("; " + where)
	}
	return b.String()
}

// layersOf says at which layers an object exists.
func layersOf(a *analysis, o *lang.Object, r *nameRef) string {
	top := a.info.TopLayer()
	switch o.Kind {
	case lang.ObjGlobal:
		return "exists at " + layerSpan(o.Layers.Lo, o.Layers.Hi, top)
	case lang.ObjFunc:
		if o.Func != nil && o.Func.YieldInv {
			return "a yield invariant of " + layerSpan(o.Func.Layers.Lo, o.Func.Layers.Hi, top)
		}
		return "exists at every layer"
	case lang.ObjType, lang.ObjConst, lang.ObjEnumMember:
		return "exists at every layer"
	case lang.ObjParam, lang.ObjReturn, lang.ObjLocal:
		if r.member != nil && r.layer != nil {
			return fmt.Sprintf("in %s at layer %d", r.member.MemberName().Name, r.layer.Num)
		}
	case lang.ObjAction, lang.ObjProc:
		return memberLayers(a, o.Name)
	}
	return ""
}

// memberLayers lists the layers where a member of that name is declared,
// and as what: "a procedure at layers 0, 1; an action at layers 2, 3".
func memberLayers(a *analysis, name string) string {
	var procs, actions []string
	for i, l := range a.info.Layers {
		switch l.Members[name].(type) {
		case *lang.Proc:
			procs = append(procs, fmt.Sprint(i))
		case *lang.Action:
			actions = append(actions, fmt.Sprint(i))
		}
	}
	var parts []string
	if len(procs) > 0 {
		parts = append(parts, "a procedure at layer "+strings.Join(procs, ", "))
	}
	if len(actions) > 0 {
		parts = append(parts, "an action at layer "+strings.Join(actions, ", "))
	}
	return strings.Join(parts, "; ")
}

func layerSpan(lo, hi, top int) string {
	switch {
	case lo == 0 && hi == top && top > 0:
		return fmt.Sprintf("every layer (0..%d)", top)
	case lo == hi:
		return fmt.Sprintf("layer %d", lo)
	}
	return fmt.Sprintf("layers %d..%d", lo, hi)
}
