package obl

// A Sort is the type of an expression: IntSort, BoolSort, a *MapSort, a
// *SeqSort, an *EnumSort or a *RecordSort.
type Sort interface {
	// String returns the sort in lipton syntax: int, bool, [int]bool.
	String() string
	isSort()
}

// A BasicSort is one of the two scalar sorts.
type BasicSort int

// The scalar sorts.
const (
	IntSort  BasicSort = iota + 1 // mathematical integers
	BoolSort                      // booleans
)

func (s BasicSort) String() string {
	switch s {
	case IntSort:
		return "int"
	case BoolSort:
		return "bool"
	}
	return "<bad sort>"
}

func (BasicSort) isSort() {}

// A MapSort is the sort of total maps from Key to Val.
type MapSort struct {
	Key, Val Sort
}

func (s *MapSort) String() string { return "[" + s.Key.String() + "]" + s.Val.String() }

func (*MapSort) isSort() {}

// SortEqual reports whether a and b are the same sort.
func SortEqual(a, b Sort) bool {
	switch a := a.(type) {
	case BasicSort:
		b, ok := b.(BasicSort)
		return ok && a == b
	case *MapSort:
		b, ok := b.(*MapSort)
		return ok && SortEqual(a.Key, b.Key) && SortEqual(a.Val, b.Val)
	case *EnumSort:
		b, ok := b.(*EnumSort)
		return ok && a.Name == b.Name
	case *RecordSort:
		b, ok := b.(*RecordSort)
		return ok && a.Name == b.Name
	case *SeqSort:
		b, ok := b.(*SeqSort)
		return ok && SortEqual(a.Elem, b.Elem)
	}
	return false
}
