package obl

import (
	"fmt"
	"math/big"
	"strings"
)

// Sequences: a sort whose values are finite sequences of values of an
// element sort. In Z3 a SeqSort is Z3's sequence sort (Seq elem) with its
// theory of length, element, extraction and concatenation; the model
// checker interns a sequence as a map from positions to elements with
// its length at key -1, so equal sequences have one id.

// A SeqSort is the sort []Elem.
type SeqSort struct {
	Elem Sort
}

func (s *SeqSort) String() string { return "[]" + s.Elem.String() }

func (*SeqSort) isSort() {}

// A SeqOp is an operation on sequences.
type SeqOp int

// The operations on sequences, with their arguments.
const (
	SeqLit    SeqOp = iota // []T{a, b, ...}: the elements
	SeqLen                 // len(s): s
	SeqAt                  // s[i]: s, i
	SeqSlice               // s[lo:hi]: s, lo, hi
	SeqAppend              // append(s, v): s, v
	SeqConcat              // concat(s, t): s, t
	// SeqDiff is not in the language: diff(s, t) is an index where s and
	// t differ if they have equal lengths but are not equal (the
	// extensionality facts of package smt).
	SeqDiff // diff(s, t): s, t
)

// A SeqApp applies a sequence operation to its arguments. S is the sort
// of the literal (SeqLit) or of the first argument.
type SeqApp struct {
	Op   SeqOp
	S    *SeqSort
	Args []Expr
}

func (*SeqApp) isExpr() {}

func (e *SeqApp) String() string { return exprString(e) }

// SeqOf returns the sequence of sort s with the given elements.
func SeqOf(s *SeqSort, elems ...Expr) Expr { return &SeqApp{Op: SeqLit, S: s, Args: elems} }

// SeqLength returns len(x), x a sequence of sort s.
func SeqLength(x Expr, s *SeqSort) Expr { return &SeqApp{Op: SeqLen, S: s, Args: []Expr{x}} }

// SeqElem returns x[i], x a sequence of sort s.
func SeqElem(x Expr, s *SeqSort, i Expr) Expr {
	return &SeqApp{Op: SeqAt, S: s, Args: []Expr{x, i}}
}

// SeqSliceOf returns x[lo:hi], x a sequence of sort s.
func SeqSliceOf(x Expr, s *SeqSort, lo, hi Expr) Expr {
	return &SeqApp{Op: SeqSlice, S: s, Args: []Expr{x, lo, hi}}
}

// SeqAppendOf returns append(x, v), x a sequence of sort s.
func SeqAppendOf(x Expr, s *SeqSort, v Expr) Expr {
	return &SeqApp{Op: SeqAppend, S: s, Args: []Expr{x, v}}
}

// SeqConcatOf returns concat(x, y), both sequences of sort s.
func SeqConcatOf(x, y Expr, s *SeqSort) Expr {
	return &SeqApp{Op: SeqConcat, S: s, Args: []Expr{x, y}}
}

// seqRange is the condition under which e, a sequence operation, reads
// inside its sequence: 0 <= i < len(s) for s[i], 0 <= lo <= hi <=
// len(s) for s[lo:hi]; true for the others.
func seqRange(e *SeqApp) Expr {
	switch e.Op {
	case SeqAt:
		i := e.Args[1]
		return And(Le(Int(0), i), Lt(i, SeqLength(e.Args[0], e.S)))
	case SeqSlice:
		lo, hi := e.Args[1], e.Args[2]
		return And(Le(Int(0), lo), Le(lo, hi), Le(hi, SeqLength(e.Args[0], e.S)))
	}
	return Bool(true)
}

// seqSort returns the sort of a sequence operation after checking its
// arguments' sorts.
func seqSort(e *SeqApp) (Sort, error) {
	if e.S == nil {
		return nil, fmt.Errorf("sequence operation without a sort")
	}
	var want []Sort
	result := Sort(e.S)
	switch e.Op {
	case SeqLit:
		for range e.Args {
			want = append(want, e.S.Elem)
		}
	case SeqLen:
		want, result = []Sort{e.S}, IntSort
	case SeqAt:
		want, result = []Sort{e.S, IntSort}, e.S.Elem
	case SeqSlice:
		want = []Sort{e.S, IntSort, IntSort}
	case SeqAppend:
		want = []Sort{e.S, e.S.Elem}
	case SeqConcat:
		want = []Sort{e.S, e.S}
	case SeqDiff:
		want, result = []Sort{e.S, e.S}, IntSort
	default:
		return nil, fmt.Errorf("unknown sequence operation %d", e.Op)
	}
	if len(e.Args) != len(want) {
		return nil, fmt.Errorf("sequence operation with %d arguments, want %d", len(e.Args), len(want))
	}
	for i, a := range e.Args {
		if err := expectSort(a, want[i], e); err != nil {
			return nil, err
		}
	}
	return result, nil
}

// printSeq prints a sequence operation in lipton syntax.
func (p *Printer) printSeq(b *strings.Builder, e *SeqApp) {
	list := func(es []Expr) {
		for i, a := range es {
			if i > 0 {
				b.WriteString(", ")
			}
			p.expr(b, a, precOpen)
		}
	}
	switch e.Op {
	case SeqLit:
		b.WriteString(e.S.String() + "{")
		list(e.Args)
		b.WriteString("}")
	case SeqAt, SeqSlice:
		p.expr(b, e.Args[0], precPostfix)
		b.WriteByte('[')
		p.expr(b, e.Args[1], precOpen)
		if e.Op == SeqSlice {
			b.WriteByte(':')
			p.expr(b, e.Args[2], precOpen)
		}
		b.WriteByte(']')
	default:
		b.WriteString(seqFuncNames[e.Op] + "(")
		list(e.Args)
		b.WriteString(")")
	}
}

var seqFuncNames = map[SeqOp]string{SeqLen: "len", SeqAppend: "append", SeqConcat: "concat", SeqDiff: "diff"}

// SeqDiffOf returns diff(x, y), both sequences of sort s.
func SeqDiffOf(x, y Expr, s *SeqSort) Expr {
	return &SeqApp{Op: SeqDiff, S: s, Args: []Expr{x, y}}
}

// A SeqVal is a value of a sequence sort: its elements in order. A
// counterexample may show only the first elements of a long sequence:
// More counts the others (nil if none).
type SeqVal struct {
	S     *SeqSort
	Elems []Value
	More  *big.Int
}

func (SeqVal) isValue() {}

// String prints the sequence as a literal: []int{1, 2}.
func (v SeqVal) String() string {
	parts := make([]string, len(v.Elems))
	for i, e := range v.Elems {
		parts[i] = e.String()
	}
	if v.More != nil {
		parts = append(parts, "... ("+v.More.String()+" more)")
	}
	return v.S.String() + "{" + strings.Join(parts, ", ") + "}"
}

// compareSeqs orders sequences by length, then element by element.
func compareSeqs(a, b SeqVal) int {
	if len(a.Elems) != len(b.Elems) || (a.More == nil) != (b.More == nil) {
		return strings.Compare(a.String(), b.String())
	}
	for i := range a.Elems {
		if c := CompareValues(a.Elems[i], b.Elems[i]); c != 0 {
			return c
		}
	}
	return 0
}

// UsesSequences reports whether ob mentions a sequence: a variable or a
// quantifier's variable whose sort holds one, or a sequence operation.
func UsesSequences(ob *Obligation) bool {
	for _, v := range ob.Vars {
		if sortHasSeq(v.Sort) {
			return true
		}
	}
	found := false
	walkCmd(ob.Body, func(c Cmd) {
		for _, e := range Exprs(c) {
			WalkExpr(e, func(e Expr) {
				switch e := e.(type) {
				case *SeqApp:
					found = true
				case *Quant:
					for _, v := range e.Bound {
						found = found || sortHasSeq(v.Sort)
					}
				}
			})
		}
	})
	return found
}

// sortHasSeq reports whether s is or contains a sequence sort.
func sortHasSeq(s Sort) bool {
	switch s := s.(type) {
	case *SeqSort:
		return true
	case *MapSort:
		return sortHasSeq(s.Key) || sortHasSeq(s.Val)
	case *RecordSort:
		for _, f := range s.Fields {
			if sortHasSeq(f.Sort) {
				return true
			}
		}
	}
	return false
}
