package smt

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"
)

// TestMeasureEncodings reproduces the measurements in the comment on
// Encoding's constants: CPU time per obligation of the benchmark batch,
// per encoding, over alternating rounds on one Prover. It runs only with
// VCGEN_MEASURE=1, since it measures rather than checks.
func TestMeasureEncodings(t *testing.T) {
	if os.Getenv("VCGEN_MEASURE") == "" {
		t.Skip("set VCGEN_MEASURE=1 to measure the encodings")
	}
	obs := typicalBatch(240)
	p, err := NewProver()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	encodings := []Encoding{PerAssert, Labelled}
	cpu := map[Encoding][]time.Duration{}
	for round := 0; round < 12; round++ {
		for _, enc := range encodings {
			c := cpuTime()
			for _, ob := range obs {
				p.Prove(context.Background(), ob, Options{Encoding: enc})
			}
			cpu[enc] = append(cpu[enc], (cpuTime()-c)/time.Duration(len(obs)))
		}
	}
	for _, enc := range encodings {
		c := cpu[enc]
		sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
		t.Logf("encoding %d: CPU per obligation median %v, best %v", enc, c[len(c)/2], c[0])
	}
}
