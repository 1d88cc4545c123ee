package mc

import (
	"fmt"

	"github.com/lipton-dev/lipton/obl"
)

// A sequence value is stored like a map with int keys and default 0: its
// length at key seqLenKey and its elements at keys 0..len-1, in the same
// mapTable, so that equal sequences have one id. The empty sequence is
// the constant map 0.

// seqLenKey is the key under which a sequence stores its length.
const seqLenKey = -1

func seqLen(t *mapTable, s int64) int64 { return t.get(s, seqLenKey) }

// seqAt returns s[i]; an index out of range is an error, as in the
// language (docs/language.md, "Types").
func seqAt(t *mapTable, s, i int64) int64 {
	if n := seqLen(t, s); i < 0 || i >= n {
		fail("sequence index %d is out of range (the sequence has length %d)", i, n)
	}
	return t.get(s, i)
}

// seqAppend returns append(s, v).
func seqAppend(t *mapTable, s, v int64) int64 {
	n := seqLen(t, s)
	return t.set(t.set(s, n, v, 0), seqLenKey, n+1, 0)
}

// seqSlice returns s[lo:hi]; bounds out of range are an error.
func seqSlice(t *mapTable, s, lo, hi int64) int64 {
	if n := seqLen(t, s); lo < 0 || lo > hi || hi > n {
		fail("slice [%d:%d] is out of range (the sequence has length %d)", lo, hi, n)
	}
	out := t.constant(0)
	for k := lo; k < hi; k++ {
		out = seqAppend(t, out, t.get(s, k))
	}
	return out
}

// seqConcat returns concat(a, b).
func seqConcat(t *mapTable, a, b int64) int64 {
	for k, n := int64(0), seqLen(t, b); k < n; k++ {
		a = seqAppend(t, a, t.get(b, k))
	}
	return a
}

// seq compiles a sequence operation.
func (c *compiler) seq(e *obl.SeqApp) evalFn {
	args := make([]evalFn, len(e.Args))
	for i, a := range e.Args {
		args[i] = c.expr(a)
	}
	t := c.maps
	switch e.Op {
	case obl.SeqLit:
		return func(r []int64) int64 {
			s := t.constant(0)
			for _, a := range args {
				s = seqAppend(t, s, a(r))
			}
			return s
		}
	case obl.SeqLen:
		return func(r []int64) int64 { return seqLen(t, args[0](r)) }
	case obl.SeqAt:
		return func(r []int64) int64 { return seqAt(t, args[0](r), args[1](r)) }
	case obl.SeqSlice:
		return func(r []int64) int64 { return seqSlice(t, args[0](r), args[1](r), args[2](r)) }
	case obl.SeqAppend:
		return func(r []int64) int64 { return seqAppend(t, args[0](r), args[1](r)) }
	case obl.SeqConcat:
		return func(r []int64) int64 { return seqConcat(t, args[0](r), args[1](r)) }
	}
	panic(fmt.Sprintf("mc: unexpected sequence operation %s", e))
}

// seqValue converts the sequence with id n to a value.
func (c *compiler) seqValue(n int64, s *obl.SeqSort) obl.Value {
	sv := obl.SeqVal{S: s}
	for k, l := int64(0), seqLen(c.maps, n); k < l; k++ {
		sv.Elems = append(sv.Elems, c.value(c.maps.get(n, k), s.Elem))
	}
	return sv
}
