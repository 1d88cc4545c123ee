package mc

import (
	"os"
	"strings"
	"testing"
)

// weakVerdicts gives, per memory model, the failure kind a file must
// show ("" for none).
type weakVerdicts struct {
	sc, tso, pso string
}

func (v weakVerdicts) of(mm Memory) string {
	switch mm {
	case MemoryTSO:
		return v.tso
	case MemoryPSO:
		return v.pso
	}
	return v.sc
}

var memories = []Memory{MemorySC, MemoryTSO, MemoryPSO}

// runMemory runs a check under a memory model with access atomicity
// (which tso and pso imply) and requires the failure kind want, with
// symmetry reduction on and off.
func runMemory(t *testing.T, path string, opts Options, mm Memory, want string) *Result {
	t.Helper()
	prog := load(t, path)
	var res *Result
	for _, noSym := range []bool{true, false} {
		o := opts
		o.Memory, o.Atomicity, o.NoSymmetry, o.MaxStates = mm, AtomicityAccess, noSym, 3_000_000
		r, err := runShared(prog, o)
		if err != nil {
			t.Fatalf("%s under %s: %v", path, mm, err)
		}
		if r.Status == Incomplete {
			t.Fatalf("%s under %s: incomplete: %s", path, mm, r.Limit)
		}
		got := ""
		if r.Status == Violation {
			got = r.Failure.Kind
		}
		if got != want {
			t.Fatalf("%s under %s (symmetry off: %v): want failure %q, got %q (%d states)\n%s",
				path, mm, noSym, want, got, r.Stats.States, traceText(r))
		}
		if got != "" {
			checkTrace(t, r)
		}
		res = r
	}
	return res
}

// TestLitmus runs the litmus tests of mc/testdata/litmus under every
// memory model. Each file asserts that an outcome does not happen: a
// violation means the outcome is allowed, no violation that it is
// forbidden (so every "" below asserts that an outcome is absent).
func TestLitmus(t *testing.T) {
	tests := []struct {
		file, inst string
		want       weakVerdicts
	}{
		// Store buffering: both reads 0 only with store buffers.
		{"sb.lip", "sb", weakVerdicts{"", "assert", "assert"}},
		{"sb-fence.lip", "sb", weakVerdicts{"", "", ""}},
		// Message passing: the writes reorder only on PSO.
		{"mp.lip", "mp", weakVerdicts{"", "", "assert"}},
		{"mp-fence.lip", "mp", weakVerdicts{"", "", ""}},
		// Load buffering: no model here buffers loads.
		{"lb.lip", "lb", weakVerdicts{"", "", ""}},
		// 2+2W: writes to different locations reorder only on PSO.
		{"2+2w.lip", "w22", weakVerdicts{"", "", "assert"}},
		// IRIW: all three models are multi-copy atomic.
		{"iriw.lip", "iriw", weakVerdicts{"", "", ""}},
		// A thread reads its own buffered writes.
		{"own.lip", "own", weakVerdicts{"", "", ""}},
	}
	for _, tc := range tests {
		for _, mm := range memories {
			t.Run(tc.file+"/"+mm.String(), func(t *testing.T) {
				runMemory(t, "testdata/litmus/"+tc.file, Options{Instance: tc.inst}, mm, tc.want.of(mm))
			})
		}
	}
}

// TestWeakChaseLev checks the Chase-Lev deque for linearizability under
// every memory model: without fences it breaks on TSO, with a fence in
// take it passes on TSO and breaks on PSO, with a second fence in put it
// passes everywhere.
func TestWeakChaseLev(t *testing.T) {
	if testing.Short() {
		t.Skip("Chase-Lev under weak memory takes a while")
	}
	tests := []struct {
		file string
		want weakVerdicts
	}{
		{"chaselev-nofence.lip", weakVerdicts{"", "linearizability", "linearizability"}},
		{"chaselev-fence.lip", weakVerdicts{"", "", "linearizability"}},
		{"chaselev-fence2.lip", weakVerdicts{"", "", ""}},
	}
	for _, tc := range tests {
		for _, mm := range memories {
			t.Run(tc.file+"/"+mm.String(), func(t *testing.T) {
				runMemory(t, "testdata/weak/"+tc.file, Options{Instance: "small", Mode: ModeLinearizability}, mm, tc.want.of(mm))
			})
		}
	}
}

// TestWeakChaseLevTrace checks that the TSO violation of Chase-Lev without
// a fence is the expected one: take's write of T is still buffered when
// a stealer reads T, and take and a stealer return the same task.
func TestWeakChaseLevTrace(t *testing.T) {
	res := runMemory(t, "testdata/weak/chaselev-nofence.lip", Options{Instance: "small", Mode: ModeLinearizability}, MemoryTSO, "linearizability")
	buffered := false
	for _, st := range res.Trace {
		for _, l := range st.Lines {
			buffered = buffered || strings.Contains(l, "T := t; (buffers T = ")
		}
		if buffered && strings.Contains(st.Thread, "thief") && st.Buffer != "" {
			t.Errorf("a stealer's buffer is shown nonempty: %+v", st)
		}
	}
	if !buffered {
		t.Fatalf("the trace does not show take buffering its write of T:\n%s", traceText(res))
	}
	takes, steals := map[string]bool{}, map[string]bool{}
	for _, ev := range res.History {
		switch {
		case !ev.Call && ev.Method == "take":
			takes[ev.Values] = true
		case !ev.Call && ev.Method == "steal":
			steals[ev.Values] = true
		}
	}
	same := false
	for v := range takes {
		same = same || steals[v] && v != "task = -1"
	}
	if !same {
		t.Errorf("take and steal do not return the same task in the history %+v", res.History)
	}
	// The owner's buffer appears in the trace while T is pending.
	shown := false
	for _, st := range res.Trace {
		shown = shown || st.Thread == "owner(0)" && strings.Contains(st.Buffer, "T = ")
	}
	if !shown {
		t.Errorf("no step shows the owner's buffered write of T:\n%s", traceText(res))
	}
}

// TestWeakTraceShowsFlushes checks the trace of store buffering on TSO:
// the writes go to the buffers, the reads see memory, and the flushes are
// steps of their own.
func TestWeakTraceShowsFlushes(t *testing.T) {
	res := runMemory(t, "testdata/litmus/sb.lip", Options{Instance: "sb"}, MemoryTSO, "assert")
	var text []string
	for _, st := range res.Trace {
		text = append(text, st.Event+" "+strings.Join(st.Lines, "; ")+" buffer: "+st.Buffer)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"x := 1; (buffers x = 1)", "y := 1; (buffers y = 1)",
		"a := y; (reads y = 0)", "b := x; (reads x = 0)", "flushes x = 1 from its store buffer to memory", "buffer: x = 1"} {
		if !strings.Contains(all, want) {
			t.Errorf("the trace lacks %q:\n%s", want, all)
		}
	}
}

// TestWeakReadsOwnBuffer checks that a read served by the thread's own
// buffer says so in the trace.
func TestWeakReadsOwnBuffer(t *testing.T) {
	const src = `
var x: int = 0;
layer 0 {
  proc p(linear tid: int) {
    var a: int;
    x := 2;
    a := x;
    assert a == 0;
  }
}
instance one { thread w(tid = 0) calls p max 1; }`
	prog := loadSrc(t, "own.lip", src)
	res, err := Run(prog, Options{Instance: "one", Memory: MemoryTSO})
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, res, "assert", "")
	if text := traceText(res); !strings.Contains(text, "a := x; (reads x = 2 from its store buffer)") {
		t.Errorf("the trace does not say the read came from the buffer:\n%s", text)
	}
	// The failing step shows memory, where x is still 0, and the buffer.
	last := res.Trace[len(res.Trace)-1]
	if strings.Join(last.Changes, ", ") != "a: 0 -> 2" || last.Buffer != "x = 2" {
		t.Errorf("the failing step shows changes %q and buffer %q, want a: 0 -> 2 and x = 2", last.Changes, last.Buffer)
	}
}

// TestWeakOptions checks the options a weak memory model excludes.
func TestWeakOptions(t *testing.T) {
	prog := load(t, "testdata/weak/chaselev-nofence.lip")
	if _, err := Run(prog, Options{Instance: "small", Layer: 1, Memory: MemoryTSO}); err == nil || !strings.Contains(err.Error(), "layer 0 only") {
		t.Errorf("a weak memory model at layer 1: got %v", err)
	}
	if _, err := Run(prog, Options{Instance: "small", Memory: Memory(7)}); err == nil {
		t.Error("an unknown memory model was accepted")
	}
	for _, name := range []string{"sc", "tso", "pso"} {
		mm, err := ParseMemory(name)
		if err != nil || mm.String() != name {
			t.Errorf("ParseMemory(%q) = %v, %v", name, mm, err)
		}
	}
	whole := load(t, "testdata/weak/whole-map.lip")
	if res, err := Run(whole, Options{Instance: "one"}); err != nil || res.Status != OK {
		t.Errorf("a write of a whole map under SC: %v", err)
	}
	_, err := Run(whole, Options{Instance: "one", Memory: MemoryTSO})
	if p, ok := ErrorPos(err); !ok || p.Line != 7 || p.Col != 5 {
		t.Errorf("a write of a whole map under TSO: %v at %v", err, p)
	}
	if _, err := ParseMemory("arm"); err == nil {
		t.Error("ParseMemory accepted arm")
	}
}

// TestWeakNotes checks that a weak search says what it did: the memory
// model, access atomicity, and that partial-order reduction is off.
func TestWeakNotes(t *testing.T) {
	res := runMemory(t, "testdata/litmus/mp.lip", Options{Instance: "mp"}, MemoryPSO, "assert")
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{"memory model PSO: one FIFO store buffer per thread and location", "partial-order reduction: off (weak memory"} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes lack %q:\n%s", want, notes)
		}
	}
	if !strings.HasSuffix(res.Title, ", access atomicity, memory model PSO") {
		t.Errorf("title %q", res.Title)
	}
}

// TestWeakSymmetry checks symmetry reduction on threads whose buffers
// hold writes: the buffers are part of the thread records that a
// representative sorts, so the verdict is the same and fewer states are
// stored.
func TestWeakSymmetry(t *testing.T) {
	const src = `
var x: int = 0;
var y: int = 0;
layer 0 {
  proc set(linear tid: int) {
    x := 1;
    y := 1;
  }
  proc get(linear tid: int) {
    var a: int;
    var b: int;
    b := y;
    a := x;
    assert b == 1 ==> a == 1;
  }
}
instance three {
  thread w(tid = 1..3) calls set max 1;
  thread r(tid = 0) calls get max 1;
}`
	prog := loadSrc(t, "sym.lip", src)
	for _, mm := range []Memory{MemoryTSO, MemoryPSO} {
		var states [2]int64
		for i, noSym := range []bool{false, true} {
			res, err := Run(prog, Options{Instance: "three", Memory: mm, NoSymmetry: noSym})
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if mm == MemoryPSO {
				want = "assert" // y may reach memory before x
			}
			checkVerdict(t, res, want, "")
			states[i] = res.Stats.States
			if want == "" && !noSym && !strings.Contains(strings.Join(res.Notes, "\n"), "symmetry reduction: on for role w") {
				t.Errorf("%s: symmetry reduction is not on: %v", mm, res.Notes)
			}
		}
		if mm == MemoryTSO && states[0] >= states[1] {
			t.Errorf("%s: symmetry stored %d states, without it %d", mm, states[0], states[1])
		}
	}
}

// TestWeakTreiber checks Treiber's stack under every memory model. Its
// compare-and-swaps and the allocation are [ ] groups that read and
// write, so they are locked instructions: push's writes of the node's
// value and successor reach memory before the CAS that publishes the
// node, and pop reads no stale node. It stays linearizable on TSO and
// PSO.
func TestWeakTreiber(t *testing.T) {
	if testing.Short() {
		t.Skip("Treiber's stack under weak memory takes a while")
	}
	for _, inst := range []string{"small", "pushers"} {
		for _, mm := range memories {
			t.Run(inst+"/"+mm.String(), func(t *testing.T) {
				runMemory(t, "testdata/treiber.lip", Options{Instance: inst, Mode: ModeLinearizability}, mm, "")
			})
		}
	}
}

// TestWeakMSQueue runs the Michael-Scott queue (a benchmark of seed 004)
// under every memory model: its compare-and-swaps are locked
// instructions, which drain the plain stores of a new node's value and
// next before the node is linked, so it stays linearizable on TSO and
// PSO. The same queue checked against a LIFO specification fails under
// every model, so the check can fail.
func TestWeakMSQueue(t *testing.T) {
	if testing.Short() {
		t.Skip("the Michael-Scott queue under weak memory takes a while")
	}
	opts := Options{Instance: "small", Mode: ModeLinearizability}
	for _, mm := range memories {
		t.Run(mm.String(), func(t *testing.T) {
			runMemory(t, "testdata/weak/msqueue.lip", opts, mm, "")
		})
	}
	src, err := os.ReadFile("testdata/weak/msqueue.lip")
	if err != nil {
		t.Fatal(err)
	}
	lifo := strings.Replace(string(src), "      v := qv[qh];\n      qh := qh + 1;", "      qt := qt - 1;\n      v := qv[qt];", 1)
	if lifo == string(src) {
		t.Fatal("the specification of deq was not found")
	}
	prog := loadSrc(t, "msqueue-lifo.lip", lifo)
	for _, mm := range memories {
		o := opts
		o.Memory, o.Atomicity = mm, AtomicityAccess
		r, err := Run(prog, o)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != Violation || r.Failure.Kind != "linearizability" {
			t.Errorf("against a LIFO specification under %s: %v, want a linearizability violation", mm, r.Status)
		}
	}
}

// TestWeakChaseLevProof runs layer 0 of the corpus proof of Chase-Lev,
// written for sequential consistency, under every memory model: its
// writes of T are groups with a ghost update (buffered stores), and its
// annotations are not checked, so TSO and PSO show the real bug, not a
// failure of the proof's ghost bookkeeping. On PSO a steal returns a
// stale item. On TSO the first violation is a call of steal in a state
// that only weak memory reaches (H > T in memory, with every buffer
// empty: two steals read T before take's decrement landed), where the
// implementation's requires is false: a contract violation.
func TestWeakChaseLevProof(t *testing.T) {
	if testing.Short() {
		t.Skip("Chase-Lev under weak memory takes a while")
	}
	prog := load(t, "../proofs/chaselev/chaselev.lip")
	for _, mm := range memories {
		for _, noSym := range []bool{false, true} {
			res, err := runShared(prog, Options{Instance: "small", Mode: ModeLinearizability, Memory: mm,
				Atomicity: AtomicityAccess, NoSymmetry: noSym, MaxStates: 3_000_000})
			if err != nil {
				t.Fatal(err)
			}
			kind := ""
			if res.Status == Violation {
				kind = res.Failure.Kind
				checkTrace(t, res)
			}
			switch {
			case mm == MemorySC && res.Status != OK:
				t.Errorf("SC (symmetry off: %v): want no violation, got %s %s", noSym, kind, res.Limit)
			case mm == MemoryPSO && !(kind == "linearizability" && strings.Contains(res.Failure.Msg, "returns from steal with task = 0")):
				t.Errorf("PSO (symmetry off: %v): want a steal of the stale item 0, got %q", noSym, kind)
			case mm == MemoryTSO && !(kind == "contract" && strings.Contains(res.Failure.Msg, "calls steal")):
				t.Errorf("TSO (symmetry off: %v): want a contract violation at a call of steal, got %q", noSym, kind)
			}
		}
	}
}

// TestWeakBufferBound checks the bound on store buffers: a loop that
// writes without a fence would fill a buffer forever; the search ends,
// incomplete, saying that longer buffers were not explored.
func TestWeakBufferBound(t *testing.T) {
	const src = `
var x: int = 0;
layer 0 {
  proc spin(linear tid: int) {
    while (*) {
      x := 1;
      yield;
    }
  }
}
instance one { thread w(tid = 0) calls spin max 1; ints 0..1; }`
	prog := loadSrc(t, "spin.lip", src)
	for _, mm := range []Memory{MemoryTSO, MemoryPSO} {
		res, err := Run(prog, Options{Instance: "one", Memory: mm, MaxStates: 100_000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Incomplete || !strings.Contains(res.Limit, "a store buffer reached 12 writes") {
			t.Errorf("%s: status %v (%s), want incomplete because of the buffer bound", mm, res.Status, res.Limit)
		}
	}
	res, err := Run(prog, Options{Instance: "one", Memory: MemoryTSO, MaxStates: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.States > 200 {
		t.Errorf("%d states for one thread with a buffer of at most 12 writes", res.Stats.States)
	}
}
