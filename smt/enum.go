package smt

import (
	"errors"
	"sort"

	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt/z3"
)

// Enumerations are Z3 enumeration datatypes: every value of the sort is
// one of its members, so a havoc or an arbitrary initial value never
// leaves the enumeration. Both backends (the binding and the SMT-LIB2
// printer) use the same names, and the names are prefixed so that no
// enumeration or member can clash with a variable or a theory symbol.

func enumSortName(s *obl.EnumSort) string { return "enum." + s.Name }

func enumMemberName(s *obl.EnumSort, i int) string { return s.Name + "." + s.Members[i] }

// enum returns the Z3 sort of s and its members' constants.
func (en *encoder) enum(s *obl.EnumSort) (z3.Sort, []z3.Term) {
	names := make([]string, len(s.Members))
	for i := range s.Members {
		names[i] = enumMemberName(s, i)
	}
	return en.ctx.EnumSort(enumSortName(s), names)
}

// usedEnums returns the enumeration sorts that v's constants and
// formulas use, sorted by name, for the declarations of an SMT-LIB2
// script.
func usedEnums(v *vc) []*obl.EnumSort {
	found := map[string]*obl.EnumSort{}
	var addSort func(s obl.Sort)
	addSort = func(s obl.Sort) {
		switch s := s.(type) {
		case *obl.EnumSort:
			found[s.Name] = s
		case *obl.MapSort:
			addSort(s.Key)
			addSort(s.Val)
		}
	}
	for _, c := range v.consts {
		addSort(c.Sort)
	}
	visit := func(e obl.Expr) {
		obl.WalkExpr(e, func(e obl.Expr) {
			switch e := e.(type) {
			case *obl.EnumLit:
				found[e.S.Name] = e.S
			case *obl.Quant:
				for _, b := range e.Bound {
					addSort(b.Sort)
				}
			}
		})
	}
	for _, d := range v.defs() {
		visit(d)
	}
	for _, g := range v.goals {
		visit(g.failure())
	}
	out := make([]*obl.EnumSort, 0, len(found))
	for _, s := range found {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// enumValue reads the value of t, a term of enumeration sort s, in the
// model: the member whose constant the model's value is.
func (r *modelReader) enumValue(t z3.Term, s *obl.EnumSort) (obl.Value, error) {
	v, err := r.m.Eval(t, true)
	if err != nil {
		return nil, err
	}
	_, members := r.en.enum(s)
	for i, m := range members {
		if v.String() == m.String() {
			return obl.EnumVal{S: s, I: i}, nil
		}
	}
	return nil, errUnknownMember
}

var errUnknownMember = errors.New("smt: the model's value of an enumeration is none of its members")

// enumMap reads a map with enumeration keys, whatever Z3's description
// of it: its value at every member. The last member's value is the
// default, so that the map prints as its entries that differ from it.
func (r *modelReader) enumMap(t z3.Term, s *obl.MapSort, keys *obl.EnumSort) (obl.Value, error) {
	_, members := r.en.enum(keys)
	mv := obl.MapVal{}
	for i, k := range members {
		v, err := r.value(r.en.ctx.Select(t, k), s.Val)
		if err != nil {
			return nil, err
		}
		if i == len(members)-1 {
			mv.Default = v
		} else {
			mv.Entries = append(mv.Entries, obl.MapEntry{Key: obl.EnumVal{S: keys, I: i}, Val: v})
		}
	}
	return mv.Normalize(), nil
}
