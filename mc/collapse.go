package mc

import "fmt"

// Lossless state compression (the visited set of explore).
//
// A state's encoding (state.go) is the globals, then one record per
// thread, then, in a product state, the specification's set. These
// parts vary far less than the states do: a search of 13 million states
// of Chase-Lev has a few hundred thousand distinct globals and a few
// hundred records per thread. So, as SPIN's COLLAPSE mode does, each
// part (a leaf) is interned in a table of its own (one per position) and
// replaced by its index, and, as in tree compression, the indices are
// paired up a binary tree: each inner node is a pair of its children's
// indices, interned in a table of its own, and the root pair, 8 bytes,
// stands for the state. The visited set holds that root key per state
// (keys, in state number order), a hash table of 4-byte state numbers,
// and the tables of the leaves and inner nodes, which grow far slower
// than the states; the explorer adds a 4-byte parent per state.
//
// Rebuilding a state (get) walks the tree from its root key and
// concatenates the leaves: the same bytes that were inserted, so decode,
// the trace's replay and everything else see the encoding of state.go.

// chunkedLen is the length of a chunk of a chunked array (the first
// chunk grows to it as a slice does).
const chunkedLen = 1 << 15

// chunked is an array that grows by chunks, so that growing it copies
// little and leaves no unused capacity beyond one chunk.
type chunked[T uint32 | uint64] struct {
	c [][]T
	n int
}

func (a *chunked[T]) at(i int) T { return a.c[i/chunkedLen][i%chunkedLen] }

func (a *chunked[T]) add(x T) {
	if len(a.c) == 0 || len(a.c[len(a.c)-1]) == chunkedLen {
		size := chunkedLen
		if len(a.c) == 0 {
			size = 64
		}
		a.c = append(a.c, make([]T, 0, size))
	}
	last := &a.c[len(a.c)-1]
	*last = append(*last, x)
	a.n++
}

// bytes returns the bytes the array holds.
func (a *chunked[T]) bytes(size int64) int64 {
	n := int64(cap(a.c)) * 24
	for _, c := range a.c {
		n += int64(cap(c)) * size
	}
	return n
}

// mix scrambles a 64-bit key (the finalizer of MurmurHash3): the
// position of a key in a hash table.
func mix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// idTable interns 64-bit keys: the ids of a table are 0, 1, ... in the
// order the keys were added. Its hash table holds id+1 (0 is empty).
type idTable struct {
	keys  chunked[uint64]
	slots []uint32
	mask  uint64
}

func newIDTable() *idTable { return &idTable{slots: make([]uint32, 64), mask: 63} }

// lookup returns the id of k, if the table holds it.
func (t *idTable) lookup(k uint64) (uint32, bool) {
	for i := mix(k) & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if t.keys.at(int(v-1)) == k {
			return v - 1, true
		}
	}
}

// intern returns the id of k, adding k if the table does not hold it.
func (t *idTable) intern(k uint64) uint32 {
	i := mix(k) & t.mask
	for ; t.slots[i] != 0; i = (i + 1) & t.mask {
		if v := t.slots[i]; t.keys.at(int(v-1)) == k {
			return v - 1
		}
	}
	id := t.keys.n
	if id >= 1<<32-2 {
		panic("mc: more than 2^32 parts of states")
	}
	t.keys.add(k)
	t.slots[i] = uint32(id + 1)
	if uint64(id+1)*4 > uint64(len(t.slots))*3 {
		t.slots, t.mask = regrow(t.slots, func(v uint32) uint64 { return mix(t.keys.at(int(v - 1))) })
	}
	return uint32(id)
}

func (t *idTable) memory() int64 { return t.keys.bytes(8) + int64(len(t.slots))*4 }

// regrow returns a hash table twice the size of slots with the same
// entries, placed by pos, and its mask.
func regrow(slots []uint32, pos func(uint32) uint64) ([]uint32, uint64) {
	grown := make([]uint32, 2*len(slots))
	mask := uint64(len(grown) - 1)
	for _, v := range slots {
		if v == 0 {
			continue
		}
		i := pos(v) & mask
		for grown[i] != 0 {
			i = (i + 1) & mask
		}
		grown[i] = v
	}
	return grown, mask
}

// bytesTable interns byte strings (the leaves), with ids as idTable.
type bytesTable struct {
	data  []byte
	refs  chunked[uint64] // offset << 24 | length
	slots []uint32
	mask  uint64
}

func newBytesTable() *bytesTable { return &bytesTable{slots: make([]uint32, 64), mask: 63} }

func (t *bytesTable) get(id uint32) []byte {
	ref := t.refs.at(int(id))
	off := ref >> 24
	return t.data[off : off+ref&(1<<24-1)]
}

// lookup returns the id of b, if the table holds it; h is hashBytes(b).
func (t *bytesTable) lookup(b []byte, h uint64) (uint32, bool) {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if string(t.get(v-1)) == string(b) {
			return v - 1, true
		}
	}
}

// intern returns the id of b, adding (a copy of) b if the table does
// not hold it.
func (t *bytesTable) intern(b []byte) uint32 {
	h := hashBytes(b)
	i := h & t.mask
	for ; t.slots[i] != 0; i = (i + 1) & t.mask {
		if v := t.slots[i]; string(t.get(v-1)) == string(b) {
			return v - 1
		}
	}
	if len(b) >= 1<<24 {
		panic(fmt.Sprintf("mc: a part of a state of %d bytes", len(b)))
	}
	id := t.refs.n
	if id >= 1<<32-2 {
		panic("mc: more than 2^32 parts of states")
	}
	t.refs.add(uint64(len(t.data))<<24 | uint64(len(b)))
	t.data = append(t.data, b...)
	t.slots[i] = uint32(id + 1)
	if uint64(id+1)*4 > uint64(len(t.slots))*3 {
		t.slots, t.mask = regrow(t.slots, func(v uint32) uint64 { return hashBytes(t.get(v - 1)) })
	}
	return uint32(id)
}

func (t *bytesTable) memory() int64 {
	return int64(cap(t.data)) + t.refs.bytes(8) + int64(len(t.slots))*4
}

// ---- The root set: the states' keys ----

// rootSet is a set of 64-bit keys, one per state, numbered in insertion
// order. As the byte-string set of state.go it is split into
// visitedShards shards, here by the hash of the state's encoding (the
// key is not known before its parts are interned: parallel.go), and
// lets the workers of a parallel search add pending states to the
// shards they own at once; a key's position in its shard's table is
// mix(key). A slot holds the state's number + 1, or pendingTag | the
// index of a pending state (0 is empty).
type rootSet struct {
	shards [visitedShards]rootShard
	keys   chunked[uint64] // by state number
}

type rootShard struct {
	slots    []uint32
	mask     uint64
	used     int
	pending  []uint64 // the keys of the pending states, in order
	numbered int      // the pending states numbered so far
}

const pendingTag = 1 << 31

func newRootSet() *rootSet {
	r := &rootSet{}
	for i := range r.shards {
		r.shards[i].slots = make([]uint32, 64)
		r.shards[i].mask = 63
	}
	return r
}

// keyOf returns the key of a slot's entry.
func (r *rootSet) keyOf(sh *rootShard, v uint32) uint64 {
	if v&pendingTag != 0 {
		return sh.pending[v&^pendingTag]
	}
	return r.keys.at(int(v - 1))
}

// probe looks for key k in shard sh: its slot's entry if present, else
// the empty slot where it goes.
func (r *rootSet) probe(sh *rootShard, k uint64) (slot uint64, v uint32) {
	for i := mix(k) & sh.mask; ; i = (i + 1) & sh.mask {
		v := sh.slots[i]
		if v == 0 || r.keyOf(sh, v) == k {
			return i, v
		}
	}
}

// lookup returns the number of the state with key k in shard s, if the
// set holds it numbered. It only reads the set.
func (r *rootSet) lookup(s int, k uint64) (int, bool) {
	_, v := r.probe(&r.shards[s], k)
	if v == 0 || v&pendingTag != 0 {
		return 0, false
	}
	return int(v - 1), true
}

// insert adds key k to shard s unless present and returns the state's
// number and whether it is new.
func (r *rootSet) insert(s int, k uint64) (int, bool) {
	sh := &r.shards[s]
	slot, v := r.probe(sh, k)
	if v != 0 {
		return int(v - 1), false
	}
	n := r.keys.n
	if n >= pendingTag-2 {
		panic("mc: more than 2^31 states")
	}
	r.keys.add(k)
	r.fill(sh, slot, uint32(n+1))
	return n, true
}

// fill sets an empty slot, and grows the shard's table when it is three
// quarters full.
func (r *rootSet) fill(sh *rootShard, slot uint64, v uint32) {
	sh.slots[slot] = v
	sh.used++
	if uint64(sh.used)*4 > uint64(len(sh.slots))*3 {
		sh.slots, sh.mask = regrow(sh.slots, func(v uint32) uint64 { return mix(r.keyOf(sh, v)) })
	}
}

// addPending adds key k to shard s as a pending state unless the shard
// holds it; it reports whether k is new. Calls for different shards may
// run at once.
func (r *rootSet) addPending(s int, k uint64) bool {
	sh := &r.shards[s]
	slot, v := r.probe(sh, k)
	if v != 0 {
		return false
	}
	sh.pending = append(sh.pending, k)
	r.fill(sh, slot, pendingTag|uint32(len(sh.pending)-1))
	return true
}

// number gives the next pending state of shard s the next state number.
func (r *rootSet) number(s int) int {
	sh := &r.shards[s]
	i := sh.numbered
	k := sh.pending[i]
	slot, v := r.probe(sh, k)
	if v != pendingTag|uint32(i) {
		panic("mc: a pending state is not in its shard")
	}
	n := r.keys.n
	if n >= pendingTag-2 {
		panic("mc: more than 2^31 states")
	}
	r.keys.add(k)
	sh.slots[slot] = uint32(n + 1)
	sh.numbered++
	return n
}

// dropPending forgets the pending keys once every one is numbered.
func (r *rootSet) dropPending() {
	for i := range r.shards {
		sh := &r.shards[i]
		if sh.numbered != len(sh.pending) {
			panic("mc: a pending state left unnumbered")
		}
		sh.pending, sh.numbered = sh.pending[:0], 0
	}
}

func (r *rootSet) memory() int64 {
	n := r.keys.bytes(8)
	for i := range r.shards {
		n += int64(len(r.shards[i].slots))*4 + int64(cap(r.shards[i].pending))*8
	}
	return n
}

// ---- The compressed visited set ----

// collapsed is the visited set of explore: the states' parts interned,
// a tree of pairs over them, and a root key per state.
type collapsed struct {
	m       *model
	nleaf   int           // the globals, one per thread, and the set in a product
	leaves  []*bytesTable // per leaf
	inner   []innerNode   // by node - nleaf; the last is the root
	pairs   []*idTable    // per inner node but the root
	byLevel [][]int32     // the inner nodes but the root, by height
	root    *rootSet
	scratch storeScratch // insert's (the sequential search's)
}

// innerNode is an inner node of the tree: its children's nodes (leaves
// are nodes 0..nleaf-1).
type innerNode struct{ l, r int32 }

// storeScratch is the scratch space of one caller of the set: where
// the parts of a state end, and the ids of its nodes.
type storeScratch struct {
	ends []int32
	ids  []uint32
}

func newCollapsed(m *model, product bool) *collapsed {
	c := &collapsed{m: m, nleaf: 1 + len(m.threads), root: newRootSet()}
	if product {
		c.nleaf++
	}
	for range c.nleaf {
		c.leaves = append(c.leaves, newBytesTable())
	}
	c.build(0, int32(c.nleaf))
	for range len(c.inner) - 1 {
		c.pairs = append(c.pairs, newIDTable())
	}
	return c
}

// build adds the inner nodes of the balanced tree over leaves lo..hi-1,
// children before parents, and returns the subtree's node and height.
func (c *collapsed) build(lo, hi int32) (int32, int) {
	if hi-lo == 1 {
		return lo, 0
	}
	mid := (lo + hi) / 2
	l, hl := c.build(lo, mid)
	r, hr := c.build(mid, hi)
	node := int32(c.nleaf + len(c.inner))
	c.inner = append(c.inner, innerNode{l, r})
	h := max(hl, hr) + 1
	for len(c.byLevel) < h {
		c.byLevel = append(c.byLevel, nil)
	}
	c.byLevel[h-1] = append(c.byLevel[h-1], node)
	return node, h
}

// nodes returns the number of nodes of the tree.
func (c *collapsed) nodes() int { return c.nleaf + len(c.inner) }

// split records in ends where the parts of state b end.
func (c *collapsed) split(b []byte, ends []int32) []int32 {
	m := c.m
	ends = ends[:0]
	pos := 0
	for range m.nglob() {
		pos = skipVarint(b, pos)
	}
	ends = append(ends, int32(pos))
	for range m.threads {
		pos = skipVarint(b, pos) // calls
		depth := readUint(b, &pos)
		for range depth {
			p := m.procs[readUint(b, &pos)]
			pos = skipVarint(b, pos) // node
			for range p.frame {
				pos = skipVarint(b, pos)
			}
		}
		if m.weak() {
			n := readUint(b, &pos)
			for range 3 * n {
				pos = skipVarint(b, pos)
			}
		}
		ends = append(ends, int32(pos))
	}
	if len(ends) < c.nleaf {
		ends = append(ends, int32(len(b)))
	}
	if int(ends[len(ends)-1]) != len(b) {
		panic(fmt.Sprintf("mc: a state of %d bytes has parts of %d", len(b), ends[len(ends)-1]))
	}
	return ends
}

// skipVarint returns the position after the varint at pos.
func skipVarint(b []byte, pos int) int {
	for b[pos]&0x80 != 0 {
		pos++
	}
	return pos + 1
}

// part returns leaf j of a state whose parts end at ends.
func part(b []byte, ends []int32, j int) []byte {
	start := int32(0)
	if j > 0 {
		start = ends[j-1]
	}
	return b[start:ends[j]]
}

// key returns the root key of state b, interning its parts with
// intern; without, it only reads the set and reports false when some
// part is not in it (then neither is the state).
func (c *collapsed) key(b []byte, sc *storeScratch, intern bool) (uint64, bool) {
	sc.ends = c.split(b, sc.ends)
	if cap(sc.ids) < c.nodes() {
		sc.ids = make([]uint32, c.nodes())
	}
	ids := sc.ids[:c.nodes()]
	for j := range c.nleaf {
		p := part(b, sc.ends, j)
		if intern {
			ids[j] = c.leaves[j].intern(p)
		} else if id, ok := c.leaves[j].lookup(p, hashBytes(p)); ok {
			ids[j] = id
		} else {
			return 0, false
		}
	}
	for x, pt := range c.pairs {
		n := c.inner[x]
		k := uint64(ids[n.l])<<32 | uint64(ids[n.r])
		if intern {
			ids[c.nleaf+x] = pt.intern(k)
		} else if id, ok := pt.lookup(k); ok {
			ids[c.nleaf+x] = id
		} else {
			return 0, false
		}
	}
	return c.rootKey(ids), true
}

// rootKey returns the root key of a state whose nodes have ids.
func (c *collapsed) rootKey(ids []uint32) uint64 {
	if len(c.inner) == 0 {
		return uint64(ids[0])
	}
	n := c.inner[len(c.inner)-1]
	return uint64(ids[n.l])<<32 | uint64(ids[n.r])
}

func (c *collapsed) count() int           { return c.root.keys.n }
func (c *collapsed) hash(b []byte) uint64 { return hashBytes(b) }
func (c *collapsed) setArenas(int)        {}
func (c *collapsed) number(shard int) int { return c.root.number(shard) }
func (c *collapsed) dropPending()         { c.root.dropPending() }
func (c *collapsed) insert(b []byte) (int, bool) {
	k, _ := c.key(b, &c.scratch, true)
	return c.root.insert(shardIndex(hashBytes(b)), k)
}

// has reports whether the set holds state b (hash h); it only reads the
// set, and leaves in sc where b's parts end.
func (c *collapsed) has(b []byte, h uint64, sc *storeScratch) bool {
	k, ok := c.key(b, sc, false)
	if !ok {
		return false
	}
	_, ok = c.root.lookup(shardIndex(h), k)
	return ok
}

// appendState appends state i's encoding to dst.
func (c *collapsed) appendState(i int, dst []byte) []byte {
	k := c.root.keys.at(i)
	if len(c.inner) == 0 {
		return append(dst, c.leaves[0].get(uint32(k))...)
	}
	return c.appendPair(dst, int32(c.nodes()-1), k)
}

// appendPair appends the leaves under inner node x whose children have
// the ids in k.
func (c *collapsed) appendPair(dst []byte, x int32, k uint64) []byte {
	n := c.inner[int(x)-c.nleaf]
	dst = c.appendNode(dst, n.l, uint32(k>>32))
	return c.appendNode(dst, n.r, uint32(k))
}

func (c *collapsed) appendNode(dst []byte, x int32, id uint32) []byte {
	if int(x) < c.nleaf {
		return append(dst, c.leaves[x].get(id)...)
	}
	return c.appendPair(dst, x, c.pairs[int(x)-c.nleaf].keys.at(int(id)))
}

func (c *collapsed) memory() int64 {
	n := c.root.memory()
	for _, t := range c.leaves {
		n += t.memory()
	}
	for _, t := range c.pairs {
		n += t.memory()
	}
	return n
}
