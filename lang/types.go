package lang

import "strings"

// Type is a semantic type: Int, Bool, a *MapType, a *SeqType, an
// *EnumType or a *RecordType. Aliases are resolved
// away by the checker, so two types are identical iff Identical says so.
type Type interface {
	String() string
	isType()
}

type basicType struct{ name string }

func (t *basicType) String() string { return t.name }
func (*basicType) isType()          {}

// The basic types.
var (
	Int  Type = &basicType{"int"}
	Bool Type = &basicType{"bool"}
)

// MapType is the type [Key]Val.
type MapType struct {
	Key, Val Type
}

func (t *MapType) String() string { return "[" + t.Key.String() + "]" + t.Val.String() }
func (*MapType) isType()          {}

// SeqType is the type []Elem: finite sequences of Elem values.
type SeqType struct {
	Elem Type
}

func (t *SeqType) String() string { return "[]" + t.Elem.String() }
func (*SeqType) isType()          {}

// EnumType is an enumeration: a type with finitely many values, its
// members, named by constants. Each enum declaration is a type of its
// own (an alias of it is the same type).
type EnumType struct {
	Name    string
	Members []*Object // kind ObjEnumMember, in declaration order
}

func (t *EnumType) String() string { return t.Name }
func (*EnumType) isType()          {}

// Index returns the position of member m in t, or -1.
func (t *EnumType) Index(m *Object) int {
	for i, o := range t.Members {
		if o == m {
			return i
		}
	}
	return -1
}

// RecordType is a record: a tuple of named fields. Each record
// declaration is a type of its own (an alias of it is the same type).
type RecordType struct {
	Name   string
	Fields []RecordField
}

// RecordField is a field of a record type.
type RecordField struct {
	Name string
	Type Type
}

func (t *RecordType) String() string { return t.Name }
func (*RecordType) isType()          {}

// FieldIndex returns the position of the field named name, or -1.
func (t *RecordType) FieldIndex(name string) int {
	for i, f := range t.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

func (t *RecordType) fieldNames() string {
	names := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// IsKeyType reports whether maps may have keys of type t: int, bool and
// enumerations.
func IsKeyType(t Type) bool {
	_, enum := t.(*EnumType)
	return t == Int || t == Bool || enum
}

// Identical reports whether a and b are the same type.
func Identical(a, b Type) bool {
	if a == b {
		return true
	}
	if sa, ok := a.(*SeqType); ok {
		sb, ok := b.(*SeqType)
		return ok && Identical(sa.Elem, sb.Elem)
	}
	ma, ok1 := a.(*MapType)
	mb, ok2 := b.(*MapType)
	return ok1 && ok2 && Identical(ma.Key, mb.Key) && Identical(ma.Val, mb.Val)
}

// ObjKind is the kind of a named entity.
type ObjKind int

// Object kinds.
const (
	ObjType       ObjKind = iota // type alias or basic type
	ObjConst                     // constant
	ObjGlobal                    // global variable
	ObjFunc                      // pure function
	ObjParam                     // input parameter of an action or procedure
	ObjReturn                    // output of an action or procedure
	ObjLocal                     // local variable
	ObjBound                     // quantifier or function parameter
	ObjAction                    // action of a layer
	ObjProc                      // procedure of a layer
	ObjEnumMember                // member of an enumeration type
	ObjBuiltin                   // built-in function (len, append, concat)
)

var objKindNames = [...]string{"type", "constant", "global variable", "function", "parameter", "output", "local variable", "bound variable", "action", "procedure", "enumeration member", "function"}

func (k ObjKind) String() string { return objKindNames[k] }

// Object is a named entity: what an identifier denotes.
type Object struct {
	Kind   ObjKind
	Name   string
	Pos    Pos // declaration position; invalid for built-ins
	Type   Type
	Ghost  bool
	Linear bool
	// Held is, for a linear_in parameter of a procedure, the hidden
	// linear local that holds what the procedure still owns of it
	// (Signature.Held): ownership moves with Held, the parameter keeps
	// its value.
	Held *Object
	// Layers is the visibility range of a global (Lo..Hi inclusive).
	Layers LayerRange
	// Decl is the declaring node: *VarDecl, *ConstDecl, *FuncDecl,
	// *TypeDecl, *Action, *Proc; nil for locals and parameters.
	Decl Node
	// Func holds facts about a function: the globals it reads.
	Func *FuncInfo
}

// IsVar reports whether the object is a variable of a program state
// (global, parameter, output or local).
func (o *Object) IsVar() bool {
	switch o.Kind {
	case ObjGlobal, ObjParam, ObjReturn, ObjLocal:
		return true
	}
	return false
}

// IsLocal reports whether the object belongs to one thread's frame
// (parameter, output or local).
func (o *Object) IsLocal() bool {
	switch o.Kind {
	case ObjParam, ObjReturn, ObjLocal:
		return true
	}
	return false
}

// FuncInfo records, for a function, the globals and constants its body
// reads (transitively through other functions).
type FuncInfo struct {
	Params  []*Object
	Result  Type
	Globals []*Object
	Consts  []*Object
	// YieldInv says that the function is a yield invariant, declared for
	// Layers (check_yieldinv.go).
	YieldInv bool
	Layers   LayerRange
}

// LinearDomain returns the domain of a linear value of type t: the value
// is one identity of the domain when t is int, bool or an enumeration,
// and a set of identities when t is [T]bool with T one of those, or a
// linear map (LinearMap) whose keys are of type T (isSet).
// ok is false for any other type, which a linear parameter cannot have.
// Two linear values of the same domain held by different threads are
// disjoint: distinct identities, an identity outside a set, or disjoint
// sets.
func LinearDomain(t Type) (dom Type, isSet, ok bool) {
	if _, key, isMap := LinearMap(t); isMap {
		return key, true, true
	}
	if m, isMap := t.(*MapType); isMap {
		if m.Val == Bool && linearScalar(m.Key) {
			return m.Key, true, true
		}
		return nil, false, false
	}
	return t, false, linearScalar(t)
}

// LinearMap reports whether t is a linear map type: a record with
// exactly two fields, dom: [T]bool and val: [T]V, T an identity type (int,
// bool or an enumeration), like CIVL's Lmap. A linear map owns the
// identities of its dom, its keys, and carries a value per key; its
// linearity (disjointness, moves) is that of the set dom. The record r is
// returned with the key type dom.
func LinearMap(t Type) (r *RecordType, key Type, ok bool) {
	r, isRec := t.(*RecordType)
	if !isRec || len(r.Fields) != 2 || r.FieldIndex("dom") < 0 || r.FieldIndex("val") < 0 {
		return nil, nil, false
	}
	d, dOK := r.Fields[r.FieldIndex("dom")].Type.(*MapType)
	v, vOK := r.Fields[r.FieldIndex("val")].Type.(*MapType)
	if !dOK || !vOK || d.Val != Bool || !linearScalar(d.Key) || !Identical(d.Key, v.Key) {
		return nil, nil, false
	}
	return r, d.Key, true
}

// LinearDomIndex is the position of field dom in the linear map type t,
// or -1 if t is not one.
func LinearDomIndex(t Type) int {
	if r, _, ok := LinearMap(t); ok {
		return r.FieldIndex("dom")
	}
	return -1
}

func linearScalar(t Type) bool {
	_, isEnum := t.(*EnumType)
	return t == Int || t == Bool || isEnum
}
