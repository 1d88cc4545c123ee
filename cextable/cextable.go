package cextable

import (
	"strings"

	"github.com/lipton-dev/lipton/obl"
)

// Group is one part of a counterexample's state: "globals", or a thread
// such as "thread 1 (incA, at line 10)".
type Group struct {
	Name string
	// Trace says that the group records the values of a program point
	// the failing path passed: each value is the one recorded there
	// (After), not a before and after.
	Trace  bool
	Values []Value
}

// Value is a variable of a group with its value before and after the
// failing execution.
type Value struct {
	Name          string // as in the source
	Before, After string
	Changed       bool
}

// Groups returns the groups of ob's counterexample cex that have values,
// in the obligation's order. A trace group is left out unless the
// failing path passed its program point.
func Groups(ob *obl.Obligation, cex *obl.Counterexample) []Group {
	vals := map[*obl.Var]obl.VarValues{}
	for _, vv := range cex.Vars {
		vals[vv.Var] = vv
	}
	var out []Group
	for _, g := range ob.Groups {
		vars, trace := g.Vars, false
		if len(vars) > 0 && strings.HasPrefix(vars[0].Name, "reached.") {
			if vv, ok := vals[vars[0]]; !ok || vv.After.String() != "true" {
				continue // the failing path did not pass this point
			}
			vars, trace = vars[1:], true
		}
		grp := Group{Name: g.Name, Trace: trace}
		for _, v := range vars {
			vv, ok := vals[v]
			if !ok {
				continue
			}
			grp.Values = append(grp.Values, Value{Name: SourceName(v.Name), Before: vv.Before.String(),
				After: vv.After.String(), Changed: !trace && !obl.ValueEqual(vv.Before, vv.After)})
		}
		if len(grp.Values) > 0 {
			out = append(out, grp)
		}
	}
	return out
}

// SourceName returns the source name of an obligation variable: lipton
// names a variable's copies (per thread, snapshots, traces) by suffixes
// after a dot or an @, which source names cannot contain.
func SourceName(name string) string {
	if i := strings.IndexAny(name, ".@"); i > 0 {
		return name[:i]
	}
	return name
}

// Text renders a value as lipton check does: "x = 0 -> 2" when it
// changed, "x = 0" when not, the recorded value in a trace group.
func (g Group) Text(v Value) string {
	switch {
	case g.Trace:
		return v.Name + " = " + v.After
	case v.Changed:
		return v.Name + " = " + v.Before + " -> " + v.After
	}
	return v.Name + " = " + v.Before
}

// Line renders a group on one line: "globals: x = 0 -> 2, y = 1".
func (g Group) Line() string {
	parts := make([]string, len(g.Values))
	for i, v := range g.Values {
		parts[i] = g.Text(v)
	}
	return g.Name + ": " + strings.Join(parts, ", ")
}
