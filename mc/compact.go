package mc

import (
	"fmt"
	"math"
)

// Hash compaction (Options.HashCompact), a lossy visited set: a state
// is stored as a 64-bit hash of its encoding only, so two states with
// the same hash count as one and the second is never explored. With n
// states, the probability that some two of them share a hash is about
// n^2/2^65: the search is not exhaustive, and its result says so
// (compactLimit) instead of "no violation". A violation it finds is
// real: the states expanded are full encodings of states reached by
// real steps (the frontier keeps them until they are expanded), and the
// trace is replayed on concrete states, each step chosen by the hash of
// the state it reaches.
//
// Per state, the set holds the hash twice (by number, and in its
// shard's table) and the explorer a parent; the frontier holds the
// encodings of the states not yet expanded.
type compacted struct {
	root *rootSet
	// The frontier: the encodings of states fbase.. in chunks of data;
	// fref[n-fbase] is chunk << 40 | offset << 20 | length, with chunk
	// counted from the first chunk ever made (cbase is the first kept).
	fbase int
	fref  []uint64
	data  [][]byte
	cbase int
	// inits are the encodings of the initial states, which the trace
	// starts from.
	inits map[uint64][]byte
}

const frontierChunk = 1 << 20

func newCompacted() *compacted {
	return &compacted{root: newRootSet(), inits: map[uint64][]byte{}}
}

func (c *compacted) count() int                                 { return c.root.keys.n }
func (c *compacted) hash(b []byte) uint64                       { return hashBytes(b) }
func (c *compacted) setArenas(int)                              {}
func (c *compacted) internWindow([]*explorer, []parentOut, int) {}
func (c *compacted) has(b []byte, h uint64, _ *storeScratch) bool {
	return c.root.lookup(shardIndex(h), h)
}
func (c *compacted) dropPending() { c.root.dropPending() }

func (c *compacted) insert(b []byte) (int, bool) {
	h := hashBytes(b)
	n := c.count()
	if !c.root.insert(shardIndex(h), h) {
		return 0, false
	}
	c.push(b)
	return n, true
}

func (c *compacted) insertFrom(b []byte, _ *storeScratch) (int, bool) { return c.insert(b) }

func (c *compacted) prefetchCandidate(*candidates, int32) {}

func (c *compacted) addCandidate(cd *candidates, k int32, _ int) bool {
	h := cd.hashes[k]
	return c.root.addPending(shardIndex(h), h)
}

func (c *compacted) number(cd *candidates, k int32) int {
	n := c.root.number(shardIndex(cd.hashes[k]))
	c.push(cd.get(k))
	return n
}

// push appends the encoding of the state numbered last to the frontier.
func (c *compacted) push(b []byte) {
	if len(b) >= 1<<20 {
		panic(fmt.Sprintf("mc: a state of %d bytes", len(b)))
	}
	last := len(c.data) - 1
	if last < 0 || len(c.data[last])+len(b) > cap(c.data[last]) {
		c.data = append(c.data, make([]byte, 0, max(frontierChunk, len(b))))
		last++
	}
	off := len(c.data[last])
	c.data[last] = append(c.data[last], b...)
	c.fref = append(c.fref, uint64(c.cbase+last)<<40|uint64(off)<<20|uint64(len(b)))
}

// keepInits keeps the encodings of the states found so far, the
// initial states, for the trace.
func (c *compacted) keepInits() {
	for i := c.fbase; i < c.count(); i++ {
		c.inits[c.root.keys.at(i)] = c.state(i, nil, nil)
	}
}

// state returns state i's encoding, which the frontier holds until
// release(j) for a j > i.
func (c *compacted) state(i int, dst []byte, _ *storeScratch) []byte {
	if i < c.fbase {
		panic(fmt.Sprintf("mc: state %d was expanded and dropped (hash compaction)", i))
	}
	ref := c.fref[i-c.fbase]
	chunk, off := int(ref>>40)-c.cbase, (ref>>20)&(1<<20-1)
	return append(dst[:0], c.data[chunk][off:off+ref&(1<<20-1)]...)
}

// release drops the encodings of the states before i, which are
// expanded.
func (c *compacted) release(i int) {
	if i <= c.fbase {
		return
	}
	if i >= c.count() {
		c.fbase, c.fref, c.cbase, c.data = c.count(), c.fref[:0], c.cbase+len(c.data), c.data[:0]
		return
	}
	drop := i - c.fbase
	c.fbase = i
	keep := int(c.fref[drop]>>40) - c.cbase
	if 2*drop >= len(c.fref) {
		c.fref = append(c.fref[:0:0], c.fref[drop:]...)
	} else {
		c.fref = c.fref[drop:]
	}
	if keep > 0 {
		clear(c.data[:keep])
		c.data, c.cbase = append(c.data[:0:0], c.data[keep:]...), c.cbase+keep
	}
}

func (c *compacted) memory() int64 {
	n := c.root.memory() + int64(cap(c.fref))*8 + int64(cap(c.data))*24
	for _, d := range c.data {
		n += int64(cap(d))
	}
	for _, b := range c.inits {
		n += int64(len(b)) + goMapEntry
	}
	return n
}

// compactLimit says why a search with hash compaction that found no
// violation is not exhaustive, with the estimate of a missed state.
func compactLimit(states int64) string {
	p := float64(states) * float64(states) / math.Exp2(65)
	est := fmt.Sprintf("about %.1e", p)
	if p >= 0.5 {
		est = "not small"
	}
	return fmt.Sprintf("hash compaction (--hash-compact) stores a 64-bit hash per state, so the search is not exhaustive: a state whose hash equals that of a state found before is never explored; the probability that some state was missed this way is %s (n^2/2^65 for n = %d states)", est, states)
}
