package lang

import (
	"fmt"
	"sort"
	"strings"
)

// Info is what the checker learned about a file, beyond what it recorded
// in the AST itself (Ident.Obj, expression types, statement classes).
type Info struct {
	File      *File
	Globals   []*Object // global variables in declaration order
	Consts    []*Object // constants in declaration order
	Funcs     []*Object // functions in declaration order
	Layers    []*LayerInfo
	Instances map[string]*Instance
	// public are the public methods, in the order of layer 0
	// (check_public.go).
	public []string
}

// TopLayer returns the number of the highest layer, or -1 if none.
func (in *Info) TopLayer() int { return len(in.Layers) - 1 }

// LayerInfo indexes the members of one layer.
type LayerInfo struct {
	Layer   *Layer
	Members map[string]Member
}

// Action returns the action named name at this layer, or nil.
func (l *LayerInfo) Action(name string) *Action {
	a, _ := l.Members[name].(*Action)
	return a
}

// Proc returns the procedure named name at this layer, or nil.
func (l *LayerInfo) Proc(name string) *Proc {
	p, _ := l.Members[name].(*Proc)
	return p
}

// InstanceNames returns the names of the instances, sorted.
func (in *Info) InstanceNames() []string {
	var names []string
	for n := range in.Instances {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DescribeInstances lists the instances for a message about choosing
// one: " (instances: a, b)", or " (the file declares no instance)".
func (in *Info) DescribeInstances() string {
	names := in.InstanceNames()
	if len(names) == 0 {
		return " (the file declares no instance)"
	}
	return " (instances: " + strings.Join(names, ", ") + ")"
}

// PublicMethods returns the public methods, in the order of layer 0:
// the names marked public or, in a file that marks none, the names
// declared at every layer (check_public.go).
func (in *Info) PublicMethods() []string { return in.public }

// Frame returns the objects of a member's parameters, outputs and locals.
func (s *Signature) Frame() []*Object {
	var objs []*Object
	for _, p := range s.Params {
		objs = append(objs, p.Name.Obj)
	}
	for _, p := range s.Returns {
		objs = append(objs, p.Name.Obj)
	}
	for _, d := range s.Locals {
		for _, n := range d.Names {
			objs = append(objs, n.Obj)
		}
	}
	for _, o := range s.Olds {
		objs = append(objs, o.Snap)
	}
	return append(objs, s.Held...)
}

// Check resolves and type-checks a parsed file. The returned error, if
// not nil, is an ErrorList.
func Check(f *File) (*Info, error) {
	c := &checker{
		file:  f,
		info:  &Info{File: f, Instances: map[string]*Instance{}},
		scope: newScope(universe),
	}
	c.checkFile()
	if len(c.errs) > 0 {
		return nil, finish(c.errs, f.Src)
	}
	return c.info, nil
}

// ParseAndCheck parses and checks a file.
func ParseAndCheck(filename string, src []byte) (*File, *Info, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, nil, err
	}
	info, err := Check(f)
	if err != nil {
		return f, nil, err
	}
	return f, info, nil
}

type checker struct {
	file  *File
	info  *Info
	scope *scope
	errs  ErrorList
	top   int // highest layer number

	// state of the current member and statement
	member     Member
	layer      int
	globalSeen bool // a global was mentioned in the current statement
}

func (c *checker) errorf(pos Pos, format string, args ...any) {
	c.errs.Add(pos, format, args...)
}

func (c *checker) checkFile() {
	c.checkLayerNumbers()
	c.declareTopLevel()
	c.checkTypeDecls()
	c.checkConstsAndVars()
	c.checkFuncs()
	c.checkInitializers()
	c.checkInvariants()
	c.checkLayers()
	c.checkPublic()
	c.checkPublicLinearIn()
	c.checkInstances()
}

// ---- Scopes ----

type scope struct {
	parent *scope
	names  map[string]*Object
}

func newScope(parent *scope) *scope { return &scope{parent: parent, names: map[string]*Object{}} }

func (s *scope) lookup(name string) *Object {
	for ; s != nil; s = s.parent {
		if o := s.names[name]; o != nil {
			return o
		}
	}
	return nil
}

var universe = &scope{names: map[string]*Object{
	"int":  {Kind: ObjType, Name: "int", Type: Int},
	"bool": {Kind: ObjType, Name: "bool", Type: Bool},
	// The built-in functions on sequences (check_seq.go).
	"len":    {Kind: ObjBuiltin, Name: "len"},
	"append": {Kind: ObjBuiltin, Name: "append"},
	"concat": {Kind: ObjBuiltin, Name: "concat"},
}}

// declare binds id to obj in the current scope. Shadowing is an error:
// in a verifier a name should mean one thing wherever it appears.
func (c *checker) declare(id *Ident, obj *Object) {
	obj.Name, obj.Pos = id.Name, id.P
	id.Obj = obj
	if prev := c.scope.lookup(id.Name); prev != nil {
		c.errorf(id.P, "%s is already declared%s", id.Name, prevDecl(prev))
		return
	}
	c.scope.names[id.Name] = obj
}

func prevDecl(o *Object) string {
	if !o.Pos.IsValid() {
		return " (it is a built-in " + o.Kind.String() + ")"
	}
	return fmt.Sprintf(" as %s at %s", article(kindName(o)), o.Pos)
}

func (c *checker) pushScope() { c.scope = newScope(c.scope) }
func (c *checker) popScope()  { c.scope = c.scope.parent }

// article prefixes a noun with "a" or "an".
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// kindName names what an object is for messages: its kind, except that
// a function declared as a yield invariant is a yield invariant.
func kindName(o *Object) string {
	if o.Kind == ObjFunc && o.Func != nil && o.Func.YieldInv {
		return "yield invariant"
	}
	return o.Kind.String()
}
