package obl

import (
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// A Value is the value of a variable in a counterexample: IntVal, BoolVal
// or MapVal. The model checker uses the same type for concrete states.
type Value interface {
	// String prints the value: 3, true, [1 := 5, 2 := 7; default 0].
	String() string
	isValue()
}

// An IntVal is an integer value; V is never nil and never mutated.
type IntVal struct{ V *big.Int }

// A BoolVal is a boolean value.
type BoolVal bool

// A MapVal is a total map: Entries lists the keys whose value differs from
// Default, sorted by key (see SortEntries). Default is nil when the solver
// could not describe the map as finitely many entries over a constant
// default; Entries then lists the values at the indices the obligation
// mentions.
type MapVal struct {
	Entries []MapEntry
	Default Value
}

// A MapEntry is one key of a map and its value.
type MapEntry struct{ Key, Val Value }

func (IntVal) isValue()  {}
func (BoolVal) isValue() {}
func (MapVal) isValue()  {}

// Int64Val returns the IntVal n.
func Int64Val(n int64) IntVal { return IntVal{big.NewInt(n)} }

func (v IntVal) String() string { return v.V.String() }

func (v BoolVal) String() string { return strconv.FormatBool(bool(v)) }

func (v MapVal) String() string {
	entries := make([]string, len(v.Entries))
	for i, e := range v.Entries {
		entries[i] = e.Key.String() + " := " + e.Val.String()
	}
	def := "default ?"
	if v.Default != nil {
		def = "default " + v.Default.String()
	}
	if len(entries) == 0 {
		return "[" + def + "]"
	}
	return "[" + strings.Join(entries, ", ") + "; " + def + "]"
}

// Get returns the value of the map at key k, or nil if k is not listed and
// the default is unknown.
func (v MapVal) Get(k Value) Value {
	for _, e := range v.Entries {
		if ValueEqual(e.Key, k) {
			return e.Val
		}
	}
	return v.Default
}

// CompareValues orders values: integers numerically, false before true,
// maps by their printed form; values of different kinds by kind.
func CompareValues(a, b Value) int {
	switch a := a.(type) {
	case IntVal:
		if b, ok := b.(IntVal); ok {
			return a.V.Cmp(b.V)
		}
	case BoolVal:
		if b, ok := b.(BoolVal); ok {
			return boolRank(bool(a)) - boolRank(bool(b))
		}
	case EnumVal:
		if b, ok := b.(EnumVal); ok && a.S.Name == b.S.Name {
			return a.I - b.I
		}
	case SeqVal:
		if b, ok := b.(SeqVal); ok {
			return compareSeqs(a, b)
		}
	case RecordVal:
		if b, ok := b.(RecordVal); ok && len(a.Fields) == len(b.Fields) {
			for i := range a.Fields {
				if c := CompareValues(a.Fields[i], b.Fields[i]); c != 0 {
					return c
				}
			}
			return 0
		}
	}
	if ka, kb := kindRank(a), kindRank(b); ka != kb {
		return ka - kb
	}
	return strings.Compare(a.String(), b.String())
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func kindRank(v Value) int {
	switch v.(type) {
	case IntVal:
		return 0
	case BoolVal:
		return 1
	case EnumVal:
		return 2
	case RecordVal:
		return 3
	case SeqVal:
		return 4
	}
	return 5
}

// ValueEqual reports whether a and b are the same value. Maps are equal if
// they agree at every key; a map with an unknown default equals only a map
// with the same entries and unknown default.
func ValueEqual(a, b Value) bool {
	ma, aok := a.(MapVal)
	mb, bok := b.(MapVal)
	if aok != bok {
		return false
	}
	if !aok {
		return CompareValues(a, b) == 0
	}
	ma, mb = ma.Normalize(), mb.Normalize()
	if (ma.Default == nil) != (mb.Default == nil) || len(ma.Entries) != len(mb.Entries) {
		return false
	}
	if ma.Default != nil && !ValueEqual(ma.Default, mb.Default) {
		return false
	}
	for i := range ma.Entries {
		if !ValueEqual(ma.Entries[i].Key, mb.Entries[i].Key) || !ValueEqual(ma.Entries[i].Val, mb.Entries[i].Val) {
			return false
		}
	}
	return true
}

// Normalize returns v with its entries sorted by key, later duplicates of
// a key dropped, and entries equal to a known default dropped.
func (v MapVal) Normalize() MapVal {
	out := MapVal{Default: v.Default}
	for _, e := range v.Entries {
		if v.Default != nil && ValueEqual(e.Val, v.Default) {
			continue
		}
		dup := false
		for _, f := range out.Entries {
			dup = dup || ValueEqual(f.Key, e.Key)
		}
		if !dup {
			out.Entries = append(out.Entries, e)
		}
	}
	SortEntries(out.Entries)
	return out
}

// SortEntries sorts map entries by key (CompareValues).
func SortEntries(es []MapEntry) {
	sort.SliceStable(es, func(i, j int) bool { return CompareValues(es[i].Key, es[j].Key) < 0 })
}
