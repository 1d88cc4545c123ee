package obl

// A ConstMap is the map of sort S that is V at every key.
type ConstMap struct {
	S *MapSort
	V Expr
}

func (*ConstMap) isExpr() {}

func (e *ConstMap) String() string { return exprString(e) }

// MapOf returns the map of sort s that is v at every key.
func MapOf(s *MapSort, v Expr) Expr { return &ConstMap{S: s, V: v} }
