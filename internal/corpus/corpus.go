package corpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// Layers returns the layers of the corpus files that match patterns
// (globs relative to proofs/, which is at root), failing the test if a
// pattern matches nothing or a file does not parse and check.
func Layers(t testing.TB, root string, patterns []string) []*layers.Layer {
	t.Helper()
	var ls []*layers.Layer
	for _, pat := range patterns {
		files, err := filepath.Glob(filepath.Join(root, "proofs", pat))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no files (%v)", pat, err)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f, info, err := lang.ParseAndCheck(file, src)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			ls = append(ls, layers.Build(f, info).Layers...)
		}
	}
	return ls
}
