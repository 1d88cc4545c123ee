package mc

import "encoding/binary"

// A map value is stored in a state as one slot: the id of a hash-consed
// map in a mapTable. A map is a default value plus the finitely many keys
// whose value differs from it, sorted by key; so two maps are equal as
// functions exactly when their ids are equal. Maps with bool keys are
// normalized further (their default is their value at true), since there
// a default and two entries could otherwise describe the same function.

// kv is one entry of a map.
type kv struct{ k, v int64 }

// mapTable interns map values.
type mapTable struct {
	defaults []int64
	entries  [][]kv
	index    map[string]int64
	stores   map[storeKey]int64
	buf      []byte
	// bytes estimates the bytes the table holds (memory()).
	bytes int64
}

type storeKey struct{ m, k, v int64 }

func newMapTable() *mapTable {
	return &mapTable{index: map[string]int64{}, stores: map[storeKey]int64{}}
}

// constant returns the id of the map that is d everywhere.
func (t *mapTable) constant(d int64) int64 { return t.intern(d, nil) }

// intern returns the id of the map with default d and entries es (sorted
// by key, none equal to d). es is copied if it is new.
func (t *mapTable) intern(d int64, es []kv) int64 {
	b := t.buf[:0]
	b = binary.AppendVarint(b, d)
	for _, e := range es {
		b = binary.AppendVarint(b, e.k)
		b = binary.AppendVarint(b, e.v)
	}
	t.buf = b
	if id, ok := t.index[string(b)]; ok {
		return id
	}
	id := int64(len(t.defaults))
	t.defaults = append(t.defaults, d)
	t.entries = append(t.entries, append([]kv(nil), es...))
	t.index[string(b)] = id
	// The key and its entry in index, the default, the entries' slice
	// header and the entries.
	t.bytes += int64(len(b)) + goMapEntry + 8 + 24 + int64(len(es))*16
	return id
}

// get returns m[k].
func (t *mapTable) get(m, k int64) int64 {
	es := t.entries[m]
	lo, hi := 0, len(es)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch {
		case es[mid].k < k:
			lo = mid + 1
		case es[mid].k > k:
			hi = mid
		default:
			return es[mid].v
		}
	}
	return t.defaults[m]
}

// set returns the id of m[k := v]; finite is the number of keys of a map
// with finite keys (finiteKeys), 0 for int keys.
func (t *mapTable) set(m, k, v int64, finite int) int64 {
	sk := storeKey{m, k, v}
	if id, ok := t.stores[sk]; ok {
		return id
	}
	d := t.defaults[m]
	old := t.entries[m]
	es := make([]kv, 0, len(old)+1)
	done := false
	for _, e := range old {
		if !done && e.k >= k {
			if v != d {
				es = append(es, kv{k, v})
			}
			done = true
			if e.k == k {
				continue
			}
		}
		es = append(es, e)
	}
	if !done && v != d {
		es = append(es, kv{k, v})
	}
	if finite > 0 {
		d, es = normalizeFiniteMap(d, es, finite)
	}
	id := t.intern(d, es)
	t.stores[sk] = id
	t.bytes += 24 + goMapEntry // a storeKey and its entry
	return id
}

// normalizeFiniteMap makes the default of a map with keys 0..n-1 (bool:
// false, true; an enumeration: its members) its value at the last key,
// leaving entries for the other keys whose value differs from it.
func normalizeFiniteMap(d int64, es []kv, n int) (int64, []kv) {
	at := func(k int64) int64 {
		for _, e := range es {
			if e.k == k {
				return e.v
			}
		}
		return d
	}
	last := at(int64(n - 1))
	var out []kv
	for k := int64(0); k < int64(n-1); k++ {
		if v := at(k); v != last {
			out = append(out, kv{k, v})
		}
	}
	return last, out
}

// fromEntries returns the id of the map with default d and the given
// values at keys (in any order, later keys winning).
func (t *mapTable) fromEntries(d int64, keys, vals []int64, finite int) int64 {
	m := t.constant(d)
	for i, k := range keys {
		m = t.set(m, k, vals[i], finite)
	}
	return m
}
