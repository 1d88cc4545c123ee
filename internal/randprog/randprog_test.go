package randprog

import (
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/lang"
)

// TestGenerateValid checks that generated programs almost always parse
// and type-check, that their layer 0 respects access atomicity, and that
// a seed determines its program.
func TestGenerateValid(t *testing.T) {
	const n = 300
	valid := 0
	for seed := int64(0); seed < n; seed++ {
		src := Generate(rand.New(rand.NewSource(seed)))
		if again := Generate(rand.New(rand.NewSource(seed))); again != src {
			t.Fatalf("seed %d: two generations differ", seed)
		}
		f, _, err := lang.ParseAndCheck("gen.lip", []byte(src))
		if err != nil {
			t.Logf("seed %d: %v", seed, err)
			continue
		}
		valid++
		if !AccessAtomic(f) {
			t.Errorf("seed %d: layer 0 has a statement with several accesses outside [ ]:\n%s", seed, src)
		}
	}
	if valid < n*95/100 {
		t.Errorf("only %d of %d generated programs are valid", valid, n)
	}
}

// TestGenerateVaries checks that the generator uses what it offers:
// every layout, discipline, shape and perturbation appears.
func TestGenerateVaries(t *testing.T) {
	want := []string{
		"two layers", "fine-grained, reduced, spec", "impl, spec, abstracted spec",
		"atomic)", "locked)", "owner)", "slot)", "read-only)",
		"method p: operations", "compare-and-swap\n", "compare-and-swap loop", "owner only",
		"split into single accesses", "gated by", "tagged", "stays true", "// mutant (",
		"right [assume !lk", "both ", "yield ", "while (true)", ": choice", "call acquire(tid);",
		"right [havoc t", "invariant x >= 0;",
	}
	var all strings.Builder
	for seed := int64(0); seed < 400; seed++ {
		all.WriteString(Generate(rand.New(rand.NewSource(seed))))
	}
	for _, w := range want {
		if !strings.Contains(all.String(), w) {
			t.Errorf("no generated program contains %q", w)
		}
	}
}

// corpusProofs reads the base proofs of the corpus. Files the front end
// rejects (`// expect: error at N`, such as CIVL's tests of its parallel
// call rules in proofs/civl) have no checked tree to mutate.
func corpusProofs(t *testing.T) map[string]string {
	out := map[string]string{}
	err := filepath.Walk("../../proofs", func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".lip") && !strings.Contains(path, "/broken/") {
			src, rerr := os.ReadFile(path)
			// translations the front end rejects (proofs/civl) are no proofs
			if !strings.HasPrefix(string(src), "// expect: error") {
				out[path] = string(src)
			}
			return rerr
		}
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("reading the corpus: %v (%d files)", err, len(out))
	}
	return out
}

// TestMutateCorpus mutates every corpus proof many times: mutants must
// parse, almost all type-check, each says what changed, and every kind of
// mutation is used.
func TestMutateCorpus(t *testing.T) {
	proofs := corpusProofs(t)
	var paths []string
	for p := range proofs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	kinds := map[string]int{}
	total, typed := 0, 0
	for i, path := range paths {
		for seed := int64(0); seed < 15; seed++ {
			r := rand.New(rand.NewSource(int64(i)*1000 + seed))
			mutant, ok := Mutate(r, proofs[path])
			if !ok {
				t.Fatalf("%s: no mutation", path)
			}
			total++
			head, _, _ := strings.Cut(mutant, "\n")
			kind, _, found := strings.Cut(strings.TrimPrefix(head, "// mutant ("), ")")
			if !strings.HasPrefix(head, "// mutant (") || !found {
				t.Fatalf("%s: mutant without header: %q", path, head)
			}
			kinds[kind]++
			if _, err := lang.Parse("mutant.lip", []byte(mutant)); err != nil {
				t.Fatalf("%s seed %d: the mutant does not parse: %v\n%s", path, seed, err, head)
			}
			if _, _, err := lang.ParseAndCheck("mutant.lip", []byte(mutant)); err == nil {
				typed++
			}
		}
	}
	if typed < total*9/10 {
		t.Errorf("only %d of %d mutants type-check", typed, total)
	}
	for _, k := range []string{MutMover, MutDropYield, MutWeakenAnn, MutStrengthAnn, MutWeakenGate,
		MutStrengthGate, MutSpecGate, MutRequiresFalse, MutReorder, MutDropCAS, MutConstant,
		MutOperator, MutLessEq, MutDropAssume, MutDropAssert, MutDropStmt, MutLinearMode} {
		if kinds[k] == 0 {
			t.Errorf("no mutant of kind %q", k)
		}
	}
}

// TestMutateInvalid checks that a file that does not type-check is not
// mutated.
func TestMutateInvalid(t *testing.T) {
	if _, ok := Mutate(rand.New(rand.NewSource(1)), "var x: int = true;"); ok {
		t.Error("mutated a file that does not type-check")
	}
}

// TestAccessAtomic checks the access-atomicity rule on small layer-0
// procedures.
func TestAccessAtomic(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"x := 1;", true},
		{"r := x;", true},
		{"x := x + 1;", false},
		{"[x := x + 1;]", true},
		{"r := x + y;", false},
		{"m[r] := r;", true},
		{"m[x] := 1;", false},
		{"g := x;", true}, // g is ghost: not an access
		{"assume x > 0 && y > 0;", false},
		{"r := twice();", false}, // a function reading a global
		{"if (*) { x := x + 1; }", false},
		{"choice { [x := x + 1;] } or { r := x; }", true},
	} {
		src := `var x: int; var y: int; var m: [int]int; ghost var g: int;
function twice(): int { x + x }
layer 0 { proc p() returns (r: int) { ` + tc.body + ` } }`
		f, _, err := lang.ParseAndCheck("a.lip", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if got := AccessAtomic(f); got != tc.want {
			t.Errorf("%s: AccessAtomic = %v, want %v", tc.body, got, tc.want)
		}
	}
}
