package refine

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestSplitDecisions: the copies of proofs/split/take.lip drop the ifs
// of take that their cases decide, each way the case decides it, and
// every split check is one obligation: the exhaustiveness of the cases
// and one per dropped if.
func TestSplitDecisions(t *testing.T) {
	src, err := os.ReadFile("../proofs/split/take.lip")
	if err != nil {
		t.Fatal(err)
	}
	prog := build(t, string(src))
	r := &refiner{prog: prog, lower: prog.Layers[0], upper: prog.Layers[1]}
	p := r.lower.Proc("take")
	want := map[string]string{
		"take1": "then@22",
		"take2": "else@22 then@30",
		"take3": "else@22 else@30",
	}
	for name, dec := range want {
		m := r.matchCopy(p, r.upper.Proc(name))
		if m == nil {
			t.Fatalf("%s does not match take: %v", name, r.diags)
		}
		var got []string
		for _, d := range m.split.decisions {
			branch := "else"
			if d.then {
				branch = "then"
			}
			got = append(got, branch+"@"+strconv.Itoa(d.ifStmt.Pos().Line))
		}
		if strings.Join(got, " ") != dec {
			t.Errorf("%s: decisions %v, want %s", name, got, dec)
		}
		if m.split.point.Pos().Line != 21 {
			t.Errorf("%s: split point at line %d, want 21 (h := H)", name, m.split.point.Pos().Line)
		}
	}
	obs, _, diags := refinement(prog, 0)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	n := 0
	for _, ob := range obs {
		if ob.Kind == Split {
			n++
		}
	}
	if n != 6 {
		t.Errorf("%d path splitting obligations, want 6 (exhaustiveness and 5 dropped ifs)", n)
	}
}

// TestSplitAtBottom: a split or peel clause at layer 0 is reported.
func TestSplitAtBottom(t *testing.T) {
	prog := build(t, `
var x: int = 0;
layer 0 {
  proc p(linear tid: int) split q when a > 0 { var a: int; a := x; }
  proc q(linear tid: int) peel { var a: int; a := x; }
}
`)
	ds := derivedAtBottom(prog.Layers[0])
	if len(ds) != 2 || ds[0].Check != Split || ds[1].Check != Peel {
		t.Fatalf("want a path splitting and a loop peeling diagnostic, got %v", ds)
	}
}
