package main

import (
	"fmt"
	"strings"
	"testing"
)

// lspFrame frames a JSON-RPC message as an editor writes it.
func lspFrame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// TestLSPCommand runs lipton lsp on a whole session written in advance
// (its replies that need no solver are deterministic): initialize, a
// document with a syntax error, shutdown and exit.
func TestLSPCommand(t *testing.T) {
	session := lspFrame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`) +
		lspFrame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
		lspFrame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.lip","languageId":"lipton","version":1,"text":"var x: int = ;"}}}`) +
		lspFrame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`) +
		lspFrame(`{"jsonrpc":"2.0","method":"exit"}`)
	code, stdout, stderr := runCLIStdin(session, "lsp", "--no-cache")
	if code != exitOK || stderr != "" {
		t.Fatalf("lipton lsp: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{`"id":1,"result":{"capabilities":{`, `"serverInfo":{"name":"lipton","version":"` + version + `"}`,
		`"method":"textDocument/publishDiagnostics","params":{"uri":"file:///a.lip","version":1,"diagnostics":[{"range":{"start":{"line":0,"character":13},"end":{"line":0,"character":14}},"severity":1,"source":"lipton","message":"unexpected \";\", expected an expression"}]}`,
		`"method":"lipton/checked","params":{"uri":"file:///a.lip","version":1,"verdict":"error"`,
		`{"jsonrpc":"2.0","id":2,"result":null}`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the output lacks %s:\n%s", want, stdout)
		}
	}
	if code, _, stderr := runCLI("lsp", "x.lip"); code != exitBadInput || !strings.Contains(stderr, "lsp takes no FILE") {
		t.Errorf("lipton lsp x.lip: exit %d, %q", code, stderr)
	}
}
