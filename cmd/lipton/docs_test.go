package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
)

// docExample is an example of docs/checks.md: a program, the check it
// must fail, and the first line of the report the doc shows.
type docExample struct {
	check, program, headline string
}

var docExampleRE = regexp.MustCompile("(?s)<!-- check: ([a-z -]+) -->\\s*```lip\\n(.*?)```\\s*```text\\n([^\\n]*)\\n")

func docExamples(t *testing.T) []docExample {
	src, err := os.ReadFile("../../docs/checks.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []docExample
	for _, m := range docExampleRE.FindAllStringSubmatch(string(src), -1) {
		out = append(out, docExample{check: m[1], program: m[2], headline: m[3]})
	}
	if len(out) < 12 {
		t.Fatalf("found %d examples in docs/checks.md, want one per check", len(out))
	}
	return out
}

// TestChecksDocExamples runs every example of docs/checks.md: it must
// fail exactly the documented check, with the documented first line.
func TestChecksDocExamples(t *testing.T) {
	for i, ex := range docExamples(t) {
		ex := ex
		t.Run(fmt.Sprintf("%d-%s", i, ex.check), func(t *testing.T) {
			f, info, err := lang.ParseAndCheck("example.lip", []byte(ex.program))
			if err != nil {
				t.Fatalf("example does not parse and type-check:\n%v", err)
			}
			// No wall-clock limit: Z3's resource limit bounds every
			// query, whatever the machine's load.
			r, err := runChecks(f, info, checkOptions{layer: -1, jobs: 1}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Findings) == 0 {
				t.Fatalf("example passes; want a %s failure", ex.check)
			}
			for _, fd := range r.Findings {
				if string(fd.Check) != ex.check || fd.Unknown {
					t.Errorf("example also fails %s: %s", fd.Check, findingLine(fd))
				}
			}
			got := headline(r.Findings[0])
			if got != ex.headline {
				t.Errorf("first line of the report:\n got: %s\nwant: %s", got, ex.headline)
			}
		})
	}
}

// headline is the first line printText prints for a finding, without
// colour.
func headline(f *check.Finding) string {
	word := "error"
	if f.Unknown {
		word = "unknown"
	}
	return fmt.Sprintf("%s: %s: %s (layer %d): %s", f.Pos[0], word, f.Check, f.Layer, f.Msg)
}

func TestHeadlineMatchesPrintedReport(t *testing.T) {
	f := &check.Finding{Check: "sequential", Layer: 2, Msg: "m", Pos: []lang.Pos{{File: "a.lip", Line: 3, Col: 4}}}
	r := &check.Result{File: &lang.File{}, Findings: []*check.Finding{f}}
	var b strings.Builder
	printFinding(&b, r.File.Src, f)
	if first := strings.SplitN(b.String(), "\n", 2)[0]; first != headline(f) {
		t.Errorf("printFinding prints %q, headline says %q", first, headline(f))
	}
}
