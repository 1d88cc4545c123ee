package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinearMovesExplore runs explore, the independent oracle, on the
// proofs of linear_in procedures and moves: the proven ones have no
// violation (explore checks in every state that no identity is held
// twice, so a move or a call that failed to empty the caller's variable
// would be reported), and the broken variant whose annotation relies on
// an identity given away is refuted with a trace; and on the linear
// maps of proofs/linmap, with the broken variants explore can refute.
func TestLinearMovesExplore(t *testing.T) {
	cases := []struct {
		file string
		code int
		want []string
	}{
		{"../../proofs/linear/proc-linear-in.lip", exitOK, []string{"no violation: every reachable state explored"}},
		{"../../proofs/linear/proc-linear-in-refined.lip", exitOK, []string{"no violation: every reachable state explored"}},
		{"../../proofs/linear/broken/proc-yield-after-give.lip", exitFailed,
			[]string{"error: interference: the annotation of the yield at line 42 in finish", "line 41 in finish: call release(a, i);", "VIOLATION"}},
		// Linear maps: explore's runtime check compares the maps' keys
		// (their dom), so a key kept in the free map or given to both
		// parts of a split is reported as duplicated.
		{"../../proofs/linmap/heap-cells.lip", exitOK, []string{"no violation: every reachable state explored"}},
		{"../../proofs/linmap/split-join.lip", exitOK, []string{"no violation: every reachable state explored"}},
		{"../../proofs/linmap/shadow.lip", exitOK, []string{"no violation: every reachable state explored"}},
		{"../../proofs/civl/alloc-mem.lip", exitOK, []string{"no violation: every reachable state explored"}},
		{"../../proofs/linmap/broken/alloc2-keeps-cell.lip", exitFailed,
			[]string{"error: linearity: after a step of w(0), w(0)'s p (in work) and the linear global free both hold 1: an identity was duplicated", "VIOLATION"}},
		{"../../proofs/linmap/broken/split-duplicates.lip", exitFailed,
			[]string{"error: linearity: after a step of w(0), w(0)'s b (in work) and w(0)'s a (in work) both hold", "VIOLATION"}},
		// A duplicated key that exists only between two threads' steps
		// which touch no common global: partial-order reduction must
		// not run one thread alone past it.
		{"../../proofs/linmap/broken/invent-por.lip", exitFailed,
			[]string{"error: linearity: after a step of y(1), y(1)'s h (in b) and x(0)'s h (in a) both hold 0: an identity was duplicated", "VIOLATION"}},
		// An action whose moves are right only under an invariant, run
		// inside a fragment where a right mover broke it.
		{"../../proofs/linmap/broken/linearity-invariant.lip", exitFailed,
			[]string{"error: linearity: after a step of x(0), x(0)'s h (in a) and the linear global free both hold 10", "VIOLATION"}},
		// An identity of an enumeration is named in the message.
		{"../../proofs/linmap/broken/enum-keeps-key.lip", exitFailed,
			[]string{"error: linearity: after a step of w(0), w(0)'s h (in work) and the linear global free both hold A", "VIOLATION"}},
		// Pools of one domain that overlap from the start.
		{"../../proofs/linmap/broken/pools-overlap.lip", exitFailed,
			[]string{"error: linearity: after a step of x(0), the linear global spare and the linear global free both hold 0", "VIOLATION"}},
		{"../../proofs/linmap/broken/read-unowned.lip", exitFailed,
			[]string{"error: assert: the requires of action read may not hold at this call", "VIOLATION"}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			code, stdout, stderr := runCLI("explore", tc.file)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			wantInOrder(t, stdout, tc.want)
		})
	}
}

// TestLinearBoolIdentityNamed: explore names an identity of domain bool
// as a bool, here a thread's identity true that a linear global map
// keyed by bool holds.
func TestLinearBoolIdentityNamed(t *testing.T) {
	src := `type Heap = record { dom: [bool]bool, val: [bool]int };

linear var free: Heap = Heap([bool]bool(false)[true := true], [bool]int(0));

layer 0 {
  right action alloc() returns (linear h: Heap)
  {
    assume free.dom[true];
    free.dom[true] := false;
    h := Heap([bool]bool(false)[true := true], [bool]int(0));
  }

  public proc work(linear t: bool)
  {
    linear var h: Heap;
    call h := alloc();
  }
}

instance one {
  thread w(t = 1..1) calls work max 1;
  ints 0..1;
}
`
	path := filepath.Join(t.TempDir(), "bool.lip")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("explore", path)
	want := "w(1) calls work with t holding true, which the linear global free holds"
	if code != exitFailed || !strings.Contains(stdout, want) {
		t.Fatalf("exit code %d, want %d and %q\nstdout:\n%s\nstderr:\n%s", code, exitFailed, want, stdout, stderr)
	}
}

// TestLinearInReturnExplore runs explore on the proofs where a call
// gives a variable to a linear_in parameter and receives an output in
// it (`call a := use(a, i, v);`): explore empties the variable when the
// callee starts and writes the output when it returns, so the proofs
// have no violation (with access atomicity too, where the parallel call
// of the arm proof is not supported), and the broken variants are
// refuted: an output left empty is an empty a after the call, and an
// identity returned twice or kept in a global is duplicated.
func TestLinearInReturnExplore(t *testing.T) {
	const dir = "../../proofs/linear/"
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{dir + "proc-linear-in-return.lip"}, exitOK, []string{"no violation: every reachable state explored"}},
		{[]string{"--atomicity", "access", dir + "proc-linear-in-return.lip"}, exitOK, []string{"no violation: every reachable state explored"}},
		{[]string{dir + "proc-linear-in-return-arm.lip"}, exitOK, []string{"no violation: every reachable state explored"}},
		{[]string{dir + "proc-linear-in-return-refined.lip"}, exitOK, []string{"no violation: every reachable state explored"}},
		{[]string{"--atomicity", "access", dir + "proc-linear-in-return-refined.lip"}, exitOK, []string{"no violation: every reachable state explored"}},
		{[]string{dir + "broken/return-empty.lip"}, exitFailed,
			[]string{"38:14: error: annotation: the ensures of use (or a layer invariant) does not hold", "VIOLATION"}},
		{[]string{"--atomicity", "access", dir + "broken/return-empty.lip"}, exitFailed,
			[]string{"51:5: error: assert: the requires of action write may not hold at this call", "VIOLATION"}},
		{[]string{dir + "broken/return-keeps-copy.lip"}, exitFailed,
			[]string{"error: linearity: after a step of w(0), w(0)'s r (in use) and the linear global kept both hold 0: an identity was duplicated", "VIOLATION"}},
		{[]string{dir + "broken/return-twice.lip"}, exitFailed,
			[]string{"error: linearity: after a step of w(0), w(0)'s s (in use) and w(0)'s r (in use) both hold 0: an identity was duplicated", "VIOLATION"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"explore"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			wantInOrder(t, stdout, tc.want)
		})
	}
}
