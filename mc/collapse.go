package mc

import (
	"fmt"
	"math/bits"
	"unsafe"
)

// Lossless state compression (the visited set of explore).
//
// A state's encoding (state.go) is the globals, then one record per
// thread, then, in a product state, the specification's set. These
// parts vary far less than the states do: the 1.06 million states of
// Chase-Lev with 4 owner calls and 3 thieves (no reductions) have 239
// distinct globals and 57 to 93 records per thread. So, as SPIN's
// COLLAPSE mode does, each
// part (a leaf) is interned in a table of its own (one per position) and
// replaced by its index, and, as in tree compression, the indices are
// paired up a binary tree: each inner node is a pair of its children's
// indices, interned in a table of its own, and the root pair, 8 bytes,
// stands for the state. The visited set holds that root key twice per
// state (in state number order, and in a hash table at most 80% full)
// and the tables of the leaves and inner nodes, which grow far slower
// than the states; the explorer adds a 4-byte parent per state: about
// 25 bytes per state in all.
//
// Rebuilding a state (state) walks the tree from its root key and
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
// order the keys were added (keys holds them by id). Its hash table
// holds the keys complemented (0 is empty) and, in the same slot, their
// ids, so that a lookup compares within the table and reads one place
// in memory.
type idTable struct {
	keys  chunked[uint64]
	slots []idSlot
	mask  uint64
}

type idSlot struct {
	key uint64 // complemented
	id  uint32
}

func newIDTable() *idTable {
	return &idTable{slots: make([]idSlot, 64), mask: 63}
}

// probe returns the slot of k, or the empty slot where it goes.
func (t *idTable) probe(k uint64) (uint64, bool) {
	e := ^k
	for i := mix(k) & t.mask; ; i = (i + 1) & t.mask {
		switch t.slots[i].key {
		case e:
			return i, true
		case 0:
			return i, false
		}
	}
}

// lookup returns the id of k, if the table holds it.
func (t *idTable) lookup(k uint64) (uint32, bool) {
	i, ok := t.probe(k)
	return t.slots[i].id, ok
}

// intern returns the id of k, adding k if the table does not hold it.
func (t *idTable) intern(k uint64) uint32 {
	i, ok := t.probe(k)
	if ok {
		return t.slots[i].id
	}
	id := t.keys.n
	if int64(id) >= 1<<32-2 {
		panic("mc: more than 2^32 parts of states")
	}
	t.keys.add(k)
	t.slots[i] = idSlot{^k, uint32(id)}
	if uint64(id+1)*4 > uint64(len(t.slots))*3 {
		old := t.slots
		t.slots = make([]idSlot, 2*len(old))
		t.mask = uint64(len(t.slots) - 1)
		for _, sl := range old {
			if sl.key != 0 {
				at, _ := t.probe(^sl.key)
				t.slots[at] = sl
			}
		}
	}
	return uint32(id)
}

func (t *idTable) memory() int64 { return t.keys.bytes(8) + int64(len(t.slots))*16 }

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
	if int64(id) >= 1<<32-2 {
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
// order (keys holds them by number). As the byte-string set of state.go
// it is split into visitedShards shards, here by the hash of the state's
// encoding (a candidate's key is not known before its parts are
// interned: parallel.go), which lets the workers of a parallel search
// add pending states to the shards they own at once. A shard's table
// holds the keys themselves, complemented (no key is all ones, so no
// entry is 0, the empty slot), at position mix(key): a lookup reads
// one place in memory, not a table and then the keys.
type rootSet struct {
	shards [visitedShards]rootShard
	keys   chunked[uint64] // by state number
}

type rootShard struct {
	slots    []uint64
	used     int
	pending  []uint64 // the keys of the pending states, in order
	numbered int      // the pending states numbered so far
}

func newRootSet() *rootSet {
	r := &rootSet{}
	for i := range r.shards {
		r.shards[i].slots = make([]uint64, 64)
	}
	return r
}

// probe looks for key k in shard sh: whether it is there, and its slot
// or the empty slot where it goes. The table's size is not a power of
// two (it grows by half: fill), so the first slot tried is mix(k)
// scaled to the size.
func (sh *rootShard) probe(k uint64) (int, bool) {
	e := ^k
	hi, _ := bits.Mul64(mix(k), uint64(len(sh.slots)))
	for i := int(hi); ; i++ {
		if i == len(sh.slots) {
			i = 0
		}
		switch sh.slots[i] {
		case e:
			return i, true
		case 0:
			return i, false
		}
	}
}

// prefetch starts bringing the slot where a probe for k starts into
// the caches (probe).
func (sh *rootShard) prefetch(k uint64) {
	hi, _ := bits.Mul64(mix(k), uint64(len(sh.slots)))
	prefetch(unsafe.Pointer(&sh.slots[hi]))
}

// lookup reports whether shard s holds key k. It only reads the set.
func (r *rootSet) lookup(s int, k uint64) bool {
	_, ok := r.shards[s].probe(k)
	return ok
}

// insert adds key k to shard s unless present and reports whether it
// is new.
func (r *rootSet) insert(s int, k uint64) bool {
	sh := &r.shards[s]
	slot, ok := sh.probe(k)
	if ok {
		return false
	}
	r.keys.add(k)
	sh.fill(slot, k)
	return true
}

// fill puts key k into an empty slot, and grows the shard's table by
// half when it is 80% full: a table is 53 to 80% full, where doubling
// would leave it 40 to 80% full, and the tables are most of the set's
// memory after the keys.
func (sh *rootShard) fill(slot int, k uint64) {
	sh.slots[slot] = ^k
	sh.used++
	if sh.used*5 <= len(sh.slots)*4 {
		return
	}
	old := sh.slots
	sh.slots = make([]uint64, len(old)+len(old)/2)
	for _, e := range old {
		if e != 0 {
			i, _ := sh.probe(^e)
			sh.slots[i] = e
		}
	}
}

// addPending adds key k to shard s as a pending state unless the shard
// holds it; it reports whether k is new. Calls for different shards may
// run at once.
func (r *rootSet) addPending(s int, k uint64) bool {
	sh := &r.shards[s]
	slot, ok := sh.probe(k)
	if ok {
		return false
	}
	sh.pending = append(sh.pending, k)
	sh.fill(slot, k)
	return true
}

// number gives the next pending state of shard s the next state number.
func (r *rootSet) number(s int) int {
	sh := &r.shards[s]
	n := r.keys.n
	r.keys.add(sh.pending[sh.numbered])
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
		n += int64(len(r.shards[i].slots))*8 + int64(cap(r.shards[i].pending))*8
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
	from fromState
	// recent holds the root keys of states in the set that this caller
	// met lately, complemented (0 is empty), at mix(key) modulo its
	// size: a state met again is known to be in the set without a look
	// into the root set, whose tables outgrow the caches (a read from
	// memory per look). In a breadth-first search most states reached
	// again are reached soon after: with 2^12 entries, 84 % of the
	// successors already in the set were found here on Chase-Lev 6x3x2
	// with reductions, 73 % on Treiber 3x2 without (2^16 entries: 92
	// and 81 %, no faster on a loaded machine: bench/README.md). A key
	// stands for one state, so a hit is exact; it changes no state
	// number, only the work.
	recent []uint64
	// offered holds, as recent does, the root keys of the candidates
	// this worker of a parallel search offered in the current window
	// (parallel.go): states not in the set when looked up. A successor
	// found there repeats an earlier candidate of the same worker, one
	// expanded earlier in the window's order (a worker takes its chunks
	// in increasing order), so it is not the first occurrence of its
	// state, which pass 3 alone numbers: dropping it changes no state
	// number, parent or count. A key stands for one state, so a hit is
	// exact. Cleared at each window's start (forgetOffered).
	offered []uint64
	// encs holds the encodings of the states rootOf looked up last,
	// with their root keys (recentenc.go).
	encs recentEnc
	// hinted says that the explorer knows where the parts of the state
	// looked up next end (hintEnds) and which are those of the state
	// from (hintSame, bit j for part j): encodeSucc wrote the state so.
	hinted     bool
	hintEnds   []int32
	hintSame   uint64
	checkHints bool // Options.checkHints
}

// recentSize is the number of entries of storeScratch.recent (32 KiB,
// which the first- or second-level cache holds).
const recentSize = 1 << 12

// seen reports whether recent holds key k.
func (sc *storeScratch) seen(k uint64) bool {
	return sc.recent != nil && sc.recent[mix(k)&(recentSize-1)] == ^k
}

// remember puts key k, which the set holds, into recent.
func (sc *storeScratch) remember(k uint64) {
	if sc.recent == nil {
		sc.recent = make([]uint64, recentSize)
	}
	sc.recent[mix(k)&(recentSize-1)] = ^k
}

// offeredBefore reports whether offered holds key k: then the set does
// not (pass 1 writes no state into it), and this occurrence of k is not
// its first, so the root set need not be read.
func (sc *storeScratch) offeredBefore(k uint64) bool {
	return sc.offered != nil && sc.offered[mix(k)&(recentSize-1)] == ^k
}

// offer puts key k, a candidate of this window, into offered (if in
// use).
func (sc *storeScratch) offer(k uint64) {
	if sc.offered != nil {
		sc.offered[mix(k)&(recentSize-1)] = ^k
	}
}

// forgetOffered empties offered, at the start of a window.
func (sc *storeScratch) forgetOffered() { clear(sc.offered) }

// fromState is a state read from the set (state), with where its parts
// end and its nodes' ids, when ok.
type fromState struct {
	ok   bool
	b    []byte
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

// partEnd returns where part j of state b, which starts at pos, ends.
// Every part's encoding is self-delimiting: reading it stops at its end.
func (c *collapsed) partEnd(b []byte, pos, j int) int {
	m := c.m
	switch {
	case j == 0:
		for range m.nglob() {
			pos = skipVarint(b, pos)
		}
		return pos
	case j > len(m.threads):
		return len(b) // the specification's set
	}
	pos = skipVarint(b, pos) // calls
	pos = m.skipFrames(b, pos, int(readUint(b, &pos)))
	if m.forks {
		pos = m.skipArms(b, pos)
	}
	if m.weak() {
		n := readUint(b, &pos)
		for range 3 * n {
			pos = skipVarint(b, pos)
		}
	}
	return pos
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

// noID marks, in the ids a lookup leaves (has), a node the set does not
// hold: no table reaches 2^32-2 entries.
const noID = ^uint32(0)

// key returns the root key of state b, interning its parts with
// intern; without, it only reads the set and reports false when some
// node is not in it (then neither is the state), leaving noID as that
// node's id and the ids of the others, which pass 2a of a parallel
// search then need not look up again (internWindow). It leaves in sc
// where b's parts end. A part equal to the same part of the state
// sc.from holds (the state expanded, whose successor b is, as a rule)
// has its id: only the parts that a step changed are looked up.
func (c *collapsed) key(b []byte, sc *storeScratch, intern bool) (uint64, bool) {
	n := c.nodes()
	if cap(sc.ids) < n {
		sc.ids = make([]uint32, n)
	}
	ids, ends := sc.ids[:n], sc.ends[:0]
	sc.ids = ids
	from, missing := sc.from.ok, false
	pos := 0
	for j := range c.nleaf {
		end := -1
		if sc.hinted {
			end = int(sc.hintEnds[j])
			if from && sc.hintSame&(1<<j) != 0 && c.sameAsFrom(b[pos:end], sc, j) {
				ids[j], pos = sc.from.ids[j], end
				ends = append(ends, int32(pos))
				continue
			}
		}
		if from {
			fp := part(sc.from.b, sc.from.ends, j)
			// The last part must end the state: the set's varint is
			// self-delimiting too, but this costs nothing.
			if end := pos + len(fp); end <= len(b) && (j < c.nleaf-1 || end == len(b)) && string(b[pos:end]) == string(fp) {
				ids[j], pos = sc.from.ids[j], end
				ends = append(ends, int32(pos))
				continue
			}
		}
		if end < 0 {
			end = c.partEnd(b, pos, j)
		}
		p := b[pos:end]
		pos = end
		ends = append(ends, int32(pos))
		if intern {
			ids[j] = c.leaves[j].intern(p)
		} else if id, ok := c.leaves[j].lookup(p, hashBytes(p)); ok {
			ids[j] = id
		} else {
			ids[j], missing = noID, true
		}
	}
	sc.ends = ends
	if pos != len(b) {
		panic(fmt.Sprintf("mc: a state of %d bytes has parts of %d", len(b), pos))
	}
	for x, pt := range c.pairs {
		in, at := c.inner[x], c.nleaf+x
		l, r := ids[in.l], ids[in.r]
		switch {
		case from && l == sc.from.ids[in.l] && r == sc.from.ids[in.r]:
			ids[at] = sc.from.ids[at]
		case intern:
			ids[at] = pt.intern(uint64(l)<<32 | uint64(r))
		case l == noID || r == noID:
			ids[at] = noID
		default:
			id, ok := pt.lookup(uint64(l)<<32 | uint64(r))
			if !ok {
				id, missing = noID, true
			}
			ids[at] = id
		}
	}
	if missing {
		return 0, false
	}
	return c.rootKey(ids), true
}

// sameAsFrom checks part p of a successor, which the explorer says is
// part j of sc.from: by its length (it costs nothing), and in tests
// (checkHints) by its bytes, panicking if it differs.
func (c *collapsed) sameAsFrom(p []byte, sc *storeScratch, j int) bool {
	fp := part(sc.from.b, sc.from.ends, j)
	if len(p) != len(fp) {
		return false
	}
	if sc.checkHints && string(p) != string(fp) {
		panic(fmt.Sprintf("mc: part %d of a successor is said to be the expanded state's, and is not", j))
	}
	return true
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
func (c *collapsed) dropPending()         { c.root.dropPending() }

func (c *collapsed) number(cd *candidates, k int32) int {
	return c.root.number(shardIndex(cd.hashes[k]))
}

func (c *collapsed) insert(b []byte) (int, bool) { return c.insertFrom(b, &c.scratch) }

// insertFrom inserts state b, a successor of the state sc read last.
func (c *collapsed) insertFrom(b []byte, sc *storeScratch) (int, bool) {
	return c.insertRoot(c.rootOf(b, sc), sc)
}

// rootRef is a state's root key and the shard of the root set that
// holds it or will.
type rootRef struct {
	key   uint64
	shard int
}

// rootOf returns the root key and shard of state b, a successor of the
// state sc read last: from the recent encodings (sc.encs) if b is
// there, else by interning its parts (key). Unless recent holds the
// key, it also prefetches the slot of the root set where a lookup of
// the key starts: the sequential search adds the key only after
// expanding the next state (roots.go), when the read is done.
func (c *collapsed) rootOf(b []byte, sc *storeScratch) rootRef {
	h := hashBytes(b)
	s := shardIndex(h)
	k, ok := sc.encs.keyOf(b, h>>32)
	if !ok {
		k, _ = c.key(b, sc, true)
		sc.encs.keep(b, h>>32, k)
	}
	if !sc.seen(k) {
		c.root.shards[s].prefetch(k)
	}
	return rootRef{k, s}
}

// insertRoot adds the state with root key and shard r, whose parts are
// interned (rootOf), unless the set holds it, and returns the number of
// states before it and whether it is new.
func (c *collapsed) insertRoot(r rootRef, sc *storeScratch) (int, bool) {
	n := c.root.keys.n
	if int64(n) >= 1<<32-2 {
		panic("mc: more than 2^32 states")
	}
	if sc.seen(r.key) {
		return n, false
	}
	sc.remember(r.key)
	return n, c.root.insert(r.shard, r.key)
}

// has reports whether the set holds state b (hash h); it only reads the
// set, and leaves in sc where b's parts end and its nodes' ids (key).
// In a parallel search's pass 1 (sc.offered in use) it also reports
// true for a state the caller offered as a candidate before in this
// window: that occurrence is not the first (storeScratch.offered).
func (c *collapsed) has(b []byte, h uint64, sc *storeScratch) bool {
	k, ok := c.key(b, sc, false)
	return ok && c.holdsKey(k, h, sc)
}

// holdsKey is has for a state whose root key k is known.
func (c *collapsed) holdsKey(k, h uint64, sc *storeScratch) bool {
	if sc.seen(k) || sc.offeredBefore(k) {
		return true
	}
	if !c.root.lookup(shardIndex(h), k) {
		sc.offer(k)
		return false
	}
	sc.remember(k)
	return true
}

// appendState appends state i's encoding to dst; with f, it records
// there where its parts end and its nodes' ids.
func (c *collapsed) appendState(i int, dst []byte, f *fromState) []byte {
	k := c.root.keys.at(i)
	if f != nil {
		if cap(f.ids) < c.nodes() {
			f.ids = make([]uint32, c.nodes())
		}
		f.ids, f.ends = f.ids[:c.nodes()], f.ends[:0]
	}
	start := len(dst)
	if len(c.inner) == 0 {
		dst = c.appendNode(dst, 0, uint32(k), f, start)
	} else {
		dst = c.appendPair(dst, int32(c.nodes()-1), k, f, start)
	}
	if f != nil {
		f.ok, f.b = true, dst[start:]
	}
	return dst
}

// appendPair appends the leaves under inner node x whose children have
// the ids in k.
func (c *collapsed) appendPair(dst []byte, x int32, k uint64, f *fromState, start int) []byte {
	n := c.inner[int(x)-c.nleaf]
	dst = c.appendNode(dst, n.l, uint32(k>>32), f, start)
	return c.appendNode(dst, n.r, uint32(k), f, start)
}

func (c *collapsed) appendNode(dst []byte, x int32, id uint32, f *fromState, start int) []byte {
	if f != nil {
		f.ids[x] = id
	}
	if int(x) < c.nleaf {
		dst = append(dst, c.leaves[x].get(id)...)
		if f != nil {
			f.ends = append(f.ends, int32(len(dst)-start))
		}
		return dst
	}
	return c.appendPair(dst, x, c.pairs[int(x)-c.nleaf].keys.at(int(id)), f, start)
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
