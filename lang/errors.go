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
// Tabs are kept so that the caret lines up on any terminal.
func Caret(line string, col int) string {
	var pad strings.Builder
	for i := 0; i < len(line) && i < col-1; {
		r, n := utf8.DecodeRuneInString(line[i:])
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
		i += n
	}
	return "    " + line + "\n    " + pad.String() + "^"
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
