// Package lang is the one place that knows lipton's surface language.
//
// It turns the bytes of a .lip file into a typed abstract syntax tree:
// a hand-written lexer (token.go), a participle grammar for the concrete
// syntax (grammar.go) that is converted into the AST (convert.go, ast.go),
// and a checker (check*.go) that binds every name to its declaration,
// computes the type of every expression, enforces the layer, ghost and
// procedure rules of the language, and classifies every procedure
// statement as a step or a private statement. The formatter (format.go)
// prints canonical source.
//
// The AST is the input of every other package: layers builds per-layer
// views from it, and nothing outside lang parses source text.
//
// Errors are collected in an ErrorList; each carries a position, and the
// list prints each error as file:line:col, the source line and a caret.
package lang
