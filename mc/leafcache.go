package mc

// The decoded leaves of the compressed set. A state read back from the
// set is the concatenation of its parts (the globals, each thread's
// record), and the states share few distinct parts (Chase-Lev 6 x 4 x 2:
// 1098 distinct globals, 88 to 224 records per thread, for 13.1 million
// states). So the explorer decodes each part once, by its id in its
// table, and a state it expands is put together from the decoded parts:
// a copy of a few words per part instead of reading every value's
// varint. Decoded frames are shared, never written (a transition
// copies a frame before it changes it: withFrameValue, giveAway), so a
// state's records are the cache's frames themselves, their capacity
// clipped to their length.

// leafCacheIDs bounds the ids cached per part (beyond, a part is
// decoded each time), and with them the cache's memory.
const leafCacheIDs = 1 << 14

// leafCache holds decoded parts by id: per id of the globals' table,
// the globals; per thread, per id of its table, its record.
type leafCache struct {
	globals [][]int64
	records [][]cachedRecord
}

// cachedRecord is a thread's record decoded (ok says it is filled).
type cachedRecord struct {
	ok     bool
	calls  int
	frames []dframe
}

// cachesLeaves reports whether the explorer's states can be put
// together from decoded parts: the compressed set, and records of calls
// and frames only (no arms of forks, no store buffers, no specification
// state).
func (e *explorer) cachesLeaves() bool {
	_, ok := e.vis.(*collapsed)
	return ok && e.spec == nil && !e.m.forks && !e.m.weak() && e.sc.from.ok
}

// decodeExpanded decodes the state just read into e.stBuf (with its
// parts in e.sc.from) into e.cur, as model.decode does.
func (e *explorer) decodeExpanded() {
	if !e.cachesLeaves() {
		if e.leaves != nil {
			// decode reuses the frames' storage, here the cache's
			for t := range e.cur.th {
				e.cur.th[t].frames = nil
			}
		}
		e.m.decode(e.stBuf, &e.cur, &e.buf)
		return
	}
	m, f, s := e.m, &e.sc.from, &e.cur
	if e.leaves == nil {
		e.leaves = &leafCache{records: make([][]cachedRecord, len(m.threads))}
	}
	lc := e.leaves
	s.g = lc.globalsOf(m, f.ids[0], part(f.b, f.ends, 0), s.g[:0])
	if cap(s.th) < len(m.threads) {
		s.th = make([]dthread, len(m.threads))
	}
	s.th = s.th[:len(m.threads)]
	for t := range s.th {
		th := &s.th[t]
		th.seg = part(f.b, f.ends, t+1)
		rec := lc.recordOf(m, t, f.ids[t+1], th.seg)
		th.calls = rec.calls
		th.frames = rec.frames
		th.arms = nil
	}
	s.set = 0
}

// globalsOf appends to g the globals encoded in p, whose id is id.
func (lc *leafCache) globalsOf(m *model, id uint32, p []byte, g []int64) []int64 {
	if id < leafCacheIDs && int(id) < len(lc.globals) && lc.globals[id] != nil {
		return append(g, lc.globals[id]...)
	}
	pos := 0
	start := len(g)
	for range m.nglob() {
		g = append(g, readInt(p, &pos))
	}
	if id < leafCacheIDs {
		for int(id) >= len(lc.globals) {
			lc.globals = append(lc.globals, nil)
		}
		lc.globals[id] = append([]int64(nil), g[start:]...)
	}
	return g
}

// recordOf returns thread t's record encoded in p, whose id is id.
func (lc *leafCache) recordOf(m *model, t int, id uint32, p []byte) *cachedRecord {
	recs := lc.records[t]
	if int(id) < len(recs) && recs[id].ok {
		return &recs[id]
	}
	pos := 0
	rec := cachedRecord{ok: true, calls: int(readUint(p, &pos))}
	rec.frames, _ = m.readFrames(p, &pos, nil, nil)
	rec.frames = rec.frames[:len(rec.frames):len(rec.frames)]
	if id >= leafCacheIDs {
		return &rec
	}
	for int(id) >= len(recs) {
		recs = append(recs, cachedRecord{})
	}
	recs[id] = rec
	lc.records[t] = recs
	return &recs[id]
}
