package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/mc"
	"github.com/lipton-dev/lipton/obl"
)

// TestAddFallback checks how enumeration verdicts become findings: an
// assert that holds only by enumeration stays unknown (never proven), one
// that fails by enumeration is a failure with a counterexample, and one
// Z3 decided keeps Z3's verdict.
func TestAddFallback(t *testing.T) {
	x := &obl.Var{Name: "x", Sort: obl.IntSort}
	holds := &obl.Assert{E: obl.Le(obl.Ref(x), obl.Int(3)), Kind: "sequential", Msg: "x is small"}
	fails := &obl.Assert{E: obl.Ne(obl.Ref(x), obl.Int(2)), Kind: "sequential", Msg: "x is not 2"}
	proven := &obl.Assert{E: obl.Bool(true), Kind: "sequential", Msg: "trivial"}
	ob := &obl.Obligation{Name: "ob", Kind: "sequential", Vars: []*obl.Var{x},
		Body: obl.Sequence(proven, holds, fails)}
	res := obl.ObligationResult{Obligation: ob, Results: []obl.Result{
		{Assert: proven, Verdict: obl.Proven},
		{Assert: holds, Verdict: obl.Unknown, Reason: "timeout"},
		{Assert: fails, Verdict: obl.Unknown, Reason: "timeout"},
	}}
	var o checkOptions
	o.fallback.ints.d = mc.Domain{Lo: 0, Hi: 3}
	r := &checkRun{tally: map[tallyKey]*counts{}}
	if r.addFallback(context.Background(), 0, res, o) {
		t.Fatal("the fallback ran while switched off")
	}
	o.fallback.on = true
	if !r.addFallback(context.Background(), 0, res, o) {
		t.Fatal("the fallback did not run")
	}
	c := r.tally[tallyKey{0, "sequential"}]
	if c.proven != 1 || c.unknown != 1 || c.failed != 1 {
		t.Errorf("tally %+v, want 1 proven, 1 unknown, 1 failed", *c)
	}
	if len(r.findings) != 2 {
		t.Fatalf("%d findings, want 2", len(r.findings))
	}
	h, f := r.findings[0], r.findings[1]
	if !h.unknown || !strings.Contains(h.reason, "holds for ints in 0..3") || !strings.Contains(h.reason, "not a proof") {
		t.Errorf("held assert: unknown %v, reason %q", h.unknown, h.reason)
	}
	if f.unknown || f.cex == nil || !strings.Contains(f.cex.String(), "x = 2") {
		t.Errorf("failed assert: unknown %v, counterexample %v", f.unknown, f.cex)
	}
	var out bytes.Buffer
	printFallback(&out, r)
	want := "fallback: 1 assert that Z3 could not decide holds for ints in 0..3 by enumeration (not proven), 1 fails, 0 remain unknown\n"
	if out.String() != want {
		t.Errorf("printFallback:\n%q\nwant\n%q", out.String(), want)
	}
}

// fermat is a proof whose assert Z3 cannot decide: no positive cubes add
// up to a cube.
const fermat = `var x: int = 1;

layer 0 {
  proc p(linear tid: int)
    requires x >= 1
    ensures x >= 1
  {
    var a, b, c: int;
    havoc a, b, c;
    assume a >= 1 && b >= 1 && c >= 1;
    [assert a * a * a + b * b * b != c * c * c;]
  }
}
`

// TestCheckFallback runs lipton check --fallback on obligations that Z3
// leaves unknown: the run must not claim a proof and must exit with 1.
func TestCheckFallback(t *testing.T) {
	path := writeFile(t, "fermat.lip", fermat)
	code, stdout, stderr := runCLI("check", "--fallback", "--ints", "0..3", "--rlimit", "5000", path)
	if code != exitFailed {
		t.Fatalf("exit code %d, want %d\n%s%s", code, exitFailed, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "fallback: ") || !strings.Contains(last, "for ints in 0..3 by enumeration (not proven)") {
		t.Errorf("last line %q", last)
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "proven") {
			t.Errorf("a run decided by enumeration claims a proof: %q", l)
		}
	}
	if !strings.Contains(stdout, "by enumeration it holds for ints in 0..3") {
		t.Errorf("the findings do not say how the asserts were decided:\n%s", stdout)
	}
}

// TestIntsFlag checks the parsing of --ints.
func TestIntsFlag(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{{"0..3", "0..3"}, {"-2..6", "-2..6"}, {"5..5", "5..5"}, {"3..1", ""}, {"1-3", ""}, {"a..b", ""}} {
		var f domainFlag
		err := f.Set(tc.in)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%q: accepted as %s", tc.in, f.String())
		case tc.want != "" && (err != nil || f.String() != tc.want):
			t.Errorf("%q: got %s, %v", tc.in, f.String(), err)
		}
	}
	code, _, stderr := runCLI("check", "--fallback", "--ints", "3..1", "x.lip")
	if code != exitBadInput || !strings.Contains(stderr, "non-empty range") {
		t.Errorf("bad --ints: exit %d, stderr %q", code, stderr)
	}
}
