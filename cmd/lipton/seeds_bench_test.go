package main

import (
	"bytes"
	"os"
	"path/filepath"
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
		{"buggyqueue.lip", "smallest", exitFailed, "consumer(2)  call deq(tid = 2)\n  producer(1)  return from enq\n  producer(1)  call enq(tid = 1, v = 2)\n  producer(1)  return from enq\n  consumer(2)  return from deq: v = 2\n"},
	} {
		var out, errs bytes.Buffer
		code := run([]string{"explore", "--quiet", "--linearizability", "--instance", c.instance, "../../bench/seeds/" + c.file}, &out, &errs)
		if code != c.want || !strings.Contains(out.String(), c.message) {
			t.Errorf("%s %s: exit %d, want %d and %q:\n%s%s", c.file, c.instance, code, c.want, c.message, out.String(), errs.String())
		}
	}
}

// TestBuggyQueueControl: the buggy queue's violation is the bug the
// papers describe, the dequeuer's help that swings Head past a slot it
// read empty before it was filled. With the help made conditional on the
// slot being unchanged since it was read, the model is linearizable.
func TestBuggyQueueControl(t *testing.T) {
	src, err := os.ReadFile("../../bench/seeds/buggyqueue.lip")
	if err != nil {
		t.Fatal(err)
	}
	help := "[if (Head == h) { Head := h + 1; }]\n        }"
	if strings.Count(string(src), help) != 1 {
		t.Fatalf("buggyqueue.lip: the help step %q is not there once", help)
	}
	fixed := strings.Replace(string(src), help, "[if (Head == h && sval[h % L] == hv && scnt[h % L] == hc) { Head := h + 1; }]\n        }", 1)
	path := filepath.Join(t.TempDir(), "fixed.lip")
	if err := os.WriteFile(path, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := run([]string{"explore", "--quiet", "--linearizability", "--instance", "smallest", path}, &out, &errs)
	if code != exitOK || !strings.Contains(out.String(), "no violation: every reachable state explored") {
		t.Errorf("fixed buggy queue: exit %d, want 0 and no violation:\n%s%s", code, out.String(), errs.String())
	}
}
