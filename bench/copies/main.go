package main

import (
	"flag"
	"fmt"
	"os"
	"reflect"

	"github.com/lipton-dev/lipton/lang"
)

func main() {
	k := flag.Int("k", 2, "number of copies")
	flag.Parse()
	if flag.NArg() != 1 || *k < 1 {
		fmt.Fprintln(os.Stderr, "usage: copies -k N FILE")
		os.Exit(2)
	}
	out, err := copies(flag.Arg(0), *k)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Stdout.Write(out)
}

// copies returns the source text of k renamed copies of file.
func copies(file string, k int) ([]byte, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	merged := &lang.File{Name: file}
	layers := map[int]*lang.Layer{}
	for i := 1; i <= k; i++ {
		f, _, err := lang.ParseAndCheck(file, src)
		if err != nil {
			return nil, err
		}
		rename(reflect.ValueOf(f), fmt.Sprintf("_%d", i), map[uintptr]bool{})
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *lang.Instance:
			case *lang.TypeDecl:
				if i == 1 {
					merged.Decls = append(merged.Decls, d)
				}
			case *lang.Layer:
				if l := layers[d.Num]; l != nil {
					l.Members = append(l.Members, d.Members...)
					continue
				}
				layers[d.Num] = d
				merged.Decls = append(merged.Decls, d)
			default:
				merged.Decls = append(merged.Decls, d)
			}
		}
	}
	return lang.Format(merged), nil
}

// renamed are the kinds of objects each copy gets its own of.
var renamed = map[lang.ObjKind]bool{lang.ObjConst: true, lang.ObjGlobal: true, lang.ObjFunc: true,
	lang.ObjAction: true, lang.ObjProc: true}

// rename appends suffix to every identifier below v that denotes an
// object of a renamed kind; seen holds the nodes visited, so that a node
// reached twice (the tree has back pointers) is renamed once.
func rename(v reflect.Value, suffix string, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			rename(v.Elem(), suffix, seen)
		}
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		if id, ok := v.Interface().(*lang.Ident); ok {
			if id.Obj != nil && renamed[id.Obj.Kind] {
				id.Name += suffix
			}
			return
		}
		if _, ok := v.Interface().(*lang.Object); ok {
			return // objects are reached through identifiers
		}
		rename(v.Elem(), suffix, seen)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				rename(v.Field(i), suffix, seen)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			rename(v.Index(i), suffix, seen)
		}
	}
}
