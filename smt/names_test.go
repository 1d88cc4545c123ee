package smt

import (
	"testing"

	"github.com/lipton-dev/lipton/obl"
)

// TestPlainNames checks that where the encoder names constants by their
// own names, those are the names the printer gives them (the names of
// the SMT-LIB2 dump), and that the cases where they would not be keep
// the printer.
func TestPlainNames(t *testing.T) {
	x, y := intVar("x"), intVar("y")
	okVar, pipe := intVar("ok"), intVar("a|b")
	i := intVar("i")
	body := func(vs ...*obl.Var) []obl.Cmd {
		return []obl.Cmd{
			assume(obl.Gt(r(vs[0]), n(0))),
			choice(set(vs[0], n(1)), seq(set(vs[1], n(2)), havoc(vs[0]))),
			assert(obl.Gt(r(vs[0]), r(vs[1]))),
			set(vs[1], n(3)),
			assert(obl.Gt(r(vs[1]), n(0))),
		}
	}
	for _, c := range []struct {
		name  string
		ob    *obl.Obligation
		plain bool
	}{
		{"plain", newOb("p", vars(x, y), body(x, y)...), true},
		{"a variable named ok", newOb("o", vars(okVar, y), body(okVar, y)...), false},
		{"a variable with a bar", newOb("b", vars(pipe, y), body(pipe, y)...), false},
		{"quantified", newOb("q", vars(x, y), append(body(x, y),
			assert(&obl.Quant{Bound: vars(i), Body: obl.Ge(obl.Mul(r(i), r(i)), n(0))}))...), false},
	} {
		shape, err := c.ob.Inspect()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		v := passify(c.ob, shape)
		if got := plainNames(v); got != c.plain {
			t.Errorf("%s: plainNames %v, want %v", c.name, got, c.plain)
		}
		p := v.printer()
		clash := false
		for _, k := range v.consts {
			if p.Name(k) != k.Name {
				clash = true
				if c.plain {
					t.Errorf("%s: the printer names %s %s", c.name, k.Name, p.Name(k))
				}
			}
		}
		if c.name == "a variable named ok" && !clash {
			t.Errorf("%s: no flag and incarnation share a name; the case tests nothing", c.name)
		}
	}
}
