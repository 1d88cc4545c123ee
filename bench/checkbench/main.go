package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
)

func main() {
	runs := flag.Int("runs", 5, "runs per file; the table shows medians")
	jobs := flag.Int("jobs", 0, "solver workers (0: one per CPU)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of every run to this file")
	memProfile := flag.String("memprofile", "", "write an allocation profile of every run to this file")
	flag.Parse()
	if *cpuProfile != "" {
		stop, err := startProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer stop()
	}
	if *memProfile != "" {
		runtime.MemProfileRate = 4096
		defer writeMemProfile(*memProfile)
	}
	dir := "proofs"
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	files, err := corpus(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "file\tverdict\tobligations\tskipped\tCPU (median)\twall (median)\tfront end\tgeneration\tsolver\t")
	for _, f := range files {
		row, err := measure(f, *runs, *jobs)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", f, err)
			os.Exit(1)
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
}

// startProfile starts Go's CPU profiler; Z3's own work runs in C and
// shows as cgo calls in the profile.
func startProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// writeMemProfile writes the allocations of every run so far.
func writeMemProfile(path string) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}

func corpus(dir string) ([]string, error) {
	var files []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".lip") && !strings.Contains(p, "/broken/") {
			files = append(files, p)
		}
		return err
	})
	sort.Strings(files)
	return files, err
}

// sample is one run's measurements, in seconds.
type sample struct{ cpu, wall, frontEnd, generate, solve float64 }

// measure checks one file runs times and returns its table row.
func measure(file string, runs, jobs int) (string, error) {
	var samples []sample
	var last *check.Result
	for i := 0; i < runs; i++ {
		s, r, err := once(file, jobs)
		if err != nil {
			return "", err
		}
		samples, last = append(samples, s), r
	}
	verdict := "proven"
	if last.Failed() {
		verdict = "failed"
	}
	t := last.Totals()
	col := func(get func(sample) float64) float64 {
		xs := make([]float64, len(samples))
		for i, s := range samples {
			xs[i] = get(s)
		}
		return median(xs)
	}
	return fmt.Sprintf("%s\t%s\t%d\t%d\t%.2fs\t%.2fs\t%.3fs\t%.3fs\t%.2fs\t", file, verdict,
		t.Proven+t.Failed+t.Unknown, t.Skipped,
		col(func(s sample) float64 { return s.cpu }), col(func(s sample) float64 { return s.wall }),
		col(func(s sample) float64 { return s.frontEnd }), col(func(s sample) float64 { return s.generate }),
		col(func(s sample) float64 { return s.solve })), nil
}

// once parses, type-checks and checks file, as `lipton check` does.
func once(file string, jobs int) (sample, *check.Result, error) {
	cpu0 := cpuTime()
	start := time.Now()
	src, err := os.ReadFile(file)
	if err != nil {
		return sample{}, nil, err
	}
	f, info, err := lang.ParseAndCheck(file, src)
	if err != nil {
		return sample{}, nil, err
	}
	r, err := check.Run(context.Background(), f, info, check.Options{Layer: -1, Jobs: jobs}, time.Since(start))
	if err != nil {
		return sample{}, nil, err
	}
	return sample{
		cpu:      (cpuTime() - cpu0).Seconds(),
		wall:     r.Times.Total.Seconds(),
		frontEnd: r.Times.FrontEnd.Seconds(),
		generate: r.Times.Generate.Seconds(),
		solve:    r.Times.Solve.Seconds(),
	}, r, nil
}

// cpuTime is the user and system time this process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
