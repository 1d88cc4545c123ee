package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/lipton-dev/lipton/lang"
)

const (
	counterLin = "../../mc/testdata/counter-lin.lip"
	incrSplit  = "../../mc/testdata/incr-split.lip"
	// chaseLevNoFence is Chase-Lev without the fence in take.
	chaseLevNoFence = "../../mc/testdata/weak/chaselev-nofence.lip"
	// segQueue is the segmented queue of seed 000 (segment 2, 1-quasi).
	segQueue = "../../bench/seeds/segqueue.lip"
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
	{"hash compaction is never complete", []string{"explore", counterLin, "--instance", "two", "--hash-compact"}, exitFailed,
		[]string{"note: hash compaction: a 64-bit hash per state instead of the state (lossy",
			"INCOMPLETE: hash compaction (--hash-compact) stores a 64-bit hash per state, so the search is not exhaustive",
			"the probability that some state was missed this way is about", "(n^2/2^65 for n = ", "proves nothing"}, ""},
	{"hash compaction finds a violation", []string{"explore", counterLin, "--linearizability", "--hash-compact"}, exitFailed,
		[]string{"error: linearizability: worker(", "returns from inc with v = 0", "trace (", "VIOLATION"}, ""},
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
	{"access atomicity says that it does not check linearity", []string{"explore", "../../proofs/linear/broken/return-twice.lip", "--atomicity", "access"}, exitOK,
		[]string{"note: linearity is not checked under access atomicity (an action's moves are seen half done); explore without --atomicity access checks it", "no violation"}, ""},
	{"yield atomicity checks linearity", []string{"explore", "../../proofs/linear/broken/return-twice.lip"}, exitFailed,
		[]string{"error: linearity", "VIOLATION"}, ""},
	{"an invariant a mover procedure restores inside its caller's fragment", []string{"explore", "../../proofs/moverproc/fix-inside-fragment.lip"}, exitOK,
		[]string{"no violation"}, ""},
	{"an invariant a mover procedure does not restore", []string{"explore", "../../proofs/moverproc/broken/fix-forgets.lip"}, exitFailed,
		[]string{"fix-forgets.lip:29:3: error: annotation: the invariants of layer 0, conjoined to the ensures of bump, does not hold when a(0) reaches it", "VIOLATION"}, ""},
	{"yield atomicity is the default", []string{"explore", incrSplit, "--linearizability", "--atomicity=yield"}, exitOK,
		[]string{"(linearizability)\n", "no violation"}, ""},
	{"a [ ] group is one access", []string{"explore", "../../mc/testdata/incr-locked.lip", "--linearizability", "--atomicity", "access"}, exitOK,
		[]string{"access atomicity", "no violation"}, ""},
	{"the specification's requires is the client contract", []string{"explore", "../../mc/testdata/incr-contract.lip", "--linearizability"}, exitFailed,
		[]string{"incr-contract.lip:10:14: error: contract: worker(", "which layer 1's requires allows here, but the requires of incr at layer 0 does not hold",
			"trace (", "VIOLATION"}, ""},
	{"no thread ever calls", []string{"explore", "../../proofs/vacuity/broken/no-first-call.lip"}, exitFailed,
		[]string{"INCOMPLETE: no thread of the instance ever makes a call: every requires is false", "the search checked nothing: 1 state, 0 transitions, depth 0"}, ""},
	{"no thread ever calls as the specification allows", []string{"explore", "../../proofs/vacuity/broken/no-first-call.lip", "--linearizability"}, exitFailed,
		[]string{"INCOMPLETE: no thread of the instance ever makes a call: every requires (of layer 1, the specification: the client contract) is false"}, ""},
	{"an error of the code has a position", []string{"explore", "../../mc/testdata/overflow.lip"}, exitFailed,
		[]string{"overflow.lip:9:5: error: the code cannot run: integer overflow in", "x := x + x;", "INCOMPLETE: the search stopped where the code cannot run (above); no violation in the part explored, which proves nothing"}, ""},
	{"a bad atomicity", []string{"explore", counterLin, "--atomicity", "fragment"}, exitBadInput,
		nil, `invalid value "fragment" for flag --atomicity: want yield or access`},
	{"access atomicity above layer 0", []string{"explore", counterLin, "--layer", "1", "--atomicity", "access"}, exitBadInput,
		nil, "--atomicity access runs layer 0 only"},
	{"store buffering on TSO", []string{"explore", "../../mc/testdata/litmus/sb.lip", "--memory", "tso"}, exitFailed,
		[]string{"instance sb, layer 0, access atomicity, memory model TSO",
			"note: memory model TSO: one FIFO store buffer per thread",
			"note: partial-order reduction: off (weak memory",
			"sb.lip:29:5: error: assert: this assertion may fail",
			"line 14: x := 1; (buffers x = 1)", "store buffer: x = 1",
			"flushes y = 1 from its store buffer to memory", "changes: y: 0 -> 1", "store buffer: empty", "VIOLATION"}, ""},
	{"store buffering with fences on PSO", []string{"explore", "../../mc/testdata/litmus/sb-fence.lip", "--memory=pso"}, exitOK,
		[]string{"memory model PSO", "no violation"}, ""},
	{"sequential consistency is the default", []string{"explore", "../../mc/testdata/litmus/sb.lip", "--memory", "sc", "--atomicity", "access"}, exitOK,
		[]string{"instance sb, layer 0, access atomicity\n", "no violation"}, ""},
	{"a bad memory model", []string{"explore", counterLin, "--memory", "arm"}, exitBadInput,
		nil, `invalid value "arm" for flag --memory: want sc, tso or pso`},
	{"a write weak memory cannot buffer", []string{"explore", "../../mc/testdata/weak/whole-map.lip", "--memory", "pso"}, exitBadInput,
		nil, "whole-map.lip:7:5: error: weak memory: a write of the whole map m (an assignment or havoc of the map) cannot be buffered; write its cells, or put the write in a [ ] group with a read of a global to make it a locked instruction\n        havoc m;\n        ^"},
	{"weak memory above layer 0", []string{"explore", counterLin, "--layer", "1", "--memory", "tso"}, exitBadInput,
		nil, "--memory tso runs layer 0 only"},
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
	{"quasi: the segmented queue is 1-quasi", []string{"explore", segQueue, "--instance", "two_by_two", "--linearizability", "--quasi", "deq=1"}, exitOK,
		[]string{"against the atomic actions of layer 1 (quasi linearizability: deq=1)\n",
			"note: symmetry reduction: off for role worker: quasi linearizability", "no violation: every reachable state explored"}, ""},
	{"quasi: the segmented queue is not 0-quasi", []string{"explore", segQueue, "--instance", "two_by_two", "--linearizability", "--quasi", "deq=0"}, exitFailed,
		[]string{"segqueue.lip:35:8: error: linearizability: worker(2) returns from deq with v = 2, but no linearization of the history by the atomic actions of layer 1, with the calls of each method reordered by at most its quasi factor (deq=0), explains it: this call of deq is out of order by more than 0; the least quasi factor that explains the history is deq=1",
			"history (", "return from deq: v = 2", "VIOLATION"}, ""},
	{"quasi: segment 3 is not 1-quasi", []string{"explore", "../../bench/seeds/segqueue3.lip", "--instance", "one_segment", "--linearizability", "--quasi", "deq=1"}, exitFailed,
		[]string{"out of order by more than 1; the least quasi factor that explains the history is deq=2", "VIOLATION"}, ""},
	{"quasi: no reordering explains a lost update", []string{"explore", counterLin, "--linearizability", "--quasi", "inc=1"}, exitFailed,
		[]string{"error: linearizability: worker(2) returns from inc with v = 0, but no linearization of the history by the atomic actions of layer 1, with the calls of each method reordered by at most its quasi factor (inc=1), explains it: no reordering of the calls of inc by up to 2 positions explains the history either",
			"VIOLATION"}, ""},
	{"quasi: repeatable", []string{"explore", segQueue, "--instance", "two_by_two", "--linearizability", "--quasi", "enq=0", "--quasi", "deq=1"}, exitOK,
		[]string{"(quasi linearizability: deq=1, enq=0)", "no violation"}, ""},
	{"quasi: not METHOD=K", []string{"explore", segQueue, "--linearizability", "--quasi", "foo"}, exitBadInput,
		nil, `invalid value "foo" for flag --quasi: want METHOD=K, such as deq=1`},
	{"quasi: a negative factor", []string{"explore", segQueue, "--linearizability", "--quasi", "deq=-1"}, exitBadInput,
		nil, `invalid value "deq=-1" for flag --quasi: want a quasi factor K of 0 or more in METHOD=K, not "-1"`},
	{"quasi: a factor twice", []string{"explore", segQueue, "--linearizability", "--quasi", "deq=1", "--quasi", "deq=2"}, exitBadInput,
		nil, `invalid value "deq=2" for flag --quasi: a second quasi factor for deq`},
	{"quasi: an unknown method", []string{"explore", segQueue, "--instance", "two_by_two", "--linearizability", "--quasi", "pop=1"}, exitBadInput,
		nil, "segqueue.lip: --quasi pop=1: there is no method pop at layer 1 (the specification)"},
	{"quasi without linearizability", []string{"explore", segQueue, "--instance", "two_by_two", "--quasi", "deq=1"}, exitBadInput,
		nil, "lipton explore: --quasi relaxes a linearizability check: give --linearizability too"},
	{"an instance is required", []string{"explore", "../../mc/testdata/treiber.lip"}, exitBadInput,
		nil, "choose an instance with --instance (instances: pushers, small)"},
	{"no file", []string{"explore"}, exitBadInput, nil, "lipton explore: no file to explore\nusage: lipton explore"},
	{"two files", []string{"explore", counterLin, counterLin}, exitBadInput, nil, "explore runs one FILE, not 2"},
	{"a file after --", []string{"explore", "--instance", "two", "--", counterLin}, exitOK, []string{"no violation"}, ""},
	{"a negative layer", []string{"explore", counterLin, "--layer", "-1"}, exitBadInput,
		nil, "lipton explore: --layer -1: want a layer number, 0 or more\nusage: lipton explore"},
	{"a negative state limit", []string{"explore", counterLin, "--max-states", "-5"}, exitBadInput,
		nil, "--max-states -5: want a number of states, or 0 for no limit"},
	{"a negative timeout", []string{"explore", "--timeout", "-3s", counterLin}, exitBadInput,
		nil, "--timeout -3s: want a duration such as 30s or 10m, or 0 for no limit"},
	{"no progress interval", []string{"explore", counterLin, "--progress", "0s"}, exitBadInput,
		nil, "--progress 0s: want an interval such as 2s"},
	{"no workers", []string{"explore", counterLin, "--jobs", "0"}, exitBadInput,
		nil, "lipton explore: --jobs 0: want at least 1 worker\nusage: lipton explore"},
	{"too many workers", []string{"explore", counterLin, "--jobs", "100000"}, exitBadInput,
		nil, "lipton explore: --jobs 100000: want at most 256 workers\nusage: lipton explore"},
	{"one worker", []string{"explore", counterLin, "--instance", "two", "--jobs", "1"}, exitOK, []string{"no violation"}, ""},
	{"an unknown flag", []string{"explore", counterLin, "--max-state", "5"}, exitBadInput,
		nil, "lipton explore: flag provided but not defined: --max-state\nusage: lipton explore"},
	{"a memory limit of zero", []string{"explore", counterLin, "--max-memory", "0"}, exitBadInput,
		nil, `invalid value "0" for flag --max-memory: want a positive size such as 512MiB or 4GiB`},
	{"a memory limit without a number", []string{"explore", counterLin, "--max-memory", "lots"}, exitBadInput,
		nil, `invalid value "lots" for flag --max-memory`},
	{"a memory limit beyond the input ceiling", []string{"explore", counterLin, "--max-memory", "64GiB"}, exitOK,
		[]string{"no violation"}, ""},
	{"the memory limit", []string{"explore", counterLin, "--max-memory", "1KiB"}, exitFailed,
		[]string{"INCOMPLETE: the memory limit (1 KiB) was reached; no violation in the part explored, which proves nothing: 1 state, 0 transitions"}, ""},
	{"the input limit", []string{"explore", counterLin, "--max-input", "100B"}, exitBadInput,
		nil, "lipton: " + counterLin + " is larger than 100 bytes (--max-input raises the limit)\n"},
	{"help after the file", []string{"explore", counterLin, "-help=true"}, exitOK, []string{"usage: lipton explore", "Limits:"}, ""},
	{"missing file", []string{"explore", "nope.lip"}, exitBadInput, nil, "nope.lip: no such file"},
	{"clients find the TSO violation", []string{"explore", chaseLevNoFence, "--clients", "6", "--memory", "tso"}, exitFailed,
		[]string{"every client of instance small with at most 6 calls, layer 0 against the atomic actions of layer 1 (linearizability)",
			"roles: owner is an owner (its calls in thread 0); thief is parallel (each call in a thread of its own)",
			"  4 calls: 5 clients, 35951 states, 80918 transitions,", "  5 calls: 3 clients,", "stopped\n",
			"client small{owner(0) 3 calls, thief(1..2) 1 call each}:\n", "error: linearizability: thief(", "history (", "trace (",
			"VIOLATION in client small{owner(0) 3 calls, thief(1..2) 1 call each} (5 calls); every client with at most 4 calls passes: "}, ""},
	{"clients pass under SC", []string{"explore", chaseLevNoFence, "--clients", "3", "--linearizability"}, exitOK,
		[]string{"  1 call: 2 clients,", "  2 calls: 3 clients,", "  3 calls: 4 clients,", "no violation: every client with at most 3 calls passes: "}, ""},
	{"clients with a parallel role only", []string{"explore", "../../mc/testdata/treiber.lip", "--instance", "small", "--clients", "2"}, exitOK,
		[]string{"roles: a is parallel", "note: role b calls what role a calls: its clients are a's", "  2 calls: 1 client,", "no violation: every client with at most 2 calls passes"}, ""},
	{"clients stopped by the state limit", []string{"explore", "../../mc/testdata/weak/chaselev-fence.lip", "--clients", "5", "--max-states", "2000"}, exitFailed,
		[]string{"  3 calls: 4 clients, 1679 states,", "  4 calls: 1 client, 2001 states, 2021 transitions,", "stopped\n",
			"INCOMPLETE: the state limit (2000) was reached in client small{owner(0) 4 calls}; every client with at most 3 calls passes (largest number of calls finished: 3), which proves nothing about more calls: "}, ""},
	{"clients 0", []string{"explore", counterLin, "--clients", "0"}, exitBadInput, nil, "lipton explore: --clients 0: want a number of calls, 1 or more\nusage:"},
	{"negative clients", []string{"explore", counterLin, "--clients=-3"}, exitBadInput, nil, "--clients -3: want a number of calls, 1 or more"},
	{"clients not a number", []string{"explore", counterLin, "--clients", "many"}, exitBadInput, nil, `invalid value "many" for flag --clients: want a number of calls`},
	{"clients and refines", []string{"explore", counterLin, "--clients", "2", "--refines"}, exitBadInput, nil, "--clients checks linearizability: it excludes --refines"},
	{"tso with yield atomicity", []string{"explore", counterLin, "--memory", "tso", "--atomicity", "yield"}, exitBadInput, nil, "--memory tso runs layer 0 at access atomicity (a store buffer holds single accesses): it excludes --atomicity yield"},
	{"linear sets: each thread gets its own", []string{"explore", "../../proofs/linear/owned-slots.lip", "--linearizability"}, exitOK,
		[]string{"note: symmetry reduction: off for role w: its threads hold different linear sets", "no violation: every reachable state explored"}, ""},
	{"linear sets: a write outside the set is found", []string{"explore", "../../proofs/linear/broken/clear-foreign-slot.lip"}, exitFailed,
		[]string{"error: interference: the annotation of the yield at line 41 in put, where w(0) waits, is invalidated by a step of w(1)",
			"w(0) calls put(mine = [10 := true, 11 := true; default false], i = 10, v = 1)",
			"w(1) calls clear(mine = [12 := true, 13 := true; default false], i = 10)", "VIOLATION"}, ""},
	{"linear pool: correct at access atomicity", []string{"explore", "../../proofs/linear/pool-alloc.lip", "--linearizability", "--atomicity", "access"}, exitOK,
		[]string{"no violation: every reachable state explored"}, ""},
	{"linear pool: an address handed out twice", []string{"explore", "../../proofs/linear/broken/alloc-keeps-pool.lip", "--linearizability", "--atomicity", "access"}, exitFailed,
		[]string{"error: linearizability: w(", "returns from work with r = ", "but no linearization of the history", "VIOLATION"}, ""},
	{"linear pool: an address returned that was not held", []string{"explore", "../../proofs/linear/broken/release-more.lip", "--linearizability", "--atomicity", "access"}, exitFailed,
		[]string{"error: linearizability: w(", "VIOLATION"}, ""},
	{"linear pool: read after release", []string{"explore", "../../proofs/linear/broken/read-after-release.lip"}, exitBadInput,
		nil, "linear variable a is read where it may have given its identities away (at 48:18)"},
	{"linear pool holds a thread's identity", []string{"explore", "../../mc/testdata/linear-pool-clash.lip"}, exitFailed,
		[]string{"error: the code cannot run: w(0) calls bump with tid holding 0, which the linear global pool holds: the instance must give its threads identities that no linear global holds", "INCOMPLETE: the search stopped where the code cannot run"}, ""},
	{"linear values: explore finds an identity in a thread and the pool", []string{"explore", "../../proofs/linear/broken/pool-yield-keeps-pool.lip"}, exitFailed,
		[]string{"error: linearity: after a step of w(0), w(0)'s a (in work) and the linear global free both hold 0: an identity was duplicated", "VIOLATION"}, ""},
	{"linear values: explore looks into the arms of a parallel call", []string{"explore", "../../proofs/parcall/broken/arm-keeps-pool.lip"}, exitFailed,
		[]string{"error: linearity: after a step of w(0), w(0)'s a (in grab, an arm of a parallel call) and the linear global free both hold 0: an identity was duplicated", "VIOLATION"}, ""},
	{"linear values: an arm borrows its caller's set", []string{"explore", "../../proofs/parcall/set-arm.lip"}, exitOK,
		[]string{"no violation: every reachable state explored"}, ""},
	{"linear values: pool-yield is correct", []string{"explore", "../../proofs/linear/pool-yield.lip"}, exitOK,
		[]string{"no violation: every reachable state explored"}, ""},
	{"linear values: a join that keeps a part", []string{"explore", "../../proofs/linear/broken/join-keeps-part.lip"}, exitFailed,
		[]string{"error: linearity: after a step of w(0), w(0)'s b (in work) and w(0)'s p (in work) both hold ", "VIOLATION"}, ""},
	{"linear sets: no clients", []string{"explore", "../../proofs/linear/owned-slots.lip", "--clients", "2"}, exitBadInput,
		nil, "role w gives its threads linear sets, which --clients does not support"},
	{"clients at the top layer", []string{"explore", counterLin, "--clients", "2", "--layer", "1"}, exitBadInput, nil, "layer 1 is the top layer"},
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
			wantInOrder(t, stdout, tc.stdout)
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

// TestExploreWithoutInstance: a file without instances says plainly
// that there is nothing to explore and how to declare an instance.
func TestExploreWithoutInstance(t *testing.T) {
	path := writeFile(t, "noinstance.lip", "var x: int = 0;\nlayer 0 { atomic action set() { x := 1; } }\n")
	code, stdout, stderr := runCLI("explore", path)
	want := "lipton: " + path + ": the file declares no instance, so there is nothing to explore: " +
		"explore runs a finite instance declared as `instance NAME { ... }` (see docs/explore.md)\n"
	if code != exitBadInput || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestExploreHelp checks that explore is listed and documented.
func TestExploreHelp(t *testing.T) {
	code, stdout, _ := runCLI("help")
	if code != exitOK || !strings.Contains(stdout, "explore") {
		t.Fatalf("help does not list explore:\n%s", stdout)
	}
	code, stdout, _ = runCLI("help", "explore")
	for _, want := range []string{"--instance NAME", "--layer L", "--linearizability", "--refines", "--atomicity yield|access",
		"--max-states N", "--max-memory SIZE", "--timeout DURATION", "--no-por", "--no-symmetry", "--no-dead-vars", "--jobs N", "--quiet", "--progress DURATION",
		"--max-input SIZE", "What to explore:", "Mode:", "Limits:", "Search:", "Output:", "Input:",
		"130 interrupted (SIGINT, Ctrl-C) and 143 terminated (SIGTERM)", "(default: half the"} {
		if code != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("help explore lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "Other flags:") {
		t.Errorf("help explore has flags in no group:\n%s", stdout)
	}
}

// foreverSrc is a program whose search never ends: a counter incremented
// forever.
const foreverSrc = `var g: int = 0;
layer 0 { atomic action p(linear tid: int) { g := g + 1; } }
instance forever { thread t(tid = 1) calls p; }
`

// signalSelf sends sig to this process; it skips the test where signals
// cannot be sent.
func signalSelf(t *testing.T, sig os.Signal) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no signals")
	}
	p, err := os.FindProcess(os.Getpid())
	if err == nil {
		err = p.Signal(sig)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestSignalContext: the first signal cancels the context, with the
// signal as the cause, and selects the exit code. It is sent as SIGTERM:
// this process has run Z3, whose SIGINT handling (scoped_ctrl_c) may
// have reinstalled Go's SIGINT handler without SA_ONSTACK, and a SIGINT
// could then crash it; TestExploreSignal delivers SIGINT to a fresh
// process.
func TestSignalContext(t *testing.T) {
	ctx, stop, signaled := signalContext(context.Background())
	defer stop()
	if signaled() != nil {
		t.Fatalf("signaled %v before any signal", signaled())
	}
	signalSelf(t, syscall.SIGTERM)
	<-ctx.Done()
	if got := context.Cause(ctx).Error(); got != "terminated (SIGTERM)" {
		t.Errorf("cause %q", got)
	}
	if signaled() != syscall.SIGTERM || signalExitCode(signaled()) != exitTerminated {
		t.Errorf("signaled %v, exit code %d", signaled(), signalExitCode(signaled()))
	}
	sigint := &signalError{syscall.SIGINT}
	if sigint.Error() != "interrupted (SIGINT)" || signalExitCode(syscall.SIGINT) != exitInterrupted {
		t.Errorf("SIGINT: %q, exit code %d", sigint.Error(), signalExitCode(syscall.SIGINT))
	}
}

// TestSecondSignalExits: a second signal exits at once, with its code.
func TestSecondSignalExits(t *testing.T) {
	exits := make(chan int, 1)
	exitNow = func(code int) { exits <- code }
	defer func() { exitNow = os.Exit }()
	ctx, stop, _ := signalContext(context.Background())
	defer stop()
	signalSelf(t, syscall.SIGTERM)
	<-ctx.Done()
	signalSelf(t, syscall.SIGTERM)
	if code := <-exits; code != exitTerminated {
		t.Errorf("exit code %d, want %d", code, exitTerminated)
	}
}

// TestExploreSignal runs lipton explore on a search that never ends (this
// test binary as lipton, TestMain), waits for its first progress line —
// the search is running — and sends it SIGINT or SIGTERM: it must print
// its partial statistics as INCOMPLETE and exit with 130 or 143. Should
// the signal be ignored, the memory limit still ends the child.
func TestExploreSignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no signals")
	}
	path := writeFile(t, "forever.lip", foreverSrc)
	for _, tc := range signalCases {
		t.Run(tc.reason, func(t *testing.T) {
			args := []string{"explore", path, "--max-states", "0", "--max-memory", "256MiB", "--progress", "1ms"}
			code, stdout, stderr := runSignaled(t, tc.sig, args, "explore: ")
			if code != tc.code {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			want := "INCOMPLETE: " + tc.reason + "; no violation in the part explored, which proves nothing: "
			// the signal may come after one transition ("1 transition")
			if !strings.Contains(stdout, want) || !strings.Contains(stdout, " transition") || !strings.Contains(stdout, ", depth ") {
				t.Errorf("stdout lacks %q and the statistics:\n%s", want, stdout)
			}
		})
	}
}

// runSignaled runs this test binary as lipton with args, sends it sig
// once its first line on stderr (a progress line starting with ready)
// has appeared, and returns its exit code and output.
func runSignaled(t *testing.T, sig os.Signal, args []string, ready string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childArgsEnv+"="+strings.Join(args, "\x1f"))
	var out bytes.Buffer
	cmd.Stdout = &out
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	errOut := bufio.NewReader(pipe)
	first, err := errOut.ReadString('\n')
	if err != nil || !strings.HasPrefix(first, ready) {
		rest, _ := io.ReadAll(errOut)
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("no progress line; stderr:\n%s%s\nstdout:\n%s", first, rest, out.String())
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(errOut)
	cmd.Wait()
	return cmd.ProcessState.ExitCode(), out.String(), first + string(rest)
}

// TestExploreDocWeakOutputs: every output block of docs/explore.md whose
// command runs a weak memory model is what that command prints today,
// up to timings and memory sizes.
func TestExploreDocWeakOutputs(t *testing.T) {
	data, err := os.ReadFile("../../docs/explore.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```\n\\$ lipton ([^\n]*--memory[^\n]*)\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) == 0 {
		t.Fatal("docs/explore.md shows no output of --memory")
	}
	for _, b := range blocks {
		args := strings.Fields(b[1])
		for i, a := range args {
			if strings.HasPrefix(a, "mc/") || strings.HasPrefix(a, "proofs/") {
				args[i] = "../../" + a
			}
		}
		_, stdout, _ := runCLI(args...)
		got := readmeVolatile.ReplaceAllString(strings.ReplaceAll(stdout, "../../", ""), "X")
		want := readmeVolatile.ReplaceAllString(b[2], "X")
		if got != want {
			t.Errorf("docs/explore.md: the output of %q is now\n%s\nthe doc says\n%s", b[1], strings.ReplaceAll(stdout, "../../", ""), b[2])
		}
	}
}

// timingRE matches the part of explore's last line that depends on the
// run: the time, the rate, the memory.
var timingRE = regexp.MustCompile(`(depth [0-9]+), [^\n]*states/s, [^\n]*`)

// TestExploreJobsSameOutput: explore prints the same verdict, counts
// and counterexample for every --jobs (but the time, rate and memory),
// for a violation, a search that passes and one stopped at the state
// limit.
func TestExploreJobsSameOutput(t *testing.T) {
	runs := [][]string{
		{"../../mc/testdata/counter.lip", "--instance", "two"},
		{"../../proofs/old/broken/incr-exactly-one.lip"},
		{"../../bench/mc/treiber.lip", "--instance", "medium"},
		{"../../bench/mc/chaselev.lip", "--instance", "small", "--max-states", "3000"},
	}
	for _, args := range runs {
		var first string
		for _, jobs := range []string{"1", "2", "4"} {
			code, stdout, stderr := runCLI(append([]string{"explore", "--quiet", "--jobs", jobs}, args...)...)
			if code != exitOK && code != exitFailed {
				t.Fatalf("%v --jobs %s: exit code %d\n%s", args, jobs, code, stderr)
			}
			out := timingRE.ReplaceAllString(stdout, "$1, ...")
			if !strings.Contains(out, "depth") {
				t.Fatalf("%v: no statistics line:\n%s", args, stdout)
			}
			if jobs == "1" {
				first = out
			} else if out != first {
				t.Errorf("%v: --jobs %s prints\n%s\n--jobs 1 prints\n%s", args, jobs, out, first)
			}
		}
	}
}

// TestExploreRefinementJobs checks that a refinement check uses --jobs
// workers, as a safety search does (its default, every core, too).
func TestExploreRefinementJobs(t *testing.T) {
	src, err := os.ReadFile(counterLin)
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := lang.ParseAndCheck(counterLin, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, lin := range []bool{true, false} {
		o := exploreOptions{instance: "two", jobs: 4, linearizability: lin}
		opts, err := o.mcOptions(info)
		if err != nil {
			t.Fatal(err)
		}
		if opts.Jobs != 4 {
			t.Errorf("linearizability %v, --jobs 4: %d workers", lin, opts.Jobs)
		}
	}
}

// TestExploreHashCompactNeverComplete checks that a search with hash
// compaction that finds no violation never says that every state was
// explored, and fails (exit 1), as every incomplete search does.
func TestExploreHashCompactNeverComplete(t *testing.T) {
	for _, args := range [][]string{
		{"explore", counterLin, "--instance", "two", "--hash-compact"},
		{"explore", counterLin, "--instance", "two", "--hash-compact", "--jobs", "2", "--no-por"},
	} {
		code, stdout, stderr := runCLI(args...)
		if code != exitFailed || strings.Contains(stdout, "every reachable state explored") || strings.Contains(stdout, "\nno violation:") ||
			!strings.Contains(stdout, "not exhaustive") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// wantInOrder fails the test unless stdout contains the fragments in
// this order.
func wantInOrder(t *testing.T, stdout string, frags []string) {
	t.Helper()
	rest := stdout
	for _, frag := range frags {
		i := strings.Index(rest, frag)
		if i < 0 {
			t.Fatalf("stdout lacks %q (in order)\nstdout:\n%s", frag, stdout)
		}
		rest = rest[i+len(frag):]
	}
}
