package smt

import (
	"github.com/lipton-dev/lipton/obl"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runZ3Binary runs the z3 binary on an SMT-LIB2 file and returns the
// verdicts its check-sat answers stand for.
func runZ3Binary(t *testing.T, file string) []obl.Verdict {
	t.Helper()
	z3, err := exec.LookPath("z3")
	if err != nil {
		t.Skip("z3 binary not installed")
	}
	out, err := exec.Command(z3, "-smt2", "-T:30", file).CombinedOutput()
	if err != nil {
		t.Fatalf("z3 %s: %v\n%s", file, err, out)
	}
	var vs []obl.Verdict
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		switch strings.TrimSpace(line) {
		case "unsat":
			vs = append(vs, obl.Proven)
		case "sat":
			vs = append(vs, obl.Failed)
		case "unknown", "timeout":
			vs = append(vs, obl.Unknown)
		case "":
		default:
			t.Fatalf("z3 %s: unexpected output %q", file, line)
		}
	}
	return vs
}

// TestSMT2AgreesWithBinary dumps every test obligation and checks that the
// z3 binary gives the verdicts the in-process binding gives.
func TestSMT2AgreesWithBinary(t *testing.T) {
	dir := t.TempDir()
	for _, c := range proveCases() {
		if err := WriteDump(dir, c.ob); err != nil {
			t.Fatal(err)
		}
		got := runZ3Binary(t, filepath.Join(dir, c.ob.Name+".smt2"))
		res := proveInProcess(t, c.ob, Options{})
		if len(got) != len(res.Results) {
			t.Fatalf("%s: z3 answered %d queries, want %d", c.ob.Name, len(got), len(res.Results))
		}
		for i, r := range res.Results {
			if got[i] != r.Verdict || got[i] != c.want[i] {
				t.Errorf("%s: assert %d: z3 binary %v, binding %v, want %v", c.ob.Name, i+1, got[i], r.Verdict, c.want[i])
			}
		}
		obl, err := os.ReadFile(filepath.Join(dir, c.ob.Name+".obl"))
		if err != nil || string(obl) != c.ob.String() {
			t.Errorf("%s.obl: %v, content differs from String()", c.ob.Name, err)
		}
	}
}

func TestSymbolQuoting(t *testing.T) {
	cases := map[string]string{
		"x":     "x",
		"x@1":   "x@1",
		"x'":    "|x'|",
		"1x":    "|1x|",
		"and":   "|and|",
		"a b":   "|a b|",
		"a|b":   "|a_b|",
		"t1.id": "t1.id",
	}
	for in, want := range cases {
		if got := symbol(in); got != want {
			t.Errorf("symbol(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriteDumpRejectsBadNames(t *testing.T) {
	for _, name := range []string{"", "a/b", "..", `a\b`} {
		ob := newOb(name, nil, assert(obl.True()))
		if err := WriteDump(t.TempDir(), ob); err == nil {
			t.Errorf("WriteDump accepted the name %q", name)
		}
	}
}
