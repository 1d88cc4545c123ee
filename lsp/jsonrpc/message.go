package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Error codes of JSON-RPC 2.0 and of the Language Server Protocol.
const (
	CodeParseError           = -32700
	CodeInvalidRequest       = -32600
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
	CodeServerNotInitialized = -32002
	CodeRequestCancelled     = -32800
)

// Error is the error object of a response. A handler returns one to
// choose the code; any other error is an internal error.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s (JSON-RPC error %d)", e.Message, e.Code) }

// Errorf returns an *Error with the given code.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// incoming is any message a client sends: a request (method and id), a
// notification (method, no id) or a response (id, no method).
type incoming struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// response is what the server answers to a request: Result or Error.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// notification is a message the server sends without expecting a reply.
type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// null is the id of a response to a message whose id is not known.
var null = json.RawMessage("null")

// kind says what a decoded message is.
type kind int

const (
	kindRequest kind = iota
	kindNotification
	kindResponse
)

// decode parses a body. A body that is not JSON is a parse error; JSON
// that is not a JSON-RPC 2.0 message is an invalid request; either comes
// with the id to answer it with, if one could be read.
func decode(body []byte) (*incoming, kind, json.RawMessage, *Error) {
	trimmed := bytes.TrimSpace(body)
	if !json.Valid(trimmed) {
		return nil, 0, null, Errorf(CodeParseError, "the message is not JSON")
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, 0, null, Errorf(CodeInvalidRequest, "the message is not a JSON object (batches are not supported)")
	}
	var m incoming
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, 0, null, Errorf(CodeInvalidRequest, "the message is not a JSON-RPC message: %v", err)
	}
	id := m.ID
	if len(id) > 0 && !validID(id) {
		return nil, 0, null, Errorf(CodeInvalidRequest, "the id must be a number or a string")
	}
	if len(id) == 0 || string(id) == "null" {
		id = nil
	}
	answerTo := id
	if answerTo == nil {
		answerTo = null
	}
	switch {
	case m.JSONRPC != "2.0":
		return nil, 0, answerTo, Errorf(CodeInvalidRequest, `the message lacks "jsonrpc": "2.0"`)
	case m.Method != nil && id != nil:
		return &m, kindRequest, id, nil
	case m.Method != nil:
		return &m, kindNotification, nil, nil
	case id != nil && (m.Result != nil || m.Error != nil):
		return &m, kindResponse, id, nil
	}
	return nil, 0, answerTo, Errorf(CodeInvalidRequest, "the message is neither a request, a notification nor a response")
}

// validID reports whether a raw id is a JSON number, a string or null.
func validID(id json.RawMessage) bool {
	switch id[0] {
	case '"', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}
