package lang

import (
	"fmt"
	"reflect"
)

// diffAST compares two syntax trees and describes the first difference,
// or returns "" if they are equal. Positions, the objects and types the
// checker records (Obj, T, Class, the snapshots of old: Olds,
// Snaps, the positions of fields: Index of a field read, FieldIndex
// of a selector, and the Builtin of a call), and the back pointer from a signature
// to its layer are ignored; of a File only the declarations are compared.
func diffAST(a, b any) string {
	return diffValue("", reflect.ValueOf(a), reflect.ValueOf(b))
}

var (
	posType   = reflect.TypeOf(Pos{})
	layerType = reflect.TypeOf(&Layer{})
	fileType  = reflect.TypeOf(File{})
)

// ignoredField reports whether a struct field is left out of the
// comparison.
func ignoredField(owner reflect.Type, f reflect.StructField) bool {
	switch {
	case f.Type == posType:
		return true
	case f.Name == "Obj" || f.Name == "T" || f.Name == "Class" || f.Name == "Olds" || f.Name == "Snaps" || f.Name == "Summary":
		return true
	case f.Name == "Index" && owner == reflect.TypeOf(FieldExpr{}), f.Name == "FieldIndex", f.Name == "Builtin":
		return true
	case f.Name == "Of" && owner == reflect.TypeOf(Action{}): // set by the checker
		return true
	case (f.Name == "Arms" || f.Name == "Yields") && owner == reflect.TypeOf(ParCallStmt{}): // the checker's split of Written
		return true
	case f.Name == "Layer" && f.Type == layerType:
		return true
	case owner == fileType:
		return f.Name != "Decls"
	}
	return false
}

func diffValue(path string, a, b reflect.Value) string {
	if a.IsValid() != b.IsValid() {
		return fmt.Sprintf("%s: one value is missing", path)
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: %s vs %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil vs non-nil", path)
			}
			return ""
		}
		return diffValue(path, a.Elem(), b.Elem())
	case reflect.Struct:
		t := a.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if ignoredField(t, f) {
				continue
			}
			if d := diffValue(path+"."+f.Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q vs %q", path, a.String(), b.String())
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d vs %d", path, a.Int(), b.Int())
		}
	default:
		return fmt.Sprintf("%s: cannot compare a %s", path, a.Kind())
	}
	return ""
}
