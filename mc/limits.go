package mc

import (
	"context"
	"fmt"
	"runtime/metrics"
)

// The limits of a search: the caller's context (a signal), the time
// limit and the memory limit stop it cleanly, with an incomplete result
// that still has its statistics. The context is checked before every
// state, since a non-blocking receive costs next to nothing and a single
// state of a refinement check can take a tenth of a second to expand;
// the clock and the memory every limitEvery states, often enough that
// they stop a search soon after they are exceeded, rarely enough that
// reading them costs nothing measurable.
const limitEvery = 256

// goMapEntry is a rough count of the bytes a Go map spends per entry
// beyond its key's bytes: the key's string header, the value, the
// table's control bytes and its unused slots. It makes the estimate of
// the memo tables proportional to their size; it need not be exact,
// since the Go heap's live bytes back the estimate up.
const goMapEntry = 48

// heapLiveMetric is the Go runtime's count of the heap bytes the last
// garbage collection found live: everything the search holds, including
// what memory() does not count.
const heapLiveMetric = "/gc/heap/live:bytes"

// limits tracks the stopping conditions of one search.
type limits struct {
	done   <-chan struct{} // the caller's context's, or nil
	ctx    context.Context
	sample []metrics.Sample
}

func newLimits(opts Options) *limits {
	l := &limits{ctx: opts.Context, sample: []metrics.Sample{{Name: heapLiveMetric}}}
	if l.ctx != nil {
		l.done = l.ctx.Done()
	}
	return l
}

// stopped returns why the caller stopped the search (the context's
// cause, such as "interrupted (SIGINT)"), or "".
func (l *limits) stopped() string {
	select {
	case <-l.done:
		return context.Cause(l.ctx).Error()
	default:
		return ""
	}
}

// heapLive returns the Go heap's live bytes at the last collection (0
// if the runtime does not say).
func (l *limits) heapLive() int64 {
	metrics.Read(l.sample)
	if l.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(l.sample[0].Value.Uint64())
}

// limit returns why the time or memory limit stops the search now, or
// "".
func (e *explorer) limit() string {
	if e.opts.Timeout > 0 && e.now().Sub(e.start) > e.opts.Timeout {
		return fmt.Sprintf("the time limit (%s) was reached", e.opts.Timeout)
	}
	if most := e.opts.MaxMemory; most > 0 && (e.memory() > most || e.heapLive() > most) {
		return fmt.Sprintf("the memory limit (%s) was reached", formatBytes(most))
	}
	return ""
}

// heapLive is the Go heap's live bytes (Options.heapLive in tests).
func (e *explorer) heapLive() int64 {
	if e.opts.heapLive != nil {
		return e.opts.heapLive()
	}
	return e.lim.heapLive()
}

// memory estimates the bytes the search holds: the visited set, the
// parent of every state, the map table and, in a refinement check, the
// specification's states, sets and memo tables. It depends on the
// states found only, never on timing, so a memory limit on it stops the
// search at the same state on every run.
func (e *explorer) memory() int64 {
	n := e.vis.memory() + e.parent.bytes(4) + e.m.maps.memory()
	if e.spec != nil {
		n += e.spec.memory()
	}
	return n
}

// memory estimates the bytes the specification side holds.
func (sp *specSide) memory() int64 {
	sp.tabMu.Lock()
	n := sp.states.memory() + sp.sets.memory()
	sp.tabMu.Unlock()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	n += sp.memoBytes
	if sp.quasi != nil {
		n += sp.quasi.qstates.memory() + int64(len(sp.quasi.live))*goMapEntry
	}
	return n
}

// memory estimates the bytes the map table holds.
func (t *mapTable) memory() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bytes
}

// formatBytes prints a size in the largest unit that divides it, or in
// MiB or GiB with one decimal.
func formatBytes(n int64) string {
	units := []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"GB", 1e9}, {"MiB", 1 << 20}, {"MB", 1e6}, {"KiB", 1 << 10}, {"kB", 1e3}}
	for _, u := range units {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}
