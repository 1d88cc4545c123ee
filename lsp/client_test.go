package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/lipton-dev/lipton/lsp/jsonrpc"
)

// safety bounds the waits that only a bug makes long: the machines that
// run the tests may be fully loaded, so it is minutes, and a test that
// reaches it fails loudly.
const safety = 5 * time.Minute

// editor drives a server over pipes as an editor does: framed JSON-RPC
// messages on the server's input, and every message it writes read
// back in order.
type editor struct {
	t      *testing.T
	in     *io.PipeWriter
	msgs   chan map[string]any
	nextID int
	exit   chan int // the server's exit code
	// diags holds the diagnostics published last, by URI.
	diags map[string][]Diagnostic
	// diagVersion is the version of the document they were published for.
	diagVersion map[string]int
}

func startEditor(t *testing.T, opts Options) *editor {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	e := &editor{t: t, in: inW, msgs: make(chan map[string]any, 100), exit: make(chan int, 1),
		diags: map[string][]Diagnostic{}, diagVersion: map[string]int{}}
	go func() {
		code, err := Serve(context.Background(), inR, outW, opts)
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
		outW.Close()
		e.exit <- code
	}()
	go func() {
		r := jsonrpc.NewReader(outR, 0)
		for {
			body, err := r.Read()
			if err != nil {
				close(e.msgs)
				return
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("the server wrote a body that is not JSON: %q", body)
				continue
			}
			e.msgs <- m
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return e
}

func (e *editor) send(msg map[string]any) {
	e.t.Helper()
	msg["jsonrpc"] = "2.0"
	body, err := json.Marshal(msg)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := jsonrpc.WriteFrame(e.in, body); err != nil {
		e.t.Fatalf("writing to the server: %v", err)
	}
}

func (e *editor) notify(method string, params any) {
	e.t.Helper()
	e.send(map[string]any{"method": method, "params": params})
}

// next returns the server's next message; it records diagnostics.
func (e *editor) next() map[string]any {
	e.t.Helper()
	select {
	case m, ok := <-e.msgs:
		if !ok {
			e.t.Fatal("the server closed its output")
		}
		if m["method"] == "textDocument/publishDiagnostics" {
			var p PublishDiagnosticsParams
			remarshal(e.t, m["params"], &p)
			e.diags[p.URI] = p.Diagnostics
			if p.Version != nil {
				e.diagVersion[p.URI] = *p.Version
			}
		}
		return m
	case <-time.After(safety):
		e.t.Fatalf("no message from the server in %s", safety)
	}
	return nil
}

// call sends a request and returns its response; notifications that
// come first are recorded.
func (e *editor) call(method string, params any) map[string]any {
	e.t.Helper()
	e.nextID++
	id := e.nextID
	e.send(map[string]any{"id": id, "method": method, "params": params})
	for {
		m := e.next()
		if m["method"] == nil && m["id"] == float64(id) {
			return m
		}
	}
}

// result decodes the result of a successful response into v.
func (e *editor) result(resp map[string]any, v any) {
	e.t.Helper()
	if resp["error"] != nil {
		e.t.Fatalf("error response: %v", resp["error"])
	}
	remarshal(e.t, resp["result"], v)
}

// waitChecked reads messages until lipton/checked for that version of
// the document, and returns it.
func (e *editor) waitChecked(uri string, version int) CheckedParams {
	e.t.Helper()
	for {
		m := e.next()
		if m["method"] != "lipton/checked" {
			continue
		}
		var p CheckedParams
		remarshal(e.t, m["params"], &p)
		if p.URI == uri && p.Version == version {
			return p
		}
		if p.URI == uri && p.Version > version {
			e.t.Fatalf("lipton/checked for version %d, while waiting for %d", p.Version, version)
		}
	}
}

func remarshal(t *testing.T, from, to any) {
	t.Helper()
	data, err := json.Marshal(from)
	if err == nil {
		err = json.Unmarshal(data, to)
	}
	if err != nil {
		t.Fatalf("decoding %v: %v", from, err)
	}
}

func textDoc(uri string) map[string]any { return map[string]any{"uri": uri} }

func posParams(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": textDoc(uri), "position": Position{Line: line, Character: char}}
}

func (e *editor) open(uri string, version int, text string) {
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "lipton", "version": version, "text": text}})
}

func (e *editor) change(uri string, version int, text string) {
	e.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

func (e *editor) initialize() {
	e.t.Helper()
	var res initializeResult
	e.result(e.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}), &res)
	c := res.Capabilities
	if !c.HoverProvider || !c.DefinitionProvider || !c.DocumentSymbolProvider || !c.DocumentFormattingProvider || c.TextDocumentSync.Change != 1 {
		e.t.Fatalf("capabilities: %+v", c)
	}
	e.notify("initialized", map[string]any{})
}

// shutdown ends the session as an editor does, and checks the exit code.
func (e *editor) shutdown() {
	e.t.Helper()
	if resp := e.call("shutdown", nil); resp["error"] != nil || resp["result"] != nil {
		e.t.Fatalf("shutdown: %v", resp)
	}
	e.notify("exit", nil)
	select {
	case code := <-e.exit:
		if code != 0 {
			e.t.Fatalf("exit code %d after shutdown, want 0", code)
		}
	case <-time.After(safety):
		e.t.Fatal("the server did not exit")
	}
}

func errorCode(resp map[string]any) int {
	e, _ := resp["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return int(code)
}

func diagSummary(ds []Diagnostic) string {
	s := ""
	for _, d := range ds {
		s += fmt.Sprintf("\n  %d:%d-%d:%d %s", d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character, d.Message)
	}
	return s
}
