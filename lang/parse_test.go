package lang

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
)

// emptyBranch is a grammar with a branch that can match without
// consuming a token, which makes participle panic.
type emptyBranch struct {
	Words []string `parser:"( @Ident? | @Int )*"`
}

// TestParserPanicBecomesError: should a grammar branch ever accept
// without progress, parseTokens returns an error instead of panicking.
func TestParserPanicBecomesError(t *testing.T) {
	p := participle.MustBuild[emptyBranch](participle.Lexer(tokenDefinition{}), participle.UseLookahead(0))
	toks := lex("t.lip", []byte("a b ; c")).tokens
	_, err := parseTokens(p, toks)
	if err == nil || !strings.Contains(err.Error(), "did not progress") {
		t.Fatalf("got %v, want the error of participle's panic", err)
	}
	if e := syntaxError(err, toks); e.Pos.Line != 1 || e.Pos.Col != 5 {
		t.Errorf("error at %v, want 1:5", e.Pos)
	}
}
