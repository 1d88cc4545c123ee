package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// quantifiedSeqs compares and appends sequences under quantifiers: the
// facts the encoding adds about sequence terms (smt/seqaxioms.go) must
// not mention a quantifier's variable outside it, which once left the
// SMT-LIB2 dump with undeclared constants.
const quantifiedSeqs = `var m: [int][]int;
var q: []int = []int{};

layer 0 {
  proc p()
    requires forall i: int :: m[i] == []int{}
  {
    assert forall i: int :: len(m[i]) == 0 && append(q, i)[len(q)] == i;
  }
}
`

// TestSequenceDumpsAgreeWithZ3 dumps proven programs with sequences and
// runs the z3 binary on every SMT-LIB2 file: each must be accepted, and
// every query of an obligation other than a vacuity witness must be
// unsat (proven), as lipton's own verdict says.
func TestSequenceDumpsAgreeWithZ3(t *testing.T) {
	z3, err := exec.LookPath("z3")
	if err != nil {
		t.Skip("z3 binary not installed")
	}
	extra := filepath.Join(t.TempDir(), "quantified.lip")
	if err := os.WriteFile(extra, []byte(quantifiedSeqs), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"../../proofs/seq/lock-queue.lip", "../../proofs/seq/facts.lip", extra} {
		dir := t.TempDir()
		if code, _, errs := runCLI("check", "--no-cache", "--dump", dir, file); code != exitOK {
			t.Fatalf("%s: exit code %d: %s", file, code, errs)
		}
		dumps, _ := filepath.Glob(filepath.Join(dir, "*.smt2"))
		if len(dumps) == 0 {
			t.Fatalf("%s: no dump", file)
		}
		for _, d := range dumps {
			out, err := exec.Command(z3, "-smt2", "-T:60", d).CombinedOutput()
			text := string(out)
			if err != nil || strings.Contains(text, "error") {
				t.Errorf("%s: z3 rejects %s: %v\n%s", file, filepath.Base(d), err, text)
				continue
			}
			if strings.Contains(filepath.Base(d), "vacuity") {
				continue
			}
			for _, line := range strings.Fields(text) {
				if line != "unsat" {
					t.Errorf("%s: %s answers %s, want unsat for every query", file, filepath.Base(d), line)
				}
			}
		}
	}
}
