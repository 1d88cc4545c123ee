package smt

import (
	"strings"
	"testing"
)

// TestOrderDatatypes: a datatype comes after the datatypes it mentions,
// also through an array sort; other commands keep their order after the
// datatypes; strings, quoted symbols and comments with parentheses do
// not confuse the split.
func TestOrderDatatypes(t *testing.T) {
	text := `; a comment (with parens
(declare-datatypes ((rec.R 0)) (((rec.R (R.s (Seq Int)) (R.m (Array Int rec.R2))))))
(declare-fun |odd (name| () Int)
(declare-datatypes ((rec.R2 0)) (((rec.R2 (R2.v Int) (R2.e enum.E)))))
(declare-datatypes ((enum.E 0)) (((enum.E.A) (enum.E.B))))
(assert (= "a ) string" "a ) string"))
(check-sat)
`
	got := orderDatatypes(text)
	want := []string{
		"(declare-datatypes ((enum.E 0))",
		"(declare-datatypes ((rec.R2 0))",
		"(declare-datatypes ((rec.R 0))",
		"(declare-fun |odd (name| () Int)",
		`(assert (= "a ) string" "a ) string"))`,
		"(check-sat)",
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d commands, want %d:\n%s", len(lines), len(want), got)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("command %d is %q, want %q...", i, lines[i], w)
		}
	}
	if plain := "(declare-fun x () Int)\n"; orderDatatypes(plain) != plain {
		t.Errorf("a script without datatypes changed: %q", orderDatatypes(plain))
	}
}
