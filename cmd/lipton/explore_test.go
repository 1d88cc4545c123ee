package main

import (
	"strings"
	"testing"
)

const (
	counterLin = "../../mc/testdata/counter-lin.lip"
	incrSplit  = "../../mc/testdata/incr-split.lip"
)

// TestExplore checks the command line of lipton explore: exit codes and
// the essential lines of the output.
func TestExplore(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // fragments of stdout, in order
		stderr string   // a fragment of stderr
	}{
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
	for _, tc := range tests {
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
