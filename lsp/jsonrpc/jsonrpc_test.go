package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func TestReaderFrames(t *testing.T) {
	in := frame(`{"a":1}`) +
		"Content-Length: 3\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n[1]" + // \n line ends are accepted
		"\r\n" + frame(`"x"`) // a blank line between frames is harmless
	r := NewReader(strings.NewReader(in), 0)
	for _, want := range []string{`{"a":1}`, `[1]`, `"x"`} {
		got, err := r.Read()
		if err != nil || string(got) != want {
			t.Fatalf("Read = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := r.Read(); err != io.EOF {
		t.Fatalf("at the end: %v, want io.EOF", err)
	}
}

func TestReaderBadFramesAreSkipped(t *testing.T) {
	cases := map[string]string{
		"no length":    "Content-Type: x\r\n\r\n{\"lost\": true}\r\n",
		"bad length":   "Content-Length: -4\r\n\r\n",
		"no colon":     "garbage\r\n\r\n",
		"long line":    strings.Repeat("x", 3*maxHeaderLine) + "\r\n\r\n",
		"body too big": "Content-Length: 200\r\n\r\n" + strings.Repeat("y", 200),
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			r := NewReader(strings.NewReader(bad+frame(`{"ok":1}`)), 100)
			_, err := r.Read()
			var fe *FrameError
			if !errors.As(err, &fe) {
				t.Fatalf("first Read: %v, want a FrameError", err)
			}
			got, err := r.Read()
			if err != nil || string(got) != `{"ok":1}` {
				t.Fatalf("second Read = %q, %v; want the next good frame", got, err)
			}
		})
	}
}

func TestReaderEndInsideFrame(t *testing.T) {
	for _, in := range []string{"Content-Length: 10\r\n", "Content-Length: 10\r\n\r\n{}", "Content-Len"} {
		r := NewReader(strings.NewReader(in), 0)
		if _, err := r.Read(); err != io.ErrUnexpectedEOF {
			t.Errorf("Read(%q): %v, want io.ErrUnexpectedEOF", in, err)
		}
	}
}

// testHandler echoes requests, records notifications, blocks "block"
// until its context ends, and panics on "panic".
type testHandler struct {
	notes   chan string
	started chan struct{}
	conn    *Conn
}

func (h *testHandler) Notify(method string, params json.RawMessage) {
	switch method {
	case "exit":
		h.conn.Stop()
	case "boom":
		panic("notification boom")
	}
	h.notes <- method + " " + string(params)
}

func (h *testHandler) Request(method string, params json.RawMessage) (Work, error) {
	switch method {
	case "echo":
		return func(context.Context) (any, error) { return params, nil }, nil
	case "block":
		return func(ctx context.Context) (any, error) {
			close(h.started)
			<-ctx.Done()
			return nil, ctx.Err()
		}, nil
	case "panic":
		panic("request boom")
	case "later":
		return func(context.Context) (any, error) { panic("work boom") }, nil
	case "invalid":
		return nil, Errorf(CodeInvalidParams, "bad params")
	}
	return nil, Errorf(CodeMethodNotFound, "no method %s", method)
}

// client drives a Conn over pipes as an editor does.
type client struct {
	t    *testing.T
	w    *io.PipeWriter
	msgs chan map[string]any
	done chan error
}

func newClient(t *testing.T) (*client, *testHandler) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &testHandler{notes: make(chan string, 10), started: make(chan struct{})}
	conn := NewConn(inR, outW, 0, h)
	h.conn = conn
	c := &client{t: t, w: inW, msgs: make(chan map[string]any, 10), done: make(chan error, 1)}
	go func() { c.done <- conn.Run(context.Background()); outW.Close() }()
	go func() {
		r := NewReader(outR, 0)
		for {
			body, err := r.Read()
			if err != nil {
				close(c.msgs)
				return
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("the server wrote a body that is not JSON: %q", body)
			}
			c.msgs <- m
		}
	}()
	return c, h
}

func (c *client) send(raw string) {
	if _, err := io.WriteString(c.w, frame(raw)); err != nil {
		c.t.Fatal(err)
	}
}

// safety bounds a wait that only a bug makes long.
const safety = 5 * time.Minute

func (c *client) next() map[string]any {
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("the connection ended")
		}
		return m
	case <-time.After(safety):
		c.t.Fatal("no message from the server")
	}
	return nil
}

func errorCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return int(code)
}

func TestConn(t *testing.T) {
	c, h := newClient(t)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"x":[1,2]}}`)
	if m := c.next(); m["id"] != 1.0 || fmt.Sprint(m["result"]) != "map[x:[1 2]]" {
		t.Errorf("echo: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"note","params":3}`)
	c.send(`{"jsonrpc":"2.0","method":"note","params":4}`)
	for _, want := range []string{"note 3", "note 4"} {
		if got := <-h.notes; got != want {
			t.Errorf("notification %q, want %q (in order)", got, want)
		}
	}
	checks := []struct {
		send string
		code int
		id   any
	}{
		{`{not json`, CodeParseError, nil},
		{`[1,2]`, CodeInvalidRequest, nil},
		{`{"jsonrpc":"1.0","id":"a","method":"echo"}`, CodeInvalidRequest, "a"},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"echo"}`, CodeInvalidRequest, nil},
		{`{"jsonrpc":"2.0","id":2}`, CodeInvalidRequest, 2.0},
		{`{"jsonrpc":"2.0","id":3,"method":"nope"}`, CodeMethodNotFound, 3.0},
		{`{"jsonrpc":"2.0","id":4,"method":"invalid"}`, CodeInvalidParams, 4.0},
		{`{"jsonrpc":"2.0","id":5,"method":"panic"}`, CodeInternalError, 5.0},
		{`{"jsonrpc":"2.0","id":6,"method":"later"}`, CodeInternalError, 6.0},
	}
	for _, ch := range checks {
		c.send(ch.send)
		m := c.next()
		if errorCode(m) != ch.code || m["id"] != ch.id {
			t.Errorf("%s: got %v, want error %d with id %v", ch.send, m, ch.code, ch.id)
		}
	}
	// A panicking notification is logged, and the connection goes on.
	c.send(`{"jsonrpc":"2.0","method":"boom"}`)
	if m := c.next(); m["method"] != "window/logMessage" || !strings.Contains(fmt.Sprint(m["params"]), "notification boom") {
		t.Errorf("boom: %v", m)
	}
	// A frame without a length gets a parse error.
	io.WriteString(c.w, "Content-Type: x\r\n\r\n")
	if m := c.next(); errorCode(m) != CodeParseError {
		t.Errorf("bad frame: %v", m)
	}
	// A request cancelled by the client ends with RequestCancelled.
	c.send(`{"jsonrpc":"2.0","id":"b","method":"block"}`)
	<-h.started
	c.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"b"}}`)
	if m := c.next(); errorCode(m) != CodeRequestCancelled || m["id"] != "b" {
		t.Errorf("cancelled request: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(safety):
		t.Fatal("Run did not return after Stop")
	}
}
