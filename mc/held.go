package mc

// Held successors: pass 1 of a parallel search (parallel.go) with the
// compressed set defers its root-set lookups, as the sequential search
// defers its inserts (roots.go). The root set's tables outgrow the
// caches, so a lookup costs a read from memory that the processor waits
// for. A worker computes the root keys of a state's successors as it
// generates them, prefetches where each key's lookup starts, and holds
// the successors until it has expanded the next state of its chunk (or
// ends the chunk): by then the reads are done. It then looks them up
// in their order and keeps the candidates, so the candidates, their
// order and the states they belong to are those of looking each up at
// once.

// heldKind says what a held successor's root key is.
type heldKind uint8

const (
	// heldMissing: some node of the state is not in the set, so neither
	// is the state; its parts and ids are held.
	heldMissing heldKind = iota
	// heldKey: the key is known, with the parts and ids.
	heldKey
	// heldKeyOnly: the key is known from the recent encodings, the parts
	// and ids are not (resolve computes them if the state is new).
	heldKeyOnly
)

// heldSuccs are the successors of one state that wait for their
// lookups, concatenated: out is the state's record in the window.
type heldSuccs struct {
	out    *parentOut
	b      []byte
	ends   []int
	hashes []uint64
	keys   []uint64
	kinds  []heldKind
	parts  []int32  // nleaf per successor
	ids    []uint32 // nodes per successor
}

func (hs *heldSuccs) reset(o *parentOut) {
	hs.out = o
	hs.b, hs.ends, hs.hashes, hs.keys, hs.kinds = hs.b[:0], hs.ends[:0], hs.hashes[:0], hs.keys[:0], hs.kinds[:0]
	hs.parts, hs.ids = hs.parts[:0], hs.ids[:0]
}

func (hs *heldSuccs) get(i int) []byte {
	start := 0
	if i > 0 {
		start = hs.ends[i-1]
	}
	return hs.b[start:hs.ends[i]]
}

// hold computes what it can of successor b's root key (hash h) without
// reading the root set, prefetches the slot where its lookup starts,
// and holds it.
func (e *explorer) hold(b []byte, h uint64) {
	hs, c := e.held, e.vis.(*collapsed)
	kind, k := heldKeyOnly, uint64(0)
	sc := &e.sc
	sc.ends, sc.ids = sc.ends[:0], sc.ids[:0]
	k, ok := sc.encs.keyOf(b, h>>32)
	if !ok {
		var complete bool
		k, complete = c.key(b, sc, false)
		kind = heldMissing
		if complete {
			kind = heldKey
			sc.encs.keep(b, h>>32, k)
		}
	}
	if kind != heldMissing && !sc.seen(k) && !sc.offeredBefore(k) {
		c.root.shards[shardIndex(h)].prefetch(k)
	}
	hs.b = append(hs.b, b...)
	hs.ends = append(hs.ends, len(hs.b))
	hs.hashes = append(hs.hashes, h)
	hs.keys = append(hs.keys, k)
	hs.kinds = append(hs.kinds, kind)
	if kind == heldKeyOnly {
		hs.parts = append(hs.parts, make([]int32, c.nleaf)...)
		hs.ids = append(hs.ids, make([]uint32, c.nodes())...)
		return
	}
	hs.parts = append(hs.parts, sc.ends...)
	hs.ids = append(hs.ids, sc.ids...)
}

// resolveHeld looks the successors hs holds up in order, keeps those the
// set does not hold as candidates (after those of the states expanded
// before), and records where the state's candidates are.
func (e *explorer) resolveHeld(hs *heldSuccs) {
	if hs.out == nil {
		return
	}
	c, cd := e.vis.(*collapsed), e.cands
	nl, n := c.nleaf, c.nodes()
	hs.out.lo = int32(len(cd.ends))
	e.sc.hinted = false
	for i := range hs.kinds {
		b, h, k := hs.get(i), hs.hashes[i], hs.keys[i]
		parts, ids := hs.parts[i*nl:(i+1)*nl], hs.ids[i*n:(i+1)*n]
		if kind := hs.kinds[i]; kind != heldMissing {
			if c.holdsKey(k, h, &e.sc) {
				continue
			}
			if kind == heldKeyOnly {
				c.key(b, &e.sc, false)
				parts, ids = e.sc.ends, e.sc.ids
			}
		}
		cd.add(b, h, parts, ids)
	}
	hs.out.hi = int32(len(cd.ends))
	hs.reset(nil)
}
