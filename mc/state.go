package mc

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sync/atomic"
)

// State encoding. A state is a byte string: every global slot as a
// zigzag varint, then every thread's record (calls made, call depth, and
// per frame the procedure, the yield point and the frame's slots), then,
// in a product state, the id of the normalized specification state.
// Small numbers take one byte, so a state is typically a few dozen bytes.

// appendInt appends v as a zigzag varint. Most values of a state are
// small: those of -64..63 take one byte, written here without a call.
func appendInt(b []byte, v int64) []byte {
	if uint64(v+64) < 128 {
		return append(b, byte(uint64(v<<1)^uint64(v>>63)))
	}
	return binary.AppendVarint(b, v)
}

// appendUint appends v as a varint (one byte, without a call, below 128).
func appendUint(b []byte, v uint64) []byte {
	if v < 0x80 {
		return append(b, byte(v))
	}
	return binary.AppendUvarint(b, v)
}

// readInt reads the zigzag varint at *pos and moves *pos past it; a
// one-byte varint is read without a call.
func readInt(b []byte, pos *int) int64 {
	if c := b[*pos]; c < 0x80 {
		*pos++
		return int64(c>>1) ^ -int64(c&1)
	}
	v, n := binary.Varint(b[*pos:])
	if n <= 0 {
		panic(fmt.Sprintf("mc: corrupt state encoding at %d", *pos))
	}
	*pos += n
	return v
}

// readUint reads the varint at *pos and moves *pos past it; a
// one-byte varint is read without a call.
func readUint(b []byte, pos *int) uint64 {
	if c := b[*pos]; c < 0x80 {
		*pos++
		return uint64(c)
	}
	v, n := binary.Uvarint(b[*pos:])
	if n <= 0 {
		panic(fmt.Sprintf("mc: corrupt state encoding at %d", *pos))
	}
	*pos += n
	return v
}

func (m *model) appendGlobals(b []byte, g []int64) []byte {
	for _, v := range g {
		b = appendInt(b, v)
	}
	return b
}

// storedForm says which reductions an encoding applies: none for a
// concrete state, the masks of symmetry and of dead variables for the
// form a state is stored in.
type storedForm uint8

const (
	maskSym  storedForm = 1 << iota // identities of a symmetric role (symmetry.go)
	maskDead                        // dead frame variables (dead.go)
)

// appendThread encodes thread t's record, with the masks of form.
func (m *model) appendThread(b []byte, t int, rec *dthread, form storedForm) []byte {
	b = appendUint(b, uint64(rec.calls))
	b = appendUint(b, uint64(len(rec.frames)))
	r := m.threads[t].role
	sym := form&maskSym != 0 && r.sym
	for _, f := range rec.frames {
		b = appendUint(b, uint64(f.p.idx))
		b = appendUint(b, uint64(f.node))
		var dead []int
		if form&maskDead != 0 {
			dead = f.p.deadAt(f.node)
		}
		if !sym && dead == nil {
			for _, v := range f.vals {
				b = appendInt(b, v)
			}
			continue
		}
		b = m.appendMasked(b, r, f, sym, dead)
	}
	if m.forks {
		b = appendArms(b, rec.arms)
	}
	if m.weak() {
		b = appendBuf(b, rec.buf)
	}
	return b
}

// appendMasked encodes the slots of frame f: those in dead (ascending)
// as their initial value, and with sym the in-range values of tainted
// slots as the role's first identity.
func (m *model) appendMasked(b []byte, r *role, f dframe, sym bool, dead []int) []byte {
	var tainted []bool
	if sym {
		tainted = r.tainted[f.p]
	}
	for i, v := range f.vals {
		switch {
		case len(dead) > 0 && dead[0] == i:
			v, dead = f.p.zero[i], dead[1:]
		case sym && tainted[i] && v >= r.lo && v <= r.hi:
			v = r.lo
		}
		b = appendInt(b, v)
	}
	return b
}

// decode decodes b into s, reusing s's storage. Thread records keep
// their encoding in seg (a slice of b).
func (m *model) decode(b []byte, s *dstate, buf *[]int64) {
	pos := 0
	s.g = s.g[:0]
	for i := 0; i < m.nglob(); i++ {
		s.g = append(s.g, readInt(b, &pos))
	}
	if cap(s.th) < len(m.threads) {
		s.th = make([]dthread, len(m.threads))
	}
	s.th = s.th[:len(m.threads)]
	vals := (*buf)[:0]
	for t := range s.th {
		th := &s.th[t]
		start := pos
		th.calls = int(readUint(b, &pos))
		th.frames, vals = m.readFrames(b, &pos, th.frames[:0], vals)
		th.arms = nil
		if m.forks {
			th.arms, vals = m.readArms(b, &pos, vals)
		}
		if m.weak() {
			th.buf = readBuf(b, &pos, th.buf)
		}
		th.seg = b[start:pos]
	}
	*buf = vals
	s.set = 0
	if pos < len(b) {
		s.set = int32(readUint(b, &pos))
	}
}

// readFrames reads the call stack of a thread's record at *pos (its
// depth, then per frame the procedure, the yield point and the values),
// appending the frames to frames and their values to vals.
func (m *model) readFrames(b []byte, pos *int, frames []dframe, vals []int64) ([]dframe, []int64) {
	depth := int(readUint(b, pos))
	for range depth {
		p := m.procs[readUint(b, pos)]
		node := int(readUint(b, pos))
		n := len(vals)
		for range p.frame {
			vals = append(vals, readInt(b, pos))
		}
		frames = append(frames, dframe{p: p, node: node, vals: vals[n:len(vals):len(vals)]})
	}
	return frames, vals
}

// ---- The visited set ----

// visited is a set of states (byte strings) numbered in insertion order:
// the specification side's states and sets, and, in tests, explore's
// states uncompressed (Options.NoCompress; explore's own set is
// collapse.go's).
// The strings live in arenas of chunks of up to 16 MB; order holds, per state
// number, a 64-bit reference (chunk, offset, length) that locates its
// bytes. The set is split into visitedShards shards by the state's hash;
// each shard has an open-addressing table of 64-bit entries (32 bits of
// hash, 32 bits of the state's index in the shard) and the number of each
// of its states. About 24 bytes per state beyond the state itself.
//
// Shards let the workers of a parallel search insert at once without
// locks (parallel.go): in a first pass, each worker adds states to the
// shards it owns only, into an arena of its own, as pending (unnumbered)
// states; then one goroutine numbers the new states in the order of the
// sequential search (number). A chunk is written only by the arena that
// owns it, and chunks never move (their directory has a fixed size).
type visited struct {
	shards [visitedShards]shard
	chunks *[maxChunks][]byte
	nchunk atomic.Int32 // chunks allocated
	// chunkBytes is the bytes of the chunks allocated.
	chunkBytes atomic.Int64
	arenas     []int    // per arena (worker): its current chunk, or -1
	fill       []int    // per arena: the bytes used of its current chunk
	order      refArray // per state: chunk << 48 | offset << 24 | length
}

// refArray is the array of a visited set's references, by state number.
// It grows by chunks that never move (chunk 0 holds entries 0 to 1023,
// chunk c >= 1 the 2^(c+9) entries from 2^(c+9)), so that get can read
// an entry without a lock while a writer appends past it (the
// specification side's tables, spec.go): a reader that learnt a state's
// number from the writer, through a lock or an atomic value, reads the
// entry and its chunk as the writer left them.
type refArray struct {
	dir [refChunks][]uint64
	n   int
}

const (
	refFirstBits = 10
	refChunks    = 32 - refFirstBits + 1 // 2^32 entries
)

// refChunk returns the chunk of entry i and its offset there.
func refChunk(i int) (c, off int) {
	if i < 1<<refFirstBits {
		return 0, i
	}
	c = bits.Len(uint(i)) - refFirstBits
	return c, i - 1<<(c+refFirstBits-1)
}

func (a *refArray) at(i int) uint64 {
	c, off := refChunk(i)
	return a.dir[c][off]
}

func (a *refArray) add(ref uint64) {
	c, off := refChunk(a.n)
	if a.dir[c] == nil {
		size := 1 << refFirstBits
		if c > 0 {
			size = 1 << (c + refFirstBits - 1)
		}
		a.dir[c] = make([]uint64, size)
	}
	a.dir[c][off] = ref
	a.n++
}

// bytes returns the bytes the array holds.
func (a *refArray) bytes() int64 {
	var n int64
	for _, c := range a.dir {
		n += int64(len(c)) * 8
	}
	return n
}

// shard is one part of the visited set.
type shard struct {
	nums    []uint32 // per state of the shard, by index: its number
	pending []uint64 // the references of states added but not numbered yet
	table   []uint64 // hash32 << 32 | (index in the shard + 1); 0 is empty
	mask    uint64
}

const (
	chunkSize     = 1 << 24
	firstChunk    = 1 << 16
	maxChunks     = 1 << 14 // over 256 GiB of states
	visitedShards = 64
	shardTable    = 1 << 10 // a shard's initial table size
)

func newVisited() *visited {
	v := &visited{chunks: new([maxChunks][]byte), arenas: []int{-1}, fill: []int{0}}
	for i := range v.shards {
		v.shards[i].table = make([]uint64, shardTable)
		v.shards[i].mask = shardTable - 1
	}
	return v
}

// setArenas gives the set n arenas, one per worker that adds states.
func (v *visited) setArenas(n int) {
	for len(v.arenas) < n {
		v.arenas = append(v.arenas, -1)
		v.fill = append(v.fill, 0)
	}
}

// count returns the number of states.
func (v *visited) count() int { return v.order.n }

// get returns state i.
func (v *visited) get(i int) []byte { return v.bytesOf(v.order.at(i)) }

// bytesOf returns the state that ref locates.
func (v *visited) bytesOf(ref uint64) []byte {
	pos, n := int(ref>>24)&(chunkSize-1), int(ref)&(chunkSize-1)
	return v.chunks[ref>>48][pos : pos+n]
}

// hash returns the hash of state b that the set uses: its low bits
// choose the shard, its high 32 bits go into the shard's table. It is
// the same on every run (no random seed), so that how full each shard
// is, and with it the memory estimate, depends on the states only, and
// a memory limit stops the search at the same state every time.
func (v *visited) hash(b []byte) uint64 { return hashBytes(b) }

// hashBytes is the hash of byte strings of the visited sets.
func hashBytes(b []byte) uint64 {
	const m = 0x9e3779b97f4a7c15
	h := uint64(len(b)) * m
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * m
		h ^= h >> 29
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	// the finalizer of MurmurHash3 (mix): every bit of h affects every bit
	return mix((h ^ tail) * m)
}

// shardIndex returns the shard of a state with hash h.
func shardIndex(h uint64) int { return int(h & (visitedShards - 1)) }

// insert adds b (copying it) unless present; it returns the state's
// number and whether it is new.
func (v *visited) insert(b []byte) (int, bool) {
	h := v.hash(b)
	sh := &v.shards[shardIndex(h)]
	at, slot, ok := sh.probe(v, b, h)
	if ok {
		return int(sh.nums[at]), false
	}
	sh.enter(slot, h)
	n := v.order.n
	if int64(n) >= 1<<32-2 {
		panic("mc: more than 2^32 states")
	}
	v.order.add(v.store(b, 0))
	sh.nums = append(sh.nums, uint32(n))
	return n, true
}

// find reports whether the set holds state b, whose hash is h. It only
// reads the set: the workers of a parallel search call it at once,
// while no one adds states (parallel.go).
func (v *visited) find(b []byte, h uint64) bool {
	_, _, ok := v.shards[shardIndex(h)].probe(v, b, h)
	return ok
}

// addPending adds b with hash h to its shard as a pending state unless
// the shard holds it (numbered or pending), storing it in the given
// arena; it reports whether b is new. Calls for different shards and
// arenas may run at once; number then numbers the pending states.
func (v *visited) addPending(b []byte, h uint64, arena int) bool {
	sh := &v.shards[shardIndex(h)]
	_, slot, ok := sh.probe(v, b, h)
	if ok {
		return false
	}
	sh.enter(slot, h)
	sh.pending = append(sh.pending, v.store(b, arena))
	return true
}

// numberNext gives the next pending state of shard i the next state
// number, and returns it.
func (v *visited) numberNext(i int) int {
	sh := &v.shards[i]
	n := v.order.n
	if int64(n) >= 1<<32-2 {
		panic("mc: more than 2^32 states")
	}
	v.order.add(sh.pending[0])
	sh.pending = sh.pending[1:]
	sh.nums = append(sh.nums, uint32(n))
	return n
}

// dropPending forgets the storage of the pending states, once every one
// is numbered.
func (v *visited) dropPending() {
	for i := range v.shards {
		if len(v.shards[i].pending) != 0 {
			panic("mc: a pending state left unnumbered")
		}
		v.shards[i].pending = nil
	}
}

// probe looks for state b with hash h in the shard: its index if
// present, else the empty table slot where it goes.
func (sh *shard) probe(v *visited, b []byte, h uint64) (at int, slot uint64, ok bool) {
	h32 := uint32(h >> 32)
	i := uint64(h32) & sh.mask
	for {
		e := sh.table[i]
		if e == 0 {
			return 0, i, false
		}
		if uint32(e>>32) == h32 {
			at := int(uint32(e)) - 1
			var ref uint64
			if at < len(sh.nums) {
				ref = v.order.at(int(sh.nums[at]))
			} else {
				ref = sh.pending[at-len(sh.nums)]
			}
			if string(v.bytesOf(ref)) == string(b) {
				return at, i, true
			}
		}
		i = (i + 1) & sh.mask
	}
}

// enter fills table slot slot with the next index of the shard.
func (sh *shard) enter(slot, h uint64) {
	at := len(sh.nums) + len(sh.pending)
	sh.table[slot] = uint64(uint32(h>>32))<<32 | uint64(at+1)
	if uint64(at+1)*10 > uint64(len(sh.table))*7 {
		sh.grow()
	}
}

// store copies b into an arena and returns its reference.
func (v *visited) store(b []byte, arena int) uint64 {
	if len(b) >= chunkSize {
		panic(fmt.Sprintf("mc: a state of %d bytes", len(b)))
	}
	ci := v.arenas[arena]
	if ci < 0 || v.fill[arena]+len(b) > len(v.chunks[ci]) {
		// An arena's chunks grow from firstChunk to chunkSize, so that a
		// small search, or a worker's arena, holds little.
		size := firstChunk
		if ci >= 0 {
			size = min(2*len(v.chunks[ci]), chunkSize)
		}
		size = max(size, len(b))
		ci = int(v.nchunk.Add(1)) - 1
		if ci >= maxChunks {
			panic("mc: the visited set is full")
		}
		v.chunks[ci] = make([]byte, size)
		v.chunkBytes.Add(int64(size))
		v.arenas[arena], v.fill[arena] = ci, 0
	}
	// The chunk's slice is written once, when it is made, and then only
	// its bytes past the arena's fill: other workers read the states
	// already there (bytesOf) while this one adds more.
	pos := v.fill[arena]
	copy(v.chunks[ci][pos:], b)
	v.fill[arena] = pos + len(b)
	return uint64(ci)<<48 | uint64(pos)<<24 | uint64(len(b))
}

func (sh *shard) grow() {
	old := sh.table
	sh.table = make([]uint64, 2*len(old))
	sh.mask = uint64(len(sh.table) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := (e >> 32) & sh.mask
		for sh.table[i] != 0 {
			i = (i + 1) & sh.mask
		}
		sh.table[i] = e
	}
}

// memory estimates the bytes the set holds.
func (v *visited) memory() int64 {
	n := v.chunkBytes.Load() + v.order.bytes()
	for i := range v.shards {
		sh := &v.shards[i]
		n += int64(cap(sh.nums))*4 + int64(cap(sh.pending))*8 + int64(len(sh.table))*8
	}
	return n
}
