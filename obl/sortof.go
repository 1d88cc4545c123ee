package obl

import "fmt"

// SortOf returns the sort of e after checking that e is well sorted:
// arithmetic and comparisons on integers, connectives on booleans, equal
// sorts on both sides of == and != and in both branches of a conditional,
// keys and values of the map's sorts, and boolean quantifier bodies.
func SortOf(e Expr) (Sort, error) {
	switch e := e.(type) {
	case *IntLit:
		if e.V == nil {
			return nil, fmt.Errorf("integer literal without a value")
		}
		return IntSort, nil
	case *BoolLit:
		return BoolSort, nil
	case *Record:
		return recordSort(e)
	case *SeqApp:
		return seqSort(e)
	case *ConstMap:
		if e.S == nil {
			return nil, fmt.Errorf("constant map without a sort")
		}
		return e.S, expectSort(e.V, e.S.Val, e)
	case *Field:
		if e.S == nil || e.I < 0 || e.I >= len(e.S.Fields) {
			return nil, fmt.Errorf("field out of its record sort")
		}
		return e.S.Fields[e.I].Sort, expectSort(e.X, e.S, e)
	case *EnumLit:
		if e.S == nil || e.I < 0 || e.I >= len(e.S.Members) {
			return nil, fmt.Errorf("enumeration literal out of its sort")
		}
		return e.S, nil
	case *VarRef:
		if e.V == nil || e.V.Sort == nil {
			return nil, fmt.Errorf("reference to a nil variable or one without a sort")
		}
		return e.V.Sort, nil
	case *Unary:
		want := Sort(IntSort)
		if e.Op == OpNot {
			want = BoolSort
		}
		return want, expectSort(e.X, want, e)
	case *Binary:
		return binarySort(e)
	case *Ite:
		return iteSort(e)
	case *Select:
		return selectSort(e)
	case *Store:
		return storeSort(e)
	case *Quant:
		for _, v := range e.Bound {
			if v == nil || v.Sort == nil {
				return nil, fmt.Errorf("quantifier binds a nil variable or one without a sort")
			}
		}
		return BoolSort, expectSort(e.Body, BoolSort, e)
	case nil:
		return nil, fmt.Errorf("nil expression")
	}
	return nil, fmt.Errorf("unknown expression type %T", e)
}

// expectSort checks that sub has sort want; in is the enclosing
// expression, for the message.
func expectSort(sub Expr, want Sort, in Expr) error {
	got, err := SortOf(sub)
	if err != nil {
		return err
	}
	if !SortEqual(got, want) {
		return fmt.Errorf("%s has sort %s, want %s, in %s", sub, got, want, in)
	}
	return nil
}

func binarySort(e *Binary) (Sort, error) {
	switch e.Op {
	case OpAdd, OpSub, OpMul, OpDiv, OpMod, OpLt, OpLe, OpGt, OpGe:
		if err := expectSort(e.X, IntSort, e); err != nil {
			return nil, err
		}
		if err := expectSort(e.Y, IntSort, e); err != nil {
			return nil, err
		}
		if e.Op >= OpLt {
			return BoolSort, nil
		}
		return IntSort, nil
	case OpAnd, OpOr, OpImplies, OpIff:
		if err := expectSort(e.X, BoolSort, e); err != nil {
			return nil, err
		}
		return BoolSort, expectSort(e.Y, BoolSort, e)
	case OpEq, OpNe:
		s, err := SortOf(e.X)
		if err != nil {
			return nil, err
		}
		return BoolSort, expectSort(e.Y, s, e)
	}
	return nil, fmt.Errorf("unknown binary operator %d", e.Op)
}

func iteSort(e *Ite) (Sort, error) {
	if err := expectSort(e.Cond, BoolSort, e); err != nil {
		return nil, err
	}
	s, err := SortOf(e.Then)
	if err != nil {
		return nil, err
	}
	return s, expectSort(e.Else, s, e)
}

// mapSortOf returns the sort of a map expression.
func mapSortOf(m Expr, in Expr) (*MapSort, error) {
	s, err := SortOf(m)
	if err != nil {
		return nil, err
	}
	ms, ok := s.(*MapSort)
	if !ok {
		return nil, fmt.Errorf("%s has sort %s, want a map, in %s", m, s, in)
	}
	return ms, nil
}

func selectSort(e *Select) (Sort, error) {
	ms, err := mapSortOf(e.Map, e)
	if err != nil {
		return nil, err
	}
	return ms.Val, expectSort(e.Key, ms.Key, e)
}

func storeSort(e *Store) (Sort, error) {
	ms, err := mapSortOf(e.Map, e)
	if err != nil {
		return nil, err
	}
	if err := expectSort(e.Key, ms.Key, e); err != nil {
		return nil, err
	}
	return ms, expectSort(e.Val, ms.Val, e)
}

func recordSort(e *Record) (Sort, error) {
	if e.S == nil || len(e.Args) != len(e.S.Fields) {
		return nil, fmt.Errorf("record built with %d values for its fields", len(e.Args))
	}
	for i, a := range e.Args {
		if err := expectSort(a, e.S.Fields[i].Sort, e); err != nil {
			return nil, err
		}
	}
	return e.S, nil
}
