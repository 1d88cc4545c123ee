package mc

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/layers"
)

// runVerdict runs a check in every combination of the reductions and
// requires the verdict each time; it returns the run with both.
func runVerdict(t *testing.T, prog *layers.Program, opts Options, kind, msg string) *Result {
	t.Helper()
	var res *Result
	for _, reduce := range []bool{false, true} {
		o := opts
		o.NoPOR, o.NoSymmetry, o.NoDeadVars, o.MaxStates = !reduce, !reduce, !reduce, 2_000_000
		r, err := runShared(prog, o)
		if err != nil {
			t.Fatal(err)
		}
		checkVerdict(t, r, kind, msg)
		res = r
	}
	return res
}

// TestAccessAtomicityCounter checks that access atomicity finds the lost
// update of an increment written as one statement, and that a [ ] group
// stays atomic.
func TestAccessAtomicityCounter(t *testing.T) {
	split, locked := load(t, "testdata/incr-split.lip"), load(t, "testdata/incr-locked.lip")
	for _, mode := range []Mode{ModeLinearizability, ModeRefines} {
		opts := Options{Instance: "two", Mode: mode, SpecLayer: 1}
		runVerdict(t, split, opts, "", "")
		runVerdict(t, locked, opts, "", "")
		opts.Atomicity = AtomicityAccess
		res := runVerdict(t, split, opts, "linearizability", "reader(3) returns from get with v = 1")
		text := traceText(res)
		for _, want := range []string{"x := x + 1; (reads x = 0)", "x := x + 1; (writes x = 1)"} {
			if !strings.Contains(text, want) {
				t.Errorf("the trace lacks %q:\n%s", want, text)
			}
		}
		for _, st := range res.Trace {
			for _, line := range st.Lines {
				if strings.Contains(line, "x := x + 1;") && !strings.Contains(line, "x = ") {
					t.Errorf("step %s shows a statement it did not start: %s", st.Thread, line)
				}
			}
		}
		runVerdict(t, locked, opts, "", "")
	}
	// The safety of the split increment has nothing to check: no
	// annotation, no assert.
	runVerdict(t, split, Options{Instance: "two", Atomicity: AtomicityAccess}, "", "")
}

// TestContract checks that in a refinement check the specification's
// requires is the client contract: an implementation that requires more
// is a failure, not a smaller set of calls.
func TestContract(t *testing.T) {
	const spec = `
layer 1 { atomic action incr(linear tid: int) { x := x + 1; } }
instance two { thread worker(tid = 1..2) calls incr max 1; ints 0..3; }`
	tests := []struct {
		name, method, kind string
		vacuous            bool // the safety check makes no call
	}{
		{"a procedure that requires false",
			"proc incr(linear tid: int) requires false { [x := x + 1;] }", "contract", true},
		{"an action that requires false",
			"atomic action incr(linear tid: int) requires false { x := x + 1; }", "contract", true},
		{"an action that requires more than the specification",
			"atomic action incr(linear tid: int) requires x == 0 { x := x + 1; }", "contract", false},
		{"an action that requires what the specification allows",
			"atomic action incr(linear tid: int) requires x >= 0 { x := x + 1; }", "", false},
		{"a ghost argument the client chooses",
			"atomic action incr(linear tid: int, ghost h: int) requires h == x { x := x + 1; }", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "var x: int = 0;\nlayer 0 {\n  " + tc.method + "\n}" + spec
			prog := loadSrc(t, tc.name+".lip", src)
			for _, mode := range []Mode{ModeLinearizability, ModeRefines} {
				for _, at := range []Atomicity{AtomicityYield, AtomicityAccess} {
					opts := Options{Instance: "two", Mode: mode, SpecLayer: 1, Atomicity: at}
					res := runVerdict(t, prog, opts, tc.kind, "calls incr(tid = ")
					if tc.kind != "" && !strings.Contains(res.Failure.Msg, "layer 1's requires allows here, but the requires of incr at layer 0 does not hold") {
						t.Errorf("message: %s", res.Failure.Msg)
					}
				}
			}
			// In a safety check the layer's own requires is the contract:
			// requires false makes no call, and the search checks nothing.
			if !tc.vacuous {
				runVerdict(t, prog, Options{Instance: "two"}, "", "")
				return
			}
			res, err := Run(prog, Options{Instance: "two"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Incomplete || !res.Vacuous {
				t.Errorf("status %d, vacuous %v: want a search that checked nothing", res.Status, res.Vacuous)
			}
		})
	}
}

// TestContractInsideFragment checks that under access atomicity the
// implementation's requires is no obligation while another thread is
// inside a fragment, where an annotation may be false (found by the
// differential soundness test, program 1321 of seed 3,000,000): p holds
// a lock while x is 1 for a moment; a client calls p, which the
// specification allows since x < 1 in every linearization; in the
// fragment-atomic run the call's requires holds. The requires stays an
// obligation when no other thread is inside a fragment: an
// implementation that requires x < 0 fails in both atomicities.
func TestContractInsideFragment(t *testing.T) {
	const src = `
var x: int = 0;
var lk: bool = false layers 0..0;
ghost var holder: int = -1 layers 0..0;
invariant lk <==> holder != -1 layers 0..0;
layer 0 {
  right action acquire(linear tid: int) requires tid != -1 { assume !lk; lk, holder := true, tid; }
  left action release(linear tid: int) requires tid != -1 && lk && holder == tid { lk, holder := false, -1; }
  proc p(linear tid: int)
    requires tid != -1 && holder != tid && x < REQ
    ensures holder != tid
  {
    var t: int;
    call acquire(tid);
    both [assert lk && holder == tid; t := x;]
    both [assert lk && holder == tid; x := t + 1;]
    both [assert lk && holder == tid; x := -1;]
    call release(tid);
  }
}
layer 1 { atomic action p(linear tid: int) requires tid != -1 && x < 1 { x := -1; } }
instance small { thread worker(tid = 0..2) calls p max 1; ints -1..2; }`
	for _, tc := range []struct{ req, kind string }{{"1", ""}, {"0", "contract"}} {
		prog := loadSrc(t, "inside-fragment.lip", strings.Replace(src, "REQ", tc.req, 1))
		for _, mode := range []Mode{ModeLinearizability, ModeRefines} {
			for _, at := range []Atomicity{AtomicityYield, AtomicityAccess} {
				opts := Options{Instance: "small", Mode: mode, SpecLayer: 1, Atomicity: at}
				runVerdict(t, prog, opts, tc.kind, "")
			}
		}
	}
}

// TestContractChaseLev checks the example of the issue: a take that
// requires false at layer 0 is never called by a client of layer 0, but
// layer 3's take allows calls, so linearizability must fail.
func TestContractChaseLev(t *testing.T) {
	src, err := os.ReadFile("../proofs/chaselev/chaselev.lip")
	if err != nil {
		t.Fatal(err)
	}
	const head = "proc take(linear tid: Tid) returns (task: int)\n    requires ptInv(tid)"
	i := strings.Index(string(src), head)
	if i < 0 {
		t.Fatal("chaselev.lip has changed: take's requires not found")
	}
	i += len(head) - len("ptInv(tid)")
	broken := string(src[:i]) + "false" + string(src[i+len("ptInv(tid)"):])
	prog := loadSrc(t, "chaselev-take-false.lip", broken)
	res, err := Run(prog, Options{Instance: "small", Mode: ModeLinearizability})
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, res, "contract", "owner(0) calls take(tid = 0), which layer 3's requires allows here")
	if res, _ := Run(prog, Options{Instance: "small"}); res.Status != OK {
		t.Errorf("the safety of layer 0 alone: %v %+v", res.Status, res.Failure)
	}
}

// TestAccessSplitting checks how statements are cut into accesses.
func TestAccessSplitting(t *testing.T) {
	prog := loadSrc(t, "split.lip", `
var x: int = 0;
var y: int = 0;
var m: [int]int;
ghost var gh: int = 0;
const c: int;
function twice(): int { x + x }
layer 0 {
  action read() returns (v: int) { v := x + y; }
  proc p(linear tid: int, i: int) {
    var l, k: int;
    l := x;
    x := l + 1;
    x := x + 1;
    [x := x + 1;]
    x, y := y, x;
    m[i] := m[l] + 1;
    m[i] := l;
    assume x <= y;
    assert x == y;
    havoc x, y, l;
    gh := x + gh;
    l, k := x + c, l;
    call k := read();
    l := twice();
  }
}
instance one { thread t(tid = 1) calls p(i in 0..1) max 1; }`)
	m, err := newModel(prog, prog.Info.Instances["one"], 0, modelOptions{access: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int{ // accesses per line
		12: 1, 13: 1, 14: 2, 15: 1, 16: 4, 17: 2, 18: 1, 19: 2, 20: 2,
		21: 2, 22: 1, 23: 1, 24: 1, 25: 2,
	}
	got := map[int]int{}
	for _, cp := range m.procs {
		for id, sp := range cp.splits {
			line := cp.nodes[id].Pos().Line
			for _, part := range sp.parts {
				if part.access != nil {
					got[line]++
				}
			}
		}
	}
	for line, n := range want {
		if got[line] != n {
			t.Errorf("line %d: %d accesses, want %d", line, got[line], n)
		}
	}
}

// TestAccessSemantics checks that cutting statements keeps their meaning
// for one thread (parallel assignment, map cells, ghost code), and that
// under access atomicity annotations and interference are not checked
// while asserts are.
func TestAccessSemantics(t *testing.T) {
	tests := []struct {
		name, src, kind, msg string
	}{
		{"one thread: the statements mean what they say", `
var x: int = 1;
var y: int = 2;
var m: [int]int;
var n: [int]int;
ghost var gh: int = 0;
layer 0 {
  proc p(linear tid: int) {
    var l: int;
    l := 0;
    x, y := y, x;
    assert x == 2 && y == 1;
    l, x := x, l;
    assert l == 2 && x == 0;
    m[0], n[1] := 5, m[0] + 1;
    m[l] := m[0] + n[1];
    assert m[0] == 5 && n[1] == 1 && m[2] == 6;
    gh, x := x + 1, l;
    assert gh == 1 && x == 2;
  }
}
instance one { thread t(tid = 1) calls p max 1; }`, "", ""},
		{"an assert of two reads fails between them", `
var x: int = 0;
var y: int = 0;
layer 0 {
  proc check(linear tid: int) { assert x == y; }
  proc step(linear tid: int) { [x := x + 1; y := y + 1;] }
}
instance two { thread a(tid = 1) calls check max 1; thread b(tid = 2) calls step max 1; ints 0..2; }`,
			"assert", "assertion"},
		{"annotations and interference are not checked", `
var g: int = 0;
layer 0 {
  proc a(linear tid: int) ensures g == 0 { yield g == 0; }
  proc b(linear tid: int) { g := 1; }
}
instance two { thread x(tid = 1) calls a max 1; thread y(tid = 2) calls b max 1; }`, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog := loadSrc(t, tc.name+".lip", tc.src)
			var inst string
			for n := range prog.Info.Instances {
				inst = n
			}
			runVerdict(t, prog, Options{Instance: inst, Atomicity: AtomicityAccess}, tc.kind, tc.msg)
		})
	}
}

// TestAccessAtomicityErrors checks that only layer 0 runs with access
// atomicity.
func TestAccessAtomicityErrors(t *testing.T) {
	prog := load(t, "testdata/counter-lin.lip")
	for _, tc := range []struct {
		opts Options
		msg  string
	}{
		{Options{Instance: "two", Layer: 1, Atomicity: AtomicityAccess}, "access atomicity applies to layer 0 only"},
		{Options{Instance: "two", Atomicity: Atomicity(7)}, "unknown atomicity"},
	} {
		if _, err := Run(prog, tc.opts); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%+v: error %v, want %q", tc.opts, err, tc.msg)
		}
	}
	if AtomicityYield.String() != "yield" || AtomicityAccess.String() != "access" {
		t.Errorf("names: %s, %s", AtomicityYield, AtomicityAccess)
	}
}

// TestCorpusAccessAtomicity runs layer 0 of every proof under proofs/
// (not the broken variants) with access atomicity, for safety and
// linearizability: wherever the default atomicity finds no violation,
// access atomicity must find none either (every layer-0 statement of the
// corpus that is not one access is race-free).
func TestCorpusAccessAtomicity(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus runs take a while")
	}
	paths, err := filepath.Glob("../proofs/*/*.lip")
	if err != nil {
		t.Fatal(err)
	}
	progs := corpus(t)
	sort.Strings(paths)
	checked := 0
	for _, path := range paths {
		prog := progs[filepath.Clean(path)]
		if prog == nil {
			continue // no instance
		}
		for inst := range prog.Info.Instances {
			for _, mode := range []Mode{ModeSafety, ModeLinearizability} {
				if mode == ModeLinearizability && len(prog.Layers) == 1 {
					continue
				}
				opts := Options{Instance: inst, Mode: mode, MaxStates: 2_000_000}
				base, err := runShared(prog, opts)
				if err != nil || base.Status != OK {
					continue
				}
				opts.Atomicity = AtomicityAccess
				res, err := runShared(prog, opts)
				if RefusedForks(err) {
					continue
				}
				if err != nil {
					t.Fatalf("%s %s: %v", path, inst, err)
				}
				if res.Status != OK {
					t.Errorf("%s instance %s mode %d: %v with access atomicity: %+v\n%s", path, inst, mode, res.Status, res.Failure, traceText(res))
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d searches: the corpus test lost its corpus", checked)
	}
}
