package lsp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lipton-dev/lipton/lsp/jsonrpc"
)

// TestChangeCancelsCheck holds the check of version 1 until version 2
// has come, and checks that its context was cancelled by then and that
// only version 2's verdict is published.
func TestChangeCancelsCheck(t *testing.T) {
	release := make(chan struct{})
	cancelled := make(chan bool, 1)
	opts := Options{Jobs: 1, beforeSolve: func(ctx context.Context, uri string, version int) {
		if version != 1 {
			return
		}
		<-release
		select {
		case <-ctx.Done():
			cancelled <- true
		default:
			cancelled <- false
		}
	}}
	e := startEditor(t, opts)
	e.initialize()
	const uri = "file:///work/a.lip"
	e.open(uri, 1, readProof(t, "classic/broken/og-increment-noghost.lip"))
	e.change(uri, 2, readProof(t, "classic/og-increment.lip"))
	// The server handles messages in order: once it answers a request
	// sent after the change, it has applied the change.
	e.call("textDocument/documentSymbol", map[string]any{"textDocument": textDoc(uri)})
	close(release)
	select {
	case c := <-cancelled:
		if !c {
			t.Error("the check of version 1 was not cancelled by the change to version 2")
		}
	case <-time.After(safety):
		t.Fatal("the check of version 1 did not start")
	}
	if p := e.waitChecked(uri, 2); p.Verdict != "proven" {
		t.Errorf("version 2: %+v", p)
	}
	if v := e.diagVersion[uri]; v == 1 {
		t.Error("diagnostics of the cancelled version 1 were published")
	}
	e.shutdown()
}

// TestBadMessages sends what no editor should, and checks that each
// gets an error response and that the server goes on.
func TestBadMessages(t *testing.T) {
	e := startEditor(t, Options{Jobs: 1})
	if resp := e.call("textDocument/hover", posParams("file:///x.lip", 0, 0)); errorCode(resp) != jsonrpc.CodeServerNotInitialized {
		t.Errorf("a request before initialize: %v", resp)
	}
	e.initialize()
	for _, c := range []struct {
		method string
		params any
		code   int
	}{
		{"textDocument/hover", "not an object", jsonrpc.CodeInvalidParams},
		{"textDocument/hover", nil, jsonrpc.CodeInvalidParams},
		{"textDocument/definition", posParams("file:///not-open.lip", 0, 0), jsonrpc.CodeInvalidParams},
		{"workspace/symbol", map[string]any{}, jsonrpc.CodeMethodNotFound},
		{"initialize", map[string]any{}, jsonrpc.CodeInvalidRequest},
	} {
		if resp := e.call(c.method, c.params); errorCode(resp) != c.code {
			t.Errorf("%s %v: %v, want error %d", c.method, c.params, resp, c.code)
		}
	}
	// Garbage on the stream: a parse error with a null id.
	jsonrpc.WriteFrame(e.in, []byte("{garbage"))
	if m := e.next(); errorCode(m) != jsonrpc.CodeParseError || m["id"] != nil {
		t.Errorf("garbage: %v", m)
	}
	// A notification with bad parameters, a change of a closed document,
	// a position far beyond the text: no crash, and the server answers.
	e.notify("textDocument/didOpen", []int{1})
	e.change("file:///closed.lip", 2, "x")
	const uri = "file:///y.lip"
	e.open(uri, 1, "layer 0 {}\n")
	var h *Hover
	e.result(e.call("textDocument/hover", posParams(uri, 1000, 1000)), &h)
	if h != nil {
		t.Errorf("hover beyond the text: %+v", h)
	}
	// Requests after shutdown are refused; exit ends the server with 0.
	e.call("shutdown", nil)
	if resp := e.call("textDocument/hover", posParams(uri, 0, 0)); errorCode(resp) != jsonrpc.CodeInvalidRequest ||
		!strings.Contains(resp["error"].(map[string]any)["message"].(string), "shut down") {
		t.Errorf("a request after shutdown: %v", resp)
	}
	e.notify("exit", nil)
	if code := <-e.exit; code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestExitWithoutShutdown: exit without shutdown ends with 1.
func TestExitWithoutShutdown(t *testing.T) {
	e := startEditor(t, Options{Jobs: 1})
	e.initialize()
	e.notify("exit", nil)
	select {
	case code := <-e.exit:
		if code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
	case <-time.After(safety):
		t.Fatal("the server did not exit")
	}
}
