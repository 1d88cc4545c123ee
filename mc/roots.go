package mc

// Deferred insertion into the root set. The root set's tables outgrow
// the caches, so adding a state's key costs a read from memory that the
// processor waits for. The sequential search computes the root keys of
// a state's successors as it generates them (interning their parts, in
// the same order as ever), prefetches where each key's lookup starts,
// and adds the keys to the root set only at the end of the expansion of
// the next state: by then the reads are done. The keys are added in the
// order they were computed, so every state number, parent and count is
// that of adding each at once; the search adds the pending keys before
// anything reads the set's count (flushRoots: the queue's end, a
// level's end, the limits, a failure).

// pendingRoot is a successor whose root key is computed and not yet
// added: its key and shard, and the state it is a successor of.
type pendingRoot struct {
	ref  rootRef
	from int
}

// insertRoots is insertAll for the compressed set: it computes the root
// keys of the successors in e.succ and adds them to the root set, or,
// with deferRoots, to e.next.
func (e *explorer) insertRoots(c *collapsed, from int) {
	start := 0
	for j, end := range e.succEnds {
		e.hint(j)
		e.next = append(e.next, pendingRoot{c.rootOf(e.succ[start:end], &e.sc), from})
		start = end
	}
	e.sc.hinted = false
	if !e.deferRoots {
		e.addRoots(c, e.next)
		e.next = e.next[:0]
	}
}

// addRoots adds pending successors to the root set, in their order.
func (e *explorer) addRoots(c *collapsed, ps []pendingRoot) {
	for _, p := range ps {
		e.stats.Transitions++
		if _, isNew := c.insertRoot(p.ref, &e.sc); isNew {
			e.parent.add(uint32(p.from))
		}
	}
}

// endExpand ends the expansion of a state: the successors of the state
// expanded before are added, and this one's wait for the next.
func (e *explorer) endExpand() {
	if !e.deferRoots {
		return
	}
	e.addRoots(e.vis.(*collapsed), e.pending)
	e.pending, e.next = e.next, e.pending[:0]
}

// flushRoots adds every pending successor, in order.
func (e *explorer) flushRoots() {
	if !e.deferRoots {
		return
	}
	c := e.vis.(*collapsed)
	e.addRoots(c, e.pending)
	e.addRoots(c, e.next)
	e.pending, e.next = e.pending[:0], e.next[:0]
}

// more reports whether the search has a state i to expand, adding the
// pending successors first if the queue seems to end before it.
func (e *explorer) more(i int) bool {
	if i < e.vis.count() {
		return true
	}
	e.flushRoots()
	return i < e.vis.count()
}
