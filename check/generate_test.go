package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// checkGeneration generates the obligations of src (if it is a valid
// program) and validates each: well sorted, every variable declared,
// names unique. A malformed obligation would be reported as unknown at
// best; it is a bug.
func checkGeneration(t *testing.T, name string, src []byte) {
	f, info, err := lang.ParseAndCheck(name, src)
	if err != nil {
		return
	}
	obs := Generate(layers.Build(f, info), -1).Obligations
	names := map[string]bool{}
	for _, ob := range obs {
		if err := ob.Validate(); err != nil {
			t.Fatalf("%s: obligation %s is malformed: %v\n%s", name, ob.Name, err, ob)
		}
		if names[ob.Name] {
			t.Fatalf("%s: two obligations named %s", name, ob.Name)
		}
		names[ob.Name] = true
	}
}

// seedPrograms returns the corpus proofs and the front end's good files.
func seedPrograms(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	for _, pattern := range []string{"../proofs/*/*.lip", "../proofs/*/broken/*.lip", "../lang/testdata/good/*.lip"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			if src, err := os.ReadFile(f); err == nil {
				out[f] = src
			}
		}
	}
	return out
}

// TestGenerationIsWellFormed validates every obligation of every program
// of the corpus.
func TestGenerationIsWellFormed(t *testing.T) {
	seeds := seedPrograms(t)
	if len(seeds) < 10 {
		t.Fatalf("only %d seed programs found", len(seeds))
	}
	for name, src := range seeds {
		checkGeneration(t, name, src)
	}
}

// FuzzGenerate mutates valid programs: whatever passes the front end must
// give well-formed obligations without a panic.
func FuzzGenerate(f *testing.F) {
	for _, src := range seedPrograms(f) {
		f.Add(string(src))
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Count(src, "\n") > 400 {
			return
		}
		// A hang is a bug too; the fuzzing engine and go test's own
		// -timeout catch it (a watchdog here would fail on a busy
		// machine).
		checkGeneration(t, "fuzz.lip", []byte(src))
	})
}
