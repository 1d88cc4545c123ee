package lang

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxErrors is how many errors of one file are printed.
const MaxErrors = 20

// Error is an error at a source position.
type Error struct {
	Pos  Pos
	Msg  string
	Line string // the source line of Pos, if known
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Pos, e.Msg) }

// Detail renders the error as file:line:col: message, then the source
// line and a caret under the column.
func (e *Error) Detail() string {
	var b strings.Builder
	b.WriteString(e.Error())
	if e.Pos.IsValid() && e.Line != "" {
		b.WriteString("\n")
		b.WriteString(Caret(e.Line, e.Pos.Col))
	}
	return b.String()
}

// Caret renders a source line and, under it, a caret at byte column col.
// Tabs are kept so that the caret lines up on any terminal. A line longer
// than MaxShownLine characters is shown as a window around the column,
// with "…" where it is cut, so that an error in a megabyte-long line
// prints a short message; control characters and invalid UTF-8 show as
// U+FFFD, so that a binary file cannot garble the terminal.
func Caret(line string, col int) string {
	shown, at := LineWindow(line, col)
	var pad strings.Builder
	for i, r := range []rune(shown) {
		if i == at {
			break
		}
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	return "    " + shown + "\n    " + pad.String() + "^"
}

// MaxShownLine is how many characters of a source line an error shows.
const MaxShownLine = 100

// shownBeforeCaret is how many characters before the column a cut line
// keeps, so that the window shows what leads up to the error.
const shownBeforeCaret = 40

// LineWindow returns the part of a source line that an error shows for
// byte column col, and the index in characters (runes) of col in it: the
// whole line if it has at most MaxShownLine characters, otherwise a
// window around col with "…" where it is cut. Control characters other
// than tabs and invalid UTF-8 are replaced by U+FFFD.
func LineWindow(line string, col int) (shown string, at int) {
	var runes []rune
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRuneInString(line[i:])
		if i < col-1 {
			at++
		}
		if r != '\t' && (r < 0x20 || r >= 0x7f && r < 0xa0) {
			r = utf8.RuneError
		}
		runes = append(runes, r)
		i += n
		if len(runes) > at+MaxShownLine {
			break // the window ends before this character: the rest is cut anyway
		}
	}
	if len(runes) <= MaxShownLine {
		return string(runes), at
	}
	start := max(0, at-shownBeforeCaret)
	end := min(len(runes), start+MaxShownLine)
	start = max(0, min(start, end-MaxShownLine))
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
		at = at - start + 1
	}
	b.WriteString(string(runes[start:end]))
	if end < len(runes) {
		b.WriteString("…")
	}
	return b.String(), at
}

// MaxQuotedToken is the length in characters beyond which a message
// quotes a token (a literal, a name) only by a prefix: a
// 100,000-digit literal must not make a 100 KB message.
const MaxQuotedToken = 80

// quotedPrefix is how many characters of a long token a message quotes.
const quotedPrefix = 40

// Abbrev returns s if it has at most MaxQuotedToken characters, and
// otherwise its first characters, "…" and its length.
func Abbrev(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= MaxQuotedToken {
		return s
	}
	end, runes := 0, 0
	for end = range s {
		if runes == quotedPrefix {
			break
		}
		runes++
	}
	return fmt.Sprintf("%s… (%d characters)", s[:end], n)
}

// AbbrevWords abbreviates (as Abbrev does) every word of a message that
// is longer than MaxQuotedToken: a run of letters, digits and
// underscores, the characters of names and numbers. It is the safety net
// for messages that quote a name without Abbrev.
func AbbrevWords(msg string) string {
	if len(msg) <= MaxQuotedToken {
		return msg
	}
	var b strings.Builder
	word := -1 // start of the current word, or -1
	flush := func(end int) {
		if word >= 0 {
			b.WriteString(Abbrev(msg[word:end]))
			word = -1
		}
	}
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			if word < 0 {
				word = i
			}
			continue
		}
		flush(i)
		b.WriteByte(c)
	}
	flush(len(msg))
	return b.String()
}

// SourceLine returns line n (1-based) of src without its newline.
func SourceLine(src []byte, n int) string {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return string(bytes.TrimSuffix(src, []byte("\r")))
}

// ErrorList is a list of errors; it is an error itself when non-empty.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Err returns the list as an error, or nil if it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Sort orders the errors by position and drops exact duplicates.
func (l *ErrorList) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].Pos.Line != s[j].Pos.Line {
			return s[i].Pos.Line < s[j].Pos.Line
		}
		return s[i].Pos.Col < s[j].Pos.Col
	})
	out := s[:0]
	for i, e := range s {
		if i > 0 && e.Pos == s[i-1].Pos && e.Msg == s[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// abbrevMessages shortens the long words of every message (AbbrevWords).
func (l ErrorList) abbrevMessages() {
	for _, e := range l {
		e.Msg = AbbrevWords(e.Msg)
	}
}

// attachSource fills in the source line of every error. The lines are
// slices of one copy of src: a file may have many errors on one long
// line.
func (l ErrorList) attachSource(src []byte) {
	text := string(src)
	var starts []int // offsets at which lines begin, computed when needed
	for _, e := range l {
		if !e.Pos.IsValid() || e.Line != "" {
			continue
		}
		if starts == nil {
			starts = append(starts, 0)
			for i := 0; i < len(text); i++ {
				if text[i] == '\n' {
					starts = append(starts, i+1)
				}
			}
		}
		if n := e.Pos.Line; n <= len(starts) {
			end := len(text)
			if n < len(starts) {
				end = starts[n] - 1
			}
			e.Line = strings.TrimSuffix(text[starts[n-1]:end], "\r")
		}
	}
}

// Error renders up to MaxErrors errors with their source lines.
func (l ErrorList) Error() string {
	var parts []string
	for i, e := range l {
		if i == MaxErrors {
			parts = append(parts, fmt.Sprintf("too many errors (%d more not shown)", len(l)-MaxErrors))
			break
		}
		parts = append(parts, e.Detail())
	}
	return strings.Join(parts, "\n")
}
