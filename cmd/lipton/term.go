package main

import (
	"io"
	"os"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"
)

// paint colours s with c when w is a terminal that gets colour. The
// fatih/color package decides for stdout (no colour when it is not a
// terminal, when NO_COLOR is set or TERM is dumb); paint also keeps
// colour out of a stderr that is redirected to a file while stdout is a
// terminal.
func paint(w io.Writer, c *color.Color, s string) string {
	if color.NoColor || !isTerminal(w) {
		return s
	}
	return c.Sprint(s)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
