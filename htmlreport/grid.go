package htmlreport

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// grid is the side-by-side view of the layers: one column per layer, one
// row per method name (in the order they first appear), and the
// declarations the layers share above them.
type grid struct {
	Layers []int
	Decls  []codeLine
	Rows   []gridRow
}

type gridRow struct {
	Name  string
	Cells []*memberCell // one per layer; nil where the name is not declared
}

// memberCell is an action or a procedure at one layer.
type memberCell struct {
	Title string // "procedure put", "right mover action put"
	Lines []codeLine
}

// codeLine is a source line with what the page marks on it.
type codeLine struct {
	Num   int
	Badge string // the mover of the step on the line: R, L, B or N; "" if none
	Mover string // the badge's class: right, left, both or none
	// Shade numbers the fragment the line is in (1..3, alternating);
	// 0 outside fragments; -1 in an action, which is one atomic step.
	Shade int
	Yield bool // a yield point: the fragments before and after meet here
	Code  template.HTML
}

// buildGrid lays out the layers of a program.
func buildGrid(prog *layers.Program, lines []string) grid {
	g := grid{Decls: declLines(prog.File, lines)}
	rowOf := map[string]int{}
	for i, view := range prog.Layers {
		g.Layers = append(g.Layers, view.Num)
		for _, m := range view.Decl.Members {
			name := m.MemberName().Name
			r, ok := rowOf[name]
			if !ok {
				r = len(g.Rows)
				rowOf[name] = r
				g.Rows = append(g.Rows, gridRow{Name: name, Cells: make([]*memberCell, len(prog.Layers))})
			}
			g.Rows[r].Cells[i] = buildCell(view, m, lines)
		}
	}
	return g
}

// declLines are the lines outside layers and instances that declare
// something: comments and blank lines are left out, the page shows the
// code.
func declLines(f *lang.File, lines []string) []codeLine {
	inBlock := make([]bool, len(lines)+2)
	mark := func(from, to lang.Pos) {
		for n := from.Line; n <= to.Line && n < len(inBlock); n++ {
			inBlock[n] = true
		}
	}
	for _, l := range f.Layers {
		mark(l.P, l.End)
	}
	for _, in := range f.Instances {
		mark(in.P, in.End)
	}
	var out []codeLine
	inComment := false
	for i, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case inComment:
			inComment = !strings.Contains(t, "*/")
			continue
		case strings.HasPrefix(t, "/*"):
			inComment = !strings.Contains(t, "*/")
			continue
		case inBlock[i+1] || t == "" || strings.HasPrefix(t, "//"):
			continue
		}
		out = append(out, codeLine{Num: i + 1, Code: highlight(line)})
	}
	return out
}

// buildCell renders a member at a layer: badges on its steps, its
// fragments shaded, its yield points marked.
func buildCell(view *layers.Layer, m lang.Member, lines []string) *memberCell {
	name := m.MemberName().Name
	c := &memberCell{}
	var body *lang.Block
	badges := map[int]lang.Mover{}
	yields := map[int]bool{}
	switch m := m.(type) {
	case *lang.Action:
		body = m.Body
		c.Title = "action " + name
		if a := view.Action(name); a != nil {
			c.Title = moverName(a.Step.Mover) + " action " + name
			badges[m.P.Line] = a.Step.Mover
		}
	case *lang.Proc:
		body = m.Body
		c.Title = "procedure " + name
		if p := view.Proc(name); p != nil {
			for _, st := range p.Steps {
				badges[st.Pos.Line] = st.Mover
			}
			for _, y := range p.Yields {
				if y.Kind == layers.YieldStmt || y.Kind == layers.YieldCall || y.Kind == layers.YieldLoop {
					yields[y.Pos.Line] = true
				}
			}
		}
	}
	_, isAction := m.(*lang.Action)
	region := 0
	for n := m.Pos().Line; n <= body.End.Line && n <= len(lines); n++ {
		cl := codeLine{Num: n, Code: highlight(lines[n-1]), Yield: yields[n]}
		if mv, ok := badges[n]; ok {
			cl.Badge, cl.Mover = moverBadge(mv)
		}
		switch {
		case n < body.P.Line:
		case isAction:
			cl.Shade = -1
		case cl.Yield:
			region++
		default:
			cl.Shade = 1 + region%3
		}
		c.Lines = append(c.Lines, cl)
	}
	return c
}

// moverBadge is the badge letter and class of a mover type.
func moverBadge(m lang.Mover) (string, string) {
	switch m {
	case lang.MoverRight:
		return "R", "right"
	case lang.MoverLeft:
		return "L", "left"
	case lang.MoverBoth:
		return "B", "both"
	}
	return "N", "none"
}

// moverName names a mover type as lipton's reports do.
func moverName(m lang.Mover) string {
	switch m {
	case lang.MoverRight, lang.MoverLeft, lang.MoverBoth:
		return m.String() + " mover"
	}
	return "non-mover"
}

// layerTitle heads a column.
func layerTitle(n, top int) string {
	switch {
	case n == 0 && top > 0:
		return "layer 0: the implementation"
	case n == top && top > 0:
		return fmt.Sprintf("layer %d: the atomic specification", n)
	}
	return fmt.Sprintf("layer %d", n)
}
