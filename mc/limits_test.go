package mc

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// foreverSrc is a search that never ends: a counter incremented forever.
const foreverSrc = `
var g: int = 0;
layer 0 { atomic action p(linear tid: int) { g := g + 1; } }
instance forever { thread t(tid = 1) calls p; }`

// TestContextStopsSearch: cancelling the context (what a signal does)
// stops the search at its next check, incomplete, with the cause as the
// reason and the statistics of the part explored. The context is
// cancelled from the first progress report, a known point of the search.
func TestContextStopsSearch(t *testing.T) {
	prog := loadSrc(t, "forever.lip", foreverSrc)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var atCancel Stats
	opts := Options{Instance: "forever", Context: ctx, ProgressEvery: time.Second, clock: fakeClock(),
		Progress: func(s Stats) {
			if atCancel.States == 0 {
				atCancel = s
				cancel(errors.New("interrupted (SIGINT)"))
			}
		}}
	res, err := Run(prog, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Incomplete || res.Limit != "interrupted (SIGINT)" {
		t.Fatalf("status %d, limit %q", res.Status, res.Limit)
	}
	// The search stops before the state after the report: it expands
	// one more state, which has one transition.
	if res.Stats.States < atCancel.States || res.Stats.Transitions != atCancel.Transitions+1 {
		t.Errorf("stopped with %+v; cancelled at %+v", res.Stats, atCancel)
	}
}

// TestCancelledBeforeSearch: a context cancelled before the search
// starts stops it before any state is expanded.
func TestCancelledBeforeSearch(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("terminated (SIGTERM)"))
	res, err := Run(loadSrc(t, "forever.lip", foreverSrc), Options{Instance: "forever", Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Incomplete || res.Limit != "terminated (SIGTERM)" || res.Stats.Transitions != 0 {
		t.Errorf("status %d, limit %q, %+v", res.Status, res.Limit, res.Stats)
	}
}

// TestMemoryLimit: the search stops cleanly when its estimate of the
// memory it holds exceeds the limit, at the same state on every run (the
// estimate depends on the states found only; the heap measure is
// replaced by one that never objects).
func TestMemoryLimit(t *testing.T) {
	prog := loadSrc(t, "forever.lip", foreverSrc)
	const limit = 20 << 20
	opts := Options{Instance: "forever", MaxMemory: limit, heapLive: func() int64 { return 0 }}
	var states []int64
	for range 2 {
		res, err := Run(prog, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Incomplete || res.Limit != "the memory limit (20 MiB) was reached" {
			t.Fatalf("status %d, limit %q", res.Status, res.Limit)
		}
		if res.Stats.Memory <= limit || res.Stats.States < 2 {
			t.Errorf("stopped with %+v", res.Stats)
		}
		states = append(states, res.Stats.States)
	}
	if states[0] != states[1] {
		t.Errorf("stopped after %d and after %d states", states[0], states[1])
	}
}

// TestMemoryLimitHeap: the Go heap's live bytes back the estimate up
// (they count what it leaves out), so a heap beyond the limit stops the
// search too.
func TestMemoryLimitHeap(t *testing.T) {
	prog := loadSrc(t, "forever.lip", foreverSrc)
	opts := Options{Instance: "forever", MaxMemory: 1 << 30, heapLive: func() int64 { return 2 << 30 }}
	res, err := Run(prog, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Incomplete || res.Limit != "the memory limit (1 GiB) was reached" || res.Stats.Transitions != 0 {
		t.Errorf("status %d, limit %q, %+v", res.Status, res.Limit, res.Stats)
	}
}

// TestMemoryLimitNotReached: a search well within the limit, with the
// real heap measure, is complete.
func TestMemoryLimitNotReached(t *testing.T) {
	res, err := Run(load(t, "testdata/treiber.lip"), Options{Instance: "small", MaxMemory: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != OK {
		t.Errorf("status %d, limit %q", res.Status, res.Limit)
	}
}

// TestMemoryEstimateCountsSpecification: the estimate of a refinement
// check counts the specification's states and sets, not only the
// implementation's visited set (each holds at least one arena chunk).
func TestMemoryEstimateCountsSpecification(t *testing.T) {
	res, err := Run(load(t, "testdata/counter-cas.lip"), Options{Instance: "two", Mode: ModeLinearizability})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != OK || res.Stats.Memory < 3*firstChunk {
		t.Errorf("status %d, memory %d, want at least three arena chunks", res.Status, res.Stats.Memory)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{
		2 << 30: "2 GiB", 3e9: "3 GB", 20 << 20: "20 MiB", 5e6: "5 MB", 1 << 10: "1 KiB", 1000: "1 kB",
		1<<30 + 1: "1.0 GiB", 3<<20 + 1: "3.0 MiB", 1023: "1023 bytes",
	} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestPhysicalMemoryParsing(t *testing.T) {
	meminfo := "MemTotal:       24684096 kB\nMemFree:         1000 kB\n"
	if got := parseMemTotal([]byte(meminfo)); got != 24684096<<10 {
		t.Errorf("MemTotal: %d", got)
	}
	for _, bad := range []string{"", "MemFree: 10 kB\n", "MemTotal: x kB\n", "MemTotal: 10 MB\n"} {
		if got := parseMemTotal([]byte(bad)); got != 0 {
			t.Errorf("parseMemTotal(%q) = %d, want 0", bad, got)
		}
	}
	for text, want := range map[string]int64{"max\n": 0, "1073741824\n": 1 << 30, "-1": 0, "": 0} {
		if got := parseCgroupLimit([]byte(text)); got != want {
			t.Errorf("parseCgroupLimit(%q) = %d, want %d", text, got, want)
		}
	}
	if n := PhysicalMemory(); n < 0 || runtime.GOOS == "linux" && n == 0 {
		t.Errorf("PhysicalMemory() = %d", n)
	}
}

// TestWideDomain: a domain wider than half the int64 range (whose size
// overflows int64) is too large to enumerate, an error, not a crash.
func TestWideDomain(t *testing.T) {
	for _, ints := range []string{"-4611686018427387904..4611686018427387904", "-9223372036854775807..9223372036854775807", "0..100000000"} {
		prog := loadSrc(t, "wide.lip", `
var g: int;
layer 0 { atomic action p(linear tid: int) { g := g + 1; } }
instance wide { thread t(tid = 1) calls p max 1; ints `+ints+`; }`)
		_, err := Run(prog, Options{Instance: "wide"})
		if err == nil || !strings.Contains(err.Error(), "the integer domain "+ints+" is too large to enumerate") {
			t.Errorf("ints %s: error %v", ints, err)
		}
	}
}
