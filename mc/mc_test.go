package mc

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// load parses, checks and builds a .lip file.
func load(t *testing.T, path string) *layers.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return loadSrc(t, path, string(src))
}

func loadSrc(t *testing.T, name, src string) *layers.Program {
	t.Helper()
	f, info, err := lang.ParseAndCheck(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return layers.Build(f, info)
}

// TestVerdicts checks the verdicts of the test programs: the bugs must
// be found, with the right kind of failure, and the correct programs
// must pass.
func TestVerdicts(t *testing.T) {
	const lin, safe, ref = ModeLinearizability, ModeSafety, ModeRefines
	tests := []struct {
		file     string
		instance string
		layer    int
		mode     Mode
		kind     string // the failure kind; "" for no violation
		msg      string // a fragment of the failure message
	}{
		{"testdata/counter.lip", "two", 0, safe, "annotation", "ensures of inc"},
		{"testdata/counter-lin.lip", "two", 0, safe, "", ""},
		{"testdata/counter-lin.lip", "two", 0, lin, "linearizability", "returns from inc with v = 0"},
		{"testdata/counter-lin.lip", "two", 0, ref, "linearizability", "returns from inc with v = 0"},
		{"testdata/counter-cas.lip", "two", 0, safe, "", ""},
		{"testdata/counter-cas.lip", "two", 0, lin, "", ""},
		{"testdata/counter-cas.lip", "three", 0, lin, "", ""},
		{"testdata/treiber.lip", "small", 0, safe, "", ""},
		{"testdata/treiber.lip", "small", 0, lin, "", ""},
		{"testdata/treiber.lip", "pushers", 0, lin, "", ""},
		{"testdata/treiber-lost-push.lip", "small", 0, safe, "", ""},
		{"testdata/treiber-lost-push.lip", "small", 0, lin, "linearizability", "returns from pop"},
		{"testdata/treiber-lost-push.lip", "pushers", 0, lin, "linearizability", "returns from pop"},
		{"testdata/chaselev-plain.lip", "small", 0, lin, "", ""},
		{"testdata/chaselev-take-nocas.lip", "small", 0, lin, "linearizability", "returns from"},
		{"testdata/chaselev-put-early.lip", "small", 0, lin, "linearizability", "returns from steal with task = 0"},
		{"testdata/lock-contract.lip", "two", 0, lin, "", ""},
		// The specification's action happens only where its gate holds.
		{"testdata/gate-observed.lip", "small", 0, lin, "linearizability", "up(1) returns from inc"},
		{"testdata/gate-observed.lip", "small", 0, ref, "linearizability", "up(1) returns from inc"},
		{"../proofs/contract/counter.lip", "small", 0, lin, "", ""},
		{"../proofs/chaselev/chaselev.lip", "small", 0, safe, "", ""},
		{"../proofs/chaselev/chaselev.lip", "small", 0, lin, "", ""},
		{"../proofs/chaselev/chaselev.lip", "small", 2, ref, "", ""},
		{"../proofs/chaselev/chaselev.lip", "small", 3, safe, "", ""},
		// break leaves the innermost loop, also a loop of private statements.
		{"../proofs/loops/retry-counter.lip", "two", 0, lin, "", ""},
		{"../proofs/loops/broken/break-on-failed-cas.lip", "two", 0, lin, "linearizability", "returns from incr"},
		{"../proofs/loops/broken/private-break-wrong-claim.lip", "two", 0, safe, "assert", "this assertion may fail"},
		// old(e) reads the snapshot taken where the body started.
		{"../proofs/old/monotone-counter.lip", "two", 0, safe, "", ""},
		{"../proofs/old/monotone-counter.lip", "two", 0, lin, "", ""},
		{"../proofs/old/broken/incr-exactly-one.lip", "two", 0, safe, "annotation", "ensures of incr"},
		{"../proofs/old/broken/get-yields-before-read.lip", "two", 0, safe, "annotation", "ensures of get"},
	}
	for _, tc := range tests {
		name := strings.TrimPrefix(tc.file, "testdata/") + "/" + tc.instance + "/" + [...]string{"safety", "lin", "refines"}[tc.mode]
		t.Run(name, func(t *testing.T) {
			prog := load(t, tc.file)
			opts := Options{Instance: tc.instance, Layer: tc.layer, Mode: tc.mode, SpecLayer: tc.layer + 1, MaxStates: 2_000_000}
			res, err := runShared(prog, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, res, tc.kind, tc.msg)
		})
	}
}

func checkVerdict(t *testing.T, res *Result, kind, msg string) {
	t.Helper()
	if res.Status == Incomplete {
		t.Fatalf("incomplete: %s", res.Limit)
	}
	if kind == "" {
		if res.Status != OK {
			t.Fatalf("want no violation, got %s: %s\n%s", res.Failure.Kind, res.Failure.Msg, traceText(res))
		}
		return
	}
	if res.Status != Violation {
		t.Fatalf("want a %s violation, got none (%d states)", kind, res.Stats.States)
	}
	if res.Failure.Kind != kind || !strings.Contains(res.Failure.Msg, msg) {
		t.Fatalf("want %s violation containing %q, got %s: %s", kind, msg, res.Failure.Kind, res.Failure.Msg)
	}
	checkTrace(t, res)
}

// checkTrace checks that a violation's trace was rebuilt.
func checkTrace(t *testing.T, res *Result) {
	t.Helper()
	if len(res.Trace) == 0 {
		t.Fatal("a violation without a trace")
	}
	for _, st := range res.Trace {
		if st.Thread == "?" {
			t.Fatalf("the trace could not be replayed:\n%s", traceText(res))
		}
	}
	if res.Failure.Kind == "linearizability" && len(res.History) == 0 {
		t.Fatal("a linearizability violation without a history")
	}
}

func traceText(res *Result) string {
	var b strings.Builder
	for i, st := range res.Trace {
		b.WriteString(strings.Join([]string{st.Thread, st.Event, strings.Join(st.Lines, "; "), strings.Join(st.Changes, ", ")}, " | "))
		if i < len(res.Trace)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestLostUpdateHistory checks the history of the lost update: both
// increments return 0.
func TestLostUpdateHistory(t *testing.T) {
	res, err := Run(load(t, "testdata/counter-lin.lip"), Options{Instance: "two", Mode: ModeLinearizability})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range res.History {
		kind := "return"
		if ev.Call {
			kind = "call"
		}
		got = append(got, ev.Thread+" "+kind+" "+ev.Values)
	}
	want := []string{"worker(1) call tid = 1", "worker(2) call tid = 2", "worker(1) return v = 0", "worker(2) return v = 0"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("history:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSmallPrograms runs inline programs that exercise the interpreter:
// calls of procedures, private loops, havoc, maps, invariants, errors.
func TestSmallPrograms(t *testing.T) {
	tests := []struct {
		name, src string
		kind, msg string
		states    int64 // expected number of states (0: not checked)
	}{
		{"private loop sums", `
var s: int = 0;
layer 0 {
  proc p(linear tid: int, k: int)
    ensures s == k * (k + 1) / 2
  {
    var i, acc: int;
    i, acc := 0, 0;
    while (i < k) invariant acc == i * (i + 1) / 2; { i := i + 1; acc := acc + i; }
    s := acc;
  }
}
instance one { thread t(tid = 1) calls p(k in 0..4) max 1; }`, "", "", 0},
		{"call of a procedure returns its output", `
var g: int = 0;
layer 0 {
  proc inner(linear tid: int, a: int) returns (b: int) ensures b == a + 1 { b := a + 1; g := b; }
  proc outer(linear tid: int) {
    var x: int;
    call x := inner(tid, 4);
    yield x == 5;
    assert g == 5;
  }
}
layer 1 { atomic action outer(linear tid: int) { g := 5; } }
instance one { thread t(tid = 1) calls outer max 1; }`, "", "", 0},
		{"havoc covers the domain", `
var g: int = 0;
layer 0 {
  proc p(linear tid: int) { var x: int; havoc x; g := x; assert g != 3; }
}
instance one { thread t(tid = 1) calls p max 1; ints 0..3; }`, "assert", "assertion", 0},
		{"uninitialized globals take every value", `
var g: int;
layer 0 { atomic action p(linear tid: int) { assert g < 2; } }
instance one { thread t(tid = 1) calls p max 1; ints 0..2; }`, "assert", "assertion", 0},
		{"maps start constant", `
var m: [int]int;
layer 0 { atomic action p(linear tid: int, k: int) { assert m[k] == 0; m[k] := 1; } }
instance one { thread t(tid = 1) calls p(k in 0..3) max 1; }`, "", "", 0},
		{"invariant broken by an action", `
var g: int = 0;
invariant g < 2;
layer 0 { atomic action p(linear tid: int) { g := g + 1; } }
instance one { thread t(tid = 1) calls p max 3; }`, "invariant", "invariant", 0},
		{"interference breaks a waiting annotation", `
var g: int = 0;
layer 0 {
  proc a(linear tid: int) { yield g == 0; }
  proc b(linear tid: int) { g := 1; }
}
instance two { thread x(tid = 1) calls a max 1; thread y(tid = 2) calls b max 1; }`, "interference", "invalidated by a step of y(2)", 0},
		{"gate of a called action", `
var g: int = 0;
layer 0 {
  action inc() requires g == 0 { g := g + 1; }
  proc p(linear tid: int) { call inc(); }
}
layer 1 { atomic action p(linear tid: int) { g := g + 1; } }
instance two { thread x(tid = 1..2) calls p max 1; }`, "assert", "requires of action inc", 0},
		{"division by zero in a statement fails its well-definedness assert", `
var g: int = 0;
layer 0 { atomic action p(linear tid: int, k: int) { g := 6 / k; } }
instance one { thread t(tid = 1) calls p(k in 0..1) max 1; }`, "assert", "a divisor may be 0", 0},
		{"division by zero in an annotation is an error", `
var g: int = 0;
layer 0 { proc p(linear tid: int, k: int) { yield 6 / k == 6; } }
instance one { thread t(tid = 1) calls p(k in 0..1) max 1; }`, "error", "division by zero", 0},
		{"client contract: calls only where requires holds", `
var g: int = 0;
layer 0 { atomic action p(linear tid: int) requires g == 0 { assert g == 0; g := 1; } }
instance one { thread t(tid = 1..3) calls p max 2; }`, "", "", 0},
		{"bounded calls", `
var g: int = 0;
layer 0 { atomic action p(linear tid: int) { g := g + 1; } }
instance one { thread t(tid = 1) calls p max 3; }`, "", "", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog := loadSrc(t, tc.name+".lip", tc.src)
			var inst string
			for n := range prog.Info.Instances {
				inst = n
			}
			for _, reduce := range []bool{true, false} {
				res, err := Run(prog, Options{Instance: inst, NoPOR: !reduce, NoSymmetry: !reduce, NoDeadVars: !reduce, MaxStates: 100000})
				if err != nil {
					t.Fatal(err)
				}
				checkVerdict(t, res, tc.kind, tc.msg)
				if tc.states > 0 && !reduce && res.Stats.States != tc.states {
					t.Errorf("%d states, want %d", res.Stats.States, tc.states)
				}
			}
		})
	}
}

// TestLimits checks that a search stopped by a limit is incomplete.
func TestLimits(t *testing.T) {
	prog := loadSrc(t, "unbounded.lip", `
var g: int = 0;
layer 0 { atomic action p(linear tid: int) { g := g + 1; } }
instance forever { thread t(tid = 1) calls p; }`)
	res, err := Run(prog, Options{Instance: "forever", MaxStates: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Incomplete || !strings.Contains(res.Limit, "state limit") {
		t.Fatalf("status %d, limit %q", res.Status, res.Limit)
	}
	res, err = Run(prog, Options{Instance: "forever", Timeout: time.Minute, clock: fakeClock()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Incomplete || !strings.Contains(res.Limit, "time limit") {
		t.Fatalf("status %d, limit %q", res.Status, res.Limit)
	}
}

// fakeClock returns a clock that advances by a second whenever it is
// read, so that tests of time limits do not depend on the wall clock.
func fakeClock() func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

// TestProgress checks that long searches report progress.
func TestProgress(t *testing.T) {
	var calls int
	var last Stats
	opts := Options{Instance: "small", NoPOR: true, ProgressEvery: time.Second, clock: fakeClock(),
		Progress: func(s Stats) { calls++; last = s }}
	res, err := Run(load(t, "testdata/treiber.lip"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || last.States == 0 || last.States > res.Stats.States || last.Transitions == 0 {
		t.Errorf("%d progress calls, last %+v, final %+v", calls, last, res.Stats)
	}
}

// TestErrors checks the errors of Run for bad options.
func TestErrors(t *testing.T) {
	prog := load(t, "testdata/counter.lip")
	for _, tc := range []struct {
		opts Options
		msg  string
	}{
		{Options{Instance: "nope"}, `no instance named "nope"`},
		{Options{Instance: "two", Layer: 5}, "there is no layer 5"},
		{Options{Instance: "two", Mode: ModeRefines, SpecLayer: 0}, "against itself"},
	} {
		_, err := Run(prog, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%+v: error %v, want %q", tc.opts, err, tc.msg)
		}
	}
}
