package lang

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCaretWindow(t *testing.T) {
	long := strings.Repeat("a", 50) + "X" + strings.Repeat("b", 200)
	for _, tc := range []struct {
		name string
		line string
		col  int
		want string
	}{
		{"short line", "abc", 2, "    abc\n     ^"},
		{"start of a long line", long, 1,
			"    " + long[:MaxShownLine] + "…\n    ^"},
		{"middle of a long line", long, 51,
			"    …" + long[50-shownBeforeCaret:50-shownBeforeCaret+MaxShownLine] + "…\n" +
				"    " + strings.Repeat(" ", shownBeforeCaret+1) + "^"},
		{"end of a long line", long, len(long) + 1,
			"    …" + long[len(long)-MaxShownLine:] + "\n" +
				"    " + strings.Repeat(" ", MaxShownLine+1) + "^"},
		{"tabs before the caret of a cut line", strings.Repeat("\t", 60) + "x" + strings.Repeat("y", 100), 61,
			"    …" + strings.Repeat("\t", shownBeforeCaret) + "x" + strings.Repeat("y", MaxShownLine-shownBeforeCaret-1) + "…\n" +
				"     " + strings.Repeat("\t", shownBeforeCaret) + "^"},
		{"control characters and bad bytes", "a\x1b[31mb\xffc\x00d", 8,
			"    a\uFFFD[31mb\uFFFDc\uFFFDd\n           ^"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Caret(tc.line, tc.col); got != tc.want {
				t.Errorf("Caret =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// The caret line stays short and aligned whatever the length of the
// line and the column: the window has at most MaxShownLine characters
// and two cut marks, and the caret sits under the character at col.
func TestCaretWindowAligned(t *testing.T) {
	line := strings.Repeat("0123456789", 1000)
	for col := 1; col <= len(line)+1; col += 37 {
		shown, at := LineWindow(line, col)
		if n := utf8.RuneCountInString(shown); n > MaxShownLine+2 {
			t.Fatalf("col %d: %d characters shown", col, n)
		}
		r := []rune(shown)
		if col <= len(line) && (at >= len(r) || byte(r[at]) != line[col-1]) {
			t.Fatalf("col %d: caret at %d of %q, want under %q", col, at, shown, line[col-1])
		}
	}
}

func TestAbbrev(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"x", "x"},
		{strings.Repeat("9", MaxQuotedToken), strings.Repeat("9", MaxQuotedToken)},
		{strings.Repeat("9", 100000), strings.Repeat("9", quotedPrefix) + "… (100000 characters)"},
		{strings.Repeat("é", 100), strings.Repeat("é", quotedPrefix) + "… (100 characters)"},
	} {
		if got := Abbrev(tc.in); got != tc.want {
			t.Errorf("Abbrev(%.50q...) = %q, want %q", tc.in, got, tc.want)
		}
	}
	msg := "name " + strings.Repeat("n", 1000) + " is undefined (first at /a/b.lip:3:4)"
	want := "name " + strings.Repeat("n", quotedPrefix) + "… (1000 characters) is undefined (first at /a/b.lip:3:4)"
	if got := AbbrevWords(msg); got != want {
		t.Errorf("AbbrevWords = %q, want %q", got, want)
	}
}

// A huge literal or name makes a short message: the token is quoted by
// a prefix, and the source line by a window around the error.
func TestLongTokenMessages(t *testing.T) {
	digits := strings.Repeat("9", 100000)
	name := strings.Repeat("v", 100000)
	for _, tc := range []struct{ name, src, want string }{
		{"literal", "var x: int = " + digits + ";", "integer literal " + digits[:quotedPrefix] + "… (100000 characters) does not fit in 64 bits"},
		{"negative literal", "var x: int = -" + digits + ";", "integer literal -" + digits[:quotedPrefix] + "… (100000 characters) does not fit in 64 bits"},
		{"layer number", "layer " + digits + " { }", "number " + digits[:quotedPrefix] + "… (100000 characters) is too large"},
		{"unexpected name", "var x: int = 1 " + name + ";", "unexpected name " + name[:quotedPrefix] + "… (100000 characters)"},
		{"undefined name", "var x: int = " + name + ";", name[:quotedPrefix] + "… (100000 characters)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := errorsOf(tc.src)
			if len(errs) == 0 {
				t.Fatal("no error")
			}
			e := errs[0]
			if !strings.Contains(e.Msg, tc.want) {
				t.Errorf("message %.300q does not contain %q", e.Msg, tc.want)
			}
			if n := len(e.Detail()); n > 500 {
				t.Errorf("the error prints %d bytes:\n%.600s", n, e.Detail())
			}
		})
	}
}
