package mc

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// corpus returns every .lip file under proofs/ and mc/testdata that
// parses, type-checks and declares an instance.
func corpus(t *testing.T) map[string]*layers.Program {
	t.Helper()
	progs := map[string]*layers.Program{}
	for _, root := range []string{"../proofs", "testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lip") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			f, info, err := lang.ParseAndCheck(path, src)
			if err != nil || len(info.Instances) == 0 {
				return nil // broken on purpose, or nothing to explore
			}
			progs[path] = layers.Build(f, info)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return progs
}

// reductionBudget bounds each search of the corpus test; a search that
// reaches it without reductions (the largest configuration, run first) is
// not compared.
const reductionBudget = 240_000

// weakReductionBudget bounds the searches under weak memory.
const weakReductionBudget = 30_000

// TestReductionsPreserveVerdicts runs every instance of the corpus at
// every layer (and layer 0 against the top layer for linearizability,
// and layer 0 with access atomicity for both) without reductions, with
// all three (partial-order, symmetry, dead variables), with the first
// two together and with dead variables alone (the broken variants under
// proofs/*/broken: without, with all, and with dead variables alone),
// and requires the same verdict and
// failure kind each time, and with dead variables alone the same depth.
// Layer 0 also runs under TSO and PSO, for both, without reductions,
// with symmetry and dead variables, and with dead variables alone
// (partial-order reduction is off there).
func TestReductionsPreserveVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus runs take a while")
	}
	progs := corpus(t)
	var paths []string
	for p := range progs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var compared atomic.Int64
	seen := &seenSet{m: map[string]bool{}}
	t.Run("corpus", func(t *testing.T) {
		for _, path := range paths {
			prog := progs[path]
			t.Run(path, func(t *testing.T) {
				t.Parallel()
				for inst := range prog.Info.Instances {
					top := len(prog.Layers) - 1
					for layer := range prog.Layers {
						if seen.first(programText(prog, inst, layer, layer)) {
							compared.Add(compareReductions(t, prog, path, Options{Instance: inst, Layer: layer}))
						}
					}
					if top > 0 && seen.first(programText(prog, inst, 0, top)) {
						compared.Add(compareReductions(t, prog, path, Options{Instance: inst, Mode: ModeLinearizability}))
					}
					// Layer 0 with access atomicity, whose finer
					// transitions the reductions must respect too.
					if seen.first("access\n" + programText(prog, inst, 0, top)) {
						compared.Add(compareReductions(t, prog, path, Options{Instance: inst, Atomicity: AtomicityAccess}))
						if top > 0 {
							compared.Add(compareReductions(t, prog, path, Options{Instance: inst, Mode: ModeLinearizability, Atomicity: AtomicityAccess}))
						}
						// Layer 0 under weak memory, where symmetry
						// reduction permutes the store buffers with
						// the threads.
						for _, mm := range []Memory{MemoryTSO, MemoryPSO} {
							compared.Add(compareReductions(t, prog, path, Options{Instance: inst, Memory: mm}))
							if top > 0 {
								compared.Add(compareReductions(t, prog, path, Options{Instance: inst, Mode: ModeLinearizability, Memory: mm}))
							}
						}
					}
				}
			})
		}
	})
	n := compared.Load()
	t.Logf("%d distinct searches compared in every configuration", n)
	if n < 40 {
		t.Errorf("only %d searches compared: the corpus test lost its corpus", n)
	}
}

// compareReductions runs one check in the four configurations and
// compares the verdicts; it returns 1 if it compared them.
func compareReductions(t *testing.T, prog *layers.Program, path string, opts Options) int64 {
	t.Helper()
	var first *verdict
	var firstName string
	type config struct {
		name                 string
		noPOR, noSym, noDead bool
	}
	// Partial-order and symmetry reduction together (as before the
	// dead-variable reduction), dead variables alone, and all three:
	// four searches per comparison, as when there were two reductions.
	configs := []config{{"none", true, true, true}, {"all", false, false, false}, {"por+sym", false, false, true}, {"dead", true, true, false}}
	budget := reductionBudget
	switch {
	case opts.Memory != MemorySC:
		// Partial-order reduction is off under weak memory: symmetry
		// and dead variables, and dead variables alone, against none,
		// in a smaller budget (buffers multiply the states).
		configs, budget = []config{{"none", true, true, true}, {"sym+dead", true, false, false}, {"dead", true, true, false}}, weakReductionBudget
	case strings.Contains(path, "/broken/"):
		// variants of a proof: every reduction, and dead variables
		// alone, against none
		configs = []config{configs[0], configs[1], configs[3]}
	}
	for _, cfg := range configs {
		o := opts
		o.NoPOR, o.NoSymmetry, o.NoDeadVars, o.MaxStates = cfg.noPOR, cfg.noSym, cfg.noDead, budget
		res, err := runShared(prog, o)
		if err != nil {
			t.Logf("%s %+v: %v (not compared)", path, opts, err)
			return 0
		}
		if res.Status == Incomplete && !res.Vacuous {
			t.Logf("%s instance %s layer %d mode %d: over budget with %s (not compared)", path, opts.Instance, opts.Layer, opts.Mode, cfg.name)
			return 0
		}
		v := &verdict{status: res.Status, vacuous: res.Vacuous}
		if res.Failure != nil {
			v.kind, v.depth = res.Failure.Kind, len(res.Trace)
			checkTrace(t, res)
		}
		if first == nil {
			first, firstName = v, cfg.name
			continue
		}
		if !v.agrees(first) || cfg.name == "dead" && v.depth != first.depth {
			// The dead-variable reduction merges states with equal
			// futures: breadth-first search meets the first failure at
			// the same depth.
			t.Errorf("%s instance %s layer %d mode %d atomicity %s: %s gives %+v, %s gives %+v",
				path, opts.Instance, opts.Layer, opts.Mode, opts.Atomicity, firstName, *first, cfg.name, *v)
		}
	}
	return 1
}

// A verdict is what the reductions must preserve: the status, vacuity,
// and the kind of the failure found (with the length of its trace).
type verdict struct {
	status  Status
	vacuous bool
	kind    string
	depth   int
}

// agrees reports whether v and w have the same status, vacuity and failure
// kind, or are failures of different kinds found at the same depth (the
// depth alone may differ: partial-order reduction may make a failure's
// shortest trace longer). The search is breadth-first and stops at the
// first failure; when failures of two kinds are equally shallow, which one
// is met first depends on the order of the states in a level, which
// symmetry reduction changes (it stores a canonical representative), so
// either is a correct answer (proofs/linear/broken/recursion-yield-after-
// give.lip: an interference and an annotation failure at depth 9).
func (v *verdict) agrees(w *verdict) bool {
	if v.status != w.status || v.vacuous != w.vacuous {
		return false
	}
	return v.kind == w.kind || (v.kind != "" && w.kind != "" && v.depth == w.depth)
}

// seenSet remembers the programs already compared: the broken variants
// of a proof share most of its layers.
type seenSet struct {
	mu sync.Mutex
	m  map[string]bool
}

// first reports whether key is new, and remembers it.
func (s *seenSet) first(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m[key] {
		return false
	}
	s.m[key] = true
	return true
}

// programText is the source of what a search of layers lo and hi of an
// instance depends on: every declaration except the other layers.
func programText(prog *layers.Program, inst string, lo, hi int) string {
	f := prog.File
	var b strings.Builder
	b.WriteString(inst + "\n")
	for i, d := range f.Decls {
		end := len(f.Src)
		if i+1 < len(f.Decls) {
			end = f.Decls[i+1].Pos().Offset
		}
		if l, ok := d.(*lang.Layer); ok && l.Num != lo && l.Num != hi {
			continue
		}
		b.Write(f.Src[d.Pos().Offset:end])
	}
	return b.String()
}
