package layers

import (
	"sync"

	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// Env maps the language's objects (variables, constants, bound
// variables) to IR expressions. Envs are persistent: Bind returns a new
// Env that extends the receiver, so substituting arguments for function
// parameters or a callee's parameters is a binding, never a rewrite.
type Env struct {
	parent *Env
	vals   map[*lang.Object]obl.Expr
}

// NewEnv returns an empty environment.
func NewEnv() *Env { return &Env{vals: map[*lang.Object]obl.Expr{}} }

// Bind returns an environment that maps o to e and otherwise is env.
func (env *Env) Bind(o *lang.Object, e obl.Expr) *Env {
	return &Env{parent: env, vals: map[*lang.Object]obl.Expr{o: e}}
}

// Child returns an empty environment that extends env; fill it with Set.
func (env *Env) Child() *Env {
	return &Env{parent: env, vals: map[*lang.Object]obl.Expr{}}
}

// childSized is Child for an environment that will hold n objects.
func (env *Env) childSized(n int) *Env {
	return &Env{parent: env, vals: make(map[*lang.Object]obl.Expr, n)}
}

// Set maps o to e in env itself (used while building an environment).
func (env *Env) Set(o *lang.Object, e obl.Expr) { env.vals[o] = e }

// Lookup returns what o is mapped to, or nil.
func (env *Env) Lookup(o *lang.Object) obl.Expr {
	for e := env; e != nil; e = e.parent {
		if v, ok := e.vals[o]; ok {
			return v
		}
	}
	return nil
}

// Var returns the IR variable o is mapped to; it panics if o is mapped
// to something else, which would be a bug in the caller.
func (env *Env) Var(o *lang.Object) *obl.Var {
	switch e := env.Lookup(o).(type) {
	case *obl.VarRef:
		return e.V
	case nil:
		panic(fmt.Sprintf("layers: %s %s is not bound", o.Kind, o.Name))
	default:
		panic(fmt.Sprintf("layers: %s %s is bound to an expression, not a variable", o.Kind, o.Name))
	}
}

// SortOf converts a language type to an IR sort.
func SortOf(t lang.Type) obl.Sort {
	switch t := t.(type) {
	case *lang.MapType:
		return &obl.MapSort{Key: SortOf(t.Key), Val: SortOf(t.Val)}
	case *lang.EnumType:
		return EnumSortOf(t)
	case *lang.RecordType:
		return RecordSortOf(t)
	case *lang.SeqType:
		return &obl.SeqSort{Elem: SortOf(t.Elem)}
	}
	if t == lang.Bool {
		return obl.BoolSort
	}
	return obl.IntSort
}

// typeSorts holds the IR sort of each enumeration and record type, so
// that every use of a type gets the same sort value.
var typeSorts sync.Map // lang.Type -> obl.Sort

// sortOnce returns the sort stored for t, building and storing it first
// if there is none.
func sortOnce[S obl.Sort](t lang.Type, build func() S) S {
	if s, ok := typeSorts.Load(t); ok {
		return s.(S)
	}
	actual, _ := typeSorts.LoadOrStore(t, build())
	return actual.(S)
}

// EnumSortOf returns the IR sort of an enumeration type.
func EnumSortOf(t *lang.EnumType) *obl.EnumSort {
	return sortOnce(t, func() *obl.EnumSort {
		s := &obl.EnumSort{Name: t.Name}
		for _, m := range t.Members {
			s.Members = append(s.Members, m.Name)
		}
		return s
	})
}

// RecordSortOf returns the IR sort of a record type.
func RecordSortOf(t *lang.RecordType) *obl.RecordSort {
	return sortOnce(t, func() *obl.RecordSort {
		s := &obl.RecordSort{Name: t.Name}
		for _, f := range t.Fields {
			s.Fields = append(s.Fields, obl.RecordField{Name: f.Name, Sort: SortOf(f.Type)})
		}
		return s
	})
}
