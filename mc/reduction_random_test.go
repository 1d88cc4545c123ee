package mc

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"testing"

	"github.com/lipton-dev/lipton/internal/randprog"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// envReductionsN selects the long run of TestReductionsOnRandomPrograms:
//
//	LIPTON_REDUCTIONS_N=5000 LIPTON_REDUCTIONS_SEED=0 \
//	    go test -run TestReductionsOnRandomPrograms -timeout 0 ./mc
const (
	envReductionsN    = "LIPTON_REDUCTIONS_N"
	envReductionsSeed = "LIPTON_REDUCTIONS_SEED"
)

// TestReductionsOnRandomPrograms is the corpus comparison of
// TestReductionsPreserveVerdicts on the differential soundness test's
// random programs (internal/randprog), which reach corners that the
// corpus, written by people, does not: partial-order and symmetry
// reduction must not change any verdict, in safety mode at each layer,
// in linearizability, at access atomicity and under weak memory. The
// short run checks a fixed set of seeds and fails if too few searches
// were compared.
func TestReductionsOnRandomPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("random programs take a while")
	}
	n, seed, long := 10, int64(0), false
	if s := os.Getenv(envReductionsN); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("%s=%q: want a positive number", envReductionsN, s)
		}
		n, long = v, true
		if s := os.Getenv(envReductionsSeed); s != "" {
			if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
				t.Fatalf("%s=%q: want a number", envReductionsSeed, s)
			}
		}
	}
	compared := 0
	for i := 0; i < n; i++ {
		src := randprog.Generate(rand.New(rand.NewSource(seed + int64(i))))
		f, info, err := lang.ParseAndCheck("random.lip", []byte(src))
		if err != nil || len(info.Instances) == 0 {
			continue
		}
		prog := layers.Build(f, info)
		path := "random program " + strconv.FormatInt(seed+int64(i), 10)
		before := t.Failed()
		compared += compareRandom(t, prog, path)
		if t.Failed() && !before {
			t.Logf("%s:\n%s", path, src)
			if long {
				fmt.Printf("DISAGREEMENT %s:\n%s\n", path, src)
			}
		}
		if long && (i+1)%100 == 0 {
			fmt.Printf("%d programs, %d searches compared, failed: %v\n", i+1, compared, t.Failed())
		}
	}
	t.Logf("%d searches compared in every configuration", compared)
	if !long && compared < 40 {
		t.Errorf("only %d searches compared: the random programs lost their instances", compared)
	}
}

// compareRandom compares the reductions on every search of prog that
// TestReductionsPreserveVerdicts makes of a corpus file.
func compareRandom(t *testing.T, prog *layers.Program, path string) int {
	n := 0
	top := len(prog.Layers) - 1
	for inst := range prog.Info.Instances {
		for layer := range prog.Layers {
			n += int(compareReductions(t, prog, path, Options{Instance: inst, Layer: layer}))
		}
		if top == 0 {
			continue
		}
		for _, o := range []Options{
			{Instance: inst, Mode: ModeLinearizability},
			{Instance: inst, Mode: ModeLinearizability, Atomicity: AtomicityAccess},
			{Instance: inst, Atomicity: AtomicityAccess},
			{Instance: inst, Memory: MemoryTSO},
			{Instance: inst, Mode: ModeLinearizability, Memory: MemoryPSO},
		} {
			n += int(compareReductions(t, prog, path, o))
		}
	}
	return n
}
