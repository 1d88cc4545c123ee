package obl

import "strings"

// Records: a sort whose values are tuples of named fields. In Z3 a
// RecordSort is a tuple datatype (one constructor, one projection per
// field), so two records with equal fields are equal; the model checker
// interns records like maps, so that equal records have one id.

// A RecordSort is the sort of a record type. Two record sorts are the
// same sort if they have the same name (names are unique in a program).
type RecordSort struct {
	Name   string
	Fields []RecordField
}

// A RecordField is a field of a record sort.
type RecordField struct {
	Name string
	Sort Sort
}

func (s *RecordSort) String() string { return s.Name }

func (*RecordSort) isSort() {}

// A Record builds a record of sort S from a value per field: Node(1, 2).
type Record struct {
	S    *RecordSort
	Args []Expr
}

// A Field reads field I of record X, of sort S: x.value.
type Field struct {
	X Expr
	S *RecordSort
	I int
}

func (*Record) isExpr() {}
func (*Field) isExpr()  {}

func (e *Record) String() string { return exprString(e) }
func (e *Field) String() string  { return exprString(e) }

// MkRecord returns the record of sort s with the given fields.
func MkRecord(s *RecordSort, args ...Expr) Expr { return &Record{S: s, Args: args} }

// FieldOf returns field i of x, a record of sort s, folding a field of a
// record built in place.
func FieldOf(x Expr, s *RecordSort, i int) Expr {
	if r, ok := x.(*Record); ok {
		return r.Args[i]
	}
	return &Field{X: x, S: s, I: i}
}

// WithField returns x with field i replaced by v: the record whose
// other fields are x's.
func WithField(x Expr, s *RecordSort, i int, v Expr) Expr {
	args := make([]Expr, len(s.Fields))
	for j := range args {
		if j == i {
			args[j] = v
		} else {
			args[j] = FieldOf(x, s, j)
		}
	}
	return MkRecord(s, args...)
}

// A RecordVal is a value of a record sort: a value per field.
type RecordVal struct {
	S      *RecordSort
	Fields []Value
}

func (RecordVal) isValue() {}

// String prints the record as its constructor would build it, with the
// field names: Node(value: 1, next: 2).
func (v RecordVal) String() string {
	parts := make([]string, len(v.Fields))
	for i, f := range v.Fields {
		parts[i] = v.S.Fields[i].Name + ": " + f.String()
	}
	return v.S.Name + "(" + strings.Join(parts, ", ") + ")"
}
