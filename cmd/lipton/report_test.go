package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

const brokenProof = "../../proofs/classic/broken/og-increment-noghost.lip"
const goodProof = "../../proofs/classic/og-increment.lip"

func TestCheckJSON(t *testing.T) {
	code, out, _ := runCLI("check", "--json", goodProof, brokenProof)
	if code != exitFailed {
		t.Errorf("exit code %d, want %d", code, exitFailed)
	}
	var files []jsonFile
	if err := json.Unmarshal([]byte(out), &files); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if len(files) != 2 || files[0].Verdict != "proven" || files[1].Verdict != "failed" {
		t.Fatalf("want proven then failed, got %+v", files)
	}
	if files[0].Claim != "layer 0 is safe" {
		t.Errorf("claim of the good proof: %q", files[0].Claim)
	}
	f := files[1].Findings
	if len(f) != 2 || f[0].Check != "non-interference" || !strings.HasSuffix(f[0].Positions[0], ":10:14") {
		t.Fatalf("findings of the broken proof: %+v", f)
	}
	if got := f[1].Counterexample["globals"]; len(got) != 1 || got[0] != "x = 1 -> 3" {
		t.Errorf("counterexample of the ensures failure: %v", f[1].Counterexample)
	}
}

func TestCheckGitHubFormat(t *testing.T) {
	code, out, _ := runCLI("check", "--format", "github", brokenProof)
	if code != exitFailed {
		t.Errorf("exit code %d, want %d", code, exitFailed)
	}
	var annotations []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "::") {
			annotations = append(annotations, line)
		}
	}
	want := "::error file=" + brokenProof + ",line=10,col=14::non-interference (layer 0): the requires of incA"
	if len(annotations) != 2 || !strings.HasPrefix(annotations[0], want) {
		t.Errorf("annotations:\n%s\nwant the first to start with\n%s", strings.Join(annotations, "\n"), want)
	}
}

func TestCheckDump(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := runCLI("check", "--dump", dir, goodProof); code != exitOK {
		t.Fatalf("exit code %d: %s", code, errs)
	}
	obl, _ := filepath.Glob(filepath.Join(dir, "*.obl"))
	smt, _ := filepath.Glob(filepath.Join(dir, "*.smt2"))
	if len(obl) == 0 || len(obl) != len(smt) {
		t.Fatalf("want one .obl and one .smt2 per obligation, got %d and %d", len(obl), len(smt))
	}
	text, err := os.ReadFile(smt[0])
	if err != nil || !strings.Contains(string(text), "(check-sat)") {
		t.Errorf("%s is not an SMT-LIB2 query: %v", smt[0], err)
	}
}

func TestCheckLayerFlag(t *testing.T) {
	code, out, _ := runCLI("check", "--layer", "1", "../../proofs/chaselev/chaselev.lip")
	if code != exitOK {
		t.Fatalf("exit code %d:\n%s", code, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  0 ") || strings.HasPrefix(line, "  2 ") {
			t.Errorf("--layer 1 reported another layer: %s", line)
		}
	}
	if !strings.Contains(out, "proven: the checked layer is safe") {
		t.Errorf("--layer must not claim refinement of the whole stack:\n%s", out)
	}
	if code, _, errs := runCLI("check", "--layer", "7", goodProof); code != exitBadInput || !strings.Contains(errs, "no layer 7") {
		t.Errorf("a missing layer: exit %d, %q", code, errs)
	}
}

func TestShow(t *testing.T) {
	code, out, _ := runCLI("show", "--layer", "1", "../../proofs/chaselev/chaselev.lip")
	if code != exitOK || !strings.Contains(out, "proc take1") || !strings.Contains(out, "atomic {") {
		t.Fatalf("show --layer 1: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("show", "--erase-ghost", "../../proofs/chaselev/chaselev.lip")
	if code != exitOK {
		t.Fatalf("show --erase-ghost: exit %d\n%s", code, out)
	}
	for _, line := range strings.Split(out, "\n") {
		code := strings.TrimSpace(line)
		if !strings.HasPrefix(code, "//") && (strings.Contains(code, "tics") || strings.HasPrefix(code, "layer 1")) {
			t.Errorf("show --erase-ghost must print layer 0 without ghost code; found: %s", line)
		}
	}
	dir := t.TempDir()
	erased := filepath.Join(dir, "erased.lip")
	if err := os.WriteFile(erased, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI("check", erased); code != exitOK {
		t.Errorf("the ghost-erased implementation must check: exit %d\n%s%s", code, out, errs)
	}
}

// TestShowPrivateLoopReturn: a fragment that may leave a private loop
// by a return inside it is shown going to the exit that way too, beside
// the path where the loop ends.
func TestShowPrivateLoopReturn(t *testing.T) {
	path := writeFile(t, "loop-return.lip", `var X: int = 0;
layer 0 {
  proc p(linear tid: int) ensures X == 0 {
    var i: int;
    i := 0;
    while (i < 3) { if (i == 1) { return; } i := i + 1; }
    yield;
  }
}
`)
	code, out, errs := runCLI("show", path)
	if code != exitOK {
		t.Fatalf("show: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"to the exit (ensures X == 0), by a return inside the loop at line 6\n",
		"to the yield at line 7 (true)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show prints no %q:\n%s", want, out)
		}
	}
}

// TestShowEraseKeepsInvariantArmYields: the ghost-erased text of a
// program whose parallel calls have yield-invariant arms keeps their
// yield points, so it checks as the proof does; without them (as
// --erase-ghost printed it before), its fragments merge and fail yield
// sufficiency, which shows that the yields are what makes it pass.
func TestShowEraseKeepsInvariantArmYields(t *testing.T) {
	path := writeFile(t, "inv-arms.lip", `var x: int = 0;
var y: int = 0;
ghost var g: int = 0;

yield invariant Pos(n: int) {
  x >= n;
  g >= 0;
}

layer 0 {
  atomic action a() { x := x + 1; g := g + 1; }
  atomic action b() { y := y + 1; }
  right action r() { y := y + 0; }

  proc p()
    requires x >= 0 && g >= 0
  {
    call a() | Pos(1);
    call b();
  }

  proc q()
    requires x >= 0 && g >= 0
  {
    call Pos(0) | a() | Pos(1) | r() | Pos(1);
  }
}
`)
	if code, out, errs := runCLI("check", path); code != exitOK {
		t.Fatalf("the proof must check: exit %d\n%s%s", code, out, errs)
	}
	code, erased, errs := runCLI("show", "--erase-ghost", path)
	if code != exitOK {
		t.Fatalf("show --erase-ghost: exit %d\n%s", code, errs)
	}
	for _, want := range []string{"call a();\n    yield;\n    call b();", "yield;\n    call a() | Yield() | r();\n    yield;"} {
		if !strings.Contains(erased, want) {
			t.Errorf("the erased program lacks %q:\n%s", want, erased)
		}
	}
	code, out, errs := runCLI("check", writeFile(t, "erased.lip", erased))
	if code != exitOK || !strings.Contains(out, "yield sufficiency     2       0") {
		t.Errorf("the erased program must check, yield sufficiency included: exit %d\n%s%s", code, out, errs)
	}
	dropped := strings.ReplaceAll(strings.ReplaceAll(erased, "    yield;\n", ""), " | Yield()", "")
	code, out, _ = runCLI("check", writeFile(t, "dropped.lip", dropped))
	if code != exitFailed || strings.Count(out, "error: yield sufficiency") != 2 {
		t.Errorf("without the yields, both procedures must fail yield sufficiency: exit %d\n%s", code, out)
	}
}

// TestUnknownIsNeverProven: an obligation the solver cannot decide
// within its resource limit is reported as unknown, with exit code 1.
func TestUnknownIsNeverProven(t *testing.T) {
	path := writeFile(t, "hard.lip", `
var x: int = 1;
var y: int = 1;
var z: int = 1;

layer 0 {
  atomic action fermat(linear tid: int)
    requires x > 0 && y > 0 && z > 0
  {
    assert x * x * x + y * y * y != z * z * z;
  }
}
`)
	code, out, _ := runCLI("check", "--rlimit", "5000", path)
	if code != exitFailed {
		t.Errorf("exit code %d, want %d", code, exitFailed)
	}
	if !strings.Contains(out, "unknown: sequential (layer 0): this assertion may fail") ||
		!strings.Contains(out, "the solver could not decide it") || strings.Contains(out, "proven:") {
		t.Errorf("want an unknown verdict and no proven line:\n%s", out)
	}
}

// signalCases are the signals that stop a run, with the exit code and
// the reason each must report.
var signalCases = []struct {
	sig    syscall.Signal
	code   int
	reason string
}{
	{syscall.SIGINT, exitInterrupted, "interrupted (SIGINT)"},
	{syscall.SIGTERM, exitTerminated, "terminated (SIGTERM)"},
}

// TestCheckSignal: Ctrl-C or SIGTERM stops lipton check while the solver
// runs (a query Z3 does not finish); it prints what was decided, the
// asserts not decided in one line, and exits with 130 or 143. The
// signal is sent when the first progress line shows that the solver
// runs, not after some time.
func TestCheckSignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no signals")
	}
	path := writeFile(t, "fermat.lip", fermat)
	for _, tc := range signalCases {
		t.Run(tc.reason, func(t *testing.T) {
			code, stdout, stderr := runSignaled(t, tc.sig, []string{"check", "--progress", path}, "check: ")
			if code != tc.code {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(stdout, "not decided: "+tc.reason) || !strings.Contains(stdout, "total: ") || strings.Contains(stdout, "proven:") {
				t.Errorf("stdout lacks the summary or the not-decided line:\n%s", stdout)
			}
		})
	}
}
