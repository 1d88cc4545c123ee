package mc

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// stateStore is the visited set of a search: the states found, numbered
// in the order they were found. The sequential search inserts states
// and reads them back by number; a parallel search (parallel.go) looks
// successors up with has (pass 1, read only, at once), interns their
// parts (pass 2a), adds them as pending states shard by shard (pass 2b)
// and numbers them (pass 3).
type stateStore interface {
	count() int
	// state appends state i's encoding to dst[:0] and returns it; with
	// sc, the compressed set remembers in it where the state's parts
	// are, which speeds up looking up its successors (has, insertFrom).
	state(i int, dst []byte, sc *storeScratch) []byte
	// insertFrom is insert with the scratch space of a state.
	insertFrom(b []byte, sc *storeScratch) (int, bool)
	insert(b []byte) (int, bool)
	memory() int64
	hash(b []byte) uint64
	// has reports whether the set holds state b (hash h), only reading
	// the set; the compressed set leaves in sc where b's parts end and
	// the ids of its nodes (noID for those it lacks), which pass 2a
	// takes over.
	has(b []byte, h uint64, sc *storeScratch) bool
	setArenas(n int)
	internWindow(workers []*explorer, outs []parentOut, chunk int)
	addCandidate(c *candidates, k int32, arena int) bool
	// prefetchCandidate starts reading where addCandidate will look
	// candidate k up.
	prefetchCandidate(c *candidates, k int32)
	// number numbers the next pending state of candidate k's shard,
	// which is candidate k.
	number(c *candidates, k int32) int
	dropPending()
}

// The byte-string set of state.go as a stateStore: the encoding without
// compression (Options.NoCompress).

func (v *visited) state(i int, dst []byte, _ *storeScratch) []byte {
	return append(dst[:0], v.get(i)...)
}

func (v *visited) insertFrom(b []byte, _ *storeScratch) (int, bool) { return v.insert(b) }

func (v *visited) has(b []byte, h uint64, _ *storeScratch) bool { return v.find(b, h) }

func (v *visited) internWindow([]*explorer, []parentOut, int) {}

func (v *visited) addCandidate(c *candidates, k int32, arena int) bool {
	return v.addPending(c.get(k), c.hashes[k], arena)
}

func (v *visited) prefetchCandidate(*candidates, int32) {}

func (v *visited) number(c *candidates, k int32) int {
	return v.numberNext(shardIndex(c.hashes[k]))
}

func (c *collapsed) state(i int, dst []byte, sc *storeScratch) []byte {
	if sc == nil {
		return c.appendState(i, dst[:0], nil)
	}
	return c.appendState(i, dst[:0], &sc.from)
}

// addCandidate adds candidate k, whose nodes' ids pass 2a found, as a
// pending state.
func (c *collapsed) addCandidate(cd *candidates, k int32, _ int) bool {
	n := c.nodes()
	return c.root.addPending(shardIndex(cd.hashes[k]), c.rootKey(cd.ids[int(k)*n:int(k+1)*n]))
}

func (c *collapsed) prefetchCandidate(cd *candidates, k int32) {
	n := c.nodes()
	c.root.shards[shardIndex(cd.hashes[k])].prefetch(c.rootKey(cd.ids[int(k)*n : int(k+1)*n]))
}

// internWindow interns the parts and inner nodes of the candidates of a
// window that pass 1 did not find in the set (pass 2a): level by level of the tree, one table at a time per
// worker, each table filled in the order of the states expanded, so
// that no two goroutines write one table and the ids do not depend on
// the number of workers.
func (c *collapsed) internWindow(workers []*explorer, outs []parentOut, chunk int) {
	n := c.nodes()
	for _, w := range workers {
		if cd := w.cands; len(cd.ids) != len(cd.ends)*n {
			panic(fmt.Sprintf("mc: %d candidates with %d node ids", len(cd.ends), len(cd.ids)))
		}
	}
	leaves := make([]int32, c.nleaf)
	for j := range leaves {
		leaves[j] = int32(j)
	}
	levels := append([][]int32{leaves}, c.byLevel...)
	root := int32(n - 1)
	for _, level := range levels {
		var wg sync.WaitGroup
		var next atomic.Int32
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for t := int(next.Add(1)) - 1; t < len(level); t = int(next.Add(1)) - 1 {
					if level[t] != root {
						c.internNode(workers, outs, chunk, level[t])
					}
				}
			}()
		}
		wg.Wait()
	}
}

// internNode interns node x of every candidate of the window.
func (c *collapsed) internNode(workers []*explorer, outs []parentOut, chunk int, x int32) {
	n := c.nodes()
	for q := 0; q < len(outs); q += chunk {
		cd := workers[outs[q].w].cands
		lo, hi := outs[q].lo, outs[min(q+chunk, len(outs))-1].hi
		for k := lo; k < hi; k++ {
			ids := cd.ids[int(k)*n : int(k+1)*n]
			if ids[x] != noID {
				continue // pass 1 found it (has)
			}
			if int(x) < c.nleaf {
				ends := cd.parts[int(k)*c.nleaf : int(k+1)*c.nleaf]
				ids[x] = c.leaves[x].intern(part(cd.get(k), ends, int(x)))
				continue
			}
			in := c.inner[int(x)-c.nleaf]
			ids[x] = c.pairs[int(x)-c.nleaf].intern(uint64(ids[in.l])<<32 | uint64(ids[in.r]))
		}
	}
}
