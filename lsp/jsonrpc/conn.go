package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// Handler serves the methods of a connection.
type Handler interface {
	// Notify handles a notification, in the order messages arrive: the
	// next message is read when it returns.
	Notify(method string, params json.RawMessage)
	// Request starts to handle a request, in the order messages arrive:
	// it checks the parameters and takes what it needs of the server's
	// state, and returns the work that computes the result, which runs
	// on its own goroutine. An error (an *Error to choose its code) is
	// the response at once.
	Request(method string, params json.RawMessage) (Work, error)
}

// Work computes the result of a request. Its context is cancelled when
// the client cancels the request or the connection ends.
type Work func(ctx context.Context) (any, error)

// Conn is a JSON-RPC connection over a framed byte stream.
type Conn struct {
	in      *Reader
	handler Handler

	wmu sync.Mutex // serializes writes: every message is written whole
	out io.Writer

	mu      sync.Mutex
	pending map[string]context.CancelFunc // requests at work, by raw id
	stopped bool
	work    sync.WaitGroup
}

// NewConn returns a connection that reads messages of at most maxBody
// bytes (DefaultMaxBody if maxBody <= 0) from r, writes to w, and
// serves them with h.
func NewConn(r io.Reader, w io.Writer, maxBody int64, h Handler) *Conn {
	return &Conn{in: NewReader(r, maxBody), out: w, handler: h, pending: map[string]context.CancelFunc{}}
}

// Run reads and serves messages until the stream ends, Stop is called
// (by a handler), or reading fails. It then cancels the requests still
// at work and waits for them. It returns nil at the end of the stream
// or after Stop, and the stream's error otherwise.
func (c *Conn) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		c.work.Wait()
	}()
	for !c.isStopped() {
		body, err := c.in.Read()
		var fe *FrameError
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &fe):
			c.reply(null, nil, Errorf(CodeParseError, "%s", fe.Error()))
			continue
		case err != nil:
			return err
		}
		c.dispatch(ctx, body)
	}
	return nil
}

// Stop makes Run return after the message it is serving. Handlers call
// it (the exit notification); it does not interrupt a read.
func (c *Conn) Stop() {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
}

func (c *Conn) isStopped() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopped
}

// dispatch serves one message body.
func (c *Conn) dispatch(ctx context.Context, body []byte) {
	m, k, id, bad := decode(body)
	if bad != nil {
		c.reply(id, nil, bad)
		return
	}
	switch k {
	case kindResponse:
		return // the server sends no requests: nothing waits for a response
	case kindNotification:
		if *m.Method == "$/cancelRequest" {
			c.cancel(m.Params)
			return
		}
		c.safeNotify(*m.Method, m.Params)
		return
	}
	work, err := c.safeRequest(*m.Method, m.Params)
	if err != nil {
		c.reply(id, nil, err)
		return
	}
	wctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	c.pending[string(id)] = cancel
	c.mu.Unlock()
	c.work.Add(1)
	go func() {
		defer c.work.Done()
		res, err := safeWork(wctx, work)
		c.mu.Lock()
		delete(c.pending, string(id))
		c.mu.Unlock()
		if err != nil && wctx.Err() != nil {
			err = Errorf(CodeRequestCancelled, "the request was cancelled")
		}
		cancel()
		c.reply(id, res, err)
	}()
}

// cancel handles $/cancelRequest: it cancels the context of the request
// with the given id, if it is still at work.
func (c *Conn) cancel(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.ID) == 0 {
		return // a notification gets no error response
	}
	c.mu.Lock()
	cancel := c.pending[string(p.ID)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// internalError turns a handler's panic into an error response: a bug
// in lipton must not end the server, and the client is told what broke
// without a stack trace.
func internalError(r any) *Error {
	return Errorf(CodeInternalError, "internal error in lipton (a bug: please report it): %v", r)
}

func (c *Conn) safeNotify(method string, params json.RawMessage) {
	defer func() {
		if r := recover(); r != nil {
			// A notification has no response: tell the client's log.
			c.Notify("window/logMessage", map[string]any{"type": 1, "message": internalError(r).Message})
		}
	}()
	c.handler.Notify(method, params)
}

func (c *Conn) safeRequest(method string, params json.RawMessage) (w Work, err error) {
	defer func() {
		if r := recover(); r != nil {
			w, err = nil, internalError(r)
		}
	}()
	return c.handler.Request(method, params)
}

func safeWork(ctx context.Context, w Work) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, internalError(r)
		}
	}()
	return w(ctx)
}

// reply writes the response to the request id: err if it is not nil,
// else res.
func (c *Conn) reply(id json.RawMessage, res any, err error) {
	resp := response{JSONRPC: "2.0", ID: id}
	if err == nil {
		data, merr := json.Marshal(res)
		if merr != nil {
			err = Errorf(CodeInternalError, "the result cannot be encoded: %v", merr)
		} else {
			resp.Result = data
		}
	}
	if err != nil {
		var rpcErr *Error
		if !errors.As(err, &rpcErr) {
			rpcErr = &Error{Code: CodeInternalError, Message: err.Error()}
		}
		resp.Error = rpcErr
	}
	data, merr := json.Marshal(resp)
	if merr != nil {
		// Only an id that is not JSON could fail here, and decode
		// accepts none: answer without it rather than not at all.
		data, _ = json.Marshal(response{JSONRPC: "2.0", ID: null, Error: internalError(merr)})
	}
	c.write(data)
}

// Notify sends a notification to the client.
func (c *Conn) Notify(method string, params any) error {
	data, err := json.Marshal(notification{JSONRPC: "2.0", Method: method, Params: params})
	if err != nil {
		return err
	}
	return c.write(data)
}

func (c *Conn) write(body []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return WriteFrame(c.out, body)
}
