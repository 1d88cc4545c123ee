package smt

import (
	"errors"
	"fmt"

	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt/z3"
)

// Enumerations and records are Z3 datatypes. An enumeration is an
// enumeration datatype: every value of the sort is one of its members,
// so a havoc or an arbitrary initial value never leaves the enumeration.
// A record is a tuple datatype: one constructor, named like the sort, and
// a projection per field, so records with equal fields are equal. Both
// backends (the binding and the SMT-LIB2 printer) use the same names,
// prefixed so that none can clash with a variable or a theory symbol.

func enumSortName(s *obl.EnumSort) string { return "enum." + s.Name }

func recordSortName(s *obl.RecordSort) string { return "rec." + s.Name }

func recordFieldName(s *obl.RecordSort, i int) string { return s.Name + "." + s.Fields[i].Name }

// record returns the Z3 sort of s, its constructor and its projections.
func (en *encoder) record(s *obl.RecordSort) (z3.Sort, z3.Func, []z3.Func) {
	names := make([]string, len(s.Fields))
	sorts := make([]z3.Sort, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = recordFieldName(s, i)
		sorts[i] = en.sort(f.Sort)
	}
	return en.ctx.TupleSort(recordSortName(s), names, sorts)
}

func enumMemberName(s *obl.EnumSort, i int) string { return s.Name + "." + s.Members[i] }

// enum returns the Z3 sort of s and its members' constants.
func (en *encoder) enum(s *obl.EnumSort) (z3.Sort, []z3.Term) {
	names := make([]string, len(s.Members))
	for i := range s.Members {
		names[i] = enumMemberName(s, i)
	}
	return en.ctx.EnumSort(enumSortName(s), names)
}

// usedDatatypes returns the enumeration and record sorts that v's
// constants and formulas use, each after the sorts its fields use, for
// the declarations of an SMT-LIB2 script.
func usedDatatypes(v *vc) []obl.Sort {
	var out []obl.Sort
	seen := map[string]bool{}
	var addSort func(s obl.Sort)
	addSort = func(s obl.Sort) {
		switch s := s.(type) {
		case *obl.EnumSort:
			if !seen[s.Name] {
				seen[s.Name] = true
				out = append(out, s)
			}
		case *obl.RecordSort:
			if !seen[s.Name] {
				seen[s.Name] = true
				for _, f := range s.Fields {
					addSort(f.Sort)
				}
				out = append(out, s)
			}
		case *obl.MapSort:
			addSort(s.Key)
			addSort(s.Val)
		case *obl.SeqSort:
			addSort(s.Elem)
		}
	}
	for _, c := range v.consts {
		addSort(c.Sort)
	}
	visit := func(e obl.Expr) {
		obl.WalkExpr(e, func(e obl.Expr) {
			switch e := e.(type) {
			case *obl.EnumLit:
				addSort(e.S)
			case *obl.Record:
				addSort(e.S)
			case *obl.ConstMap:
				addSort(e.S)
			case *obl.SeqApp:
				addSort(e.S)
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
	return out
}

// declareDatatype prints the declaration of an enumeration or record sort.
func (sw *smtWriter) declareDatatype(s obl.Sort) {
	switch s := s.(type) {
	case *obl.EnumSort:
		fmt.Fprintf(sw.w, "(declare-datatypes ((%s 0)) ((", symbol(enumSortName(s)))
		for i := range s.Members {
			if i > 0 {
				sw.w.WriteString(" ")
			}
			fmt.Fprintf(sw.w, "(%s)", symbol(enumMemberName(s, i)))
		}
	case *obl.RecordSort:
		name := symbol(recordSortName(s))
		fmt.Fprintf(sw.w, "(declare-datatypes ((%s 0)) (((%s", name, name)
		for i, f := range s.Fields {
			fmt.Fprintf(sw.w, " (%s %s)", symbol(recordFieldName(s, i)), smtSort(f.Sort))
		}
		sw.w.WriteString(")")
	}
	sw.w.WriteString(")))\n")
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

// recordValue reads the value of t, a term of record sort s, in the
// model: the value of each field.
func (r *modelReader) recordValue(t z3.Term, s *obl.RecordSort) (obl.Value, error) {
	_, _, proj := r.en.record(s)
	rv := obl.RecordVal{S: s}
	for i, f := range s.Fields {
		v, err := r.value(r.en.ctx.App(proj[i], t), f.Sort)
		if err != nil {
			return nil, err
		}
		rv.Fields = append(rv.Fields, v)
	}
	return rv, nil
}
