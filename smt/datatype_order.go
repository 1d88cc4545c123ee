package smt

import "strings"

// orderDatatypes returns the SMT-LIB2 script text with its datatype
// declarations moved so that each comes after the declarations of the
// sorts it mentions. Z3 4.8.12 prints a solver's datatypes in an order of
// its own, which can put a record before the record that one of its
// fields' map sorts holds ([int]R2 in R): the text then fails to parse
// in a fresh context ("unknown sort"), and a query asked there would be
// unknown for no reason. The other commands keep their order, after the
// datatypes.
func orderDatatypes(text string) string {
	if !strings.Contains(text, "(declare-datatype") {
		return text
	}
	cmds := topLevel(text)
	var decls, rest []string
	for _, c := range cmds {
		if strings.HasPrefix(c, "(declare-datatype") {
			decls = append(decls, c)
		} else {
			rest = append(rest, c)
		}
	}
	var b strings.Builder
	for _, d := range dependencyOrder(decls) {
		b.WriteString(d)
		b.WriteString("\n")
	}
	for _, c := range rest {
		b.WriteString(c)
		b.WriteString("\n")
	}
	return b.String()
}

// topLevel splits text into its top-level S-expressions (and any other
// top-level tokens), skipping comments; strings and |quoted| symbols may
// hold parentheses.
func topLevel(text string) []string {
	var out []string
	depth, start := 0, -1
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == ';' && depth == 0:
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '"' || c == '|':
			if start < 0 {
				start = i
			}
			i = skipQuoted(text, i)
		case c == '(':
			if depth == 0 {
				start = i
			}
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				out = append(out, text[start:i+1])
				start = -1
			}
		case depth == 0 && (c == ' ' || c == '\n' || c == '\t' || c == '\r'):
			if start >= 0 {
				out = append(out, text[start:i])
				start = -1
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 && depth == 0 {
		out = append(out, text[start:])
	}
	return out
}

// skipQuoted returns the index of the quote that closes the string or
// quoted symbol opened at i ("" inside a string is an escaped quote).
func skipQuoted(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		if text[j] == q {
			if q == '"' && j+1 < len(text) && text[j+1] == '"' {
				j++
				continue
			}
			return j
		}
	}
	return len(text) - 1
}

// dependencyOrder orders datatype declarations so that a declaration
// that mentions a sort another one declares comes after it; a cycle
// (mutually recursive sorts, which lipton does not declare) keeps the
// given order.
func dependencyOrder(decls []string) []string {
	names := make([]string, len(decls))
	for i, d := range decls {
		names[i] = declaredSort(d)
	}
	var out []string
	done := make([]bool, len(decls))
	var visit func(i int, path map[int]bool)
	visit = func(i int, path map[int]bool) {
		if done[i] || path[i] {
			return
		}
		path[i] = true
		for j, n := range names {
			if j != i && n != "" && mentions(decls[i], n) {
				visit(j, path)
			}
		}
		done[i] = true
		out = append(out, decls[i])
	}
	for i := range decls {
		visit(i, map[int]bool{})
	}
	return out
}

// declaredSort returns the name of the first sort that a
// declare-datatypes (or declare-datatype) command declares.
func declaredSort(d string) string {
	s := strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(d, "(declare-datatypes"), "(declare-datatype"), " \n\t(")
	end := strings.IndexAny(s, " \n\t()")
	if end < 0 {
		return ""
	}
	return s[:end]
}

// mentions reports whether the command d mentions the symbol name as a
// whole token.
func mentions(d, name string) bool {
	for i := 0; ; {
		k := strings.Index(d[i:], name)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(name)
		if (k == 0 || isDelim(d[k-1])) && (end == len(d) || isDelim(d[end])) {
			return true
		}
		i = k + 1
	}
}

func isDelim(c byte) bool { return strings.IndexByte(" \n\t()", c) >= 0 }
