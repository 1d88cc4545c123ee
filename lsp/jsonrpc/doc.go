// Package jsonrpc is the base protocol of the Language Server Protocol:
// JSON-RPC 2.0 messages framed by a Content-Length header, over a byte
// stream (the server's standard input and output).
//
// A Conn reads messages in order. Notifications are handled one at a
// time, in the order they arrive, before the next message is read: an
// editor's didOpen and didChange must be applied in order. A request is
// handled in two parts: the first, synchronous part runs in order too
// (it parses the parameters and takes what it needs of the server's
// state), and the work it returns runs on its own goroutine under a
// context that the client's $/cancelRequest, or the end of the
// connection, cancels.
//
// Nothing a client sends can stop the connection but the end of the
// stream: a frame without a length, a body that is not JSON or not a
// JSON-RPC message gets an error response and the connection reads on;
// a panic in a handler becomes an internal error response, without a
// stack trace.
package jsonrpc
