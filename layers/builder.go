package layers

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// Builder assembles one obligation: it creates the IR variables (with
// unique names and display groups), binds constants, and translates
// language expressions and statements in environments it hands out.
type Builder struct {
	prog   *Program
	names  map[string]bool
	vars   []*obl.Var
	groups []obl.VarGroup
	root   *Env // constants
	consts map[*obl.Var]bool
	traces []*obl.Var // the reached flags of Trace points
}

// NewBuilder starts an obligation for a program. Uninterpreted
// constants become variables of the obligation; constants with a value
// are replaced by it.
func NewBuilder(prog *Program) *Builder {
	// Most obligations name every constant and global once, and two
	// threads' frames: size the names for that, not to grow them.
	names := make(map[string]bool, len(prog.Info.Consts)+2*len(prog.Info.Globals)+16)
	b := &Builder{prog: prog, names: names, root: NewEnv(), consts: map[*obl.Var]bool{}}
	var consts []*obl.Var
	for _, c := range prog.Info.Consts {
		d := c.Decl.(*lang.ConstDecl)
		if d.Value != nil {
			b.root.Set(c, b.Expr(d.Value, b.root))
			continue
		}
		v := b.NewVar(c.Name, SortOf(c.Type))
		b.root.Set(c, &obl.VarRef{V: v})
		b.consts[v] = true
		consts = append(consts, v)
	}
	if len(consts) > 0 {
		b.groups = append(b.groups, obl.VarGroup{Name: "constants", Vars: consts})
	}
	return b
}

// NewVar makes a variable of the obligation with a unique name based on
// name.
func (b *Builder) NewVar(name string, s obl.Sort) *obl.Var {
	v := &obl.Var{Name: b.unique(name), Sort: s}
	b.vars = append(b.vars, v)
	return v
}

// Vars returns the state variables made so far, in order.
func (b *Builder) Vars() []*obl.Var { return b.vars[:len(b.vars):len(b.vars)] }

// bound makes a fresh variable that is not a state variable of the
// obligation (a quantified variable).
func (b *Builder) bound(name string, s obl.Sort) *obl.Var {
	return &obl.Var{Name: b.unique(name), Sort: s}
}

func (b *Builder) unique(name string) string {
	before := len(b.names)
	b.names[name] = true
	if len(b.names) > before {
		return name // the common case, in one map operation
	}
	n := name
	for i := 2; b.names[n]; i++ {
		n = fmt.Sprintf("%s.%d", name, i)
	}
	b.names[n] = true
	return n
}

// Globals returns an environment with the globals of layer l bound to
// new variables named name+suffix, shown under title.
func (b *Builder) Globals(l *Layer, suffix, title string) *Env {
	return b.GlobalsOf(l.Globals, suffix, title)
}

// GlobalsOf is Globals for a given list of global variables.
func (b *Builder) GlobalsOf(globals []*lang.Object, suffix, title string) *Env {
	env := b.root.childSized(len(globals))
	vs := make([]*obl.Var, 0, len(globals))
	for _, g := range globals {
		v := b.NewVar(g.Name+suffix, SortOf(g.Type))
		env.Set(g, &obl.VarRef{V: v})
		vs = append(vs, v)
	}
	b.Group(title, vs)
	return env
}

// Frame extends env with a thread's frame (parameters, outputs, locals
// of sig) bound to new variables named name+suffix, shown under title.
func (b *Builder) Frame(env *Env, sig *lang.Signature, suffix, title string) *Env {
	frame := sig.Frame()
	env = env.childSized(len(frame))
	vs := make([]*obl.Var, 0, len(frame))
	for _, o := range frame {
		v := b.NewVar(o.Name+suffix, SortOf(o.Type))
		env.Set(o, &obl.VarRef{V: v})
		vs = append(vs, v)
	}
	b.Group(title, vs)
	return env
}

// Snapshot binds fresh copies of the variables of objs (as currently
// bound in env) and returns the copies' environment and the command that
// takes the snapshot.
func (b *Builder) Snapshot(env *Env, objs []*lang.Object, suffix, title string) (*Env, obl.Cmd) {
	snap := env.Child()
	var lhs []*obl.Var
	var rhs []obl.Expr
	for _, o := range objs {
		cur := env.Var(o)
		v := b.NewVar(cur.Name+suffix, cur.Sort)
		snap.Set(o, &obl.VarRef{V: v})
		lhs = append(lhs, v)
		rhs = append(rhs, &obl.VarRef{V: cur})
	}
	b.Group(title, lhs)
	return snap, &obl.Assign{Lhs: lhs, Rhs: rhs}
}

func (b *Builder) Group(title string, vs []*obl.Var) {
	if title != "" && len(vs) > 0 {
		b.groups = append(b.groups, obl.VarGroup{Name: title, Vars: vs})
	}
}

// Obligation finishes the obligation.
func (b *Builder) Obligation(name string, kind obl.Kind, body obl.Cmd) *obl.Obligation {
	return &obl.Obligation{Name: name, Kind: kind, Vars: b.vars, Body: body, Groups: b.groups}
}
