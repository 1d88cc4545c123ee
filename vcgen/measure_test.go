package vcgen

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"
)

func TestMeasureEncodings(t *testing.T) {
	if os.Getenv("MEASURE") == "" {
		t.Skip()
	}
	obs := typicalBatch(240)
	p, _ := NewProver()
	defer p.Close()
	cpus := map[Encoding][]time.Duration{}
	walls := map[Encoding][]time.Duration{}
	checks := map[Encoding]int{}
	for round := 0; round < 12; round++ {
		for _, enc := range []Encoding{PerAssert, Labelled} {
			w, c := time.Now(), cpuTime()
			for _, ob := range obs {
				p.Prove(context.Background(), ob, Options{Encoding: enc})
			}
			cpus[enc] = append(cpus[enc], (cpuTime()-c)/time.Duration(len(obs)))
			walls[enc] = append(walls[enc], time.Since(w)/time.Duration(len(obs)))
		}
	}
	_ = checks
	for _, enc := range []Encoding{PerAssert, Labelled} {
		c, w := cpus[enc], walls[enc]
		sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
		sort.Slice(w, func(i, j int) bool { return w[i] < w[j] })
		t.Logf("encoding %d: cpu median %v (min %v), wall median %v (min %v)", enc, c[len(c)/2], c[0], w[len(w)/2], w[0])
	}
}
