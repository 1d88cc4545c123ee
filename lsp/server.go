package lsp

import (
	"context"
	"encoding/json"
	"io"
	"runtime"
	"sync"

	"github.com/lipton-dev/lipton/lsp/jsonrpc"
	"github.com/lipton-dev/lipton/vccache"
)

// Options configure the server.
type Options struct {
	// Version is lipton's version, for the client's log.
	Version string
	// Cache, if set, answers the obligations Z3 proved before (package
	// check); nil solves every obligation.
	Cache *vccache.Dir
	// Jobs is the number of solver workers of a check (0: one per CPU).
	Jobs int
	// RLimit is Z3's resource limit per query (0: check's default).
	RLimit uint64
	// MaxInput is the size limit of a document in bytes (0: 16 MiB, as
	// lipton check's default).
	MaxInput int64

	// beforeSolve, in tests, is called by the check of a version of a
	// document before it runs, and waits for what the test wants to do
	// meanwhile.
	beforeSolve func(ctx context.Context, uri string, version int)
}

const defaultMaxInput = 16 << 20

// Serve runs the server on a stream until the client sends exit or the
// stream ends. It returns the exit code: 0 if the client asked for a
// shutdown first, as the protocol says, 1 otherwise.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) (int, error) {
	if opts.MaxInput <= 0 {
		opts.MaxInput = defaultMaxInput
	}
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &server{opts: opts, ctx: ctx, docs: map[string]*document{}}
	// A JSON body is at most a few times the text it carries.
	s.conn = jsonrpc.NewConn(r, w, 4*opts.MaxInput+1<<20, s)
	err := s.conn.Run(ctx)
	cancel()
	s.checks.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateShutDown {
		return 0, err
	}
	return 1, err
}

// The lifecycle of a server.
const (
	stateNew         = iota // before initialize
	stateInitialized        // serving
	stateShutDown           // after shutdown: only exit is expected
)

// server is the state of one connection.
type server struct {
	opts Options
	ctx  context.Context // ends with the connection
	conn *jsonrpc.Conn

	mu     sync.Mutex
	state  int
	docs   map[string]*document
	checks sync.WaitGroup // the checks at work
}

func errInvalidParams(msg string) error {
	return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "%s", msg)
}

// Notify implements jsonrpc.Handler.
func (s *server) Notify(method string, params json.RawMessage) {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if method == "exit" {
		s.conn.Stop()
		return
	}
	if state != stateInitialized {
		return // the protocol drops notifications before initialize
	}
	switch method {
	case "textDocument/didOpen":
		var p DidOpenParams
		if decodeParams(params, &p) == nil {
			s.update(p.TextDocument.URI, p.TextDocument.Version, true, func(string) (string, bool) { return p.TextDocument.Text, true })
		}
	case "textDocument/didChange":
		var p DidChangeParams
		if decodeParams(params, &p) == nil {
			s.update(p.TextDocument.URI, p.TextDocument.Version, false, func(old string) (string, bool) { return applyChanges(old, p.ContentChanges) })
		}
	case "textDocument/didClose":
		var p DidCloseParams
		if decodeParams(params, &p) == nil {
			s.close(p.TextDocument.URI)
		}
	}
	// Other notifications (initialized, didSave, $/setTrace, ...) need
	// nothing of lipton.
}

// Request implements jsonrpc.Handler.
func (s *server) Request(method string, params json.RawMessage) (jsonrpc.Work, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case method == "initialize":
		if s.state != stateNew {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "the server is already initialized")
		}
		s.state = stateInitialized
		return done(s.initializeResult()), nil
	case s.state == stateNew:
		return nil, jsonrpc.Errorf(jsonrpc.CodeServerNotInitialized, "the server is not initialized: send initialize first")
	case s.state == stateShutDown:
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "the server is shut down: only exit is expected")
	case method == "shutdown":
		s.state = stateShutDown
		for _, d := range s.docs {
			d.stop()
		}
		return done(nil), nil
	}
	serve, ok := documentMethods[method]
	if !ok {
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "lipton lsp does not serve %s", method)
	}
	return serve(s, params)
}

// done is the work of a request answered already.
func done(result any) jsonrpc.Work {
	return func(context.Context) (any, error) { return result, nil }
}

func (s *server) initializeResult() initializeResult {
	return initializeResult{
		Capabilities: capabilities{
			TextDocumentSync:           textSync{OpenClose: true, Change: 1},
			HoverProvider:              true,
			DefinitionProvider:         true,
			DocumentSymbolProvider:     true,
			DocumentFormattingProvider: true,
		},
		ServerInfo: serverInfo{Name: "lipton", Version: s.opts.Version},
	}
}

// documentMethods are the requests about one document. Each is called
// with the server locked, takes the document's current analysis, and
// returns the work that answers from it.
var documentMethods = map[string]func(s *server, params json.RawMessage) (jsonrpc.Work, error){
	"textDocument/hover":          (*server).hover,
	"textDocument/definition":     (*server).definition,
	"textDocument/documentSymbol": (*server).documentSymbol,
	"textDocument/formatting":     (*server).formatting,
}

// analysisAt returns the current analysis of the document named in a
// request, and the parameters decoded into p. The server is locked.
func (s *server) analysisAt(params json.RawMessage, p any, uri func() string) (*analysis, error) {
	if err := decodeParams(params, p); err != nil {
		return nil, err
	}
	d := s.docs[uri()]
	if d == nil {
		return nil, errInvalidParams("the document is not open: " + uri())
	}
	return d.current, nil
}
