package lsp

import "encoding/json"

// The LSP types the server uses (Language Server Protocol 3.17), with
// only the fields it reads or writes.

// Position is a zero-based line and a character offset in UTF-16 code
// units, LSP's default position encoding.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a half-open range of positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// Diagnostic severities.
const (
	SeverityError   = 1
	SeverityWarning = 2
)

// Diagnostic is an error or a warning at a range.
type Diagnostic struct {
	Range              Range                `json:"range"`
	Severity           int                  `json:"severity"`
	Code               string               `json:"code,omitempty"`
	Source             string               `json:"source"`
	Message            string               `json:"message"`
	RelatedInformation []RelatedInformation `json:"relatedInformation,omitempty"`
}

// RelatedInformation is another location a diagnostic involves.
type RelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// PublishDiagnosticsParams replaces the diagnostics of a document.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// TextDocumentItem is an opened document.
type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// VersionedTextDocumentIdentifier names a version of a document.
type VersionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

// ContentChange is a change of a document: the whole new text if Range
// is nil, else the text that replaces Range.
type ContentChange struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// DidOpenParams are the parameters of textDocument/didOpen.
type DidOpenParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// DidChangeParams are the parameters of textDocument/didChange.
type DidChangeParams struct {
	TextDocument   VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []ContentChange                 `json:"contentChanges"`
}

// DidCloseParams are the parameters of textDocument/didClose.
type DidCloseParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// PositionParams are the parameters of hover and definition.
type PositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// DocumentParams are the parameters of documentSymbol and formatting.
type DocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// Hover is the answer to a hover request: Markdown.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// MarkupContent is text of a kind: "markdown" or "plaintext".
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// Symbol kinds.
const (
	SymbolClass     = 5
	SymbolMethod    = 6
	SymbolFunction  = 12
	SymbolVariable  = 13
	SymbolConstant  = 14
	SymbolNamespace = 3
	SymbolObject    = 19
	SymbolEvent     = 24
)

// DocumentSymbol is a symbol of a document, with its children.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// TextEdit replaces a range with new text.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// initializeResult answers initialize.
type initializeResult struct {
	Capabilities capabilities `json:"capabilities"`
	ServerInfo   serverInfo   `json:"serverInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// capabilities are what the server does: full-text synchronization
// (each change sends the whole text), hover, definition, symbols and
// formatting.
type capabilities struct {
	TextDocumentSync           textSync `json:"textDocumentSync"`
	HoverProvider              bool     `json:"hoverProvider"`
	DefinitionProvider         bool     `json:"definitionProvider"`
	DocumentSymbolProvider     bool     `json:"documentSymbolProvider"`
	DocumentFormattingProvider bool     `json:"documentFormattingProvider"`
}

type textSync struct {
	OpenClose bool `json:"openClose"`
	Change    int  `json:"change"` // 1: the whole text
}

// CheckedParams are the parameters of the notification lipton/checked,
// which the server sends when it has published the diagnostics of a
// version of a document: the verdict of the check of that version.
type CheckedParams struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
	// Verdict is "proven", "failed", "unknown", or "error" when the text
	// could not be parsed or typed (then nothing was checked).
	Verdict string `json:"verdict"`
	// Summary says it in a line: "11 proven, 2 failed, 0 unknown, 4
	// skipped in 103ms (13 answered by the cache)".
	Summary string  `json:"summary"`
	Proven  int     `json:"proven"`
	Failed  int     `json:"failed"`
	Unknown int     `json:"unknown"`
	Cached  int     `json:"cached"`
	Seconds float64 `json:"seconds"`
}

// decodeParams unmarshals a message's parameters into p.
func decodeParams(raw json.RawMessage, p any) error {
	if len(raw) == 0 {
		return errInvalidParams("the parameters are missing")
	}
	if err := json.Unmarshal(raw, p); err != nil {
		return errInvalidParams("the parameters do not fit: " + err.Error())
	}
	return nil
}
