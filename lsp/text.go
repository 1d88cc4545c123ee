package lsp

import "unicode/utf8"

// text is a document's text with the offsets of its lines, to convert
// between lipton's positions (1-based line, 1-based byte column) and
// LSP's (0-based line, UTF-16 code units). Lines end at "\n", as
// lipton's lexer counts them; a "\r" before it belongs to no column a
// position can name.
type text struct {
	src   string
	lines []int // byte offset of the start of each line
}

func newText(src string) *text {
	t := &text{src: src, lines: []int{0}}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// line returns the text of line n (0-based) without its line end, or ""
// if there is no such line.
func (t *text) line(n int) string {
	if n < 0 || n >= len(t.lines) {
		return ""
	}
	end := len(t.src)
	if n+1 < len(t.lines) {
		end = t.lines[n+1] - 1
	}
	s := t.src[t.lines[n]:end]
	if len(s) > 0 && s[len(s)-1] == '\r' {
		s = s[:len(s)-1]
	}
	return s
}

// position converts a lipton position (1-based line and byte column)
// to LSP's; a column past the end of the line is its end.
func (t *text) position(line, col int) Position {
	if line < 1 {
		return Position{}
	}
	if line > len(t.lines) {
		last := len(t.lines) - 1
		return Position{Line: last, Character: utf16Len(t.line(last))}
	}
	s := t.line(line - 1)
	b := min(max(col-1, 0), len(s))
	return Position{Line: line - 1, Character: utf16Len(s[:b])}
}

// tokenRange is the range of the token at a lipton position: a name or a
// number runs to its end, anything else is one character.
func (t *text) tokenRange(line, col int) Range {
	start := t.position(line, col)
	s := t.line(start.Line)
	b := byteIndex(s, start.Character)
	e := b
	for e < len(s) && isWordByte(s[e]) {
		e++
	}
	if e == b && e < len(s) {
		_, n := utf8.DecodeRuneInString(s[e:])
		e += n
	}
	return Range{Start: start, End: Position{Line: start.Line, Character: utf16Len(s[:e])}}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// offset converts an LSP position to a byte offset in the text; a
// position past the end of its line is the line's end, one past the
// last line the end of the text.
func (t *text) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.lines) {
		return len(t.src)
	}
	return t.lines[p.Line] + byteIndex(t.line(p.Line), p.Character)
}

// end is the position of the end of the text.
func (t *text) end() Position {
	last := len(t.lines) - 1
	return Position{Line: last, Character: utf16Len(t.line(last))}
}

// utf16Len is the length of s in UTF-16 code units. Invalid UTF-8 bytes
// count as one unit each (an editor shows them as U+FFFD).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += runeLen16(r)
	}
	return n
}

// byteIndex is the byte index in s of the UTF-16 offset units; an offset
// inside a surrogate pair or past the end rounds to the next character
// boundary or the end.
func byteIndex(s string, units int) int {
	n := 0
	for i, r := range s {
		if n >= units {
			return i
		}
		n += runeLen16(r)
	}
	return len(s)
}

// runeLen16 is the number of UTF-16 code units of r: two for a
// character beyond the Basic Multilingual Plane (a surrogate pair).
func runeLen16(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
