package mc

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
)

// A map value is stored in a state as one slot: the id of a hash-consed
// map in a mapTable. A map is a default value plus the finitely many keys
// whose value differs from it, sorted by key; so two maps are equal as
// functions exactly when their ids are equal. Maps with bool keys are
// normalized further (their default is their value at true), since there
// a default and two entries could otherwise describe the same function.

// kv is one entry of a map.
type kv struct{ k, v int64 }

// mapTable interns map values. The workers of a parallel search
// (parallel.go) share it: interning and stores take the lock, while
// reading a map (get, defaultOf, entriesOf) takes none. That is safe
// because a map's record never changes once written, and lives in a
// page that never moves (pages are allocated, never reallocated, in a
// directory of fixed size); an id reaches a reader only after the
// writer released the lock, or through the search's own
// synchronization (the level barrier), so the record is visible.
type mapTable struct {
	// recent answers set for the stores made lately without the lock
	// (storeCache).
	recent storeCache
	mu     sync.Mutex
	n      int64 // ids in use
	dir    [mapDirSize]*mapPage
	index  map[string]int64
	stores map[storeKey]int64
	buf    []byte
	// bytes estimates the bytes the table holds (memory()).
	bytes int64
}

// A map's record: its default and its entries.
type mapRec struct {
	d  int64
	es []kv
}

// mapPage holds the records of mapPageSize consecutive ids.
type mapPage [mapPageSize]mapRec

const (
	mapPageBits = 12
	mapPageSize = 1 << mapPageBits
	mapDirSize  = 1 << 18 // 2^30 maps
)

// rec returns the record of map id m.
func (t *mapTable) rec(m int64) *mapRec {
	return &t.dir[m>>mapPageBits][m&(mapPageSize-1)]
}

// defaultOf returns the default value of map m.
func (t *mapTable) defaultOf(m int64) int64 { return t.rec(m).d }

// entriesOf returns the entries of map m, sorted by key (not to be
// modified).
func (t *mapTable) entriesOf(m int64) []kv { return t.rec(m).es }

type storeKey struct{ m, k, v int64 }

func newMapTable() *mapTable {
	return &mapTable{index: map[string]int64{}, stores: map[storeKey]int64{}}
}

// constant returns the id of the map that is d everywhere.
func (t *mapTable) constant(d int64) int64 { return t.intern(d, nil) }

// intern returns the id of the map with default d and entries es (sorted
// by key, none equal to d). es is copied if it is new.
func (t *mapTable) intern(d int64, es []kv) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.internLocked(d, es)
}

// internLocked is intern, with t.mu held.
func (t *mapTable) internLocked(d int64, es []kv) int64 {
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
	id := t.n
	if id>>mapPageBits >= mapDirSize {
		fail("more than %d distinct maps", int64(mapDirSize)<<mapPageBits)
	}
	page := t.dir[id>>mapPageBits]
	if page == nil {
		page = new(mapPage)
		t.dir[id>>mapPageBits] = page
		t.bytes += int64(len(page)) * 32
	}
	page[id&(mapPageSize-1)] = mapRec{d: d, es: append([]kv(nil), es...)}
	t.n++
	t.index[string(b)] = id
	// The key and its entry in index, the default, the entries' slice
	// header and the entries.
	t.bytes += int64(len(b)) + goMapEntry + int64(len(es))*16
	return id
}

// get returns m[k].
func (t *mapTable) get(m, k int64) int64 {
	r := t.rec(m)
	es := r.es
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
	return r.d
}

// set returns the id of m[k := v]; finite is the number of keys of a map
// with finite keys (finiteKeys), 0 for int keys.
func (t *mapTable) set(m, k, v int64, finite int) int64 {
	sk := storeKey{m, k, v}
	if id, ok := t.recent.get(sk); ok {
		return id
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.stores[sk]; ok {
		t.recent.put(sk, id)
		return id
	}
	r := t.rec(m)
	d := r.d
	old := r.es
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
	id := t.internLocked(d, es)
	t.stores[sk] = id
	t.recent.put(sk, id)
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

// storeCache holds the results of recent stores (set), by a hash of
// the store, one per slot, for reading without the table's lock: the
// workers of a parallel search store into maps on most transitions of
// some programs, and taking one lock for each made every worker wait
// for the lock's cache line (Chase-Lev's items and taken). An entry is
// immutable once published, so a reader sees a whole entry or none; a
// store's result never changes, so an entry is right as long as it is
// read.
type storeCache struct {
	slots [storeCacheSize]atomic.Pointer[storeEntry]
}

type storeEntry struct {
	key storeKey
	id  int64
}

// storeCacheSize is the number of slots (a power of two): 128 KiB of
// pointers.
const storeCacheSize = 1 << 14

func (c *storeCache) slot(k storeKey) *atomic.Pointer[storeEntry] {
	h := mix(uint64(k.m)*0x9e3779b97f4a7c15 ^ uint64(k.k)*0xc2b2ae3d27d4eb4f ^ uint64(k.v))
	return &c.slots[h&(storeCacheSize-1)]
}

func (c *storeCache) get(k storeKey) (int64, bool) {
	if e := c.slot(k).Load(); e != nil && e.key == k {
		return e.id, true
	}
	return 0, false
}

func (c *storeCache) put(k storeKey, id int64) {
	c.slot(k).Store(&storeEntry{k, id})
}
