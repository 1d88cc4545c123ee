package obl

import "sort"

// sortVars sorts variables by name; the sort is stable, so variables with
// equal names keep their order.
func sortVars(vs []*Var) {
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
}
