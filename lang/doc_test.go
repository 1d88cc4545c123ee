package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docPath is the language reference, whose examples must all be valid.
var docPath = filepath.Join("..", "docs", "language.md")

type docBlock struct {
	line int // line of the opening fence
	src  string
}

// docBlocks returns the ```lip code blocks of the language reference.
// Blocks fenced with ```lip-fragment are deliberately partial and are
// skipped.
func docBlocks(tb testing.TB) []docBlock {
	tb.Helper()
	data, err := os.ReadFile(docPath)
	if err != nil {
		tb.Fatal(err)
	}
	var blocks []docBlock
	var cur *docBlock
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && trimmed == "```lip":
			cur = &docBlock{line: i + 1}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.src += line + "\n"
		}
	}
	if cur != nil {
		tb.Fatalf("%s:%d: code block is not closed", docPath, cur.line)
	}
	return blocks
}

func TestDocExamples(t *testing.T) {
	blocks := docBlocks(t)
	if len(blocks) < 20 {
		t.Errorf("%s has %d lip examples, want at least 20", docPath, len(blocks))
	}
	for _, b := range blocks {
		name := fmt.Sprintf("language.md block %d", b.line)
		f, _, err := ParseAndCheck(name, []byte(b.src))
		if err != nil {
			t.Errorf("example at line %d:\n%v", b.line, err)
			continue
		}
		// The examples are printed the way lipton fmt would print them,
		// up to the alignment of trailing comments.
		if d := diffAST(f, mustParse(t, Format(f))); d != "" {
			t.Errorf("example at line %d does not survive formatting: %s", b.line, d)
		}
	}
}

// TestDocFragments keeps the partial examples few.
func TestDocFragments(t *testing.T) {
	data, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "```lip-fragment"); n > 6 {
		t.Errorf("%d lip-fragment blocks; make examples complete", n)
	}
}

func mustParse(t *testing.T, src []byte) *File {
	t.Helper()
	f, err := Parse("t.lip", src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return f
}
