package mc

import "sort"

func (m *Model) symmetry() {
	for _, p := range m.procs {
		p.tainted = make([]bool, len(p.frame))
	}
	for _, r := range m.roles {
		if r.hi > r.lo {
			r.noSym = "not implemented"
		}
	}
}

func (m *Model) symmetryUseful() bool {
	for _, r := range m.roles {
		if r.sym {
			return true
		}
	}
	return false
}

// appendCanonical appends the thread segments, sorted within symmetric
// roles.
func (m *Model) appendCanonical(b []byte, segs [][]byte) []byte {
	for _, r := range m.roles {
		n := int(r.hi - r.lo + 1)
		group := segs[r.first : r.first+n]
		if r.sym {
			sort.Slice(group, func(i, j int) bool { return string(group[i]) < string(group[j]) })
		}
		for _, s := range group {
			b = append(b, s...)
		}
	}
	return b
}
