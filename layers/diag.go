package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// Diagnostic is a failed check that needs no solver: a structural
// mismatch between layers, or a path that violates yield sufficiency.
type Diagnostic struct {
	Check obl.Kind // the kind of check, e.g. "yield sufficiency"
	// Subject names what the check is about (a procedure, a pair of
	// members), to count checks rather than their failing details.
	Subject string
	Layer   int        // the layer the check is about
	Msg     string     // one sentence, the headline
	Pos     []lang.Pos // the source positions involved, most important first
	Notes   []string   // further lines: a path, the steps involved
	// Unknown marks a check that could not be decided (it is reported
	// as unknown, never as proven).
	Unknown bool
}

func (d *Diagnostic) Error() string {
	if len(d.Pos) == 0 {
		return fmt.Sprintf("layer %d: %s: %s", d.Layer, d.Check, d.Msg)
	}
	return fmt.Sprintf("%s: layer %d: %s: %s", d.Pos[0], d.Layer, d.Check, d.Msg)
}
