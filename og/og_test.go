package og

import (
	"context"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt"
)

func layer0(t *testing.T, src string) *layers.Layer {
	t.Helper()
	f, info, err := lang.ParseAndCheck("t.lip", []byte(src))
	if err != nil {
		t.Fatalf("front end:\n%v", err)
	}
	return layers.Build(f, info).Layers[0]
}

const prog = `
var x: int = 0;
var y: int = 0;
invariant x >= 0;
layer 0 {
  proc owner(linear tid: int)
    requires tid == 0 && x >= 0
    ensures x >= 0
  {
    x := x + 1;
    yield x >= 1;
  }
  proc other(linear tid: int)
    requires tid == 0
  {
    y := 1;
  }
  proc thief(linear tid: int)
    requires tid != 0
  {
    y := 2;
  }
  atomic action bump(linear tid: int) requires tid != 0 { x := x + 1; }
}`

func TestObligationShapes(t *testing.T) {
	f := Check(layer0(t, prog))
	obs, skipped := f.Obligations, f.Skipped
	kinds := map[obl.Kind]int{}
	for _, ob := range obs {
		kinds[ob.Kind]++
		if err := ob.Validate(); err != nil {
			t.Errorf("%s is malformed: %v", ob.Name, err)
		}
	}
	// One initial-state obligation (there is an invariant), one
	// sequential obligation per procedure and one for the public action.
	if kinds[Initial] != 1 || kinds[Sequential] != 4 {
		t.Errorf("obligation kinds: %v", kinds)
	}
	impossible, invOnly := map[string]bool{}, map[string]bool{}
	for _, s := range skipped {
		pair := s.Reason[:strings.Index(s.Reason, ":")]
		switch {
		case strings.Contains(s.Reason, "disjoint footprints"):
		case strings.Contains(s.Reason, "no two threads can be there: tid.1 != tid.2 contradicts tid.1 == 0, tid.2 == 0"):
			impossible[pair] = true
		case strings.HasSuffix(s.Reason, invariantsOnly):
			invOnly[pair] = true
		default:
			t.Errorf("pairs are skipped only for disjoint footprints, invariants kept by the writer's own checks, or two owners: %s", s.Reason)
		}
	}
	if len(skipped) == 0 {
		t.Errorf("want pairs skipped for disjoint footprints")
	}
	// owner and other both require tid == 0: no two threads run them.
	if !impossible["the annotation of the yield at line 11 in owner vs owner from the entry of owner"] {
		t.Errorf("two owners are not skipped: %v", impossible)
	}
	// owner and bump write x, which other's requires does not read but
	// the invariant x >= 0 does: their own sequential checks keep it.
	for _, pair := range []string{"the requires of other vs owner from the entry of owner", "the requires of other vs action bump"} {
		if !invOnly[pair] {
			t.Errorf("%s: not skipped as invariants only: %v", pair, invOnly)
		}
	}
	for _, ob := range obs {
		if ob.Kind != NonInterference {
			continue
		}
		// Names are l0-ni-<target>-<line>-<interferer>.<line>.
		if strings.Contains(ob.Name, "-thief.") {
			t.Errorf("thief writes only y, which no annotation reads, yet %s was made", ob.Name)
		}
	}
}

// TestPinnedToDifferentIDs: threads pinned to different ids do meet, so
// their pairs are checked, and a failing one fails.
func TestPinnedToDifferentIDs(t *testing.T) {
	const src = `
var x: int = 0;
layer 0 {
  proc a(linear tid: int) requires tid == 0 {
    x := 0;
    yield x == 0;
  }
  proc b(linear tid: int) requires tid == 1 { x := 1; }
}`
	f := Check(layer0(t, src))
	for _, s := range f.Skipped {
		mixed := strings.Contains(s.Reason, "vs b ") || strings.Contains(s.Reason, " of b ") || strings.Contains(s.Reason, " in b ")
		if mixed && strings.Contains(s.Reason, "no two threads") {
			t.Errorf("skipped: %s", s.Reason)
		}
	}
	if failed := failedMessages(t, src); len(failed) == 0 {
		t.Error("b falsifies a's yield annotation x == 0, yet nothing failed")
	}
}

// TestInvariantOnlyPairs: a fragment that breaks a layer invariant but
// nothing else another annotation reads is no non-interference
// obligation, and the check still fails: the fragment's own sequential
// check reports the invariant, once.
func TestInvariantOnlyPairs(t *testing.T) {
	const src = `
var x: int = 0;
var y: int = 0;
invariant x >= 0;
layer 0 {
  proc reader() requires y == 0 {
    yield y == 0;
  }
  proc breaker() {
    x := -1;
  }
}`
	f := Check(layer0(t, src))
	for _, ob := range f.Obligations {
		if ob.Kind == NonInterference && strings.Contains(ob.Name, "reader") && strings.Contains(ob.Name, "breaker") {
			t.Errorf("%s: the pair of reader's annotation and breaker touches only the invariant", ob.Name)
		}
	}
	failed := failedMessages(t, src)
	if !failed["the invariants of layer 0, conjoined to the ensures of breaker, may not hold at exit"] || len(failed) != 1 {
		t.Errorf("want breaker's sequential check to fail alone, got %v", failed)
	}
}

func TestNonInterferenceVerdicts(t *testing.T) {
	obs := Check(layer0(t, prog)).Obligations
	results := smt.Discharge(context.Background(), obs, smt.Options{Jobs: 1})
	failed := map[string]bool{}
	for _, r := range results {
		for _, a := range r.Results {
			if a.Verdict == obl.Failed {
				failed[a.Assert.Msg] = true
			}
		}
	}
	// bump (thief's action) only increases x, so every annotation holds.
	if len(failed) != 0 {
		t.Errorf("unexpected failures: %v", failed)
	}
}

// failedMessages discharges the layer's obligations and returns the
// messages of the asserts that fail.
func failedMessages(t *testing.T, src string) map[string]bool {
	t.Helper()
	obs := Check(layer0(t, src)).Obligations
	failed := map[string]bool{}
	for _, r := range smt.Discharge(context.Background(), obs, smt.Options{Jobs: 1}) {
		for _, a := range r.Results {
			if a.Verdict == obl.Failed {
				failed[a.Assert.Msg] = true
			}
		}
	}
	return failed
}

// TestOldSnapshots: old(x) is the thread's own copy of x where the body
// started. Other threads' increments keep x >= old(x) (proven); a
// decrement breaks it (non-interference fails). A caller learns nothing
// about the callee's snapshot: the callee's body starts after the call's
// yield, so x >= old(x) + 1 in the callee's ensures does not give the
// caller x >= a + 1 for the value a it read before the call.
func TestOldSnapshots(t *testing.T) {
	const incr = `
var x: int = 0;
layer 0 {
  proc inc() ensures x >= old(x) + 1 { yield x >= old(x); [x := x + 1;] }
  proc caller() returns (a: int) {
    a := x;
    yield x >= a;
    call inc();
    assert x >= a + 1;
  }
}`
	failed := failedMessages(t, incr)
	if len(failed) != 1 || !failed["this assertion may fail"] {
		t.Errorf("increments only: want exactly the caller's assert to fail, got %v", failed)
	}
	failed = failedMessages(t, strings.Replace(incr, "[x := x + 1;] }", "[x := x + 1;] }\n  proc dec() { [x := x - 1;] }", 1))
	var interference []string
	for msg := range failed {
		if strings.Contains(msg, "invalidated by another thread running dec") {
			interference = append(interference, msg)
		}
	}
	// dec falsifies the yield inside inc, inc's ensures, and the caller's
	// yield x >= a.
	if len(interference) != 3 {
		t.Errorf("with a decrement: want three non-interference failures caused by dec, got %v", failed)
	}
}

// TestBreakPaths: a break leaves its innermost loop, from the state where
// it runs: out of a private loop nested in a loop whose head yields (the
// rest of the outer body runs), and out of the yielding loop itself
// (without passing its head). Both loops' conditions are not what ends
// them, so a break that fell through, or that went to the wrong loop,
// would make the asserts after them fail or hold vacuously.
func TestBreakPaths(t *testing.T) {
	const nested = `
var X: int = 0;
layer 0 {
  proc p(k: int) returns (r: int)
    requires k >= 0 && k <= 3
    ensures r >= 0
  {
    var i, j: int;
    i, r := 0, 0;
    while (i < 2)
      invariant 0 <= i && i <= 1 && r >= 0;
    {
      j := 0;
      while (true)
        invariant 0 <= j && j <= k && r >= 0;
      {
        if (j == k) {
          break;
        }
        j, r := j + 1, r + 1;
      }
      assert j == k;
      X := X + 1;
      yield r >= 0 && 0 <= i && i <= 1;
      if (i == 1) {
        break;
      }
      i := i + 1;
    }
    assert i == 1;
  }
}`
	if failed := failedMessages(t, nested); len(failed) != 0 {
		t.Errorf("nested breaks: want everything proven, got %v", failed)
	}
	for _, mutant := range []struct{ src, want string }{
		{strings.Replace(nested, "assert j == k;", "assert j == k + 1;", 1), "this assertion may fail"},
		{strings.Replace(nested, "assert i == 1;", "assert i == 0;", 1), "this assertion may fail"},
		// without the break the loop runs once more: i reaches 2
		{strings.Replace(nested, "      if (i == 1) {\n        break;\n      }\n", "", 1),
			"the invariant of the loop at line 10 in p may not hold when p reaches it"},
	} {
		if failed := failedMessages(t, mutant.src); len(failed) != 1 || !failed[mutant.want] {
			t.Errorf("mutant must fail exactly %q, got %v\n%s", mutant.want, failed, mutant.src)
		}
	}
}

// TestPoolsDisjointInitially: the initial state check proves that the
// linear globals of one domain share no identity, sets and linear maps
// alike (every check assumes it), and only those of one domain.
func TestPoolsDisjointInitially(t *testing.T) {
	const pools = `
type Heap = record { dom: [int]bool, val: [int]int };
linear var free: Heap = Heap([int]bool(true)[0 := false], [int]int(0));
linear var spare: [int]bool = [int]bool(false)[SPARE := true];
linear var flags: [bool]bool = [bool]bool(true);
layer 0 { proc p() { } }`
	overlap := "may share an identity in the initial state"
	cases := []struct {
		spare string
		fails bool
	}{
		{"0", false}, // spare = {0}, free holds every other int
		{"1", true},  // 1 is in both
	}
	for _, c := range cases {
		failed := failedMessages(t, strings.Replace(pools, "SPARE", c.spare, 1))
		n := 0
		for msg := range failed {
			if strings.Contains(msg, overlap) {
				n++
				if !strings.Contains(msg, "free and spare") {
					t.Errorf("spare = {%s}: want free and spare named, got %q", c.spare, msg)
				}
			}
		}
		if (n > 0) != c.fails || len(failed) != n {
			t.Errorf("spare = {%s}: want the overlap reported: %v, got %v", c.spare, c.fails, failed)
		}
	}
	// Without initial values the pools may hold anything.
	failed := failedMessages(t, "linear var a: [int]bool;\nlinear var b: [int]bool;\nlayer 0 { proc p() { } }")
	if len(failed) != 1 {
		t.Errorf("two pools without initial values: want one failure, got %v", failed)
	}
}
