package mc

import (
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/lipton-dev/lipton/internal/randprog"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// envQuasiN selects the long run of TestQuasiMonotoneOnRandomPrograms.
const envQuasiN = "LIPTON_QUASI_N"

// TestQuasiMonotoneOnRandomPrograms: quasi linearizability relaxes
// linearizability, and a larger factor relaxes a smaller one. On the
// soundness test's random programs, whenever a search completes without
// violation, the same search with a larger factor for any method must
// complete without violation too (a history the identity permutation
// explains needs no reordering), and a violation at a factor implies one
// at every smaller factor; factor 0 is plain linearizability.
func TestQuasiMonotoneOnRandomPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("random programs take a while")
	}
	n, long, maxK := 8, false, 1
	if s := os.Getenv(envQuasiN); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("%s=%q: want a positive number", envQuasiN, s)
		}
		n, long, maxK = v, true, 2
	}
	compared := 0
	for i := 0; i < n; i++ {
		src := randprog.Generate(rand.New(rand.NewSource(int64(500_000 + i))))
		f, info, err := lang.ParseAndCheck("random.lip", []byte(src))
		if err != nil || len(info.Instances) == 0 {
			continue
		}
		prog := layers.Build(f, info)
		if len(prog.Layers) < 2 {
			continue
		}
		before := t.Failed()
		compared += compareQuasiFactors(t, prog, fmt.Sprintf("random program %d", 500_000+i), maxK)
		if t.Failed() && !before {
			t.Logf("program:\n%s", src)
		}
		if long && (i+1)%100 == 0 {
			fmt.Printf("%d programs, %d chains compared, failed: %v\n", i+1, compared, t.Failed())
		}
	}
	t.Logf("%d chains of factors compared", compared)
	if !long && compared < 5 {
		t.Errorf("only %d chains compared: the random programs lost their specifications", compared)
	}
}

// compareQuasiFactors checks, for each instance and each method the
// top layer's atomic actions allow to reorder, that the verdicts at
// factors 0..maxK are monotone, and that factor 0 agrees with plain
// linearizability; it returns the chains compared.
func compareQuasiFactors(t *testing.T, prog *layers.Program, name string, maxK int) int {
	n := 0
	var insts []string
	for inst := range prog.Info.Instances {
		insts = append(insts, inst)
	}
	sort.Strings(insts)
	for _, inst := range insts {
		plain, err := Run(prog, Options{Instance: inst, Mode: ModeLinearizability, MaxStates: 50_000})
		if err != nil || plain.Status == Incomplete {
			continue
		}
		for _, m := range prog.Info.PublicMethods() {
			prev := plain.Status
			chain := true
			for k := 0; k <= maxK && chain; k++ {
				res, err := Run(prog, Options{Instance: inst, Mode: ModeLinearizability, Quasi: map[string]int{m: k}, MaxStates: 50_000})
				if err != nil || res.Status == Incomplete {
					chain = false // not reorderable (a requires), or too big
					break
				}
				switch {
				case k == 0 && res.Status != plain.Status:
					t.Errorf("%s instance %s: %s=0 gives %v, plain linearizability %v", name, inst, m, res.Status, plain.Status)
				case k > 0 && prev == OK && res.Status != OK:
					t.Errorf("%s instance %s: %s=%d passes, %s=%d fails: %s", name, inst, m, k-1, m, k, res.Failure.Msg)
				}
				prev = res.Status
			}
			if chain {
				n++
			}
		}
	}
	return n
}
