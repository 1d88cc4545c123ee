package main

import (
	"strings"
	"testing"
)

const (
	counterLin = "../../mc/testdata/counter-lin.lip"
	incrSplit  = "../../mc/testdata/incr-split.lip"
)

// exploreCase is a command line of lipton explore and what it must give.
type exploreCase struct {
	name   string
	args   []string
	code   int
	stdout []string // fragments of stdout, in order
	stderr string   // a fragment of stderr
}

// exploreCases are the cases of TestExplore.
var exploreCases = []exploreCase{
	{"no violation", []string{"explore", counterLin, "--instance", "two"}, exitOK,
		[]string{"instance two, layer 0", "no violation: every reachable state explored:", "states/s", "peak RSS"}, ""},
	{"the only instance is the default", []string{"explore", counterLin}, exitOK,
		[]string{"no violation"}, ""},
	{"flags before the file", []string{"explore", "--instance", "two", "--no-por", "--no-symmetry", counterLin}, exitOK,
		[]string{"no violation"}, ""},
	{"linearizability violation", []string{"explore", counterLin, "--linearizability"}, exitFailed,
		[]string{"error: linearizability: worker(", "returns from inc with v = 0",
			"history (calls and returns in the order they happen):", "return from inc: v = 0",
			"per thread:", "trace (", "VIOLATION"}, ""},
	{"refines the next layer", []string{"explore", counterLin, "--refines"}, exitFailed,
		[]string{"layer 0 against layer 1", "VIOLATION"}, ""},
	{"refines a named layer", []string{"explore", counterLin, "--refines=1"}, exitFailed,
		[]string{"layer 0 against layer 1", "VIOLATION"}, ""},
	{"annotation violation with a trace", []string{"explore", "../../mc/testdata/counter.lip"}, exitFailed,
		[]string{"counter.lip:13:13: error: annotation: the ensures of inc", "trace (", "calls inc(tid = 1)",
			"line 16: c := count;", "changes: count: 0 -> 1, done: 0 -> 1", "VIOLATION"}, ""},
	{"state limit", []string{"explore", "../../mc/testdata/treiber.lip", "--instance", "small", "--max-states", "10"}, exitFailed,
		[]string{"INCOMPLETE: the state limit (10) was reached", "proves nothing"}, ""},
	{"access atomicity finds a lost update", []string{"explore", incrSplit, "--linearizability", "--atomicity", "access"}, exitFailed,
		[]string{"layer 0 against the atomic actions of layer 1 (linearizability), access atomicity",
			"note: access atomicity: threads interleave at every access to a global variable of layer 0",
			"error: linearizability: reader(3) returns from get with v = 1",
			"line 11: x := x + 1; (reads x = 0)", "then stops at line 11 in incr, before it writes x",
			"line 11: x := x + 1; (writes x = 1)", "VIOLATION"}, ""},
	{"yield atomicity is the default", []string{"explore", incrSplit, "--linearizability", "--atomicity=yield"}, exitOK,
		[]string{"(linearizability)\n", "no violation"}, ""},
	{"a [ ] group is one access", []string{"explore", "../../mc/testdata/incr-locked.lip", "--linearizability", "--atomicity", "access"}, exitOK,
		[]string{"access atomicity", "no violation"}, ""},
	{"the specification's requires is the client contract", []string{"explore", "../../mc/testdata/incr-contract.lip", "--linearizability"}, exitFailed,
		[]string{"incr-contract.lip:10:14: error: contract: worker(", "which layer 1's requires allows here, but the requires of incr at layer 0 does not hold",
			"trace (", "VIOLATION"}, ""},
	{"no thread ever calls", []string{"explore", "../../proofs/vacuity/broken/no-first-call.lip"}, exitFailed,
		[]string{"INCOMPLETE: no thread of the instance ever makes a call: every requires is false", "the search checked nothing: 1 states"}, ""},
	{"no thread ever calls as the specification allows", []string{"explore", "../../proofs/vacuity/broken/no-first-call.lip", "--linearizability"}, exitFailed,
		[]string{"INCOMPLETE: no thread of the instance ever makes a call: every requires (of layer 1, the specification: the client contract) is false"}, ""},
	{"an error of the code has a position", []string{"explore", "../../mc/testdata/overflow.lip"}, exitFailed,
		[]string{"overflow.lip:9:5: error: the code cannot run: integer overflow in", "x := x + x;", "VIOLATION"}, ""},
	{"a bad atomicity", []string{"explore", counterLin, "--atomicity", "fragment"}, exitBadInput,
		nil, `invalid value "fragment" for flag -atomicity: want yield or access`},
	{"access atomicity above layer 0", []string{"explore", counterLin, "--layer", "1", "--atomicity", "access"}, exitBadInput,
		nil, "--atomicity access runs layer 0 only"},
	{"no such instance", []string{"explore", counterLin, "--instance", "three"}, exitBadInput,
		nil, `no instance named "three" (instances: two)`},
	{"no such layer", []string{"explore", counterLin, "--layer", "4"}, exitBadInput,
		nil, "there is no layer 4 (the layers are 0..1)"},
	{"nothing above the top layer", []string{"explore", counterLin, "--layer", "1", "--linearizability"}, exitBadInput,
		nil, "layer 1 is the top layer"},
	{"refines itself", []string{"explore", counterLin, "--refines=0"}, exitBadInput,
		nil, "cannot check layer 0 against layer 0"},
	{"two modes", []string{"explore", counterLin, "--refines", "--linearizability"}, exitBadInput,
		nil, "exclude each other"},
	{"an instance is required", []string{"explore", "../../mc/testdata/treiber.lip"}, exitBadInput,
		nil, "choose an instance with --instance (instances: pushers, small)"},
	{"no file", []string{"explore"}, exitBadInput, nil, "usage: lipton explore"},
	{"missing file", []string{"explore", "nope.lip"}, exitBadInput, nil, "nope.lip: no such file"},
}

// TestExplore checks the command line of lipton explore: exit codes and
// the essential lines of the output.
func TestExplore(t *testing.T) {
	for _, tc := range exploreCases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(tc.args...)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			rest := stdout
			for _, frag := range tc.stdout {
				i := strings.Index(rest, frag)
				if i < 0 {
					t.Fatalf("stdout lacks %q (in order)\nstdout:\n%s", frag, stdout)
				}
				rest = rest[i+len(frag):]
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("stderr lacks %q\nstderr:\n%s", tc.stderr, stderr)
			}
		})
	}
}

// TestExploreOutputDefects checks what explore's output must never
// contain: a failure without a position, or "error:" twice.
func TestExploreOutputDefects(t *testing.T) {
	for _, args := range [][]string{
		{"explore", "../../mc/testdata/overflow.lip"},
		{"explore", "../../mc/testdata/counter.lip"},
		{"explore", counterLin, "--linearizability"},
		{"explore", "../../mc/testdata/incr-contract.lip", "--linearizability"},
	} {
		_, stdout, _ := runCLI(args...)
		if strings.Contains(stdout, "?:") || strings.Contains(stdout, "error: error:") {
			t.Errorf("%v:\n%s", args, stdout)
		}
	}
}

// TestExploreNeedsLayers checks that a file without layers is bad input,
// with the message lipton check gives.
func TestExploreNeedsLayers(t *testing.T) {
	path := writeFile(t, "nolayers.lip", "var x: int = 0;\n")
	code, _, stderr := runCLI("explore", path)
	if code != exitBadInput || !strings.Contains(stderr, "this file declares no layer: there is nothing to check") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestExploreHelp checks that explore is listed and documented.
func TestExploreHelp(t *testing.T) {
	code, stdout, _ := runCLI("help")
	if code != exitOK || !strings.Contains(stdout, "explore") {
		t.Fatalf("help does not list explore:\n%s", stdout)
	}
	code, stdout, _ = runCLI("help", "explore")
	for _, flag := range []string{"-instance", "-layer", "-linearizability", "-refines", "-max-states", "-timeout", "-no-por", "-no-symmetry", "-atomicity"} {
		if code != exitOK || !strings.Contains(stdout, flag) {
			t.Errorf("help explore lacks %s:\n%s", flag, stdout)
		}
	}
}
