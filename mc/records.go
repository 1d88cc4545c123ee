package mc

import "github.com/lipton-dev/lipton/obl"

// A record value is stored like a map from its field positions 0..n-1 to
// the fields' values, in the same mapTable: a map with finitely many
// keys is normalized (normalizeFiniteMap), so records with equal fields
// have one id, and a record's id is all a state holds of it.

// newRecord returns the id of the record whose fields have the values
// vals, in order.
func newRecord(t *mapTable, vals []int64) int64 {
	n := len(vals)
	return t.fromEntries(vals[n-1], countTo(n), vals, n)
}

// record compiles the construction of a record.
func (c *compiler) record(e *obl.Record) evalFn {
	args := make([]evalFn, len(e.Args))
	for i, a := range e.Args {
		args[i] = c.expr(a)
	}
	t := c.maps
	return func(r []int64) int64 {
		vals := make([]int64, len(args))
		for i, a := range args {
			vals[i] = a(r)
		}
		return newRecord(t, vals)
	}
}

// recordValues returns every record of sort s whose fields take the
// values of their sorts in the domain.
func (c *compiler) recordValues(s *obl.RecordSort) []int64 {
	domains := make([][]int64, len(s.Fields))
	total := 1.0
	for i, f := range s.Fields {
		domains[i] = c.values(f.Sort)
		total *= float64(len(domains[i]))
	}
	if total > maxEnum {
		fail("too many records of sort %s over the domain %s to enumerate (%.3g)", s, c.dom, total)
	}
	var out []int64
	for _, vals := range product(domains) {
		out = append(out, newRecord(c.maps, vals))
	}
	return out
}
