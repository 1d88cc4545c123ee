package htmlreport

import (
	"html"
	"html/template"
	"strings"
)

// keywords are the words the page sets in bold; movers are coloured.
var keywords = map[string]bool{
	"var": true, "ghost": true, "const": true, "type": true, "function": true, "invariant": true,
	"layer": true, "layers": true, "proc": true, "action": true, "returns": true, "requires": true,
	"ensures": true, "preserves": true, "yield": true, "call": true, "if": true, "else": true,
	"while": true, "choice": true, "or": true, "assert": true, "assume": true, "havoc": true,
	"return": true, "break": true, "linear": true, "public": true, "forall": true, "exists": true,
	"old": true, "instance": true, "thread": true, "calls": true, "fence": true, "record": true, "enum": true,
}

var movers = map[string]bool{"right": true, "left": true, "both": true, "atomic": true}

// highlight renders a source line as HTML: comments, keywords and mover
// tags in spans of their class, everything escaped.
func highlight(line string) template.HTML {
	var b strings.Builder
	code, comment := line, ""
	if i := commentStart(line); i >= 0 {
		code, comment = line[:i], line[i:]
	}
	for i := 0; i < len(code); {
		j := i
		for j < len(code) && isWord(code[j]) {
			j++
		}
		if j == i {
			b.WriteString(html.EscapeString(code[i : i+1]))
			i++
			continue
		}
		word := code[i:j]
		switch {
		case movers[word]:
			b.WriteString(`<span class="mv mv-` + word + `">` + word + `</span>`)
		case keywords[word]:
			b.WriteString(`<span class="kw">` + word + `</span>`)
		default:
			b.WriteString(html.EscapeString(word))
		}
		i = j
	}
	if comment != "" {
		b.WriteString(`<span class="cm">` + html.EscapeString(comment) + `</span>`)
	}
	return template.HTML(b.String())
}

// commentStart is the index of a // comment in a line, or -1.
func commentStart(line string) int { return strings.Index(line, "//") }

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// sourceLines splits a source text into lines (without line ends).
func sourceLines(src []byte) []string {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	return strings.Split(s, "\n")
}
