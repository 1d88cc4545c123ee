package mc

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
)

// State encoding. A state is a byte string: every global slot as a
// zigzag varint, then every thread's record (calls made, call depth, and
// per frame the procedure, the yield point and the frame's slots), then,
// in a product state, the id of the normalized specification state.
// Small numbers take one byte, so a state is typically a few dozen bytes.

func appendInt(b []byte, v int64) []byte   { return binary.AppendVarint(b, v) }
func appendUint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

func readInt(b []byte, pos *int) int64 {
	v, n := binary.Varint(b[*pos:])
	if n <= 0 {
		panic(fmt.Sprintf("mc: corrupt state encoding at %d", *pos))
	}
	*pos += n
	return v
}

func readUint(b []byte, pos *int) uint64 {
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

// appendThread encodes thread t's record. With sym, the slots that hold
// thread identities of a symmetric role are masked (see symmetry.go).
func (m *model) appendThread(b []byte, t int, rec *dthread, sym bool) []byte {
	b = appendUint(b, uint64(rec.calls))
	b = appendUint(b, uint64(len(rec.frames)))
	r := m.threads[t].role
	mask := sym && r.sym
	for _, f := range rec.frames {
		b = appendUint(b, uint64(f.p.idx))
		b = appendUint(b, uint64(f.node))
		for i, v := range f.vals {
			if mask && r.tainted[f.p][i] && v >= r.lo && v <= r.hi {
				v = r.lo
			}
			b = appendInt(b, v)
		}
	}
	if m.weak() {
		b = appendBuf(b, rec.buf)
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
		depth := int(readUint(b, &pos))
		th.frames = th.frames[:0]
		for i := 0; i < depth; i++ {
			p := m.procs[readUint(b, &pos)]
			node := int(readUint(b, &pos))
			n := len(vals)
			for range p.frame {
				vals = append(vals, readInt(b, &pos))
			}
			th.frames = append(th.frames, dframe{p: p, node: node, vals: vals[n:len(vals):len(vals)]})
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

// ---- The visited set ----

// visited is a set of states (byte strings) numbered in insertion order.
// The strings live in an arena of 16 MB chunks; an open-addressing table
// of 64-bit entries (32 bits of hash, 32 bits of state number) finds
// them, and one 64-bit reference per state (chunk, offset, length)
// locates its bytes. About 20 bytes per state beyond the state itself.
type visited struct {
	seed   maphash.Seed
	chunks [][]byte
	refs   []uint64 // per state: chunk << 48 | offset << 24 | length
	table  []uint64 // hash32 << 32 | (state number + 1); 0 is empty
	mask   uint64
	bytes  int64 // arena bytes used
}

const chunkSize = 1 << 24

func newVisited() *visited {
	v := &visited{seed: maphash.MakeSeed()}
	v.table = make([]uint64, 1<<16)
	v.mask = uint64(len(v.table) - 1)
	return v
}

// count returns the number of states.
func (v *visited) count() int { return len(v.refs) }

// get returns state i.
func (v *visited) get(i int) []byte {
	ref := v.refs[i]
	pos, n := int(ref>>24)&(chunkSize-1), int(ref)&(chunkSize-1)
	return v.chunks[ref>>48][pos : pos+n]
}

// insert adds b (copying it) unless present; it returns the state's
// number and whether it is new.
func (v *visited) insert(b []byte) (int, bool) {
	return v.insertHashed(b, v.hash(b))
}

// hash returns the hash of state b that the set uses.
func (v *visited) hash(b []byte) uint32 {
	return uint32(maphash.Bytes(v.seed, b) >> 32)
}

// find returns the number of state b, whose hash is h, and whether the
// set holds it. It only reads the set: the workers of a parallel search
// call it at once, while no one inserts (parallel.go).
func (v *visited) find(b []byte, h uint32) (int, bool) {
	n, _, ok := v.probe(b, h)
	return n, ok
}

// probe looks for state b with hash h: its number if present, else the
// empty table slot where it goes.
func (v *visited) probe(b []byte, h uint32) (n int, slot uint64, ok bool) {
	i := uint64(h) & v.mask
	for {
		e := v.table[i]
		if e == 0 {
			return 0, i, false
		}
		if uint32(e>>32) == h {
			if n := int(uint32(e)) - 1; string(v.get(n)) == string(b) {
				return n, i, true
			}
		}
		i = (i + 1) & v.mask
	}
}

// insertHashed is insert for a state whose hash h is known.
func (v *visited) insertHashed(b []byte, h uint32) (int, bool) {
	n, i, ok := v.probe(b, h)
	if ok {
		return n, false
	}
	n = len(v.refs)
	if n >= 1<<32-2 {
		panic("mc: more than 2^32 states")
	}
	v.refs = append(v.refs, v.store(b))
	v.table[i] = uint64(h)<<32 | uint64(n+1)
	if uint64(len(v.refs))*10 > uint64(len(v.table))*7 {
		v.grow()
	}
	return n, true
}

// store copies b into the arena and returns its reference.
func (v *visited) store(b []byte) uint64 {
	if len(b) >= chunkSize {
		panic(fmt.Sprintf("mc: a state of %d bytes", len(b)))
	}
	if len(v.chunks) == 0 || len(v.chunks[len(v.chunks)-1])+len(b) > chunkSize {
		v.chunks = append(v.chunks, make([]byte, 0, chunkSize))
	}
	ci := len(v.chunks) - 1
	c := v.chunks[ci]
	pos := len(c)
	v.chunks[ci] = append(c, b...)
	v.bytes += int64(len(b))
	return uint64(ci)<<48 | uint64(pos)<<24 | uint64(len(b))
}

func (v *visited) grow() {
	old := v.table
	v.table = make([]uint64, 2*len(old))
	v.mask = uint64(len(v.table) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := (e >> 32) & v.mask
		for v.table[i] != 0 {
			i = (i + 1) & v.mask
		}
		v.table[i] = e
	}
}

// memory estimates the bytes the set holds.
func (v *visited) memory() int64 {
	return int64(len(v.chunks))*chunkSize + int64(cap(v.refs))*8 + int64(len(v.table))*8
}
