package lang

import "github.com/alecthomas/participle/v2/lexer"

// Error recovery for the parser. participle stops at the first syntax
// error, so after a failed parse the token stream is cut into pieces that
// can be parsed on their own: top-level declarations, and inside a layer
// its actions and procedures. Each piece that fails reports its own
// first error, so independent mistakes are all reported at once.

// topLevelOnly are keywords that can only start a top-level declaration:
// the stream is cut before them whatever the brace depth, so that one
// missing brace does not hide the rest of the file.
var topLevelOnly = map[string]bool{"type": true, "const": true, "function": true, "layer": true, "instance": true}

// topLevelAtDepth0 start a top-level declaration only outside braces,
// brackets and parentheses (a function's parameters may be ghost).
var topLevelAtDepth0 = map[string]bool{"var": true, "ghost": true, "invariant": true, "yield": true}

func recoverErrors(toks []lexer.Token) ErrorList {
	var errs ErrorList
	for _, r := range splitDecls(toks) {
		piece := toks[r.lo:r.hi]
		if _, err := parseTokens(fileParser, withEnd(piece, toks[r.hi])); err == nil {
			continue
		} else if len(piece) > 0 && piece[0].Value == "layer" {
			errs = append(errs, layerErrors(piece, toks[r.hi], err)...)
		} else {
			errs = append(errs, syntaxError(err, piece))
		}
	}
	return errs
}

// span is the token range [lo, hi) of a piece.
type span struct{ lo, hi int }

// splitDecls cuts a token stream (ending with EOF) into declarations.
func splitDecls(toks []lexer.Token) []span {
	var pieces []span
	start, depth := 0, 0
	for i, t := range toks[:len(toks)-1] {
		cut := t.Type == tokKeyword && (topLevelOnly[t.Value] ||
			depth == 0 && topLevelAtDepth0[t.Value] && !continues(toks, i))
		if cut && i > start {
			pieces = append(pieces, span{start, i})
			start = i
		}
		if cut {
			depth = 0
		}
		depth += braceDelta(t)
	}
	return append(pieces, span{start, len(toks) - 1})
}

// continues reports whether the keyword at toks[i] continues the
// declaration its predecessor starts: `ghost var`, `yield invariant`.
func continues(toks []lexer.Token, i int) bool {
	if i == 0 {
		return false
	}
	prev, t := toks[i-1].Value, toks[i].Value
	return prev == "ghost" && t == "var" || prev == "yield" && t == "invariant"
}

func braceDelta(t lexer.Token) int {
	if t.Type != tokPunct {
		return 0
	}
	switch t.Value {
	case "{", "(", "[":
		return 1
	case "}", ")", "]":
		return -1
	}
	return 0
}

// layerErrors reports the errors of a layer that failed to parse: the
// first error of each member, or the layer's own error when every member
// parses on its own (a problem with the header or the closing brace).
func layerErrors(piece []lexer.Token, next lexer.Token, whole error) ErrorList {
	var errs ErrorList
	members := splitMembers(piece)
	for i, r := range members {
		if i == len(members)-1 && r.hi > r.lo && piece[r.hi-1].Value == "}" {
			r.hi-- // the layer's closing brace
		}
		if r.hi == r.lo {
			continue
		}
		end := next
		if r.hi < len(piece) {
			end = piece[r.hi]
		}
		if _, err := parseTokens(memberParser, withEnd(piece[r.lo:r.hi], end)); err != nil {
			errs = append(errs, syntaxError(err, piece[r.lo:r.hi]))
		}
	}
	if len(errs) == 0 {
		errs = append(errs, syntaxError(whole, piece))
	}
	return errs
}

// splitMembers cuts the tokens of a layer after its opening brace into
// its actions and procedures.
func splitMembers(piece []lexer.Token) []span {
	i := 0
	for i < len(piece) && piece[i].Value != "{" {
		i++
	}
	if i == len(piece) {
		return nil
	}
	var members []span
	start := i + 1
	for j := start; j < len(piece); j++ {
		if startsMember(piece, j) && j > start {
			members = append(members, span{start, j})
			start = j
		}
	}
	return append(members, span{start, len(piece)})
}

func startsMember(toks []lexer.Token, j int) bool {
	t := toks[j]
	if t.Type != tokKeyword {
		return false
	}
	afterPublic := j > 0 && toks[j-1].Value == "public"
	switch t.Value {
	case "public":
		return true
	case "proc":
		return !afterPublic
	case "action":
		return j == 0 || !isMoverWord(toks[j-1].Value) && !afterPublic
	}
	return isMoverWord(t.Value) && !afterPublic && j+1 < len(toks) && toks[j+1].Value == "action"
}

func isMoverWord(s string) bool {
	return s == "right" || s == "left" || s == "both" || s == "atomic"
}

// withEnd returns a copy of toks followed by an end-of-input token that
// stands for next, the token after the piece: an error at the end of the
// piece then points at next and names it, as a parse of the whole file
// would have.
func withEnd(toks []lexer.Token, next lexer.Token) []lexer.Token {
	out := append([]lexer.Token(nil), toks...)
	return append(out, lexer.Token{Type: tokEOF, Value: next.Value, Pos: next.Pos})
}
