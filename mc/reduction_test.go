package mc

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// reductionBudget bounds each search of the corpus test; searches that
// reach it in some configuration are not compared.
const reductionBudget = 300_000

// TestReductionsPreserveVerdicts runs every instance of the corpus at
// every layer (and layer 0 against the top layer for linearizability)
// with and without partial-order and symmetry reduction, and requires
// the same verdict, failure kind and failure message each time.
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
	compared := 0
	for _, path := range paths {
		prog := progs[path]
		for inst := range prog.Info.Instances {
			for layer := range prog.Layers {
				compared += compareReductions(t, prog, path, Options{Instance: inst, Layer: layer})
			}
			if top := len(prog.Layers) - 1; top > 0 {
				compared += compareReductions(t, prog, path, Options{Instance: inst, Mode: ModeLinearizability})
			}
		}
	}
	if compared < 40 {
		t.Errorf("only %d searches compared: the corpus test lost its corpus", compared)
	}
}

// compareReductions runs one check in the four configurations and
// compares the verdicts; it returns 1 if it compared them.
func compareReductions(t *testing.T, prog *layers.Program, path string, opts Options) int {
	t.Helper()
	type verdict struct {
		status Status
		kind   string
	}
	var first *verdict
	var firstName string
	for _, cfg := range []struct {
		name         string
		noPOR, noSym bool
	}{{"por+sym", false, false}, {"por", false, true}, {"sym", true, false}, {"none", true, true}} {
		o := opts
		o.NoPOR, o.NoSymmetry, o.MaxStates = cfg.noPOR, cfg.noSym, reductionBudget
		res, err := Run(prog, o)
		if err != nil {
			t.Logf("%s %+v: %v (not compared)", path, opts, err)
			return 0
		}
		if res.Status == Incomplete {
			t.Logf("%s instance %s layer %d mode %d: over budget with %s (not compared)", path, opts.Instance, opts.Layer, opts.Mode, cfg.name)
			return 0
		}
		v := &verdict{status: res.Status}
		if res.Failure != nil {
			v.kind = res.Failure.Kind
			checkTrace(t, res)
		}
		if first == nil {
			first, firstName = v, cfg.name
			continue
		}
		if *v != *first {
			t.Errorf("%s instance %s layer %d mode %d: %s gives %+v, %s gives %+v",
				path, opts.Instance, opts.Layer, opts.Mode, firstName, *first, cfg.name, *v)
		}
	}
	return 1
}
