package cextable

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
)

// TestGroupsAsLiptonCheckPrintsThem: the counterexamples of
// og-increment-noghost.lip read as README.md shows lipton check print
// them.
func TestGroupsAsLiptonCheckPrintsThem(t *testing.T) {
	const path = "../proofs/classic/broken/og-increment-noghost.lip"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, info, err := lang.ParseAndCheck(path, src)
	if err != nil {
		t.Fatal(err)
	}
	r, err := check.Run(context.Background(), f, info, check.Options{Layer: -1, Jobs: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"globals: x = 0 -> 2", "thread 1 (incA, at line 10): tid = 1", "thread 2 (incB): tid = 2"},
		{"globals: x = 1 -> 3", "thread 1 (incA, at line 11): tid = 1", "thread 2 (incB): tid = 2"},
	}
	if len(r.Findings) != len(want) {
		t.Fatalf("%d findings, want %d", len(r.Findings), len(want))
	}
	for i, f := range r.Findings {
		var got []string
		for _, g := range Groups(f.Obligation, f.Cex) {
			got = append(got, g.Line())
		}
		if strings.Join(got, "\n") != strings.Join(want[i], "\n") {
			t.Errorf("finding %d:\n%s\nwant\n%s", i, strings.Join(got, "\n"), strings.Join(want[i], "\n"))
		}
	}
	if SourceName("x.t1@3") != "x" || SourceName("x") != "x" {
		t.Error("SourceName keeps the suffixes")
	}
}
