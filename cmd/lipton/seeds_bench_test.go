package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSeedsBenchModels runs the models of bench/seeds.sh on small
// instances, so that they stay valid programs with the verdicts the
// papers report: the correct algorithms pass, Treiber's stack with reused
// nodes fails (ABA), and so does the segmented queue (it is only quasi
// linearizable).
func TestSeedsBenchModels(t *testing.T) {
	for _, c := range []struct {
		file, instance string
		want           int // exit code: 0 no violation, 1 a violation
		message        string
	}{
		{"register.lip", "k4", exitOK, "no violation: every reachable state explored"},
		{"register.lip", "k3readers2", exitOK, "no violation: every reachable state explored"},
		{"msqueue.lip", "two_by_two", exitOK, "no violation: every reachable state explored"},
		{"hwqueue.lip", "two_by_two", exitOK, "no violation: every reachable state explored"},
		{"treiber-aba.lip", "two_by_three", exitFailed, "but no linearization of the history by the atomic actions of layer 1 explains it"},
		{"segqueue.lip", "two_by_two", exitFailed, "returns from deq with v = 2, but no linearization of the history by the atomic actions of layer 1 explains it"},
	} {
		var out, errs bytes.Buffer
		code := run([]string{"explore", "--quiet", "--linearizability", "--instance", c.instance, "../../bench/seeds/" + c.file}, &out, &errs)
		if code != c.want || !strings.Contains(out.String(), c.message) {
			t.Errorf("%s %s: exit %d, want %d and %q:\n%s%s", c.file, c.instance, code, c.want, c.message, out.String(), errs.String())
		}
	}
}
