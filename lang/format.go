package lang

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Format prints a parsed file in canonical form: two-space indentation,
// one statement per line, minimal parentheses. Comments are kept: a
// comment is printed before the first node that follows it, or at the end
// of the line of the node it trails. Single blank lines between nodes are
// kept. Formatting is idempotent, and the output parses to the same AST.
func Format(f *File) []byte {
	p := &printer{src: f.Src, comments: f.Comments}
	for i, d := range f.Decls {
		if i > 0 && (isBlock(d) || isBlock(f.Decls[i-1])) {
			p.blank = true
		}
		p.decl(d)
	}
	p.flushComments(len(f.Src) + 1)
	return []byte(alignTrailingComments(p.out.String()))
}

// alignTrailingComments lines up the // comments that trail the code of
// consecutive lines at the same indentation, as gofmt does, so that a
// column of declarations reads as a table.
func alignTrailingComments(text string) string {
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && trailing(lines[j]) >= 0 && indentOf(lines[j]) == indentOf(lines[i]) {
			j++
		}
		if j-i >= 2 {
			width := 0
			for _, l := range lines[i:j] {
				width = max(width, len(strings.TrimRight(l[:trailing(l)], " ")))
			}
			for k := i; k < j; k++ {
				c := trailing(lines[k])
				code := strings.TrimRight(lines[k][:c], " ")
				lines[k] = code + strings.Repeat(" ", width-len(code)+2) + lines[k][c:]
			}
		}
		if j == i {
			j++
		}
		i = j
	}
	return strings.Join(lines, "\n")
}

// trailing returns where a // comment after code starts on a line, or -1.
func trailing(line string) int {
	i := strings.Index(line, "//")
	if i <= 0 || strings.TrimSpace(line[:i]) == "" {
		return -1
	}
	return i
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

func isBlock(d Decl) bool {
	switch d.(type) {
	case *Layer, *Instance:
		return true
	}
	return false
}

type printer struct {
	out      strings.Builder
	src      []byte
	comments []*Comment
	next     int  // index of the next comment to print
	indent   int  // current indentation, in levels of two spaces
	blank    bool // a blank line is due before the next line
	started  bool // something has been printed
}

// line prints one output line for a node starting at pos: first the
// comments before pos, then the text, then the comments that trail it on
// its source line.
func (p *printer) line(pos Pos, format string, args ...any) {
	p.flushComments(pos.Offset)
	if pos.IsValid() && p.hadBlankBefore(pos.Offset) {
		p.blank = true
	}
	p.startLine()
	fmt.Fprintf(&p.out, format, args...)
	p.trailing(pos)
	p.out.WriteByte('\n')
}

func (p *printer) startLine() {
	if p.blank && p.started {
		p.out.WriteByte('\n')
	}
	p.blank, p.started = false, true
	p.out.WriteString(strings.Repeat("  ", p.indent))
}

// flushComments prints, each on its own line, the comments before offset.
func (p *printer) flushComments(offset int) {
	for p.next < len(p.comments) && p.comments[p.next].P.Offset < offset {
		c := p.comments[p.next]
		if p.hadBlankBefore(c.P.Offset) {
			p.blank = true
		}
		p.startLine()
		p.out.WriteString(c.Text)
		p.out.WriteByte('\n')
		p.next++
	}
}

// trailing appends the comments on pos's source line that come after it.
func (p *printer) trailing(pos Pos) {
	for p.next < len(p.comments) {
		c := p.comments[p.next]
		if !pos.IsValid() || c.P.Line != pos.Line || c.P.Offset < pos.Offset {
			return
		}
		p.out.WriteString("  " + c.Text)
		p.next++
	}
}

// hadBlankBefore reports whether the source has a blank line just before
// offset.
func (p *printer) hadBlankBefore(offset int) bool {
	newlines := 0
	for i := offset - 1; i >= 0 && i < len(p.src); i-- {
		switch p.src[i] {
		case '\n':
			newlines++
		case ' ', '\t', '\r':
		default:
			return newlines >= 2
		}
	}
	return false
}

func (p *printer) decl(d Decl) {
	switch d := d.(type) {
	case *TypeDecl:
		p.line(d.P, "type %s = %s;", d.Name.Name, TypeString(d.Type))
	case *ConstDecl:
		p.line(d.P, "const %s: %s%s;", d.Name.Name, TypeString(d.Type), optInit(d.Value))
	case *VarDecl:
		p.line(d.P, "%s%svar %s: %s%s%s;", linearWord(d.Linear), ghostWord(d.Ghost), d.Name.Name, TypeString(d.Type), optInit(d.Init), layersClause(d.Layers))
	case *FuncDecl:
		if d.YieldInv {
			p.yieldInv(d)
			return
		}
		p.line(d.P, "function %s(%s): %s { %s }", d.Name.Name, paramList(d.Params), TypeString(d.Result), ExprString(d.Body))
	case *InvariantDecl:
		p.line(d.P, "invariant %s%s;", ExprString(d.Expr), layersClause(d.Layers))
	case *Layer:
		p.layer(d)
	case *Instance:
		p.instance(d)
	}
}

func optInit(e Expr) string {
	if e == nil {
		return ""
	}
	return " = " + ExprString(e)
}

func ghostWord(g bool) string {
	if g {
		return "ghost "
	}
	return ""
}

func layersClause(r *LayerRange) string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf(" layers %d..%d", r.Lo, r.Hi)
}

// linearWord is "linear " for a linear variable.
func linearWord(linear bool) string {
	if linear {
		return "linear "
	}
	return ""
}

func paramList(ps []*Param) string {
	var parts []string
	for _, p := range ps {
		s := p.Name.Name + ": " + TypeString(p.Type)
		if p.Ghost {
			s = "ghost " + s
		}
		if p.LinearIn {
			s = "linear_in " + s
		} else if p.Linear {
			s = "linear " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func (p *printer) layer(l *Layer) {
	p.line(l.P, "layer %d {", l.Num)
	p.indent++
	for i, m := range l.Members {
		if i > 0 {
			p.blank = true
		}
		p.member(m)
	}
	p.closeBrace(l.End)
}

// closeBrace prints the comments inside a block before its closing brace,
// then the brace.
// yieldInv prints a yield invariant, one clause per line.
func (p *printer) yieldInv(d *FuncDecl) {
	p.line(d.P, "yield invariant %s(%s)%s {", d.Name.Name, paramList(d.Params), layersClause(d.Layers))
	p.indent++
	for _, e := range d.Conjuncts {
		p.line(e.Pos(), "%s;", ExprString(e))
	}
	p.closeBrace(d.End)
}

// clauses prints a signature's requires, preserves and ensures clauses
// in the order they were written (requires, preserves, ensures for a tree
// without positions), so that comments stay with their clauses.
func (p *printer) clauses(sig *Signature) {
	type clause struct {
		kw string
		e  Expr
	}
	var cs []clause
	for _, e := range without(sig.Requires, sig.Preserves) {
		cs = append(cs, clause{"requires", e})
	}
	for _, e := range sig.Preserves {
		cs = append(cs, clause{"preserves", e})
	}
	for _, e := range without(sig.Ensures, sig.Preserves) {
		cs = append(cs, clause{"ensures", e})
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i].e.Pos(), cs[j].e.Pos()
		return a.IsValid() && b.IsValid() && a.Offset < b.Offset
	})
	for _, c := range cs {
		p.line(c.e.Pos(), "%s %s", c.kw, ExprString(c.e))
	}
}

// without returns the expressions of es that are not in drop (the same
// nodes).
func without(es, drop []Expr) []Expr {
	var out []Expr
	for _, e := range es {
		if !slices.Contains(drop, e) {
			out = append(out, e)
		}
	}
	return out
}

func (p *printer) closeBrace(end Pos) {
	p.flushComments(end.Offset)
	p.blank = false
	p.indent--
	p.line(end, "}")
}

func (p *printer) member(m Member) {
	sig := m.Sig()
	head := "proc"
	var body *Block
	switch m := m.(type) {
	case *Action:
		head = "action"
		if m.Mover != MoverNone {
			head = m.Mover.String() + " action"
		}
		body = m.Body
	case *Proc:
		if m.Mover != MoverNone {
			head = m.Mover.String() + " proc"
		}
		body = m.Body
	}
	if sig.Public {
		head = "public " + head
	}
	rets := ""
	if len(sig.Returns) > 0 {
		rets = " returns (" + paramList(sig.Returns) + ")"
	}
	p.line(m.Pos(), "%s %s(%s)%s", head, sig.Name.Name, paramList(sig.Params), rets)
	p.indent++
	p.clauses(sig)
	if proc, ok := m.(*Proc); ok {
		p.derive(proc)
	}
	p.indent--
	p.line(body.P, "{")
	p.indent++
	for _, d := range sig.Locals {
		p.line(d.P, "%s%svar %s: %s;", linearWord(d.Linear), ghostWord(d.Ghost), identList(d.Names), TypeString(d.Type))
	}
	p.stmts(body.Stmts)
	p.closeBrace(body.End)
}

// derive prints a procedure's split or peel clause.
func (p *printer) derive(proc *Proc) {
	switch {
	case proc.Split != nil:
		p.line(proc.Split.P, "split %s when %s", proc.Split.Of.Name, ExprString(proc.Split.Cond))
	case proc.Peel:
		p.line(proc.PeelPos, "peel")
	}
}

func identList(ids []*Ident) string {
	var names []string
	for _, id := range ids {
		names = append(names, id.Name)
	}
	return strings.Join(names, ", ")
}

func (p *printer) instance(in *Instance) {
	p.line(in.P, "instance %s {", in.Name.Name)
	p.indent++
	for _, t := range in.Threads {
		var calls []string
		for _, cs := range t.Calls {
			s := cs.Method.Name
			if len(cs.Args) > 0 {
				var args []string
				for _, a := range cs.Args {
					args = append(args, a.Param.Name+" in "+rangeString(a.Range))
				}
				s += "(" + strings.Join(args, ", ") + ")"
			}
			calls = append(calls, s)
		}
		max := ""
		if t.MaxPos.IsValid() {
			max = fmt.Sprintf(" max %d", t.Max)
		}
		p.line(t.P, "thread %s(%s = %s%s) calls %s%s;", t.Role.Name, t.TidParam.Name, rangeString(t.Tids), threadSetsString(t.Sets), strings.Join(calls, ", "), max)
	}
	if in.Ints != nil {
		p.line(in.Ints.P, "ints %s;", rangeString(in.Ints))
	}
	p.closeBrace(in.End)
}

// threadSetsString prints a role's linear sets, each after a comma:
// `, s = {0..1} {2}`.
func threadSetsString(sets []*ThreadSets) string {
	var b strings.Builder
	for _, ts := range sets {
		fmt.Fprintf(&b, ", %s =", ts.Param.Name)
		for _, sl := range ts.Sets {
			var elems []string
			for _, r := range sl.Elems {
				elems = append(elems, rangeString(r))
			}
			fmt.Fprintf(&b, " {%s}", strings.Join(elems, ", "))
		}
	}
	return b.String()
}

func rangeString(r *IntRange) string {
	if r.Single {
		return fmt.Sprint(r.Lo)
	}
	return fmt.Sprintf("%d..%d", r.Lo, r.Hi)
}
