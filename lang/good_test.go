package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

type goodFile struct {
	name string
	src  []byte
}

// goodFiles returns the well-formed files of testdata/good.
func goodFiles(tb testing.TB) []goodFile {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "good", "*.lip"))
	if err != nil {
		tb.Fatal(err)
	}
	var files []goodFile
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, goodFile{filepath.Base(p), src})
	}
	return files
}

// mustCheck parses and checks a file that must be well-formed.
func mustCheck(t *testing.T, name string, src []byte) (*File, *Info) {
	t.Helper()
	f, info, err := ParseAndCheck(name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f, info
}

func TestGoodFiles(t *testing.T) {
	files := goodFiles(t)
	if len(files) < 15 {
		t.Errorf("%d good files, want at least 15", len(files))
	}
	for _, g := range files {
		t.Run(g.name, func(t *testing.T) {
			f, info := mustCheck(t, g.name, g.src)
			if len(info.Layers) != len(f.Layers) {
				t.Errorf("%d layer infos for %d layers", len(info.Layers), len(f.Layers))
			}
			// Every use of a name in a checked file is resolved, and
			// every expression has a type.
			forEachExpr(f, func(e Expr) {
				if e.Type() == nil {
					t.Errorf("%v: expression %s has no type", e.Pos(), ExprString(e))
				}
				if id, ok := e.(*Ident); ok && id.Obj == nil {
					t.Errorf("%v: %s is not resolved", id.P, id.Name)
				}
			})
		})
	}
}

// classMarker is a comment "//@ class" naming the class of the statement
// that starts on its line.
var classMarker = regexp.MustCompile(`^//@ (private|step|action call|procedure call)$`)

// TestGoodFileClasses checks the classification of procedure statements
// against the //@ markers of the good files.
func TestGoodFileClasses(t *testing.T) {
	seen := map[StmtClass]int{}
	markers := 0
	for _, g := range goodFiles(t) {
		f, _ := mustCheck(t, g.name, g.src)
		want := map[int]string{} // line -> class
		for _, c := range f.Comments {
			if m := classMarker.FindStringSubmatch(c.Text); m != nil {
				want[c.P.Line] = m[1]
				markers++
			}
		}
		got := map[int]StmtClass{} // line -> class of the first classified statement there
		forEachProcStmt(f, func(s Stmt) {
			b := Base(s)
			if _, ok := got[b.P.Line]; !ok && b.Class != ClassNone {
				got[b.P.Line] = b.Class
			}
		})
		for line, class := range want {
			c, ok := got[line]
			switch {
			case !ok:
				t.Errorf("%s:%d: marker %q, but no classified statement starts there", g.name, line, class)
			case c.String() != class:
				t.Errorf("%s:%d: statement is %q, marker says %q", g.name, line, c, class)
			default:
				seen[c]++
			}
		}
	}
	if markers < 60 {
		t.Errorf("only %d class markers in the good files", markers)
	}
	for _, c := range []StmtClass{ClassPrivate, ClassStep, ClassActionCall, ClassProcCall} {
		if seen[c] < 5 {
			t.Errorf("only %d statements of class %q are checked", seen[c], c)
		}
	}
}

// TestClassification checks classes and the public-method view on one
// small file, without markers.
func TestClassification(t *testing.T) {
	src := `var g: int;
layer 0 {
  action a() {}
  proc p() {
    var x: int;
    x := 1;
    x := g;
    [x := 1; x := 2;]
    [x := g;]
    call a();
    call p();
    if (x > 0) { g := x; }
    yield;
  }
}
layer 1 { action p() {} }`
	f, info := mustCheck(t, "c.lip", []byte(src))
	var got []string
	forEachProcStmt(f, func(s Stmt) {
		got = append(got, fmt.Sprintf("%d:%s", Base(s).P.Line, Base(s).Class))
	})
	want := "6:private 7:step 8:private 8: 8: 9:step 9: 10:action call 11:procedure call 12: 12:step 13:"
	if strings.Join(got, " ") != want {
		t.Errorf("classes:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	steps := 0
	forEachProcStmt(f, func(s Stmt) {
		if IsStep(s) {
			steps++
		}
	})
	if steps != 4 {
		t.Errorf("%d steps, want 4", steps)
	}
	if pm := info.PublicMethods(); strings.Join(pm, ",") != "p" {
		t.Errorf("public methods %v, want [p]", pm)
	}
	if info.TopLayer() != 1 || info.Layers[0].Proc("p") == nil || info.Layers[1].Action("p") == nil || info.Layers[0].Action("p") != nil {
		t.Errorf("layer views are wrong")
	}
}

// TestGoodFilesCoverEveryConstruct checks that the good files together
// use every construct of the language.
func TestGoodFilesCoverEveryConstruct(t *testing.T) {
	have := map[string]bool{}
	for _, g := range goodFiles(t) {
		f, _ := mustCheck(t, g.name, g.src)
		features(f, have)
	}
	want := []string{
		"type alias", "type map", "const value", "const uninterpreted", "var", "var init", "var layers",
		"ghost var", "function", "function params", "invariant", "invariant layers", "layer", "instance",
		"several instances", "thread args", "thread max", "thread tid range", "thread tid single", "ints",
		"public", "action mover none", "action mover atomic", "action mover right", "action mover left", "action mover both",
		"requires", "ensures", "returns", "several returns", "linear param", "ghost param", "ghost return", "ghost local",
		"local list", "assign", "multiple assign", "nested map assign", "havoc several", "assume", "assert",
		"step group", "step group with if", "mover on simple right", "mover on simple left", "mover on simple both",
		"mover on simple atomic", "mover on group right", "mover on group left", "mover on group both",
		"call with outputs", "call without outputs", "parallel call", "parallel call of 3 arms", "yield", "yield e", "if", "if else", "if else-if else",
		"if *", "while", "while *", "while invariants", "choice 3", "return", "break",
		"int", "bool", "ident", "index", "update", "if-expr", "forall", "exists", "quant several vars",
		"call expr", "negative literal", "old",
	}
	for op := OpIff; op <= OpNeg; op++ {
		want = append(want, "op "+op.String())
	}
	var missing []string
	for _, w := range want {
		if !have[w] {
			missing = append(missing, w)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("constructs no good file uses: %s", strings.Join(missing, ", "))
	}
}

// features records the constructs a file uses.
func features(f *File, have map[string]bool) {
	add := func(cond bool, name string) {
		if cond {
			have[name] = true
		}
	}
	for _, d := range f.Types {
		_, isMap := d.Type.(*MapTypeExpr)
		add(true, "type alias")
		add(isMap, "type map")
	}
	for _, d := range f.Consts {
		add(d.Value != nil, "const value")
		add(d.Value == nil, "const uninterpreted")
	}
	for _, d := range f.Vars {
		add(true, "var")
		add(d.Init != nil, "var init")
		add(d.Layers != nil, "var layers")
		add(d.Ghost, "ghost var")
	}
	for _, d := range f.Funcs {
		add(true, "function")
		add(len(d.Params) > 1, "function params")
	}
	for _, d := range f.Invariants {
		add(true, "invariant")
		add(d.Layers != nil, "invariant layers")
	}
	add(len(f.Layers) > 0, "layer")
	add(len(f.Instances) > 0, "instance")
	add(len(f.Instances) > 1, "several instances")
	instanceFeatures(f, add)
	for _, l := range f.Layers {
		for _, m := range l.Members {
			sig := m.Sig()
			if a, ok := m.(*Action); ok {
				mover := a.Mover.String()
				if a.Mover == MoverNone {
					mover = "none"
				}
				add(true, "action mover "+mover)
			}
			add(sig.Public, "public")
			add(len(sig.Requires) > 0, "requires")
			add(len(sig.Ensures) > 0, "ensures")
			add(len(sig.Returns) > 0, "returns")
			add(len(sig.Returns) > 1, "several returns")
			for _, p := range sig.Params {
				add(p.Linear, "linear param")
				add(p.Ghost, "ghost param")
			}
			for _, p := range sig.Returns {
				add(p.Ghost, "ghost return")
			}
			for _, d := range sig.Locals {
				add(d.Ghost, "ghost local")
				add(len(d.Names) > 1, "local list")
			}
			var body *Block
			switch m := m.(type) {
			case *Action:
				body = m.Body
			case *Proc:
				body = m.Body
			}
			Inspect(body.Stmts, func(s Stmt) bool {
				stmtFeatures(s, add)
				return true
			})
		}
	}
	forEachExpr(f, func(e Expr) { exprFeatures(e, add) })
}

// instanceFeatures records the constructs of the instance blocks.
func instanceFeatures(f *File, add func(bool, string)) {
	for _, in := range f.Instances {
		add(in.Ints != nil, "ints")
		for _, th := range in.Threads {
			add(th.MaxPos.IsValid(), "thread max")
			add(th.Tids.Single, "thread tid single")
			add(!th.Tids.Single, "thread tid range")
			for _, cs := range th.Calls {
				add(len(cs.Args) > 0, "thread args")
			}
		}
	}
}

// exprFeatures records the constructs of one expression node.
func exprFeatures(e Expr, add func(bool, string)) {
	switch e := e.(type) {
	case *IntLit:
		add(true, "int")
		add(e.Val < 0, "negative literal")
	case *BoolLit:
		add(true, "bool")
	case *Ident:
		add(true, "ident")
	case *IndexExpr:
		add(true, "index")
	case *UpdateExpr:
		add(true, "update")
	case *CondExpr:
		add(true, "if-expr")
	case *QuantExpr:
		add(!e.Exists, "forall")
		add(e.Exists, "exists")
		add(len(e.Vars) > 1, "quant several vars")
	case *CallExpr:
		add(true, "call expr")
	case *OldExpr:
		add(true, "old")
	case *UnaryExpr:
		add(true, "op "+e.Op.String())
	case *BinaryExpr:
		add(true, "op "+e.Op.String())
	}
}

func stmtFeatures(s Stmt, add func(bool, string)) {
	b := Base(s)
	switch s := s.(type) {
	case *AssignStmt:
		add(true, "assign")
		add(len(s.Lhs) > 1, "multiple assign")
		for _, lv := range s.Lhs {
			add(len(lv.Indices()) > 1, "nested map assign")
		}
	case *HavocStmt:
		add(len(s.Vars) > 1, "havoc several")
	case *AssumeStmt:
		add(true, "assume")
	case *AssertStmt:
		add(true, "assert")
	case *StepStmt:
		add(true, "step group")
		for _, in := range s.Body {
			_, isIf := in.(*IfStmt)
			add(isIf, "step group with if")
		}
	case *CallStmt:
		add(len(s.Outs) > 0, "call with outputs")
		add(len(s.Outs) == 0, "call without outputs")
	case *ParCallStmt:
		add(true, "parallel call")
		add(len(s.Arms) > 2, "parallel call of 3 arms")
	case *YieldStmt:
		add(s.Ann == nil, "yield")
		add(s.Ann != nil, "yield e")
	case *IfStmt:
		add(s.Cond != nil, "if")
		add(s.Cond == nil, "if *")
		_, elseBlock := s.Else.(*BlockStmt)
		add(elseBlock, "if else")
		if e, ok := s.Else.(*IfStmt); ok {
			_, last := e.Else.(*BlockStmt)
			add(last, "if else-if else")
		}
	case *WhileStmt:
		add(s.Cond != nil, "while")
		add(s.Cond == nil, "while *")
		add(len(s.Invariants) > 1, "while invariants")
	case *ChoiceStmt:
		add(len(s.Branches) >= 3, "choice 3")
	case *ReturnStmt:
		add(true, "return")
	case *BreakStmt:
		add(true, "break")
	}
	if b.Mover != MoverNone {
		_, group := s.(*StepStmt)
		kind := "simple"
		if group {
			kind = "group"
		}
		add(true, "mover on "+kind+" "+b.Mover.String())
	}
}

// forEachExpr calls fn for every expression of a file, subexpressions
// included.
func forEachExpr(f *File, fn func(Expr)) {
	visit := func(e Expr) {
		InspectExpr(e, func(x Expr) bool {
			fn(x)
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ConstDecl:
			if d.Value != nil {
				visit(d.Value)
			}
		case *VarDecl:
			if d.Init != nil {
				visit(d.Init)
			}
		case *FuncDecl:
			visit(d.Body)
		case *InvariantDecl:
			visit(d.Expr)
		case *Layer:
			for _, m := range d.Members {
				sig := m.Sig()
				for _, e := range append(append([]Expr(nil), sig.Requires...), sig.Ensures...) {
					visit(e)
				}
				var body *Block
				switch m := m.(type) {
				case *Action:
					body = m.Body
				case *Proc:
					body = m.Body
				}
				Inspect(body.Stmts, func(s Stmt) bool {
					for _, e := range StmtExprs(s) {
						visit(e)
					}
					return true
				})
			}
		}
	}
}

// forEachProcStmt calls fn for every statement of every procedure, in
// source order.
func forEachProcStmt(f *File, fn func(Stmt)) {
	for _, l := range f.Layers {
		for _, m := range l.Members {
			if p, ok := m.(*Proc); ok {
				Inspect(p.Body.Stmts, func(s Stmt) bool {
					fn(s)
					return true
				})
			}
		}
	}
}
