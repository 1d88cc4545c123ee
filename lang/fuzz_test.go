package lang

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseCheck feeds arbitrary bytes to the parser and the checker.
// Nothing may panic; every error must carry a position and its source
// line; and a file that parses must format to a file that parses to the
// same tree, checks the same way, and formats to itself.
//
// The seed corpus is in testdata/fuzz/FuzzParseCheck (regenerate it with
// go test -run TestWriteFuzzCorpus -write-fuzz-corpus ./lang); the good
// files are added here as well.
func FuzzParseCheck(f *testing.F) {
	for _, g := range goodFiles(f) {
		f.Add(g.src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.lip", src)
		if err != nil {
			checkErrorList(t, "parse", err, src)
			return
		}
		_, err1 := Check(file)
		if err1 != nil {
			checkErrorList(t, "check", err1, src)
		}
		out := Format(file)
		file2, err := Parse("fuzz.lip", out)
		if err != nil {
			t.Fatalf("formatted source does not parse: %v\n--- input:\n%s\n--- formatted:\n%s", err, src, out)
		}
		if d := diffAST(file, file2); d != "" {
			t.Fatalf("formatting changed the tree at %s\n--- input:\n%s\n--- formatted:\n%s", d, src, out)
		}
		if got, want := commentTexts(file2), commentTexts(file); !equalStrings(got, want) {
			t.Fatalf("formatting changed the comments:\n got %q\nwant %q\n--- formatted:\n%s", got, want, out)
		}
		_, err2 := Check(file2)
		if n1, n2 := countErrors(err1), countErrors(err2); n1 != n2 {
			t.Fatalf("%d check errors before formatting, %d after:\n%v\n---\n%v\n--- formatted:\n%s", n1, n2, err1, err2, out)
		}
		if err1 == nil {
			if c1, c2 := classes(file), classes(file2); !equalStrings(c1, c2) {
				t.Fatalf("statement classes changed by formatting: %q vs %q", c1, c2)
			}
		}
		if out2 := Format(file2); !bytes.Equal(out, out2) {
			t.Fatalf("formatting is not idempotent\n--- first:\n%s\n--- second:\n%s", out, out2)
		}
	})
}

// checkErrorList checks that err is a non-empty ErrorList whose errors
// have valid positions inside src and carry their source lines.
func checkErrorList(t *testing.T, phase string, err error, src []byte) {
	t.Helper()
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("%s: error is not a non-empty ErrorList: %v", phase, err)
	}
	lines := bytes.Count(src, []byte("\n")) + 1
	for _, e := range list {
		if !e.Pos.IsValid() || e.Pos.Col < 1 || e.Pos.Line > lines {
			t.Fatalf("%s: error without a valid position: %q at %+v", phase, e.Msg, e.Pos)
		}
		if e.Line != SourceLine(src, e.Pos.Line) {
			t.Fatalf("%s: error %v carries line %q, want %q", phase, e, e.Line, SourceLine(src, e.Pos.Line))
		}
		if e.Msg == "" {
			t.Fatalf("%s: error without a message at %v", phase, e.Pos)
		}
	}
	_ = list.Error()
}

func countErrors(err error) int {
	var list ErrorList
	errors.As(err, &list)
	return len(list)
}

func commentTexts(f *File) []string {
	var texts []string
	for _, c := range f.Comments {
		texts = append(texts, c.Text)
	}
	return texts
}

// classes lists the class of every procedure statement, in order.
func classes(f *File) []string {
	var out []string
	for _, l := range f.Layers {
		for _, m := range l.Members {
			if p, ok := m.(*Proc); ok {
				Inspect(p.Body.Stmts, func(s Stmt) bool {
					out = append(out, fmt.Sprintf("%T:%s", s, Base(s).Class))
					return true
				})
			}
		}
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fuzzRegressions are inputs that once broke the front end, found by
// hand or by other tests; they join the seed corpus.
var fuzzRegressions = []string{
	"layer 0 { foo }",
	"function f(x: int): int { g(x) }\nfunction g(y: int): int { y }",
	"layer 0 { proc p() { call q(true); } proc q(x: int) {} }",
	"layer 0 { proc p() { right while (*) { } left choice { } or { } } }",
	"var m: [int]int;\nvar x: int = -(4[1]) + -(4)[1 := 2][3];",
	"function f(ghost x: int): int { x }\nvar y: int = ;",
	"var x: bool = exists a, b: int, c: bool :: c;",
	"const A: int = f();\nfunction f(): int { A }",
	"layer 1 {}\nlayer 2 {}\nlayer 2 {}",
	"var x: int; // crlf\r\nvar y: int;\r\n",
	"var x: int = " + strings.Repeat("(", 1200) + "1" + strings.Repeat(")", 1200) + ";",
	"var x: bool = " + strings.Repeat("!", 1200) + "true;",
	"layer 0 { proc p() { var x: bool; if (x) {} " + strings.Repeat("else if (x) {} ", 1100) + "} }",
	"var m: " + strings.Repeat("[int]", 1100) + "int;",
}

var writeFuzzCorpus = flag.Bool("write-fuzz-corpus", false, "rewrite the seed files of testdata/fuzz/FuzzParseCheck")

// TestWriteFuzzCorpus writes the good files, the bad inputs of this
// package's tests and the examples of the language reference as seeds of
// FuzzParseCheck. Seeds of crashes found by fuzzing (named by their hash)
// are kept.
func TestWriteFuzzCorpus(t *testing.T) {
	if !*writeFuzzCorpus {
		t.Skip("run with -write-fuzz-corpus to rewrite the seed corpus")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzParseCheck")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old, _ := filepath.Glob(filepath.Join(dir, "seed-*"))
	for _, p := range old {
		os.Remove(p)
	}
	write := func(name string, src []byte) {
		data := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", src)
		if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range goodFiles(t) {
		write("good-"+strings.TrimSuffix(g.name, ".lip"), g.src)
	}
	for i, tc := range badCases {
		write(fmt.Sprintf("bad-%03d", i), []byte(tc.src))
	}
	for i, src := range fuzzRegressions {
		write(fmt.Sprintf("regress-%03d", i), []byte(src))
	}
	if _, err := os.Stat(docPath); err != nil {
		return
	}
	for i, b := range docBlocks(t) {
		write(fmt.Sprintf("doc-%03d", i), []byte(b.src))
	}
}
