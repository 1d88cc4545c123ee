package main

import (
	"strings"
	"testing"
)

// TestShowHTML: lipton show --html writes the page, with the swim lanes
// of a failed check, and exits as lipton check would; its flags go
// together only as the help says.
func TestShowHTML(t *testing.T) {
	code, stdout, stderr := runCLI("show", "--html", "--no-cache", "../../proofs/classic/broken/og-increment-noghost.lip")
	if code != exitFailed || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"<!DOCTYPE html>", `<th class="lane" data-thread="thread 1 (incA, at line 10)">`,
		`<div class="change">x: 0 -&gt; 2</div>`, "lipton check: 11 proven, 2 failed"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	code, stdout, _ = runCLI("show", "--html", "--explore", "../../proofs/civl/lipton-semaphore.lip")
	if code != exitOK || !strings.Contains(stdout, "no violation: every reachable state explored") {
		t.Errorf("lipton-semaphore.lip with --explore: exit %d", code)
	}
	for _, args := range [][]string{
		{"show", "--explore", "x.lip"},
		{"show", "--html", "--layer", "1", "x.lip"},
		{"show", "--html", "--instance", "small", "x.lip"},
	} {
		if code, _, stderr := runCLI(args...); code != exitBadInput || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
