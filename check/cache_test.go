package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/vccache"
)

// runCached checks a source with the given cache (nil: none) and limit.
func runCached(t *testing.T, name, src string, cache *vccache.Dir, rlimit uint64) *Result {
	t.Helper()
	f, info, err := lang.ParseAndCheck(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), f, info, Options{Layer: -1, RLimit: rlimit, Cache: cache}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// summary is what a run reports: its tally and its findings' messages.
func summary(r *Result) string {
	var b strings.Builder
	for _, k := range sortedKeys(r.Tally) {
		c := r.Tally[k]
		fmt.Fprintf(&b, "%d %s: %d proven, %d failed, %d unknown, %d skipped\n", k.Layer, k.Check, c.Proven, c.Failed, c.Unknown, c.Skipped)
	}
	for _, f := range r.Findings {
		b.WriteString(f.Msg + "\n")
	}
	return b.String()
}

// TestCacheAnswersOnlyWhatItProved checks the cache of proven
// obligations: a second run of a proven file is answered from the cache
// with the same report; a run of a broken variant in the same cache
// re-solves what changed and fails as it does without a cache (a cached
// "proven" never answers a different obligation); a failing obligation is
// never stored; moving the text (comments, line shifts) keeps every key,
// and another resource limit changes them all.
func TestCacheAnswersOnlyWhatItProved(t *testing.T) {
	good := readProof(t, "../proofs/classic/og-increment.lip")
	broken := readProof(t, "../proofs/classic/broken/og-increment-wrongpost.lip")
	dir, err := vccache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cold := runCached(t, "good.lip", good, dir, 0)
	if cold.Cached != 0 || cold.Failed() {
		t.Fatalf("cold run: %d cached, failed %v", cold.Cached, cold.Failed())
	}
	warm := runCached(t, "good.lip", good, dir, 0)
	if warm.Cached == 0 || summary(warm) != summary(cold) {
		t.Errorf("warm run: %d cached; report\n%s\nwant\n%s", warm.Cached, summary(warm), summary(cold))
	}
	shifted := runCached(t, "good.lip", "// a comment\n\n// that moves every line\n"+good, dir, 0)
	if shifted.Cached != warm.Cached {
		t.Errorf("moving the text: %d cached, want %d", shifted.Cached, warm.Cached)
	}
	if other := runCached(t, "good.lip", good, dir, DefaultRLimit/2); other.Cached != 0 {
		t.Errorf("another resource limit: %d cached, want 0", other.Cached)
	}
	want := summary(runCached(t, "broken.lip", broken, nil, 0))
	for i := 0; i < 2; i++ { // the second time, nothing failing may come from the cache
		got := runCached(t, "broken.lip", broken, dir, 0)
		if !got.Failed() || summary(got) != want {
			t.Errorf("broken variant, run %d with the cache:\n%s\nwant\n%s", i+1, summary(got), want)
		}
	}
}

func readProof(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCacheCorpus runs every proof of the corpus, and every other broken
// variant, with a cache of its own (a run looks every key up before it
// stores any, so this is the report without a cache), then merges the
// caches into one and runs each file again with it, in reverse order:
// every report must be the same. The broken variants are halved (a fixed
// half, in file order) to keep the suite within its budget: the checks of
// the whole corpus run in cmd/lipton's TestProofCorpus, and the half here
// still covers every directory and every kind of failure the cache must
// hand back.
// Sharing one cache across files is what makes the test strong: two
// files' obligations with the same formulas but different questions (a
// witness assert is answered the other way round) once collided.
func TestCacheCorpus(t *testing.T) {
	paths, err := filepath.Glob("../proofs/*/*.lip")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../proofs/*/broken/*.lip")
	for i, p := range more {
		if i%2 == 0 {
			paths = append(paths, p)
		}
	}
	shared := t.TempDir()
	dir, err := vccache.Open(shared)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for i, p := range paths {
		src := readProof(t, p)
		if _, _, err := lang.ParseAndCheck(p, []byte(src)); err != nil {
			continue // rejected by the front end: nothing to cache
		}
		own, err := vccache.Open(filepath.Join(t.TempDir(), fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		r := runCached(t, p, src, own, 0)
		if r.Cached != 0 {
			t.Fatalf("%s: a fresh cache answered %d obligations", p, r.Cached)
		}
		want[p] = summary(r)
		mergeInto(t, own.Root(), shared)
	}
	hits := 0
	for _, p := range reversed(paths) {
		w, ok := want[p]
		if !ok {
			continue
		}
		r := runCached(t, p, readProof(t, p), dir, 0)
		hits += r.Cached
		if got := summary(r); got != w {
			t.Errorf("%s with the shared cache:\n%s\nwith its own:\n%s", p, got, w)
		}
	}
	if hits == 0 {
		t.Error("the cache answered nothing")
	}
}

// mergeInto copies the entries of one cache directory into another.
func mergeInto(t *testing.T, from, to string) {
	t.Helper()
	entries, _ := filepath.Glob(filepath.Join(from, "*", "*"))
	for _, e := range entries {
		rel, _ := filepath.Rel(from, e)
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

// TestCacheKeyBoundVariable checks that renaming the declared constants
// for the key never captures a quantifier's bound variable: a bound
// variable named c0 once made `forall c0 :: c0 <= x` (false) and
// `forall c0 :: c0 <= c0` (valid) one key, and a cached proof of the
// second answered the first.
func TestCacheKeyBoundVariable(t *testing.T) {
	src := func(e string) string {
		return "var x: int = 0;\n\nlayer 0 {\n  proc p(linear tid: int)\n  {\n    var t: int;\n    atomic [assert (forall c0: int :: " + e + "); t := x;]\n  }\n}\n"
	}
	dir, err := vccache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if valid := runCached(t, "valid.lip", src("c0 <= c0"), dir, 0); valid.Failed() {
		t.Fatalf("the valid assert fails:\n%s", summary(valid))
	}
	want := summary(runCached(t, "false.lip", src("c0 <= x"), nil, 0))
	got := runCached(t, "false.lip", src("c0 <= x"), dir, 0)
	if !got.Failed() || summary(got) != want {
		t.Errorf("the false assert with the cache:\n%s\nwant\n%s", summary(got), want)
	}
}
