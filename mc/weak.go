package mc

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Weak memory (Options.Memory) runs layer 0 on a machine with store
// buffers. Under TSO every thread has one FIFO buffer; under PSO one per
// thread and location. A write of a global variable of the
// implementation (not ghost) goes into the writing thread's buffer; a
// read sees the thread's newest buffered write to the location, else
// memory; a flush, a transition of its own that the owning thread may
// take at any time, moves a buffer's oldest write to memory. A location
// is a variable, or one cell m[k] of a map. Ghost variables, the
// history of calls and returns and the specification of a refinement
// check are not buffered.
//
// The granularity is access atomicity (access.go): weak memory is about
// the individual accesses of the machine, so each transition of a
// thread makes at most one access, and a transition that writes makes
// exactly one buffered write. A thread's buffered writes are kept in its
// record (dthread.buf), so they are part of the state, are hashed with
// it, and are permuted with the thread by symmetry reduction. Under PSO
// a buffer is kept sorted by location (stably, so the writes to one
// location stay in program order): two buffers with the same contents
// per location are then the same state.
//
// A `fence;` and a locked instruction (a [ ] group or a call of an
// action that writes a global of the implementation) run only when the
// thread's buffer is empty: until then the thread cannot move except by
// flushing. A locked instruction then reads and writes memory directly.

// Memory is the memory model explore runs layer 0 under.
type Memory int

// The memory models.
const (
	// MemorySC is sequential consistency: every write reaches memory at
	// once.
	MemorySC Memory = iota
	// MemoryTSO is total store order: one FIFO store buffer per thread.
	MemoryTSO
	// MemoryPSO is partial store order: one FIFO store buffer per thread
	// and location.
	MemoryPSO
)

// String names the memory model as the command line does.
func (mm Memory) String() string {
	switch mm {
	case MemorySC:
		return "sc"
	case MemoryTSO:
		return "tso"
	case MemoryPSO:
		return "pso"
	}
	return fmt.Sprintf("Memory(%d)", int(mm))
}

// ParseMemory reads a memory model's name: sc, tso or pso.
func ParseMemory(s string) (Memory, error) {
	for _, mm := range []Memory{MemorySC, MemoryTSO, MemoryPSO} {
		if s == mm.String() {
			return mm, nil
		}
	}
	return MemorySC, fmt.Errorf("unknown memory model %q (want sc, tso or pso)", s)
}

// maxBuffer bounds the writes a thread's buffers hold: a write that
// would exceed it waits until the thread flushes (a note says when this
// happened, since longer buffers were then not explored).
const maxBuffer = 12

// bufEntry is a buffered write: global slot, map key (0 for a variable)
// and value.
type bufEntry struct {
	slot     int
	key, val int64
}

func (a bufEntry) sameLocation(b bufEntry) bool { return a.slot == b.slot && a.key == b.key }

// weak reports whether the model runs under a weak memory model.
func (m *model) weak() bool { return m.memory != MemorySC }

// setupWeak records which global slots are buffered and how to write
// them. It runs after the globals are laid out.
func (m *model) setupWeak() {
	if !m.weak() {
		return
	}
	m.isMap = make([]bool, m.nglob())
	m.finiteKeys = make([]int, m.nglob())
	for i, v := range m.gvars {
		if ms, ok := v.Sort.(*obl.MapSort); ok {
			m.isMap[i], m.finiteKeys[i] = true, finiteKeys(ms.Key)
		}
		if i < m.nglob()-m.nconst && !m.globals[i].Ghost {
			m.realSlots = append(m.realSlots, i)
		}
	}
}

// apply performs a buffered write on the globals g.
func (m *model) apply(g []int64, e bufEntry) {
	if m.isMap[e.slot] {
		g[e.slot] = m.maps.set(g[e.slot], e.key, e.val, m.finiteKeys[e.slot])
		return
	}
	g[e.slot] = e.val
}

// flushable reports whether buf[i] may reach memory next: under TSO the
// oldest write, under PSO the oldest write to its location.
func (m *model) flushable(buf []bufEntry, i int) bool {
	if m.memory == MemoryTSO {
		return i == 0
	}
	return i == 0 || !buf[i-1].sameLocation(buf[i])
}

// appendBuffer appends to b the buffer old followed by the writes
// pending, in the canonical order of the memory model.
func (m *model) appendBuffer(b, old, pending []bufEntry) []bufEntry {
	b = append(append(b, old...), pending...)
	if m.memory == MemoryPSO && len(pending) > 0 {
		sort.SliceStable(b, func(i, j int) bool {
			if b[i].slot != b[j].slot {
				return b[i].slot < b[j].slot
			}
			return b[i].key < b[j].key
		})
	}
	return b
}

// appendBuf encodes a thread's buffer (weak memory only).
func appendBuf(b []byte, buf []bufEntry) []byte {
	b = appendUint(b, uint64(len(buf)))
	for _, e := range buf {
		b = appendUint(b, uint64(e.slot))
		b = appendInt(b, e.key)
		b = appendInt(b, e.val)
	}
	return b
}

// readBuf decodes a thread's buffer into buf's storage.
func readBuf(b []byte, pos *int, buf []bufEntry) []bufEntry {
	n := int(readUint(b, pos))
	buf = buf[:0]
	for i := 0; i < n; i++ {
		e := bufEntry{slot: int(readUint(b, pos))}
		e.key = readInt(b, pos)
		e.val = readInt(b, pos)
		buf = append(buf, e)
	}
	return buf
}

// ---- Running a thread under weak memory ----

// viewOf returns the globals as thread t sees them in s: memory with
// the thread's buffered writes applied, oldest first.
func (ru *run) viewOf(s *dstate, t int) []int64 {
	if !ru.m.weak() {
		return s.g
	}
	ru.view = append(ru.view[:0], s.g...)
	for _, e := range s.th[t].buf {
		ru.m.apply(ru.view, e)
	}
	return ru.view
}

// bufferLen is the number of writes in the running thread's buffers,
// those its transition made included.
func (ru *run) bufferLen() int { return len(ru.src.th[ru.t].buf) + len(ru.pending) }

// buffered reports whether the running thread has a buffered write to
// the location (slot, key).
func (ru *run) buffered(slot int, key int64) bool {
	loc := bufEntry{slot: slot, key: key}
	for _, e := range ru.src.th[ru.t].buf {
		if e.sameLocation(loc) {
			return true
		}
	}
	for _, e := range ru.pending {
		if e.sameLocation(loc) {
			return true
		}
	}
	return false
}

// emitRegs hands a successor to the sink; g are the globals of the
// register file after the transition. Under weak memory those are the
// thread's view: memory keeps its values for the buffered globals
// unless the transition was a locked instruction, and the writes the
// transition made join the thread's buffer.
func (ru *run) emitRegs(g []int64, out *dthread, ev event) {
	m := ru.m
	out.buf = nil
	if !m.weak() {
		ru.sink.emit(ru, g, out, ev)
		return
	}
	ru.memScratch = ru.memoryAfter(ru.memScratch[:0], g)
	ru.bufScratch = m.appendBuffer(ru.bufScratch[:0], ru.src.th[ru.t].buf, ru.pending)
	out.buf = ru.bufScratch
	ru.sink.emit(ru, ru.memScratch, out, ev)
}

// memoryAfter appends to b the memory after a transition whose register
// file holds the globals g (the thread's view): the buffered globals keep
// their values in memory unless the transition was a locked instruction.
func (ru *run) memoryAfter(b, g []int64) []int64 {
	b = append(b, g...)
	if !ru.locked {
		for _, i := range ru.m.realSlots {
			b[i] = ru.src.g[i]
		}
	}
	return b
}

// flushes emits the flush transitions of thread t in s: each write that
// may reach memory next does.
func (ru *run) flushes(s *dstate, t int) {
	th := &s.th[t]
	if len(th.buf) == 0 {
		return
	}
	ru.t, ru.src, ru.path, ru.meth = t, s, ru.path[:0], nil
	if !th.idle() {
		ru.meth = th.frames[0].p.method
	}
	ru.ev = event{}
	defer func() { ru.flushing = nil }()
	for i := range th.buf {
		if !ru.m.flushable(th.buf, i) {
			continue
		}
		mem := append(ru.memScratch[:0], s.g...)
		ru.m.apply(mem, th.buf[i])
		ru.memScratch = mem
		ru.out.calls = th.calls
		ru.out.frames = append(ru.out.frames[:0], th.frames...)
		ru.bufScratch = append(append(ru.bufScratch[:0], th.buf[:i]...), th.buf[i+1:]...)
		ru.out.buf = ru.bufScratch
		ru.flushing = &th.buf[i]
		ru.sink.emit(ru, mem, &ru.out, ru.ev)
		if ru.x.stop {
			return
		}
	}
}

// ---- Compiling the accesses ----

// bufferWrite is the continuation of a write part of a split step under
// weak memory: the part has written the thread's view (the register
// file); the write is recorded as pending, to join the thread's buffer
// when the transition ends, and memory is left alone.
func (m *model) bufferWrite(cp *cproc, node *layers.Node, a *access, k code) code {
	var msg string
	switch {
	case len(a.keys) > 1:
		msg = fmt.Sprintf("weak memory: a write of a cell of a nested map (%s) cannot be buffered", m.globals[a.slot].Name)
	case len(a.keys) == 0 && m.isMap[a.slot]:
		msg = fmt.Sprintf("weak memory: a write of the whole map %s (an assignment or havoc of the map) cannot be buffered; write its cells, or put the write in a [ ] group with a read of a global to make it a locked instruction", m.globals[a.slot].Name)
	}
	if msg != "" {
		panic(evalError{msg: msg, pos: node.Pos()})
	}
	slot := a.slot
	var key evalFn
	if len(a.keys) == 1 {
		key = cp.c.expr(a.keys[0])
	}
	return func(x *exec) {
		ru := x.run
		e := bufEntry{slot: slot, val: x.r[slot]}
		if key != nil {
			e.key = key(x.r)
			e.val = m.maps.get(x.r[slot], e.key)
		}
		if ru.bufferLen() >= maxBuffer {
			m.bufferFull.Store(true)
			return // it waits until a flush makes room
		}
		ru.pending = append(ru.pending, e)
		k(x)
		ru.pending = ru.pending[:len(ru.pending)-1]
	}
}

// drained runs k only if the running thread's buffers are empty: the
// code of a fence, and the start of a locked instruction (locked), which
// then reads and writes memory directly.
func drained(locked bool, k code) code {
	return func(x *exec) {
		ru := x.run
		if ru.bufferLen() > 0 {
			return // the thread waits for its flushes
		}
		if !locked {
			k(x)
			return
		}
		was := ru.locked
		ru.locked = true
		k(x)
		ru.locked = was
	}
}

// writesMemory reports whether c assigns a global of the
// implementation: run as one step, it is a locked instruction.
func (m *model) writesMemory(c obl.Cmd) bool {
	for v := range obl.Assigned(c) {
		if m.realSlot(v) >= 0 {
			return true
		}
	}
	return false
}

// ---- Traces ----

// describeBuffer prints a thread's buffered writes, oldest first.
func (m *model) describeBuffer(buf []bufEntry) string {
	if len(buf) == 0 {
		return "empty"
	}
	var parts []string
	for _, e := range buf {
		parts = append(parts, m.describeEntry(e))
	}
	return strings.Join(parts, ", ")
}

// describeEntry prints a buffered write: "T = 1", "items[0] = 3".
func (m *model) describeEntry(e bufEntry) string {
	g := m.globals[e.slot]
	if !m.isMap[e.slot] {
		return fmt.Sprintf("%s = %s", g.Name, m.showValue(e.val, g.Type))
	}
	mt := g.Type.(*lang.MapType)
	return fmt.Sprintf("%s[%s] = %s", g.Name, m.showValue(e.key, mt.Key), m.showValue(e.val, mt.Val))
}

// memoryNote says what weak memory means for the search.
func (m *model) memoryNote() string {
	what := "one FIFO store buffer per thread"
	if m.memory == MemoryPSO {
		what = "one FIFO store buffer per thread and location"
	}
	return fmt.Sprintf("memory model %s: %s; writes of global variables of layer 0 (not ghost) are buffered, a read sees the thread's newest buffered write, else memory; fence and [ ] groups that write drain the thread's buffers first; threads interleave at every access",
		strings.ToUpper(m.memory.String()), what)
}

// fenceCode compiles `fence;`: nothing under sequential consistency;
// under weak memory a pause point (when the transition has made an
// access already) after which the thread continues only with empty
// buffers.
func (m *model) fenceCode(cp *cproc, node *layers.Node, k code) code {
	if !m.weak() {
		return k
	}
	return m.pausePoint(cp, node, &access{fence: true, slot: -1}, 0, drained(false, k))
}

// anyBuffered reports whether some thread has buffered writes in s:
// memory and the ghost variables, which are not buffered, may then
// disagree.
func anyBuffered(s *dstate) bool {
	for u := range s.th {
		if len(s.th[u].buf) > 0 {
			return true
		}
	}
	return false
}
