package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFenceIsNoOpForCheck: the static checks assume sequential
// consistency, where a fence does nothing. The Chase-Lev proof with the
// fences that TSO and PSO need (in layer 0 only: refinement ignores
// fences as it ignores yields) is proven with exactly the obligations of
// the proof without them.
func TestFenceIsNoOpForCheck(t *testing.T) {
	const path = "../../proofs/chaselev/chaselev.lip"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	layer1 := strings.Index(text, "\nlayer 1 {")
	if layer1 < 0 {
		t.Fatal("no layer 1 in the Chase-Lev proof")
	}
	lower := strings.ReplaceAll(text[:layer1], "    [T := t; tics := true;]\n", "    [T := t; tics := true;]\n    fence;\n")
	lower = strings.Replace(lower, "    items[t] := task;\n", "    items[t] := task;\n    fence;\n", 1)
	if n := strings.Count(lower, "fence;"); n != 4 {
		t.Fatalf("%d fences inserted, want 4", n)
	}
	fenced := filepath.Join(t.TempDir(), "chaselev-fenced.lip")
	if err := os.WriteFile(fenced, []byte(lower+text[layer1:]), 0o644); err != nil {
		t.Fatal(err)
	}
	summary := regexp.MustCompile(`(?m)^total: [0-9]+ proven, [0-9]+ failed, [0-9]+ unknown, [0-9]+ skipped`)
	codeA, outA, errA := runCLI("check", path)
	codeB, outB, errB := runCLI("check", fenced)
	if codeA != exitOK || codeB != exitOK {
		t.Fatalf("exit codes %d and %d\n%s%s\n%s%s", codeA, codeB, outA, errA, outB, errB)
	}
	a, b := summary.FindString(outA), summary.FindString(outB)
	if a == "" || a != b {
		t.Errorf("the fences change the obligations: %q without, %q with", a, b)
	}
	if !strings.Contains(outB, "proven: layer 0 (ghost-erased) refines layer 3 atomic spec for put, take, steal") {
		t.Errorf("the fenced proof is not proven:\n%s", outB)
	}
}
