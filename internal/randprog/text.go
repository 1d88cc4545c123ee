package randprog

import (
	"fmt"
	"strings"
)

// writer accumulates indented source lines.
type writer struct {
	b      strings.Builder
	indent int
}

// line writes one line at the current indentation.
func (w *writer) line(s string) {
	w.b.WriteString(strings.Repeat("  ", w.indent))
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

// linef writes one formatted line.
func (w *writer) linef(format string, args ...any) { w.line(fmt.Sprintf(format, args...)) }

// open writes a line that opens a brace block and indents.
func (w *writer) open(s string) {
	if s == "" {
		w.line("{")
	} else {
		w.line(s + " {")
	}
	w.indent++
}

// close ends a block opened by open.
func (w *writer) close() {
	w.indent--
	w.line("}")
}

// blank writes an empty line.
func (w *writer) blank() { w.b.WriteByte('\n') }

func (w *writer) String() string { return w.b.String() }

// paramList prints parameters or outputs: "a: int, b: bool".
func paramList(ps []param) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, p.name+": "+p.typ.String())
	}
	return strings.Join(parts, ", ")
}
