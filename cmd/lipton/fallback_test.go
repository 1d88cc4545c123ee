package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/mc"
)

// TestPrintFallback: the last line of a run that used the fallback says
// how many asserts hold only by enumeration, and that this is no proof.
func TestPrintFallback(t *testing.T) {
	r := &check.Result{Fallback: &check.FallbackTally{Domain: mc.Domain{Lo: 0, Hi: 3}, Holds: 1, Fails: 1}}
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
