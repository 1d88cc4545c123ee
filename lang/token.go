package lang

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types produced by the lexer. The names are those the grammar uses
// (@Ident, @Int).
const (
	tokEOF     = lexer.EOF
	tokIdent   = lexer.TokenType(1)
	tokKeyword = lexer.TokenType(2)
	tokInt     = lexer.TokenType(3)
	tokPunct   = lexer.TokenType(4)
)

// keywords are reserved words: they can never be names. Words that only
// have meaning inside an instance block (thread, calls, max, in, ints)
// are not reserved.
var keywords = map[string]bool{
	"type": true, "const": true, "var": true, "ghost": true, "function": true,
	"invariant": true, "layers": true, "layer": true, "action": true, "proc": true,
	"requires": true, "ensures": true, "preserves": true, "returns": true, "linear": true, "linear_in": true,
	"right": true, "left": true, "both": true, "atomic": true,
	"havoc": true, "assume": true, "assert": true, "call": true, "yield": true,
	"if": true, "then": true, "else": true, "while": true, "choice": true, "or": true,
	"return": true, "break": true, "fence": true, "forall": true, "exists": true, "true": true, "false": true,
	"instance": true, "public": true, "enum": true, "record": true,
}

// puncts are the operators and delimiters, longest first so that the
// lexer takes the longest match.
var puncts = []string{
	"<==>", "==>", ":=", "::", "==", "!=", "<=", ">=", "&&", "||", "..", ".",
	"[", "]", "(", ")", "{", "}", ";", ",", ":", "<", ">", "+", "-", "*", "/", "%", "!", "=", "|",
}

// lexResult is the outcome of lexing a whole file.
type lexResult struct {
	tokens   []lexer.Token // without comments, ending with EOF
	comments []*Comment
	errs     ErrorList
}

// lex splits src into tokens. It never fails: bad bytes become errors and
// are skipped, so that every bad character of a file is reported.
func lex(filename string, src []byte) *lexResult {
	lx := &lexState{file: filename, src: src, line: 1, col: 1, res: &lexResult{}}
	for lx.off < len(src) {
		lx.next()
	}
	lx.res.tokens = append(lx.res.tokens, lexer.Token{Type: tokEOF, Pos: lx.pos()})
	return lx.res
}

type lexState struct {
	file      string
	src       []byte
	off       int
	line, col int
	res       *lexResult
	badEnd    int // offset just after the last bad character
}

// maxLexErrors bounds the errors of one file's lexing: a file of
// garbage must not cost memory in proportion to its size squared.
const maxLexErrors = 1000

func (lx *lexState) pos() lexer.Position {
	return lexer.Position{Filename: lx.file, Offset: lx.off, Line: lx.line, Column: lx.col}
}

// advance moves past n bytes, keeping line and column up to date.
func (lx *lexState) advance(n int) {
	for _, b := range lx.src[lx.off : lx.off+n] {
		if b == '\n' {
			lx.line++
			lx.col = 1
		} else {
			lx.col++
		}
	}
	lx.off += n
}

func (lx *lexState) emit(typ lexer.TokenType, n int) {
	p := lx.pos()
	lx.res.tokens = append(lx.res.tokens, lexer.Token{Type: typ, Value: string(lx.src[lx.off : lx.off+n]), Pos: p})
	lx.advance(n)
}

func (lx *lexState) next() {
	c := lx.src[lx.off]
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		lx.advance(1)
	case c == '/' && lx.peek(1) == '/':
		lx.lineComment()
	case c == '/' && lx.peek(1) == '*':
		lx.blockComment()
	case isLetter(c):
		n := lx.span(func(b byte) bool { return isLetter(b) || isDigit(b) })
		typ := tokIdent
		if keywords[string(lx.src[lx.off:lx.off+n])] {
			typ = tokKeyword
		}
		lx.emit(typ, n)
	case isDigit(c):
		lx.emit(tokInt, lx.span(isDigit))
	default:
		for _, p := range puncts {
			if lx.hasPrefix(p) {
				lx.emit(tokPunct, len(p))
				return
			}
		}
		lx.badChar()
	}
}

// badChar reports a character that cannot start a token. A run of bad
// characters is one error, at its first character.
func (lx *lexState) badChar() {
	r, n := utf8.DecodeRune(lx.src[lx.off:])
	msg := fmt.Sprintf("unexpected character %q", r)
	if r == utf8.RuneError && n <= 1 {
		msg = fmt.Sprintf("invalid byte 0x%02x (files must be UTF-8)", lx.src[lx.off])
		n = 1
	}
	switch {
	case lx.off == lx.badEnd && lx.off > 0:
	case len(lx.res.errs) == maxLexErrors:
		lx.res.errs.Add(posOf(lx.pos()), "too many bad characters: the rest of the file is not read")
		lx.advance(len(lx.src) - lx.off)
		return
	default:
		lx.res.errs.Add(posOf(lx.pos()), "%s", msg)
	}
	lx.advance(n)
	lx.badEnd = lx.off
}

func (lx *lexState) lineComment() {
	n := lx.span(func(b byte) bool { return b != '\n' })
	if lx.src[lx.off+n-1] == '\r' {
		n-- // a CRLF line ending is not part of the comment
	}
	lx.comment(n)
}

func (lx *lexState) blockComment() {
	for i := lx.off + 2; i+1 < len(lx.src); i++ {
		if lx.src[i] == '*' && lx.src[i+1] == '/' {
			lx.comment(i + 2 - lx.off)
			return
		}
	}
	lx.res.errs.Add(posOf(lx.pos()), "comment not terminated (missing */)")
	lx.advance(len(lx.src) - lx.off)
}

func (lx *lexState) comment(n int) {
	lx.res.comments = append(lx.res.comments, &Comment{P: posOf(lx.pos()), Text: string(lx.src[lx.off : lx.off+n])})
	lx.advance(n)
}

func (lx *lexState) span(ok func(byte) bool) int {
	n := 0
	for lx.off+n < len(lx.src) && ok(lx.src[lx.off+n]) {
		n++
	}
	return n
}

func (lx *lexState) peek(k int) byte {
	if lx.off+k < len(lx.src) {
		return lx.src[lx.off+k]
	}
	return 0
}

func (lx *lexState) hasPrefix(p string) bool {
	return len(lx.src)-lx.off >= len(p) && string(lx.src[lx.off:lx.off+len(p)]) == p
}

func isLetter(b byte) bool { return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
func isDigit(b byte) bool  { return '0' <= b && b <= '9' }

func posOf(p lexer.Position) Pos {
	return Pos{File: p.Filename, Offset: p.Offset, Line: p.Line, Col: p.Column}
}

// tokenDefinition tells participle the token type names. Parsing never
// goes through its Lex method: tokens are lexed once by lex and replayed.
type tokenDefinition struct{}

func (tokenDefinition) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF": tokEOF, "Ident": tokIdent, "Keyword": tokKeyword, "Int": tokInt, "Punct": tokPunct,
	}
}

func (tokenDefinition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return &tokenReplay{tokens: lex(filename, src).tokens}, nil
}

// tokenReplay feeds a lexed token slice to participle.
type tokenReplay struct {
	tokens []lexer.Token
	i      int
}

func (r *tokenReplay) Next() (lexer.Token, error) {
	t := r.tokens[r.i]
	if r.i < len(r.tokens)-1 {
		r.i++
	}
	return t, nil
}
