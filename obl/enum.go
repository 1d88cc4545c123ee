package obl

// Enumerations: a sort with finitely many named members, and its
// literals and values. In Z3 an EnumSort is an enumeration datatype, so
// every value of the sort is one of its members; the model checker
// represents member i as the integer i.

// An EnumSort is the sort of an enumeration type: Members[i] is member i.
// Two enum sorts are the same sort if they have the same name (names are
// unique in a program).
type EnumSort struct {
	Name    string
	Members []string
}

func (s *EnumSort) String() string { return s.Name }

func (*EnumSort) isSort() {}

// An EnumLit is member I of enumeration S.
type EnumLit struct {
	S *EnumSort
	I int
}

func (*EnumLit) isExpr() {}

func (e *EnumLit) String() string { return e.S.Members[e.I] }

// Enum returns the literal of member i of s.
func Enum(s *EnumSort, i int) Expr { return &EnumLit{S: s, I: i} }

// An EnumVal is a value of an enumeration: member I of S.
type EnumVal struct {
	S *EnumSort
	I int
}

func (EnumVal) isValue() {}

func (v EnumVal) String() string { return v.S.Members[v.I] }
