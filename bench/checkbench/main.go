// Command checkbench measures `lipton check` on every proof of the
// corpus: for each file it runs the checker several times and prints the
// number of obligations, the median wall time, and the median split into
// front end, obligation generation and solving.
//
// Usage (from the repository root, after building bin/lipton):
//
//	go run ./bench/checkbench [-runs 5] [-lipton bin/lipton] [DIR]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// report is the part of `lipton check --json` this command reads.
type report struct {
	File    string `json:"file"`
	Verdict string `json:"verdict"`
	Counts  []struct {
		Proven, Failed, Unknown, Skipped int
	} `json:"counts"`
	Times struct {
		FrontEnd   float64 `json:"front_end"`
		Generation float64 `json:"generation"`
		Solver     float64 `json:"solver"`
	} `json:"times"`
}

func main() {
	runs := flag.Int("runs", 5, "runs per file; the table shows medians")
	lipton := flag.String("lipton", "bin/lipton", "the lipton binary")
	flag.Parse()
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
	fmt.Fprintln(tw, "file\tverdict\tobligations\tskipped\twall (median)\tfront end\tgeneration\tsolver\t")
	for _, f := range files {
		row, err := measure(*lipton, f, *runs)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", f, err)
			os.Exit(1)
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
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

// measure runs the checker on one file and returns its table row.
func measure(lipton, file string, runs int) (string, error) {
	var wall, fe, gen, sol []float64
	var last report
	for i := 0; i < runs; i++ {
		start := time.Now()
		out, _ := exec.Command(lipton, "check", "--json", file).Output()
		wall = append(wall, time.Since(start).Seconds())
		var reps []report
		if err := json.Unmarshal(out, &reps); err != nil || len(reps) != 1 {
			return "", fmt.Errorf("cannot read lipton's JSON output: %v", err)
		}
		last = reps[0]
		fe, gen, sol = append(fe, last.Times.FrontEnd), append(gen, last.Times.Generation), append(sol, last.Times.Solver)
	}
	obligations, skipped := 0, 0
	for _, c := range last.Counts {
		obligations += c.Proven + c.Failed + c.Unknown
		skipped += c.Skipped
	}
	return fmt.Sprintf("%s\t%s\t%d\t%d\t%.2fs\t%.3fs\t%.3fs\t%.2fs\t", file, last.Verdict, obligations, skipped,
		median(wall), median(fe), median(gen), median(sol)), nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
