// Package lsp is lipton's language server (lipton lsp): the Language
// Server Protocol over a byte stream, for editors.
//
// While the user types it publishes diagnostics: the syntax and type
// errors of the text at once, then the failed and unknown obligations of
// a check of it (package check, with the cache of proven obligations, so
// that a re-check of unchanged parts costs no solver time). A change of
// the text cancels the check of the previous text. After each check it
// sends the notification lipton/checked with the verdict and the counts,
// which an editor may show in its status bar. It answers hover (a
// statement's layer, mover type, gate and footprint; a name's
// declaration and the layers where it exists), go to definition (also to
// the same name at the other layers), document symbols (layers,
// procedures, actions and the top-level declarations) and formatting
// (lipton fmt).
//
// The base protocol (framing, JSON-RPC, cancellation) is package
// lsp/jsonrpc; this package holds the LSP types it uses, the documents
// and what the server computes from them.
package lsp
