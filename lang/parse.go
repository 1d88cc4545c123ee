package lang

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

var memberParser = mustProduction[gMember]()

func mustProduction[P any]() *participle.Parser[P] {
	p, err := participle.ParserForProduction[P](fileParser)
	if err != nil {
		panic(err)
	}
	return p
}

// Parse parses a .lip file into an unchecked AST. A syntax error does not
// stop the parse of the rest: the file is cut at declaration boundaries
// (and layers at action and procedure boundaries) and every piece that
// fails to parse contributes its first error. The returned error, if not
// nil, is an ErrorList.
func Parse(filename string, src []byte) (*File, error) {
	lr := lex(filename, src)
	if len(lr.errs) > 0 {
		return nil, finish(lr.errs, src)
	}
	if e := checkNesting(lr.tokens); e != nil {
		return nil, finish(ErrorList{e}, src)
	}
	g, err := parseTokens(fileParser, lr.tokens)
	if err != nil {
		return nil, finish(recoverErrors(lr.tokens), src)
	}
	f := &File{Name: filename, Src: src, Comments: lr.comments}
	var c converter
	c.file(g, f)
	if len(c.errs) > 0 {
		return nil, finish(c.errs, src)
	}
	return f, nil
}

// maxNesting bounds how deeply brackets, blocks, else-if chains and
// expressions nest: the parser, the checker and the later packages
// recurse over the tree, and no input may exhaust the stack.
const maxNesting = 1000

// checkNesting reports the first token where brackets, braces, else-if
// chains and map types ([K][K]V is right-nested) nest more than
// maxNesting levels deep. toks ends with EOF.
func checkNesting(toks []lexer.Token) *Error {
	chains := []int{0} // links of the open else-if chains at each bracket level
	total := 0         // open brackets plus the links of open chains
	inType, typeLinks := false, 0
	for i, t := range toks[:len(toks)-1] {
		next := toks[i+1]
		if inType && t.Type != tokIdent && t.Value != "[" && t.Value != "]" {
			total -= typeLinks
			inType, typeLinks = false, 0
		}
		switch {
		case t.Type == tokKeyword && t.Value == "else" && next.Value == "if":
			chains[len(chains)-1]++
			total++
		case t.Type != tokPunct:
		case t.Value == ":" || t.Value == "=" && i >= 2 && toks[i-2].Value == "type":
			inType = true
		case t.Value == "(" || t.Value == "[" || t.Value == "{":
			chains = append(chains, 0)
			total++
		case t.Value == ")" || t.Value == "]" || t.Value == "}":
			if len(chains) > 1 {
				total -= 1 + chains[len(chains)-1]
				chains = chains[:len(chains)-1]
			}
			if inType && t.Value == "]" && next.Value == "[" {
				typeLinks++ // the value type of a map type is a map type
				total++
			}
			// An else-if chain ends with its statement, at a "}" that no
			// else follows.
			if t.Value == "}" && next.Value != "else" {
				total -= chains[len(chains)-1]
				chains[len(chains)-1] = 0
			}
		case t.Value == ";":
			total -= chains[len(chains)-1]
			chains[len(chains)-1] = 0
		}
		if total > maxNesting {
			return &Error{Pos: posOf(t.Pos), Msg: fmt.Sprintf("nesting too deep: brackets, blocks, else-if chains and map types may nest at most %d levels", maxNesting)}
		}
	}
	return nil
}

func finish(errs ErrorList, src []byte) ErrorList {
	errs.Sort()
	errs.abbrevMessages()
	errs.attachSource(src)
	return errs
}

// parseTokens runs a participle parser over already-lexed tokens. The
// token slice must end with EOF.
func parseTokens[G any](p *participle.Parser[G], toks []lexer.Token) (g *G, err error) {
	// participle panics with an Error when a branch of the grammar
	// matches without consuming a token. No branch of this grammar
	// should, but if one ever does the input gets a syntax error rather
	// than crashing lipton.
	defer func() {
		if r := recover(); r != nil {
			perr, ok := r.(participle.Error)
			if !ok {
				panic(r)
			}
			g, err = nil, perr
		}
	}()
	peek, err := lexer.Upgrade(&tokenReplay{tokens: toks})
	if err != nil {
		return nil, err
	}
	return p.ParseFromLexer(peek)
}

// syntaxError converts a participle error into an Error. toks are the
// tokens that were parsed, to find the token before the error.
func syntaxError(err error, toks []lexer.Token) *Error {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return &Error{Msg: err.Error()}
	}
	var prev *lexer.Token
	for i := range toks {
		if toks[i].Pos.Offset >= perr.Position().Offset {
			break
		}
		prev = &toks[i]
	}
	return &Error{Pos: posOf(perr.Position()), Msg: syntaxMessage(perr, prev)}
}

// refineExpected fixes the cases where the first alternative of the
// grammar does not say what was really expected.
func refineExpected(exp string, tok lexer.Token, prev *lexer.Token) string {
	switch {
	case prev == nil && exp == "":
		return "a declaration (type, const, var, ghost var, function, invariant, yield invariant, layer or instance)"
	case prev != nil && isMoverWord(prev.Value) && (exp == `"var"` || exp == "a statement"):
		return "a statement after the mover tag " + prev.Value
	case exp == `"action"` && (prev == nil || !isMoverWord(prev.Value)):
		return `"action" or "proc"`
	}
	return exp
}

// syntaxMessage rewords participle's messages for a user of the language.
func syntaxMessage(err participle.Error, prev *lexer.Token) string {
	var unexpected *participle.UnexpectedTokenError
	if errors.As(err, &unexpected) {
		if t := unexpected.Unexpected; t.Type == tokKeyword && t.Value == "linear" {
			return "linear is allowed on parameters of actions and procedures only"
		}
		what := "unexpected " + describeToken(unexpected.Unexpected)
		if exp := refineExpected(expectedPart(unexpected.Message()), unexpected.Unexpected, prev); exp != "" {
			what += ", expected " + exp
		}
		return what
	}
	return err.Message()
}

func describeToken(t lexer.Token) string {
	switch t.Type {
	case tokEOF:
		if t.Value != "" { // the end of a piece cut out for error recovery
			return "\"" + t.Value + "\""
		}
		return "end of file"
	case tokIdent:
		return "name " + Abbrev(t.Value)
	case tokInt:
		return "number " + Abbrev(t.Value)
	case tokKeyword:
		return "keyword " + t.Value
	}
	return "\"" + Abbrev(t.Value) + "\""
}

// expectedPart extracts what participle expected from its message
// ("unexpected token ... (expected X)") and says it in the words of the
// language: only the first thing of the expected sequence matters.
func expectedPart(msg string) string {
	i := strings.LastIndex(msg, "(expected ")
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return ""
	}
	alts := firstAtoms(msg[i+len("(expected ") : len(msg)-1])
	if len(alts) > 3 {
		for _, a := range alts {
			if a == `"yield"` {
				return "a statement"
			}
		}
		return ""
	}
	return strings.Join(alts, " or ")
}

// grammarWords names the grammar's productions for users.
var grammarWords = map[string]string{
	"gExpr": "an expression", "GIdent": "a name", "GType": "a type", "GBlock": `"{"`,
	"GEnd": `"}"`, "GParam": "a parameter", "GSpec": "requires or ensures", "GIfStmt": `"if"`,
	"GMember": "an action or a procedure", "GCallSpc": "a method name", "GMax": `"max"`,
	"GMover": "a mover type", "GAction": `"action"`, "GProc": `"proc"`, "<int>": "a number", "GRange": "a number", "GArgSpc": "a parameter name",
	"GLayerRange": `"layers"`, "GStmt": "a statement", "GInstanceIt": `"thread" or "ints"`,
	"GLocal": `"var"`, "GStep": `"["`, "GYield": `"yield"`, "GIf": `"if"`, "GWhile": `"while"`,
	"GChoice": `"choice"`, "GKeyword": `"return"`, "GBreak": `"break"`, "GCall": `"call"`, "GArm": "a call", "GAssign": "an assignment",
	"GLValue": "a name", "GDecl": "a declaration", "GMapType": "a type", "GBracketType": `"]" or a type`,
}

// firstAtoms returns, for an EBNF fragment, the words for what can come
// first: one entry, or one per alternative of a leading group.
func firstAtoms(ebnf string) []string {
	ebnf = strings.TrimSpace(ebnf)
	if strings.HasPrefix(ebnf, "(") {
		inner, depth := "", 0
		for j, r := range ebnf {
			if r == '(' {
				depth++
			} else if r == ')' {
				if depth--; depth == 0 {
					inner = ebnf[1:j]
					break
				}
			}
		}
		var out []string
		for _, alt := range splitTopLevel(inner, '|') {
			out = append(out, firstAtoms(alt)...)
		}
		return out
	}
	atom := ebnf
	if strings.HasPrefix(atom, `"`) {
		if j := strings.Index(atom[1:], `"`); j >= 0 {
			return []string{atom[:j+2]}
		}
	}
	if j := strings.IndexAny(atom, " ?*+|()"); j >= 0 {
		atom = atom[:j]
	}
	if w, ok := grammarWords[atom]; ok {
		return []string{w}
	}
	return nil
}

// splitTopLevel splits s at sep outside parentheses and quotes.
func splitTopLevel(s string, sep rune) []string {
	var parts []string
	depth, quoted, start := 0, false, 0
	for j, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case quoted:
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == sep && depth == 0:
			parts = append(parts, s[start:j])
			start = j + 1
		}
	}
	return append(parts, s[start:])
}
