package obl

import "testing"

func TestValueString(t *testing.T) {
	m := MapVal{
		Entries: []MapEntry{{Int64Val(1), Int64Val(5)}, {Int64Val(-2), Int64Val(7)}},
		Default: Int64Val(0),
	}
	nested := MapVal{
		Entries: []MapEntry{{Int64Val(1), MapVal{Entries: []MapEntry{{Int64Val(2), BoolVal(true)}}, Default: BoolVal(false)}}},
		Default: MapVal{Default: BoolVal(false)},
	}
	cases := map[string]Value{
		"42":                           Int64Val(42),
		"-3":                           Int64Val(-3),
		"true":                         BoolVal(true),
		"[1 := 5, -2 := 7; default 0]": m,
		"[-2 := 7, 1 := 5; default 0]": m.Normalize(),
		"[default ?]":                  MapVal{},
		"[3 := 1; default ?]":          MapVal{Entries: []MapEntry{{Int64Val(3), Int64Val(1)}}},
		"[1 := [2 := true; default false]; default [default false]]": nested,
	}
	for want, v := range cases {
		if got := v.String(); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

func TestValueEqual(t *testing.T) {
	a := MapVal{Entries: []MapEntry{{Int64Val(1), Int64Val(5)}, {Int64Val(2), Int64Val(0)}}, Default: Int64Val(0)}
	b := MapVal{Entries: []MapEntry{{Int64Val(1), Int64Val(5)}}, Default: Int64Val(0)}
	c := MapVal{Entries: []MapEntry{{Int64Val(1), Int64Val(6)}}, Default: Int64Val(0)}
	unknown := MapVal{Entries: []MapEntry{{Int64Val(1), Int64Val(5)}}}
	switch {
	case !ValueEqual(a, b):
		t.Error("maps equal up to default entries differ")
	case ValueEqual(a, c):
		t.Error("maps with different entries are equal")
	case ValueEqual(b, unknown):
		t.Error("known and unknown defaults are equal")
	case !ValueEqual(Int64Val(3), Int64Val(3)) || ValueEqual(Int64Val(3), BoolVal(true)):
		t.Error("scalar equality wrong")
	case ValueEqual(BoolVal(false), MapVal{}):
		t.Error("bool equals map")
	}
	if a.Get(Int64Val(2)).String() != "0" || a.Get(Int64Val(9)).String() != "0" || unknown.Get(Int64Val(9)) != nil {
		t.Error("Get wrong")
	}
	if CompareValues(BoolVal(false), BoolVal(true)) >= 0 || CompareValues(Int64Val(-1), Int64Val(1)) >= 0 {
		t.Error("CompareValues order wrong")
	}
}
