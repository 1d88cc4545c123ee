package lang

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestFormatGoodFiles: for every good file, formatting is idempotent,
// the output parses to the same tree and checks the same way, and every
// comment survives in order.
func TestFormatGoodFiles(t *testing.T) {
	for _, g := range goodFiles(t) {
		t.Run(g.name, func(t *testing.T) {
			checkRoundTrip(t, g.src)
		})
	}
}

// checkRoundTrip checks the formatter's promises on src, which must
// parse and check.
func checkRoundTrip(t *testing.T, src []byte) []byte {
	t.Helper()
	f1 := mustParse(t, src)
	out := Format(f1)
	f2, err := Parse("t.lip", out)
	if err != nil {
		t.Fatalf("formatted source does not parse: %v\n%s", err, out)
	}
	if d := diffAST(f1, f2); d != "" {
		t.Errorf("formatting changed the tree at %s\n%s", d, out)
	}
	if got, want := commentTexts(f2), commentTexts(f1); !equalStrings(got, want) {
		t.Errorf("comments changed:\n got %q\nwant %q\n%s", got, want, out)
	}
	if out2 := Format(f2); !bytes.Equal(out, out2) {
		t.Errorf("not idempotent:\n--- first\n%s--- second\n%s", out, out2)
	}
	_, err1 := Check(f1)
	_, err2 := Check(f2)
	if (err1 == nil) != (err2 == nil) {
		t.Errorf("check before formatting: %v; after: %v", err1, err2)
	}
	if err1 == nil && !equalStrings(classes(f1), classes(f2)) {
		t.Errorf("statement classes changed by formatting")
	}
	return out
}

// TestDiffAST makes sure the tree comparison used above can fail, and
// ignores what it should.
func TestDiffAST(t *testing.T) {
	base := "var x: int;\nlayer 0 { proc p() { var y: int; y := x + 1; } }"
	for _, tc := range []struct {
		other string
		same  bool
	}{
		{"var x: int;\n\n\nlayer 0 {\n  proc p()\n  {\n    var y: int;\n    y := (x + 1);\n  }\n}\n", true},
		{"// comment\nvar x: int; layer 0 { proc p() { var y: int; y := x + 1; } }", true},
		{"var x: int;\nlayer 0 { proc p() { var y: int; y := x - 1; } }", false},
		{"var x: int;\nlayer 0 { proc p() { var y: int; y := x + 2; } }", false},
		{"var x: int;\nlayer 0 { proc p() { var z: int; z := x + 1; } }", false},
		{"var x: int;\nlayer 0 { proc p() { var y: int; right y := x + 1; } }", false},
		{"var x: int;\nlayer 0 { proc p() { var y: int; y := x + 1; yield; } }", false},
		{"ghost var x: int;\nlayer 0 { proc p() { var y: int; y := x + 1; } }", false},
		{"var x: int;\nlayer 0 { proc p() { ghost var y: int; y := x + 1; } }", false},
		{"var x: int;\nlayer 0 { proc p() { var y: int; y := 1 + x; } }", false},
		{"var x: bool;\nlayer 0 { proc p() { var y: int; y := x + 1; } }", false},
	} {
		d := diffAST(mustParse(t, []byte(base)), mustParse(t, []byte(tc.other)))
		if (d == "") != tc.same {
			t.Errorf("diff with %q = %q, want same=%v", tc.other, d, tc.same)
		}
	}
	// Checking (which sets Obj, T and Class) does not make trees differ.
	f1, f2 := mustParse(t, []byte(base)), mustParse(t, []byte(base))
	if _, err := Check(f1); err != nil {
		t.Fatal(err)
	}
	if d := diffAST(f1, f2); d != "" {
		t.Errorf("checked and unchecked trees differ at %s", d)
	}
}

// sexpr prints an expression fully parenthesized, to show its tree.
func sexpr(e Expr) string {
	switch e := e.(type) {
	case *IntLit:
		return fmt.Sprint(e.Val)
	case *BoolLit:
		return fmt.Sprint(e.Val)
	case *Ident:
		return e.Name
	case *UnaryExpr:
		name := "not"
		if e.Op == OpNeg {
			name = "neg"
		}
		return "(" + name + " " + sexpr(e.X) + ")"
	case *BinaryExpr:
		return "(" + e.Op.String() + " " + sexpr(e.X) + " " + sexpr(e.Y) + ")"
	case *IndexExpr:
		return "(at " + sexpr(e.Map) + " " + sexpr(e.Key) + ")"
	case *UpdateExpr:
		return "(upd " + sexpr(e.Map) + " " + sexpr(e.Key) + " " + sexpr(e.Val) + ")"
	case *CondExpr:
		return "(if " + sexpr(e.Cond) + " " + sexpr(e.Then) + " " + sexpr(e.Else) + ")"
	case *QuantExpr:
		q := "forall"
		if e.Exists {
			q = "exists"
		}
		var vars []string
		for _, v := range e.Vars {
			vars = append(vars, v.Name.Name)
		}
		return "(" + q + " " + strings.Join(vars, ",") + " " + sexpr(e.Body) + ")"
	case *CallExpr:
		s := "(call " + e.Func.Name
		for _, a := range e.Args {
			s += " " + sexpr(a)
		}
		return s + ")"
	case *FieldExpr:
		return "(field " + sexpr(e.X) + " " + e.Name.Name + ")"
	case *ConstMapExpr:
		return "(const " + TypeString(e.MapType) + " " + sexpr(e.Val) + ")"
	}
	return "?"
}

// parseExpr parses src as the expression of an invariant.
func parseExpr(t *testing.T, src string) Expr {
	t.Helper()
	f, err := Parse("e.lip", []byte("invariant "+src+";"))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return f.Invariants[0].Expr
}

// TestExprPrecedence checks how expressions parse (tree) and print
// (canonical text with the fewest parentheses), and that the printed
// text parses to the same tree.
func TestExprPrecedence(t *testing.T) {
	for _, tc := range []struct {
		src, tree, print string
	}{
		// ==> is right-associative and binds weaker than ||; <==> is weakest
		// and left-associative.
		{"a ==> b ==> c", "(==> a (==> b c))", "a ==> b ==> c"},
		{"(a ==> b) ==> c", "(==> (==> a b) c)", "(a ==> b) ==> c"},
		{"a ==> (b ==> c)", "(==> a (==> b c))", "a ==> b ==> c"},
		{"a || b ==> c", "(==> (|| a b) c)", "a || b ==> c"},
		{"a ==> b || c", "(==> a (|| b c))", "a ==> b || c"},
		{"(a ==> b) || c", "(|| (==> a b) c)", "(a ==> b) || c"},
		{"a <==> b ==> c", "(<==> a (==> b c))", "a <==> b ==> c"},
		{"a ==> b <==> c", "(<==> (==> a b) c)", "a ==> b <==> c"},
		{"a <==> b <==> c", "(<==> (<==> a b) c)", "a <==> b <==> c"},
		{"a <==> (b <==> c)", "(<==> a (<==> b c))", "a <==> (b <==> c)"},
		{"(a <==> b) ==> c", "(==> (<==> a b) c)", "(a <==> b) ==> c"},
		// && binds tighter than ||; both are left-associative.
		{"a && b || c", "(|| (&& a b) c)", "a && b || c"},
		{"a || b && c", "(|| a (&& b c))", "a || b && c"},
		{"(a || b) && c", "(&& (|| a b) c)", "(a || b) && c"},
		{"a || (b || c)", "(|| a (|| b c))", "a || (b || c)"},
		{"a && b && c", "(&& (&& a b) c)", "a && b && c"},
		// Comparisons bind tighter than && and looser than arithmetic, and
		// do not associate.
		{"a < b + 1 && c", "(&& (< a (+ b 1)) c)", "a < b + 1 && c"},
		{"(a == b) == c", "(== (== a b) c)", "(a == b) == c"},
		{"a == (b != c)", "(== a (!= b c))", "a == (b != c)"},
		{"(a <= b) == (c >= d)", "(== (<= a b) (>= c d))", "(a <= b) == (c >= d)"},
		// Arithmetic: * / % before + -, all left-associative.
		{"a - b - c", "(- (- a b) c)", "a - b - c"},
		{"a - (b - c)", "(- a (- b c))", "a - (b - c)"},
		{"a / b / c", "(/ (/ a b) c)", "a / b / c"},
		{"a / (b / c)", "(/ a (/ b c))", "a / (b / c)"},
		{"a % b * c", "(* (% a b) c)", "a % b * c"},
		{"a * (b % c)", "(* a (% b c))", "a * (b % c)"},
		{"a + b * c", "(+ a (* b c))", "a + b * c"},
		{"(a + b) * c", "(* (+ a b) c)", "(a + b) * c"},
		{"a - b + c", "(+ (- a b) c)", "a - b + c"},
		{"a - (b + c)", "(- a (+ b c))", "a - (b + c)"},
		// Unary minus on a literal is part of the literal; -(5) is not.
		{"-5", "-5", "-5"},
		{"- 5", "-5", "-5"},
		{"-(5)", "(neg 5)", "-(5)"},
		{"-(-5)", "(neg -5)", "-(-5)"},
		{"- -x", "(neg (neg x))", "-(-x)"},
		{"-x * 2", "(* (neg x) 2)", "-x * 2"},
		{"-(x * 2)", "(neg (* x 2))", "-(x * 2)"},
		{"a - -5", "(- a -5)", "a - -5"},
		{"a - -x", "(- a (neg x))", "a - -x"},
		{"-5 - 5", "(- -5 5)", "-5 - 5"},
		{"-m[i]", "(neg (at m i))", "-m[i]"},
		{"(-5)[i]", "(at -5 i)", "(-5)[i]"},
		{"-(4[i])", "(neg (at 4 i))", "-(4[i])"},
		{"-(4)[i := 1][j]", "(neg (at (upd 4 i 1) j))", "-(4[i := 1][j])"},
		{"-4[i]", "(at -4 i)", "(-4)[i]"},
		{"-9223372036854775808", "-9223372036854775808", "-9223372036854775808"},
		{"!a && b", "(&& (not a) b)", "!a && b"},
		{"!(a && b)", "(not (&& a b))", "!(a && b)"},
		{"!!a", "(not (not a))", "!(!a)"},
		{"!f(x)", "(not (call f x))", "!f(x)"},
		// Quantifiers and if-expressions extend as far right as possible,
		// so as operands they need parentheses.
		{"forall x: int :: p && q", "(forall x (&& p q))", "forall x: int :: p && q"},
		{"(forall x: int :: p) && q", "(&& (forall x p) q)", "(forall x: int :: p) && q"},
		{"q && forall x: int :: p || r", "(&& q (forall x (|| p r)))", "q && (forall x: int :: p || r)"},
		{"exists x, y: int, b: bool :: b", "(exists x,y,b b)", "exists x, y: int, b: bool :: b"},
		{"exists x: int, y: int :: b", "(exists x,y b)", "exists x: int, y: int :: b"},
		{"forall x: int :: exists y: int :: x < y", "(forall x (exists y (< x y)))", "forall x: int :: exists y: int :: x < y"},
		{"!(forall x: int :: p)", "(not (forall x p))", "!(forall x: int :: p)"},
		{"if c then a else b + 1", "(if c a (+ b 1))", "if c then a else b + 1"},
		{"(if c then a else b) + 1", "(+ (if c a b) 1)", "(if c then a else b) + 1"},
		{"1 + if c then a else b", "(+ 1 (if c a b))", "1 + (if c then a else b)"},
		{"if c then if d then a else b else e", "(if c (if d a b) e)", "if c then if d then a else b else e"},
		{"if c then a else if d then b else e", "(if c a (if d b e))", "if c then a else if d then b else e"},
		{"-(if c then 1 else 2)", "(neg (if c 1 2))", "-(if c then 1 else 2)"},
		{"(if c then m else n)[i]", "(at (if c m n) i)", "(if c then m else n)[i]"},
		// Map reads, updates and calls.
		{"m[i := v][j]", "(at (upd m i v) j)", "m[i := v][j]"},
		{"m[i][j := v]", "(upd (at m i) j v)", "m[i][j := v]"},
		{"m[i := m[j] + 1]", "(upd m i (+ (at m j) 1))", "m[i := m[j] + 1]"},
		{"f(x)[y]", "(at (call f x) y)", "f(x)[y]"},
		{"f(a ==> b, if c then d else e)", "(call f (==> a b) (if c d e))", "f(a ==> b, if c then d else e)"},
		{"(a + b)[i]", "(at (+ a b) i)", "(a + b)[i]"},
		{"g()", "(call g)", "g()"},
	} {
		e := parseExpr(t, tc.src)
		if got := sexpr(e); got != tc.tree {
			t.Errorf("%s parses as %s, want %s", tc.src, got, tc.tree)
		}
		printed := ExprString(e)
		if printed != tc.print {
			t.Errorf("%s prints as %s, want %s", tc.src, printed, tc.print)
		}
		if again := sexpr(parseExpr(t, printed)); again != tc.tree {
			t.Errorf("%s prints as %s, which parses as %s", tc.src, printed, again)
		}
	}
}

// TestFormatCanonical checks the exact layout of a few inputs.
func TestFormatCanonical(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"var   x :int=1 ;var y:[int][int]bool;", "var x: int = 1;\nvar y: [int][int]bool;\n"},
		{"type T=int;\n\n\nconst c:T;", "type T = int;\n\nconst c: T;\n"},
		{"function f(a:int,b:bool):bool{b&&(a>0)}", "function f(a: int, b: bool): bool { b && a > 0 }\n"},
		{"ghost var g:int=0 layers 0..1;invariant g>=0 layers 1..1;",
			"ghost var g: int = 0 layers 0..1;\ninvariant g >= 0 layers 1..1;\n"},
		{"layer 0{right action a(linear t:int,ghost u:int)returns(r:int)requires t>0 ensures r==t{r:=t;}}",
			"layer 0 {\n  right action a(linear t: int, ghost u: int) returns (r: int)\n    requires t > 0\n    ensures r == t\n  {\n    r := t;\n  }\n}\n"},
		{"layer 0{proc p(){var a,b:int;ghost var c:bool;left [a:=1;b:=2;];if(*){yield;}else if(a>b){return;}else{call a:=q(b);}}}",
			"layer 0 {\n  proc p()\n  {\n    var a, b: int;\n    ghost var c: bool;\n    left [a := 1; b := 2;]\n    if (*) {\n      yield;\n    } else if (a > b) {\n      return;\n    } else {\n      call a := q(b);\n    }\n  }\n}\n"},
		{"layer 0{proc p(){while(*)invariant true;invariant 1>0;{yield 1>0;}choice{havoc x,y;}or{assume x;}or{assert y;}}}",
			"layer 0 {\n  proc p()\n  {\n    while (*)\n      invariant true;\n      invariant 1 > 0;\n    {\n      yield 1 > 0;\n    }\n    choice {\n      havoc x, y;\n    } or {\n      assume x;\n    } or {\n      assert y;\n    }\n  }\n}\n"},
		{"layer 0{proc p(){[if(x){y:=1;}];}}",
			"layer 0 {\n  proc p()\n  {\n    [if (x) { y := 1; }]\n  }\n}\n"},
		{"layer 0{proc p(){[if(x){}else{y:=2;} choice{y:=1;}or{y:=2;}];}}",
			"layer 0 {\n  proc p()\n  {\n    [\n      if (x) {\n      } else {\n        y := 2;\n      }\n      choice {\n        y := 1;\n      } or {\n        y := 2;\n      }\n    ]\n  }\n}\n"},
		{"layer 0{proc p(){[if(x){}else{y:=2;}];}}",
			"layer 0 {\n  proc p()\n  {\n    [if (x) { } else { y := 2; }]\n  }\n}\n"},
		{"var a:int;// one\nvar bbbb:int;   // two\n\nvar c:int; // three",
			"var a: int;     // one\nvar bbbb: int;  // two\n\nvar c: int;  // three\n"},
		{"layer 0{action a(){}action b(){}}\nlayer 1{}",
			"layer 0 {\n  action a()\n  {\n  }\n\n  action b()\n  {\n  }\n}\n\nlayer 1 {\n}\n"},
		{"instance i{thread t(tid=0..1)calls m(x in -1..2,y in 3),n max 4;ints -2..6;}",
			"instance i {\n  thread t(tid = 0..1) calls m(x in -1..2, y in 3), n max 4;\n  ints -2..6;\n}\n"},
		{"var x: int;\r\nvar y: int;\r\n", "var x: int;\nvar y: int;\n"},
		{"var x: int; // c\r\n// d\r\n", "var x: int;  // c\n// d\n"},
		{"layer 0{proc p(){right while(*){}left while(*)invariant true;{}both choice{}or{}atomic if(*){}right yield;left return;both call p();}}",
			"layer 0 {\n  proc p()\n  {\n    right while (*) {\n    }\n    left while (*)\n      invariant true;\n    {\n    }\n    both choice {\n    } or {\n    }\n    atomic if (*) {\n    }\n    right yield;\n    left return;\n    both call p();\n  }\n}\n"},
		{"layer 0{public both action a(){}public proc p(){}action h(){}}",
			"layer 0 {\n  public both action a()\n  {\n  }\n\n  public proc p()\n  {\n  }\n\n  action h()\n  {\n  }\n}\n"},
		{"layer 0{proc p(){var a:int;call a:=f(t)|g(u,1)|h();}}",
			"layer 0 {\n  proc p()\n  {\n    var a: int;\n    call a := f(t) | g(u, 1) | h();\n  }\n}\n"},
		{"", ""},
	} {
		f := mustParse(t, []byte(tc.src))
		if got := string(Format(f)); got != tc.want {
			t.Errorf("Format(%q) =\n%s\nwant\n%s", tc.src, got, tc.want)
		}
	}
}

// TestFormatComments checks that comments in unusual places survive.
func TestFormatComments(t *testing.T) {
	for _, src := range []string{
		"var x: int; // a\n// b\n",
		"/* a */ /* b */ var x: int; /* c */ // d\n",
		"var x: bool = true && // inside an expression\n  false;\n",
		"function f(): int { 1 + // one\n 2 // two\n}\n",
		"layer 0 {\n  proc p() {\n    var x: int;\n    [x := 1; // one\n     x := 2; /* two */]\n  }\n}\n",
		"layer 0 {\n  proc p() {\n    if (*) {\n    } // a\n    else // b\n    { // c\n    }\n  }\n}\n",
		"layer 0 {\n  proc p() {\n    choice { } // a\n    or // b\n    { }\n  }\n}\n",
		"layer 0 {\n  proc p() {\n    call a()   // first arm\n      | /* inner */ b();   // second arm\n  }\n}\n",
		"layer 0 {\n  proc p()\n    // before requires\n    requires true // r\n    // before the body\n  {\n  }\n}\n",
		"layer 0 {\n  proc p() {\n    while (*) // w\n      // before an invariant\n      invariant true // i\n    { }\n  }\n}\n",
		"instance i {\n  thread t(tid = 0) // before calls\n    calls m; // after\n}\n",
		"var x: int; // crlf\r\nvar y: int;\r\n",
		"// only a comment",
		"/* only a block comment */",
		"var x: int;\n\n\n// after blank lines\n\n\nvar y: int;\n",
	} {
		f := mustParse(t, []byte(src))
		out := Format(f)
		f2, err := Parse("t.lip", out)
		if err != nil {
			t.Errorf("%q: formatted source does not parse: %v\n%s", src, err, out)
			continue
		}
		if got, want := commentTexts(f2), commentTexts(f); !equalStrings(got, want) {
			t.Errorf("%q: comments\n got %q\nwant %q\n%s", src, got, want, out)
		}
		if out2 := Format(f2); !bytes.Equal(out, out2) {
			t.Errorf("%q: not idempotent:\n--- first\n%s--- second\n%s", src, out, out2)
		}
		if d := diffAST(f, f2); d != "" {
			t.Errorf("%q: tree changed at %s", src, d)
		}
	}
}

// randExpr builds a random expression tree of at most the given depth.
// Types are ignored: the printer and the parser do not look at them.
func randExpr(rng *rand.Rand, depth int) Expr {
	if depth == 0 || rng.Intn(5) == 0 {
		switch rng.Intn(3) {
		case 0:
			return &IntLit{Val: int64(rng.Intn(11) - 5)}
		case 1:
			return &BoolLit{Val: rng.Intn(2) == 0}
		}
		return &Ident{Name: []string{"a", "b", "c"}[rng.Intn(3)]}
	}
	sub := func() Expr { return randExpr(rng, depth-1) }
	switch rng.Intn(12) {
	case 11:
		intT := &NamedType{Name: &Ident{Name: "int"}}
		return &ConstMapExpr{MapType: &MapTypeExpr{Key: intT, Val: intT}, Val: sub()}
	case 10:
		return &FieldExpr{X: sub(), Name: &Ident{Name: []string{"f", "g"}[rng.Intn(2)]}}
	case 0:
		return &UnaryExpr{Op: []Op{OpNot, OpNeg}[rng.Intn(2)], X: sub()}
	case 1:
		return &IndexExpr{Map: sub(), Key: sub()}
	case 2:
		return &UpdateExpr{Map: sub(), Key: sub(), Val: sub()}
	case 3:
		return &CondExpr{Cond: sub(), Then: sub(), Else: sub()}
	case 4:
		q := &QuantExpr{Exists: rng.Intn(2) == 0, Body: sub()}
		for i := rng.Intn(2); i >= 0; i-- {
			q.Vars = append(q.Vars, &Param{Name: &Ident{Name: fmt.Sprint("x", i)}, Type: &NamedType{Name: &Ident{Name: "int"}}})
		}
		return q
	case 5:
		c := &CallExpr{Func: &Ident{Name: "f"}}
		for i := rng.Intn(3); i > 0; i-- {
			c.Args = append(c.Args, sub())
		}
		return c
	}
	return &BinaryExpr{Op: Op(rng.Intn(int(OpMod) + 1)), X: sub(), Y: sub()}
}

// TestExprPrinterRandom prints random expression trees and parses them
// back: the printer's parentheses must keep every tree.
func TestExprPrinterRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 8000; i++ {
		e := randExpr(rng, 6)
		printed := ExprString(e)
		f, err := Parse("e.lip", []byte("invariant "+printed+";"))
		if err != nil {
			t.Fatalf("%s (tree %s) does not parse: %v", printed, sexpr(e), err)
		}
		if got := sexpr(f.Invariants[0].Expr); got != sexpr(e) {
			t.Fatalf("%s parses as\n%s, want\n%s", printed, got, sexpr(e))
		}
	}
}

// randStmts builds a random statement list; any statement may carry a
// mover tag, wherever the grammar allows one.
func randStmts(rng *rand.Rand, depth int) []Stmt {
	var out []Stmt
	for n := rng.Intn(4); n > 0; n-- {
		out = append(out, randStmt(rng, depth))
	}
	return out
}

func randStmt(rng *rand.Rand, depth int) Stmt {
	expr := func() Expr { return randExpr(rng, 2) }
	ident := func() *Ident { return &Ident{Name: []string{"x", "y", "m"}[rng.Intn(3)]} }
	block := func() *Block { return &Block{Stmts: randStmts(rng, depth-1)} }
	var s Stmt
	kind := rng.Intn(12)
	if depth == 0 {
		kind = rng.Intn(4)
	}
	switch kind {
	case 0:
		a := &AssignStmt{}
		for i := rng.Intn(2); i >= 0; i-- {
			lv := &LValue{Name: ident()}
			for j := rng.Intn(3); j > 0; j-- {
				if rng.Intn(3) == 0 {
					lv.Sels = append(lv.Sels, &Selector{Field: &Ident{Name: "f"}})
				} else {
					lv.Sels = append(lv.Sels, &Selector{Index: expr()})
				}
			}
			a.Lhs = append(a.Lhs, lv)
			a.Rhs = append(a.Rhs, expr())
		}
		s = a
	case 1:
		s = &HavocStmt{Vars: []*Ident{ident(), ident()}[:1+rng.Intn(2)]}
	case 2:
		s = &AssumeStmt{Cond: expr()}
	case 3:
		s = &AssertStmt{Cond: expr()}
	case 4:
		s = &StepStmt{Body: randStmts(rng, depth-1)}
	case 5:
		c := &CallStmt{Callee: ident()}
		for i := rng.Intn(3); i > 0; i-- {
			c.Outs = append(c.Outs, ident())
		}
		for i := rng.Intn(3); i > 0; i-- {
			c.Args = append(c.Args, expr())
		}
		s = c
	case 6:
		y := &YieldStmt{}
		if rng.Intn(2) == 0 {
			y.Ann = expr()
		}
		s = y
	case 7:
		s = randIf(rng, depth, expr, block)
	case 8:
		w := &WhileStmt{Body: block()}
		if rng.Intn(2) == 0 {
			w.Cond = expr()
		}
		for i := rng.Intn(3); i > 0; i-- {
			w.Invariants = append(w.Invariants, expr())
		}
		s = w
	case 9:
		c := &ChoiceStmt{}
		for i := 2 + rng.Intn(2); i > 0; i-- {
			c.Branches = append(c.Branches, block())
		}
		s = c
	default:
		s = &ReturnStmt{}
	}
	if rng.Intn(4) == 0 {
		s.base().Mover = Mover(1 + rng.Intn(4))
	}
	return s
}

func randIf(rng *rand.Rand, depth int, expr func() Expr, block func() *Block) *IfStmt {
	s := &IfStmt{Then: block()}
	if rng.Intn(2) == 0 {
		s.Cond = expr()
	}
	switch rng.Intn(3) {
	case 1:
		s.Else = &BlockStmt{Block: block()}
	case 2:
		s.Else = randIf(rng, depth, expr, block)
	}
	return s
}

// TestFormatRandomStatements prints random procedures and actions and
// parses them back: the printer must keep every statement, branch and
// mover tag.
func TestFormatRandomStatements(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	typ := func() TypeExpr { return &NamedType{Name: &Ident{Name: "int"}} }
	for i := 0; i < 500; i++ {
		sig := Signature{Name: &Ident{Name: "p"}}
		for j := rng.Intn(3); j > 0; j-- {
			sig.Params = append(sig.Params, &Param{Name: &Ident{Name: fmt.Sprint("a", j)}, Type: typ(), Linear: rng.Intn(2) == 0, Ghost: rng.Intn(2) == 0})
		}
		for j := rng.Intn(2); j > 0; j-- {
			sig.Returns = append(sig.Returns, &Param{Name: &Ident{Name: "r"}, Type: typ(), Ghost: rng.Intn(2) == 0})
			sig.Requires = append(sig.Requires, randExpr(rng, 2))
			sig.Ensures = append(sig.Ensures, randExpr(rng, 2))
		}
		for j := rng.Intn(3); j > 0; j-- {
			sig.Locals = append(sig.Locals, &LocalDecl{Ghost: rng.Intn(2) == 0, Names: []*Ident{{Name: "u"}, {Name: "v"}}[:1+rng.Intn(2)], Type: typ()})
		}
		body := &Block{Stmts: randStmts(rng, 3)}
		var m Member = &Proc{Signature: sig, Body: body}
		if rng.Intn(3) == 0 {
			m = &Action{Mover: Mover(rng.Intn(5)), Signature: sig, Body: body}
		}
		f := &File{Decls: []Decl{&Layer{Members: []Member{m}}}}
		out := Format(f)
		f2, err := Parse("t.lip", out)
		if err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, out)
		}
		if d := diffAST(f, f2); d != "" {
			t.Fatalf("tree changed at %s:\n%s", d, out)
		}
	}
}
