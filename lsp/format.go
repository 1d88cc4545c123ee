package lsp

import (
	"context"
	"encoding/json"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/lsp/jsonrpc"
)

// formatting answers textDocument/formatting with lipton fmt's text, as
// one edit of the whole document; no edit if the text is formatted
// already, and none (JSON null) if it does not parse: a format on save
// must not fail loudly while the user is in the middle of a change, and
// the syntax error is among the diagnostics.
func (s *server) formatting(params json.RawMessage) (jsonrpc.Work, error) {
	var p DocumentParams
	a, err := s.analysisAt(params, &p, func() string { return p.TextDocument.URI })
	if err != nil {
		return nil, err
	}
	return func(context.Context) (any, error) { return formatEdits(a), nil }, nil
}

func formatEdits(a *analysis) []TextEdit {
	if a.file == nil {
		return nil
	}
	// Format a fresh parse: the formatter must not see what the checker
	// added to the tree.
	f, err := lang.Parse(a.file.Name, []byte(a.text.src))
	if err != nil {
		return nil
	}
	out := string(lang.Format(f))
	if out == a.text.src {
		return []TextEdit{}
	}
	return []TextEdit{{Range: Range{End: a.text.end()}, NewText: out}}
}
