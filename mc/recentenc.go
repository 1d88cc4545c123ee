package mc

// Recent encodings. Most successors are states met before, and most of
// those were met shortly before (storeScratch.recent). The root key of a
// state is a function of its encoding (the ids of parts and pairs never
// change), so a caller that keeps the encodings of the last states it
// looked up, with their keys, knows the key of a successor met again
// from its bytes alone: rootOf then skips looking up its parts and the
// pairs above them (collapsed.key). Every part of such a state is
// interned already, so no id changes either.

// recentEncs is the number of encodings kept, and recentEncLen the
// longest kept (longer states are always looked up): 256 KiB.
const (
	recentEncs   = 1 << 12
	recentEncLen = 63
)

// recentEnc holds, at hash h modulo recentEncs, an encoding (its length
// in lens, 0 for none, and its bytes at (h mod recentEncs) *
// (recentEncLen+1) in bytes) and its root key.
type recentEnc struct {
	lens  []uint8
	keys  []uint64
	bytes []byte
}

// keyOf returns the root key of state b (hash h), if it is kept.
func (r *recentEnc) keyOf(b []byte, h uint64) (uint64, bool) {
	if r.lens == nil || len(b) > recentEncLen {
		return 0, false
	}
	i := h & (recentEncs - 1)
	if int(r.lens[i]) != len(b) {
		return 0, false
	}
	at := int(i) * (recentEncLen + 1)
	if string(r.bytes[at:at+len(b)]) != string(b) {
		return 0, false
	}
	return r.keys[i], true
}

// keep keeps state b (hash h) with its root key k.
func (r *recentEnc) keep(b []byte, h, k uint64) {
	if len(b) > recentEncLen || len(b) == 0 {
		return
	}
	if r.lens == nil {
		r.lens = make([]uint8, recentEncs)
		r.keys = make([]uint64, recentEncs)
		r.bytes = make([]byte, recentEncs*(recentEncLen+1))
	}
	i := h & (recentEncs - 1)
	at := int(i) * (recentEncLen + 1)
	r.lens[i], r.keys[i] = uint8(len(b)), k
	copy(r.bytes[at:], b)
}
