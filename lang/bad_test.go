package lang

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// badCases are malformed or ill-typed inputs. Each lists every error the
// front end must report, in order, as "line:col: part of the message".
var badCases = []struct {
	name string
	src  string
	want []string
}{
	// ---- Lexical errors ----
	{"bad char", "var x: int = 1 @ 2;", []string{`1:16: unexpected character '@'`}},
	{"non-ASCII ident", "var é: int;", []string{`1:5: unexpected character 'é'`}},
	{"invalid UTF-8", "var x: int;\nvar \xff: int;", []string{`2:5: invalid byte 0xff (files must be UTF-8)`}},
	{"run of bad chars is one error", "var x: int = @@@ 1;\nvar y: int = \x01\x02;", []string{
		`1:14: unexpected character '@'`,
		`2:14: unexpected character '\x01'`,
	}},
	{"unterminated comment", "var x: int;\n  /* never closed\nvar y: int;", []string{`2:3: comment not terminated`}},
	{"several bad chars", "var x: int = #;\nvar y: int = $;\nvar z: bool = true ? 1 : 2;", []string{
		`1:14: unexpected character '#'`,
		`2:14: unexpected character '$'`,
		`3:20: unexpected character '?'`,
	}},

	// ---- Syntax errors ----
	{"missing semicolon at EOF", "var x: int", []string{`1:11: unexpected end of file, expected ";"`}},
	{"missing colon", "var x int;", []string{`1:7: unexpected name int, expected ":"`}},
	{"not a declaration", "x := 1;", []string{`1:1: unexpected name x, expected a declaration`}},
	{"stray brace", "}", []string{`1:1: unexpected "}", expected a declaration`}},
	{"layer member", "layer 0 { foo }", []string{`1:11: unexpected name foo, expected "action" or "proc"`}},
	{"two mover types", "layer 0 { left right proc p() {} }", []string{`1:16: unexpected keyword right, expected "action" or "proc"`}},
	{"unclosed layer", "layer 0 { proc p() { }", []string{`1:23: unexpected end of file, expected "}"`}},
	{"chained comparison", "var b: bool = 1 < 2 < 3;", []string{`1:21: comparisons do not chain`}},
	{"int literal too large", "var x: int = 99999999999999999999;", []string{`1:14: integer literal 99999999999999999999 does not fit in 64 bits`}},
	{"negative literal too large", "var x: int = -9223372036854775809;", []string{`1:15: integer literal -9223372036854775809 does not fit in 64 bits`}},
	{"layer number too large", "layer 99999999999 { }", []string{`1:1: number 99999999999 is too large`}},
	{"missing then", "var x: int = if true 1 else 2;", []string{`1:22: expected "then" after the condition of an if-expression, found number 1`}},
	{"missing else", "var x: int = if true then 1;", []string{`1:28: expected "else" in an if-expression`}},
	{"unclosed paren", "var x: int = (1 + 2;", []string{`1:20: expected ")" to close the parenthesis, found ";"`}},
	{"unclosed map update", "var m: [int]int;\nvar n: [int]int = m[1 := 2;", []string{`2:27: expected "]" to close the map index`}},
	{"unclosed call", "function f(x: int): int { x }\nvar y: int = f(1;", []string{`2:17: expected ")" to close the argument list`}},
	{"quantifier without variable", "var b: bool = forall :: true;", []string{`1:22: expected a variable name, found "::"`}},
	{"quantifier without ::", "var b: bool = forall x: int x > 0;", []string{`1:29: expected "::" after the variables of a quantifier`}},
	{"quantifier without type", "var b: bool = exists x :: x > 0;", []string{`1:24: expected ":" and a type after a quantified variable`}},
	{"bad map type in quantifier", "var b: bool = exists x: [int :: true;", []string{`1:30: expected "]" after the key type of a map type`}},
	{"layers without range", "var x: int layers 2;", []string{`1:20: unexpected ";", expected ".."`}},
	{"missing expression", "layer 0 { proc p() { var x: int; x := ; } }", []string{`1:39: unexpected ";", expected an expression`}},
	{"if without braces", "layer 0 { proc p() { var x: bool; if (x) x := true; } }", []string{`1:42: unexpected name x, expected "{"`}},
	{"choice without or", "layer 0 { proc p() { choice { } } }", []string{`1:33: unexpected "}", expected "or"`}},
	{"yield with two expressions", "layer 0 { proc p() { yield true false; } }", []string{`1:33: unexpected keyword false, expected ";"`}},
	{"call without callee", "layer 0 { proc p() { call := f(); } }", []string{`1:27: unexpected ":=", expected a name`}},
	{"step without semicolon", "var g: int;\nlayer 0 { proc p() { [ g := 1 ] } }", []string{`2:31: unexpected "]", expected ";"`}},
	{"local after statement", "layer 0 {\n  proc p() {\n    var x: int;\n    x := 1;\n    var y: int;\n  }\n}", []string{
		`5:5: local variables must be declared at the start of the body`,
	}},
	{"mover tag on local", "layer 0 { proc p() { right var x: int; } }", []string{`1:28: local variables must be declared at the start of the body`}},
	{"linear local", "layer 0 {\n  proc p() {\n    linear var x: int;\n  }\n}", []string{`3:16: linear local x has type int: it must be a set of identities`}},
	{"linear global", "linear var x: int;", []string{`1:12: linear global x has type int: it must be a set of identities`}},
	{"linear map field writes", `type H = record { dom: [int]bool, val: [int]int };
layer 0 {
  action mk() returns (linear h: H) { h.val[0] := 1; }
  action poke(linear h: H, i: int) { h.val[i] := 1; }
  public proc p() {
    linear var h: H;
    call h := mk();
    h.val[0] := 3;
    h.dom[5] := true;
  }
}`, []string{
		`4:38: cannot assign to parameter h: parameters are read-only`,
		`8:5: linear local h changes by calls and moves only`,
		`9:5: linear local h changes by calls and moves only`,
	}},
	{"linear map shapes", `type H = record { dom: [int]bool, val: [int]int };
type D = record { dom: [int]int, val: [int]int };
type K = record { dom: [int]bool, val: [bool]int };
type X = record { dom: [int]bool, val: [int]int, n: int };
linear var d: D;
layer 0 {
  action a(linear_in k: K, linear x: X) returns (linear o: D) { }
  public proc p(linear h: H) { }
}`, []string{
		`5:12: linear global d has type D: it must be a set of identities ([T]bool, T int, bool or an enumeration) or a linear map (a record { dom: [T]bool, val: [T]V })`,
		`7:22: linear parameter k has type K: a linear parameter holds an identity`,
		`7:35: linear parameter x has type X: a linear parameter holds an identity`,
		`7:57: linear output o has type D: it must be a set of identities`,
		`8:24: public method p has a linear map parameter h: a client gives identities and sets of them, not maps`,
	}},
	{"thread without calls", "instance i { thread t(tid = 0); }", []string{`1:31: unexpected ";", expected "calls"`}},
	{"calls nothing", "instance i { thread t(tid = 0) calls; }", []string{`1:37: unexpected ";", expected a method name`}},
	{"bad ints", "instance i { ints 1 2; }", []string{`1:21: unexpected number 2, expected ";"`}},
	{"syntax errors in two declarations", "var x: int = ;\nvar y: int;\nconst c: int = 1 +;\n", []string{
		`1:14: unexpected ";", expected an expression`,
		`3:19: expected an expression, found ";"`,
	}},
	{"syntax errors in two members", "layer 0 {\n  proc p() { x := ; }\n  proc q() { }\n  action a() { assume ( ; }\n}", []string{
		`2:19: unexpected ";", expected an expression`,
		`4:25: expected an expression, found ";"`,
	}},
	{"ghost parameter of function does not confuse recovery", "function f(ghost x: int): int { x }\nvar y: int = ;", []string{
		`2:14: unexpected ";", expected an expression`,
	}},

	// ---- Names: undeclared, duplicates, shadowing ----
	{"undeclared variable", "var x: int = y + 1;", []string{`1:14: y is not declared`}},
	{"undeclared type", "var x: Foo;", []string{`1:8: unknown type Foo`}},
	{"undeclared function", "var x: int = f(1);", []string{`1:14: function f is not declared`}},
	{"variable as type", "var y: int;\nvar x: y;", []string{`2:8: y is a global variable, not a type`}},
	{"type as value", "var z: int = int;", []string{`1:14: int is a type, not a value`}},
	{"function without call", "function f(): int { 1 }\nvar w: int = f;", []string{`2:14: function f must be called: f(...)`}},
	{"call of a variable", "var x: int;\nvar v: int = x(1);", []string{`2:14: x is a global variable, not a function`}},
	{"call of an action in an expression", "layer 0 { action a() {} proc p() { assume a(); } }", []string{`1:43: function a is not declared`}},
	{"duplicate global", "var x: int;\nvar x: bool;", []string{`2:5: x is already declared as a global variable at t.lip:1:5`}},
	{"const and var clash", "const x: int = 1;\nvar x: int;", []string{`2:5: x is already declared as a constant at t.lip:1:7`}},
	{"builtin type redeclared", "var int: int;", []string{`1:5: int is already declared (it is a built-in type)`}},
	{"type alias cycle", "type A = B;\ntype B = A;", []string{`1:6: type A is defined in terms of itself`}},
	{"duplicate member", "layer 0 {\n  action a() {}\n  proc a() {}\n}", []string{`3:8: a is already declared in layer 0 at t.lip:2:3`}},
	{"member named like a global", "var g: int;\nlayer 0 { action g() {} }", []string{`2:18: g is already declared as a global variable`}},
	{"parameter shadows global", "var g: int;\nlayer 0 { action a(g: int) {} }", []string{`2:20: g is already declared as a global variable at t.lip:1:5`}},
	{"local shadows parameter", "layer 0 { proc p(x: int) { var x: bool; } }", []string{`1:32: x is already declared as a parameter at t.lip:1:18`}},
	{"duplicate local", "layer 0 { proc p() { var x, x: int; } }", []string{`1:29: x is already declared as a local variable`}},
	{"output shadows parameter", "layer 0 { action a(x: int) returns (x: int) {} }", []string{`1:37: x is already declared as a parameter`}},
	{"quantifier shadows local", "layer 0 { proc p() { var x: int; assert forall x: int :: x > 0; } }", []string{`1:48: x is already declared as a local variable`}},
	{"function parameter shadows const", "const k: int = 1;\nfunction f(k: int): int { k }", []string{`2:12: k is already declared as a constant`}},
	{"duplicate instance", "layer 0 {}\ninstance i { ints 0..1; }\ninstance i { ints 0..1; }", []string{`3:10: instance i is already declared at t.lip:2:1`}},

	// ---- Types of operators, maps, conditionals ----
	{"not on int", "var a: bool = !1;", []string{`1:15: operator ! needs a bool operand, not int`}},
	{"negation of bool", "var b: int = -true;", []string{`1:14: operator - needs an int operand, not bool`}},
	{"and on int", "var c: bool = 1 && true;", []string{`1:17: operator && needs bool operands, but has int and bool`}},
	{"or on int", "var o: bool = 1 || true;", []string{`1:17: operator || needs bool operands, but has int and bool`}},
	{"implies on int", "var g: bool = 1 ==> true;", []string{`1:17: operator ==> needs bool operands, but has int and bool`}},
	{"iff on int", "var h: bool = true <==> 2;", []string{`1:20: operator <==> needs bool operands, but has bool and int`}},
	{"plus on bool", "var d: int = 1 + true;", []string{`1:16: operator + needs int operands, but has int and bool`}},
	{"minus on bool", "var n: int = 3 - true;", []string{`1:16: operator - needs int operands, but has int and bool`}},
	{"times on bool", "var j: int = 2 * false;", []string{`1:16: operator * needs int operands, but has int and bool`}},
	{"div on bool", "var k: int = false / 1;", []string{`1:20: operator / needs int operands, but has bool and int`}},
	{"mod on bool", "var i: int = true % 2;", []string{`1:19: operator % needs int operands, but has bool and int`}},
	{"less on bool", "var e: bool = true < 1;", []string{`1:20: operator < needs int operands, but has bool and int`}},
	{"less-equal on bool", "var e: bool = true <= 1;", []string{`1:20: operator <= needs int operands`}},
	{"greater on bool", "var e: bool = 1 > false;", []string{`1:17: operator > needs int operands`}},
	{"greater-equal on bool", "var p: bool = 1 >= true;", []string{`1:17: operator >= needs int operands, but has int and bool`}},
	{"equality of int and bool", "var f: bool = 1 == true;", []string{`1:17: == compares values of the same type, but here compares int with bool`}},
	{"inequality of maps", "var m: [int]int;\nvar n: [int]bool;\ninvariant m != n;", []string{`3:13: != compares values of the same type, but here compares [int]int with [int]bool`}},
	{"result type of comparison", "var x: int = 1 < 2;", []string{`1:14: the initial value of x must have type int, but has type bool`}},
	{"map key type", "var m: [[int]int]int;", []string{`1:9: map keys must be int, bool or an enumeration, not [int]int`}},
	{"map type in quantifier", "var q: bool = forall k: [int]int :: true;", []string{`1:22: quantified variables must be int, bool or an enumeration, not [int]int`}},
	{"quantifier body", "var q: bool = exists k: int :: k;", []string{`1:32: the body of a quantifier must have type bool, but has type int`}},
	{"index of non-map", "var n: int;\ninvariant n[1] == 0;", []string{`2:12: only maps and sequences can be indexed, and this is an int`}},
	{"map key of wrong type", "var m: [int]bool;\ninvariant m[true];", []string{`2:13: map key must have type int, not bool`}},
	{"map update value", "var m: [int]bool;\ninvariant m[1 := 2] == m;", []string{`2:18: map value must have type bool, not int`}},
	{"map update key", "var m: [bool]int;\ninvariant m[1 := 2] == m;", []string{`2:13: map key must have type bool, not int`}},
	{"map assignment", "var m: [int]bool;\nvar n: int;\nlayer 0 {\n  action a() {\n    m[true] := true;\n    n[1] := 2;\n    m[1][2] := true;\n    m[1] := 3;\n  }\n}", []string{
		`5:7: map key must have type int, not bool`,
		`6:7: n is indexed, but it is an int, not a map`,
		`7:10: m[1] is indexed, but it is a bool, not a map`,
		`8:13: the value assigned to m must have type bool, but has type int`,
	}},
	{"if-expression condition", "var x: int = if 1 then 2 else 3;", []string{`1:17: the condition of an if-expression must have type bool, but has type int`}},
	{"if-expression branches", "var x: int = if true then 1 else false;", []string{`1:14: the branches of an if-expression must have the same type, but have int and bool`}},
	{"const value type", "const F: bool = 1;", []string{`1:17: the value of constant F must have type bool, but has type int`}},
	{"invariant type", "invariant 1 + 1;", []string{`1:11: an invariant must have type bool, but has type int`}},
	{"statement condition types", "layer 0 {\n  proc p(x: int) requires x ensures x {\n    assume x;\n    assert x;\n    yield x;\n    if (x) {}\n    while (x) invariant x; {}\n  }\n}", []string{
		`2:27: a requires clause must have type bool, but has type int`,
		`2:37: an ensures clause must have type bool, but has type int`,
		`3:12: an assume must have type bool, but has type int`,
		`4:12: an assert must have type bool, but has type int`,
		`5:11: a yield annotation must have type bool, but has type int`,
		`6:9: an if condition must have type bool, but has type int`,
		`7:12: a loop condition must have type bool, but has type int`,
		`7:25: a loop invariant must have type bool, but has type int`,
	}},

	// ---- Functions ----
	{"function arity", "function f(): int { 1 }\nconst K: int = f(1, 2);", []string{`2:16: function f takes 0 argument(s), but is called with 2`}},
	{"function argument type", "function f(x: int, y: bool): int { x }\nconst K: int = f(true, 1);", []string{
		`2:18: argument 1 of f must have type int, not bool`,
		`2:24: argument 2 of f must have type bool, not int`,
	}},
	{"function body type", "function f(): bool { 1 }", []string{`1:22: the body of function f must have type bool, but has type int`}},
	{"function recursion", "function f(x: int): int { f(x) }", []string{`1:1: function f is recursive (it calls f, which calls f back)`}},
	{"mutual recursion", "function f(x: int): int { g(x) }\nfunction g(x: int): int { f(x) }", []string{`2:1: function g is recursive (it calls f, which calls g back)`}},
	{"linear or ghost function parameter", "function f(linear x: int, ghost y: int): int { x }", []string{
		`1:19: function parameters cannot be linear or ghost`,
		`1:33: function parameters cannot be linear or ghost`,
	}},

	// ---- Constants and initial values ----
	{"const used before declaration", "const A: int = B;\nconst B: int = 1;", []string{`1:16: constant B is used before its declaration`}},
	{"const reads global", "var g: int;\nconst C: int = g;", []string{`2:16: global variable g cannot be read in a constant's value`}},
	{"const reads global through function", "var g: int;\nfunction fg(): int { g }\nconst D: int = fg();", []string{`3:16: function fg reads global variable g, so it cannot be used in a constant's value`}},
	{"initial value reads global", "var g: int;\nvar v: int = g;", []string{`2:14: global variable g cannot be read in an initial value`}},
	{"initial value uses later const", "var w: int = E;\nconst E: int = 2;", []string{`1:14: constant E is used before its declaration`}},
	{"const cycle through a function", "const A: int = f() + 1;\nfunction f(): int { g() }\nfunction g(): int { B }\nconst B: int = A;", []string{
		`1:16: function f reads constant B, which is not declared yet`,
	}},
	{"const reads itself through a function", "function f(): int { A }\nconst A: int = f();", []string{`2:16: function f reads constant A, which is not declared yet`}},
	{"function reading earlier const is fine in a value", "const A: int = 1;\nfunction f(): int { A }\nconst B: int = f();\nvar v: bool = B == f() && C;\nconst C: bool;", []string{`4:27: constant C is used before its declaration`}},

	// ---- Layers and layer ranges ----
	{"first layer not 0", "layer 1 {}", []string{`1:1: layers are numbered from 0: the first layer must be layer 0, not layer 1`}},
	{"layer gap", "layer 0 {}\nlayer 2 {}", []string{`2:1: layer 2 follows layer 0: layers must be numbered consecutively, so this should be layer 1`}},
	{"duplicate layer", "layer 0 {}\nlayer 0 {}", []string{`2:1: layer 0 is declared twice (first at t.lip:1:1)`}},
	{"layer numbering: all three", "layer 1 {}\nlayer 2 {}\nlayer 2 {}\nlayer 5 {}", []string{
		`1:1: the first layer must be layer 0, not layer 1`,
		`2:1: layer 2 follows layer 1`,
		`3:1: layer 2 is declared twice`,
		`4:1: layer 5 follows layer 2`,
	}},
	{"layer range beyond top", "var a: int layers 0..3;\nlayer 0 {}\nlayer 1 {}", []string{`1:12: layer range 0..3 goes beyond the last layer, 1`}},
	{"empty layer range", "var b: int layers 2..1;\nlayer 0 {}\nlayer 1 {}\nlayer 2 {}", []string{`1:12: empty layer range 2..1: the first layer must not exceed the last`}},
	{"invariant range beyond top", "invariant true layers 0..9;\nlayer 0 {}", []string{`1:16: layer range 0..9 goes beyond the last layer, 0`}},
	{"variable outside its layers", "var h: int layers 0..0;\nlayer 0 {}\nlayer 1 {\n  proc p() requires h > 0 {\n    var x: int;\n    x := h;\n    h := 1;\n    yield h == 0;\n    havoc h;\n  }\n}", []string{
		`4:21: variable h is not visible at layer 1 (h is declared for layers 0..0)`,
		`6:10: variable h is not visible at layer 1`,
		`7:5: variable h is not visible at layer 1`,
		`8:11: variable h is not visible at layer 1`,
		`9:11: variable h is not visible at layer 1`,
	}},
	{"variable outside its layers through a function", "var h: int layers 1..1;\nfunction fh(): bool { h > 0 }\nlayer 0 {\n  proc p() ensures fh() {\n    assert fh();\n  }\n}\nlayer 1 {}", []string{
		`4:20: function fh reads h, which is not visible at layer 0 (h is declared for layers 1..1)`,
		`5:12: function fh reads h, which is not visible at layer 0`,
	}},
	{"invariant reads hidden variable", "var h: int layers 0..0;\nfunction fh(): bool { h > 0 }\ninvariant h > 0 layers 0..1;\ninvariant fh();\nlayer 0 {}\nlayer 1 {}", []string{
		`3:11: variable h is not visible at layer 1`,
		`4:11: function fh reads h, which is not visible at layer 1`,
	}},

	// ---- Ghost rules ----
	{"ghost in assume", "ghost var gh: int;\nlayer 0 { proc p() { assume gh > 0; } }", []string{`2:29: ghost variable gh cannot be read in an assume: ghost state must never influence real state`}},
	{"ghost in assume through function", "ghost var gh: int;\nfunction rg(): int { gh }\nlayer 0 { action a() { assume rg() > 0; } }", []string{`3:31: function rg reads ghost variable gh, so it cannot be used in an assume`}},
	{"ghost local in assume", "layer 0 { proc p() { ghost var y: bool; assume y; } }", []string{`1:48: ghost variable y cannot be read in an assume`}},
	{"ghost in if condition of action", "ghost var gh: bool;\nlayer 0 { action a() { if (gh) {} } }", []string{`2:28: ghost variable gh cannot be read in a branch condition`}},
	{"ghost local in if condition", "layer 0 { proc p() { ghost var y: bool; if (y) {} } }", []string{`1:45: ghost variable y cannot be read in a branch condition`}},
	{"ghost in while condition", "layer 0 { proc p() { ghost var y: int; while (y > 0) { } } }", []string{`1:47: ghost variable y cannot be read in a loop condition`}},
	{"ghost parameter in else-if", "layer 0 { proc p(x: bool, ghost y: bool) { if (x) {} else if (y) {} } }", []string{`1:63: ghost variable y cannot be read in a branch condition`}},
	{"ghost into non-ghost", "ghost var gh: int;\nvar g: int;\nlayer 0 { action a() { g := gh + 1; } }", []string{`3:29: ghost variable gh cannot be read in an assignment to non-ghost variable g`}},
	{"ghost into non-ghost in multiple assignment", "ghost var gh: int;\nvar g: int;\nlayer 0 { action a() { gh, g := g, gh; } }", []string{`3:36: ghost variable gh cannot be read in an assignment to non-ghost variable g`}},
	{"ghost index of non-ghost map", "ghost var gh: int;\nvar m: [int]int;\nlayer 0 { action a() { m[gh] := 1; } }", []string{`3:26: ghost variable gh cannot be read in an index of non-ghost map m`}},
	{"ghost argument to non-ghost parameter", "layer 0 {\n  action b(x: int) {}\n  proc p() { ghost var gh: int; call b(gh + 1); }\n}", []string{`3:40: argument x of b is not ghost, so it cannot be computed from ghost state`}},
	{"ghost function argument to non-ghost parameter", "ghost var gh: int;\nfunction rg(): int { gh }\nlayer 0 {\n  action b(x: int) {}\n  proc p() { call b(rg()); }\n}", []string{
		`5:21: function rg reads global variable gh, so it cannot be used in an argument of a call`,
		`5:21: argument x of b is not ghost`,
	}},
	{"ghost output into non-ghost local", "layer 0 {\n  action b() returns (o: int, ghost go: int) {}\n  proc p() { var x, y: int; call y, x := b(); }\n}", []string{`3:37: output go of b is ghost, so it cannot be assigned to non-ghost x`}},

	// ---- Procedure conditions read locals only ----
	{"if condition reads global", "var g: int;\nlayer 0 { proc p() { if (g > 0) {} } }", []string{`2:26: global variable g cannot be read in the condition of an if in a procedure (it may read locals only`}},
	{"else-if condition reads global", "var g: int;\nlayer 0 { proc p(x: bool) { if (x) {} else if (g == 1) {} } }", []string{`2:48: global variable g cannot be read in the condition of an if in a procedure`}},
	{"while condition reads global through function", "var g: int;\nfunction rg(): int { g }\nlayer 0 { proc p() { while (rg() > 0) { } } }", []string{`3:29: function rg reads global variable g, so it cannot be used in a loop condition`}},

	// ---- Actions are one atomic step ----
	{"statements not allowed in actions", "layer 0 {\n  action a() {\n    while (*) {}\n    yield;\n    call a();\n    return;\n    [ assume true; ]\n    right assume true;\n  }\n}", []string{
		`3:5: a loop is not allowed in an action`,
		`4:5: yield is not allowed in an action`,
		`5:5: a call is not allowed in an action`,
		`6:5: return is not allowed in an action`,
		`7:5: a nested step [...] is not allowed in an action`,
		`8:5: mover tags go on the action itself, not on its statements`,
	}},
	{"break outside a loop", "layer 0 {\n  proc p() {\n    while (*) { }\n    if (*) { break; }\n    break;\n  }\n}", []string{
		`4:14: break outside a loop: break leaves the innermost enclosing while loop`,
		`5:5: break outside a loop`,
	}},
	{"break in action", "layer 0 { action a() { if (*) { break; } } }", []string{`1:33: break is not allowed in an action`}},
	{"break in step inside loop", "var g: int;\nlayer 0 { proc p() { while (*) { [ g := 1; break; ] yield; } } }", []string{`2:44: break is not allowed in a step [...]`}},
	{"break is a keyword", "var break: int;", []string{`1:5: unexpected keyword break, expected a name`}},
	{"mover tag on break", "layer 0 { proc p() { while (*) { left break; } } }", []string{`1:34: a mover tag can only prefix a step`}},
	{"break without semicolon", "layer 0 { proc p() { while (*) { break } } }", []string{`1:40: unexpected "}", expected ";"`}},
	// ---- old(e) ----
	{"old outside procedure annotations", "var x: int;\nfunction f(): int { old(x) }\ninvariant old(x) >= 0;\nlayer 0 {\n  proc p() requires old(x) > 0 {\n    var l: int;\n    assume old(x) == 0;\n    l := old(x);\n    while (old(x) > 0) { }\n  }\n}", []string{
		`2:21: old is not allowed here: old(e) may appear only in a procedure's ensures clauses, yield annotations, loop invariants and asserts`,
		`3:11: old is not allowed here`,
		`5:21: old is not allowed here`,
		`7:12: old is not allowed here`,
		`8:10: old is not allowed here`,
		`9:12: old is not allowed here`,
	}},
	{"old in an action", "var x: int;\nlayer 0 { action a() returns (r: int) requires old(x) > 0 ensures r == old(x) { assert old(x) > 0; r := x; } }", []string{
		`2:48: old is not allowed in an action: an action is one atomic step`,
		`2:72: old is not allowed in an action`,
		`2:88: old is not allowed in an action`,
	}},
	{"old of locals and outputs", "var x: int;\nlayer 0 {\n  proc p(k: int) returns (r: int) ensures old(r) == r {\n    var l: int;\n    yield old(l + k + x) == 0;\n  }\n}", []string{
		`3:47: old(...) is the state where the procedure's body started, where output r has no value yet; old may read only globals, parameters and constants`,
		`5:15: old(...) is the state where the procedure's body started, where local variable l has no value yet`,
	}},
	{"nested old", "var x: int;\nlayer 0 { proc p() { assert old(old(x)) == x; } }", []string{`2:33: old cannot be nested`}},
	{"old of a hidden variable", "var x: int layers 1..1;\nlayer 0 { proc p() { yield old(x) == 0; } }\nlayer 1 { proc p() { } }", []string{`2:32: variable x is not visible at layer 0`}},
	{"old type error", "var x: int;\nlayer 0 { proc p() { assert old(x); } }", []string{`2:29: an assert must have type bool, but has type int`}},
	{"old without argument", "var x: int;\nlayer 0 { proc p() { assert old() == x; } }", []string{`2:33: expected an expression, found ")"`}},
	{"old unclosed", "var x: int;\nlayer 0 { proc p() { assert old(x == x; } }", []string{`2:39: expected ")" to close old(...), found ";"`}},
	{"function named old", "function old(i: int): int { i }", []string{`1:10: a function cannot be named old`}},
	// ---- enumerations ----
	{"enumeration errors", "type Color = enum { Red, Green, Red };\ntype Shape = enum { Circle, Square };\nvar Green: int;\nvar c: Color = Circle;\nvar m: [Shape]Color;\nfunction f(x: Color): bool { x < Red || x + 1 == 2 }\nlayer 0 {\n  proc p(k: Color) {\n    Red := Green;\n    m[Red] := Red;\n    c := if k == Circle then Red else Red;\n  }\n}\ninstance i { thread t(tid = 0) calls p(k in 0..1); }", []string{
		`1:33: Red is already declared as an enumeration member at t.lip:1:21`,
		`3:5: Green is already declared as an enumeration member`,
		`4:16: the initial value of c must have type Color, but has type Shape`,
		`6:32: operator < needs int operands, but has Color and Color`,
		`6:43: operator + needs int operands, but has Color and int`,
		`9:5: cannot assign to enumeration member Red`,
		`10:7: map key must have type Shape, not Color`,
		`11:15: == compares values of the same type, but here compares Color with Shape`,
		`14:40: parameter k of p has type Color; only int parameters take ranges`,
	}},
	{"empty enumeration", "type E = enum { };", []string{`1:17: unexpected "}", expected a name`}},
	{"enumeration outside a type declaration", "var m: [enum { A }]int;", []string{`1:9: unexpected keyword enum, expected "]" or a type`}},
	{"enum is a keyword", "var enum: int;", []string{`1:5: unexpected keyword enum, expected a name`}},
	// ---- records ----
	{"record errors", "type Node = record { value: int, next: int, value: bool };\ntype Loop = record { self: Loop };\ntype A = record { b: [int]B };\ntype B = record { a: A };\nvar n: Node;\nvar k: [Node]int;\nvar x: int;\nfunction f(): int { n.nope + x.value }\nlayer 0 {\n  proc p() {\n    var m: Node;\n    m := Node(1);\n    m := Node(1, true, false);\n    m.nope := 1;\n    x.value := 2;\n    m.next[0] := 1;\n    assert forall q: Node :: q == q;\n  }\n}", []string{
		`1:45: record Node has two fields named value`,
		`2:6: record Loop contains itself (through field self): its values would be infinite`,
		`3:6: record A contains itself (through field b)`,
		`4:6: record B contains itself (through field a)`,
		`6:9: map keys must be int, bool or an enumeration, not Node`,
		`8:23: record Node has no field nope (its fields: value, next, value)`,
		`8:32: x has no field value: it is an int, not a record`,
		`12:10: record Node has 3 field(s) (value, next, value), but is built with 1 value(s)`,
		`13:18: field next of Node has type int, not bool`,
		`14:7: record Node has no field nope`,
		`15:7: x has no field value: it is an int, not a record`,
		`16:12: m.next is indexed, but it is an int, not a map`,
		`17:19: quantified variables must be int, bool or an enumeration, not Node`,
	}},
	{"empty record", "type R = record { };", []string{`1:19: unexpected "}"`}},
	{"field name missing", "type R = record { a: int };\nvar r: R;\nvar y: int = r.;", []string{`3:16: expected a field name after ".", found ";"`}},
	{"record is a keyword", "var record: int;", []string{`1:5: unexpected keyword record, expected a name`}},
	// ---- constant maps ----
	{"constant map errors", "type M = [int]bool;\nvar a: M = M(1);\nvar b: M = M(true, false);\nvar c: [int]int = [int]int(true);\nvar e: [int]bool = [int]bool(false) == M(false);", []string{
		`2:14: the value of a constant map of type [int]bool must have type bool, not int`,
		`3:12: M(e) is the map that is e at every key: it takes one value, not 2`,
		`4:28: the value of a constant map of type [int]int must have type int, not bool`,
		`5:20: the initial value of e must have type [int]bool, but has type bool`,
	}},
	{"map type without a value", "var d: [int]int = [int]int;", []string{`1:27: expected "(" after a map type in an expression`}},
	// ---- sequences ----
	{"sequence errors", "type S = []int;\ntype T = record { kids: []T };\nvar q: S = []int{1, true};\nvar m: [[]int]int;\nvar b: bool;\nfunction f(): int { q[true] + len(b) + len(q, q) + q[b := 1] }\nfunction g(): S { append(q, true) }\nfunction h(): S { concat(q, 1) }\nfunction k(): S { b[1:] }\nfunction n(): bool { forall s: []int :: len(s) >= 0 }\nfunction r(): int { len }\nlayer 0 {\n  proc p() {\n    q[0] := 1;\n  }\n}", []string{
		`2:6: record T contains itself (through field kids)`,
		`3:21: element 2 of a sequence of type []int must have type int, not bool`,
		`4:9: map keys must be int, bool or an enumeration, not []int`,
		`6:23: a sequence index must have type int, not bool`,
		`6:35: the first argument of len must be a sequence, not a bool`,
		`6:40: built-in function len takes 1 argument(s), but is called with 2`,
		`6:53: a sequence cannot be updated in place`,
		`7:29: argument 2 of append must have type int, not bool`,
		`8:29: argument 2 of concat must have type []int, not int`,
		`9:20: only sequences can be sliced, and this is a bool`,
		`10:29: quantified variables must be int, bool or an enumeration, not []int`,
		`11:21: function len must be called: len(...)`,
		`14:7: q is a sequence, which cannot be updated in place`,
	}},
	{"built-in names are taken", "function len(x: int): int { x }\nvar append: int;", []string{
		`1:10: len is already declared (it is a built-in function)`,
		`2:5: append is already declared (it is a built-in function)`,
	}},
	{"sequence literal needs braces", "var q: []int = []int(1);", []string{`1:21: expected "{" after a sequence type in an expression`}},
	{"unclosed slice", "var q: []int;\nvar r: []int = q[1:;", []string{`2:20: expected an expression`}},
	// ---- yield invariants and preserves ----
	{"yield invariant outside procedure annotations", "var x: int;\nyield invariant Y() { x >= 0; }\nfunction f(): bool { Y() }\ninvariant Y();\nlayer 0 {\n  action a() requires Y() { }\n  proc p() {\n    var b: bool;\n    assert Y();\n    b := Y();\n  }\n}", []string{
		`3:22: yield invariant Y cannot be called in a function`,
		`4:11: yield invariant Y can be called only in a procedure's requires, ensures, preserves, yield annotations and loop invariants`,
		`6:23: yield invariant Y can be called only in a procedure's`,
		`9:12: yield invariant Y can be called only in a procedure's`,
		`10:10: yield invariant Y can be called only in a procedure's`,
	}},
	{"yield invariant not a conjunct", "var x: int;\nyield invariant Y(k: int) { x >= k; }\nlayer 0 {\n  proc p()\n    requires !Y(0)\n    ensures Y(1) || x == 0\n    ensures old(Y(2))\n  {\n    yield (forall i: int :: Y(i));\n    yield Y(3) == true;\n    yield x == 0 && (Y(4) ==> x > 0) && Y(5);\n  }\n}", []string{
		`5:15: yield invariant Y must be a conjunct of the annotation`,
		`6:13: yield invariant Y must be a conjunct of the annotation`,
		`7:17: yield invariant Y must be a conjunct of the annotation`,
		`9:29: yield invariant Y must be a conjunct of the annotation`,
		`10:11: yield invariant Y must be a conjunct of the annotation`,
		`11:22: yield invariant Y must be a conjunct of the annotation`,
	}},
	{"yield invariant declaration errors", "var x: int layers 0..0;\nghost var g: int;\nyield invariant A(ghost k: int) { k >= 0; }\nyield invariant B() layers 0..0 { x; }\nyield invariant C() layers 0..1 { x >= 0; }\nyield invariant D() layers 1..1 { g >= 0; }\nlayer 0 { proc p() { yield D(); } }\nlayer 1 { proc p() { } }", []string{
		`3:25: a yield invariant's parameters cannot be ghost`,
		`4:35: a clause of yield invariant B must have type bool, but has type int`,
		`5:1: yield invariant C reads x, which is not visible at layer 1`,
		`7:28: yield invariant D is declared for layers 1..1, so it cannot be called at layer 0`,
	}},
	{"yield invariant linear parameter", "type Tid = int;\nvar owner: [Tid]bool;\nyield invariant Own(linear t: Tid) { owner[t]; }\nlayer 0 {\n  proc p(linear t: Tid, u: Tid) requires Own(t) ensures Own(u) { yield Own(t + 0); }\n}", []string{
		`5:61: parameter t of yield invariant Own is linear: the argument must be a linear parameter of the procedure`,
		`5:76: parameter t of yield invariant Own is linear`,
	}},
	{"yield invariant arguments", "var x: int;\nyield invariant Y(k: int) { x >= k; }\nlayer 0 { proc p() { yield Y(true) && Y(); } }", []string{
		`3:30: argument 1 of Y must have type int, not bool`,
		`3:39: yield invariant Y takes 1 argument(s), but is called with 0`,
	}},
	{"yield invariant linear argument twice", "type Tid = int;\nyield invariant Y(linear a: Tid, linear b: Tid) { a != b; }\nlayer 0 { proc p(linear t: Tid) preserves Y(t, t) { } }", []string{
		`3:48: linear t is passed twice in one call; a linear value cannot be duplicated`,
	}},
	{"yield invariants named in messages", "var x: int;\nyield invariant Y() { Y(); }\nyield invariant Z(k: int) { x >= k; }\nvar Z: int;\nlayer 0 { proc p() { yield Z(); Z := 1; } }", []string{
		`2:1: yield invariant Y is recursive (it calls Y, which calls Y back)`,
		`2:23: yield invariant Y cannot be called in a function or in a yield invariant`,
		`4:5: Z is already declared as a yield invariant at t.lip:3:17`,
		`5:28: yield invariant Z takes 1 argument(s), but is called with 0`,
		`5:33: cannot assign to yield invariant Z`,
	}},
	{"yield invariant argument reads a global", "var x: int;\nfunction gx(): int { x }\nyield invariant Y(k: int) { x >= k; }\nlayer 0 { proc p(n: int) ensures Y(old(x)) && Y(n) { yield Y(x) && Y(gx() + 1); } }", []string{
		`4:62: an argument of yield invariant Y may read locals, parameters and constants only, not globals`,
		`4:70: an argument of yield invariant Y may read locals, parameters and constants only`,
	}},
	{"yield invariant without clauses", "var x: int;\nyield invariant Y() { }", []string{`2:23: unexpected "}", expected an expression`}},
	{"preserves with old and outputs", "var x: int;\nlayer 0 { proc p() returns (r: int) preserves old(x) == x preserves r == 0 { } }", []string{
		`2:47: old is not allowed here`,
		`2:69: r is not declared`,
	}},
	{"preserves is a keyword", "var preserves: int;", []string{`1:5: unexpected keyword preserves, expected a name`}},
	{"fence in an action, in a step and with a mover tag", "var g: int;\nlayer 0 {\n  action a() { fence; }\n  proc p() { [ g := 1; fence; ] right fence; }\n}", []string{
		`3:16: fence is not allowed in an action`,
		`4:24: fence is not allowed in a step [...]`,
		`4:33: mover tag on a private statement`,
	}},
	{"fence is a keyword", "var fence: int;", []string{`1:5: unexpected keyword fence, expected a name`}},
	{"loop in branch of action", "layer 0 { action a() { choice { } or { while (*) { } } } }", []string{`1:40: a loop is not allowed in an action`}},

	// ---- Steps and mover tags ----
	{"nested step", "var g: int;\nlayer 0 { proc p() { [ [ g := 1; ] ] } }", []string{`2:24: a nested step [...] is not allowed in a step [...] (a step is atomic)`}},
	{"statements not allowed in steps", "var g: int;\nlayer 0 {\n  proc p() {\n    [ yield; call p(); return; while (*) {} right g := 1; ]\n  }\n}", []string{
		`4:7: yield is not allowed in a step`,
		`4:14: a call is not allowed in a step`,
		`4:24: return is not allowed in a step`,
		`4:32: a loop is not allowed in a step`,
		`4:45: mover tag inside a step: tag the whole step, as in right [ ... ]`,
	}},
	{"mover tag on private statement", "layer 0 { proc p() { var x: int; right x := 1; } }", []string{`1:34: mover tag on a private statement`}},
	{"mover tag on private group", "layer 0 { proc p() { var x: int; left [x := 1; assume x > 0;] } }", []string{`1:34: mover tag on a private statement`}},
	{"mover tag on yield", "layer 0 { proc p() { left yield; } }", []string{`1:22: a mover tag can only prefix a step`}},
	{"mover tag on procedure call", "layer 0 { proc p() { both call p(); } }", []string{`1:22: a mover tag can only prefix a step`}},
	{"mover tag on action call", "layer 0 { action a() {} proc p() { right call a(); } }", []string{`1:36: a call has the mover type of the action it calls: put the tag on the action`}},
	{"mover tag on if", "layer 0 { proc p() { atomic if (*) {} } }", []string{`1:22: a mover tag can only prefix a step`}},
	{"loop with step and no yield", "var g: int;\nlayer 0 { proc p() { while (*) { g := 1; } } }", []string{`2:22: this loop's body contains a step but no yield`}},
	{"loop with action call and no yield", "layer 0 {\n  action a() {}\n  proc p() {\n    while (*) invariant true; {\n      if (*) { call a(); }\n    }\n  }\n}", []string{`4:5: this loop's body contains a step but no yield`}},

	// ---- Linear ----
	{"linear output", "layer 0 { action a() returns (linear o: int) {} }", []string{`1:38: linear output o has type int: it must be a set of identities`}},
	{"linear ghost parameter", "layer 0 { proc p(linear ghost t: int) {} }", []string{`1:31: a linear parameter cannot be ghost`}},
	{"linear argument", "layer 0 {\n  action a(linear t: int) {}\n  proc p(linear t: int, n: int) {\n    var x: int;\n    call a(n);\n    call a(t + 1);\n    call a(x);\n    call a(t);\n  }\n}", []string{
		`5:12: argument t of a is linear: pass a linear parameter of the caller`,
		`6:12: argument t of a is linear`,
		`7:12: argument t of a is linear`,
	}},

	// ---- Calls ----
	{"call of missing member", "layer 0 { proc p() { call zz(); } }", []string{`1:27: there is no action or procedure named zz at layer 0`}},
	{"call of member of another layer", "layer 0 { proc p() {} }\nlayer 1 { proc q() { call p(); } }", []string{`2:27: there is no action or procedure named p at layer 1`}},
	{"call of a function", "function f(): int { 1 }\nlayer 0 { proc p() { var x: int; call x := f(); } }", []string{`2:44: there is no action or procedure named f at layer 0`}},
	{"call arity", "layer 0 { action a(x: int) {} proc p() { call a(); } }", []string{`1:47: a takes 1 argument(s), but is called with 0`}},
	{"call argument type", "layer 0 { action a(x: int) {} proc p() { call a(true); } }", []string{`1:49: argument x of a must have type int, not bool`}},
	{"call output count", "layer 0 {\n  proc p() returns (r: int, b: bool) { call p(); }\n  action a() {}\n  proc q() { var x: int; call x := a(); }\n}", []string{
		`2:45: p returns 2 value(s), but the call assigns 0`,
		`4:36: a returns 0 value(s), but the call assigns 1`,
	}},
	{"call output types", "layer 0 {\n  proc p() returns (r: int, b: bool) {\n    var x: int;\n    call x, x := p();\n  }\n}", []string{
		`4:13: x has type int, but output b of p has type bool`,
		`4:13: x receives two outputs of one call`,
	}},
	{"call output to parameter", "layer 0 { action a() returns (o: int) {} proc p(n: int) { call n := a(); } }", []string{`1:64: cannot assign to parameter n: parameters are read-only`}},
	{"procedure call argument reads global", "var g: int;\nlayer 0 { proc p(x: int) { call p(g + 1); } }", []string{
		`2:35: global variable g cannot be read in an argument of a call (it may read locals only: read the global in a step first)`,
	}},
	{"action call argument reads global", "var g: int;\nlayer 0 { action a(x: int) {} proc p() { call a(g); } }", []string{
		`2:49: global variable g cannot be read in an argument of a call (it may read locals only: read the global in a step first)`,
	}},
	{"action call output to global", "var g: int;\nlayer 0 { action a() returns (o: int) { o := 1; } proc p() { call g := a(); } }", []string{
		`2:67: output o of a is assigned to global variable g: a call's outputs go to locals (write the global in a step of its own)`,
	}},
	{"procedure call output to global", "var g: int;\nlayer 0 { proc q() returns (o: int) { o := 1; } proc p() { call g := q(); } }", []string{
		`2:65: output o of q is assigned to global variable g: a call's outputs go to locals (write the global in a step of its own)`,
	}},
	{"preserves reads a linear_in parameter", "yield invariant Y(linear a: [int]bool) { a[0]; }\nlayer 0 { proc q(linear_in a: [int]bool) preserves Y(a) { } public proc p() { } }", []string{
		`2:54: the preserves of q reads linear_in parameter a, which its caller gives away at the call`,
	}},
	{"procedure call argument reads a set it gives away", "layer 0 { proc q(linear_in a: [int]bool, s: [int]bool) { } public proc p() { linear var b: [int]bool; call q(b, b); } }", []string{
		`1:113: argument s of q reads b, which the call gives to linear_in parameter a: b is empty when the call returns`,
	}},
	{"procedure call output read by argument", "layer 0 { proc p(x: int) returns (r: int) { var y: int; call y := p(y + 1); } }", []string{
		`1:62: y is both an output and read by an argument of this call`,
	}},
	{"output to a given variable read by another argument", "layer 0 { proc q(linear_in a: [int]bool, s: bool) returns (linear r: [int]bool) { r := a; } public proc p() { linear var b: [int]bool; call b := q(b, b[0]); } }", []string{
		`1:141: b is both an output and read by an argument of this call; use another variable for the output (only a variable given to a linear_in parameter may receive an output of the same call)`,
		`1:152: argument s of q reads b, which the call gives to linear_in parameter a`,
	}},
	{"output to a variable lent to a linear parameter", "layer 0 { proc q(linear a: [int]bool) returns (linear r: [int]bool) { } public proc p() { linear var b: [int]bool; call b := q(b); } }", []string{
		`1:121: b is both an output and read by an argument of this call`,
	}},
	{"call of later procedure with wrong argument", "layer 0 {\n  proc p() { call q(true); }\n  proc q(x: int) {}\n}", []string{`2:21: argument x of q must have type int, not bool`}},

	// ---- Assignments ----
	{"assignments to read-only names", "const K: int;\nfunction f(x: int): int { x }\nlayer 0 {\n  proc p(a: int) {\n    a := 1;\n    K := 2;\n    f := 1;\n    havoc a, K;\n  }\n}", []string{
		`5:5: cannot assign to parameter a: parameters are read-only`,
		`6:5: cannot assign to constant K`,
		`7:5: cannot assign to function f`,
		`8:11: cannot assign to parameter a`,
		`8:14: cannot assign to constant K`,
	}},
	{"assignment counts", "layer 0 { proc p() returns (r: int) { r := 1, 2; } }", []string{`1:39: assignment has 1 target(s) but 2 value(s)`}},
	{"assigned twice", "layer 0 { proc p() returns (r: int) { r, r := 1, 2; } }", []string{`1:42: r is assigned twice in one assignment`}},
	{"havoc twice", "layer 0 { proc p() returns (r: int) { havoc r, r; } }", []string{`1:48: r appears twice in havoc`}},
	{"assignment to undeclared", "layer 0 { proc p() { p := 1; } }", []string{`1:22: p is not declared`}},

	// ---- Split and peel clauses ----
	{"split condition reads a global", "var g: int;\nlayer 0 { proc p() split q when g > 0 { var a: int; a := g; } }", []string{
		`2:33: global variable g cannot be read in a split condition`,
	}},
	{"split condition not bool", "layer 0 { proc p() split q when a + 1 { var a: int; a := 1; } }", []string{
		`1:33: a split condition must have type bool, but has type int`,
	}},
	{"split without when", "layer 0 { proc p() split q a > 0 { } }", []string{`1:28: unexpected name a, expected "when"`}},
	{"split condition reads an undeclared name", "layer 0 { proc p() split q when b { } }", []string{`1:33: b is not declared`}},

	// ---- Instances ----
	{"instance errors", `layer 0 {
  action a(linear t: int, n: int, b: bool) {}
  action b(x: bool) {}
}
layer 1 {
  action a(linear t: int, n: int, b: bool) {}
  action c() {}
}
instance i {
  thread w(tid = 0..1) calls a(n in 1..3), b;
  thread w(tid = 1..2) calls a(m in 1..2), a(t in 0..1), c;
  thread u(tid = 5..4) calls a(n in 3..1, n in 1..1, b in 0..1) max 0;
  ints 3..-3;
}`, []string{
		`10:12: w's thread id goes to a linear parameter, but a has no linear parameter named tid (it has t)`,
		`10:44: b is not a public method (a name declared at every layer from 0 to the top)`,
		`11:10: thread role w is declared twice in instance i`,
		`11:12: w's thread id goes to a linear parameter, but a has no linear parameter named tid`,
		`11:18: thread ids 1..2 overlap those of another role (0..1)`,
		`11:32: a has no parameter named m`,
		`11:46: parameter t of a is linear: it receives the thread id (tid)`,
		`11:58: c is not a public method`,
		`12:12: u's thread id goes to a linear parameter, but a has no linear parameter named tid`,
		`12:18: empty range 5..4 for the thread ids`,
		`12:37: empty range 3..1 for parameter n`,
		`12:43: parameter n is given twice`,
		`12:54: parameter b of a has type bool; only int parameters take ranges`,
		`12:65: max must be at least 1`,
		`13:8: empty range 3..-3 for the ints domain`,
	}},
	{"thread ids that do not fit a linear parameter", `type E = enum { A, B };
type R = record { x: int };
layer 0 {
  action b(linear t: bool) {}
  action e(linear t: E) {}
  action r(linear t: R) {}
}
instance i {
  thread w(t = 5..6) calls b;
  thread u(t = 0..2) calls e;
  thread v(t = 7) calls r;
  thread ok(t = 0..1) calls b, e;
}`, []string{
		`6:19: linear parameter t has type R: a linear parameter holds an identity (int, bool or an enumeration), a set of them ([T]bool) or a linear map (a record { dom: [T]bool, val: [T]V })`,
		`9:16: thread ids 5..6 do not fit b's linear parameter t of type bool: its 2 values are the ids 0..1, and two threads must not share one`,
		`10:16: thread ids 0..2 do not fit e's linear parameter t of type E: its 2 values are the ids 0..1, and two threads must not share one`,
		`11:12: v's thread ids go to r's linear parameter t of type R; thread ids are int, bool or enumeration values`,
		`12:17: thread ids 0..1 overlap those of another role (0..2)`,
	}},
	{"linear sets in an instance", `type E = enum { A, B };
layer 0 {
  public action a(linear s: [int]bool, linear u: int, n: int, m: [int]bool) {}
  public action e(linear s: [E]bool) {}
}
instance i {
  thread w(tid = 0..1, s = {10, 11} {11..12}, u = {20} {21}) calls a;
  thread v(tid = 5, s = {5}) calls e;
  thread x(tid = 6, s = {1} {2}, n = {30}, m = {40}, s = {50}) calls a;
  thread y(tid = 7, s = {3..2}) calls e;
}`, []string{
		`7:37: w(1)'s s holds 11, which w(0)'s s holds too: linear values must be disjoint`,
		`7:47: role w gives a linear set u, but linear parameter u of a has type int, not a set`,
		`8:26: 5..5 do not fit e's linear set s of type [E]bool: its members are 0..1`,
		`9:21: role x has 1 thread(s) (ids 6..6), but s gives 2 set(s)`,
		`9:34: role x gives a linear set n, but parameter n of a is not linear`,
		`9:44: role x gives a linear set m, but parameter m of a is not linear`,
		`9:54: s is given twice in role x`,
		`9:70: linear parameter u of a is not a set and not the thread id (tid): it gets no value`,
		`10:26: empty range 3..2 for the members of s`,
	}},
	{"linear set meets a thread id", "layer 0 {\n  public action a(linear tid: int, linear s: [int]bool, linear b: [int]bool) {}\n}\ninstance i {\n  thread w(tid = 0..1, s = {1} {5}, b = {} {}) calls a;\n  thread v(tid = 5, s = {5}, b = {}) calls a;\n  thread u(tid = 8, s = {30}, b = {30}) calls a;\n}", []string{
		`5:28: w(0)'s s holds 1, which w(1)'s tid holds too: linear values must be disjoint`,
		`5:32: w(1)'s s holds 5, which v(5)'s tid holds too`,
		`6:25: v(5)'s s holds 5, which v(5)'s tid holds too`,
		`7:35: u(8)'s b holds 30, which u(8)'s s holds too`,
	}},
	{"linear pools, locals and outputs", `linear var pool: [int]bool;
linear ghost var gp: [int]bool;
layer 0 {
  action take(linear_in a: [int]bool, linear b: [int]bool) returns (linear r: [int]bool, x: [int]bool) {
    linear var bad: [int]bool;
    r := a;
    pool := pool;
  }
  action one(linear_in n: int) {}
  public action pub(linear_in a: [int]bool) {}
  proc p(linear_in a: [int]bool, linear t: [int]bool) returns (linear o: [int]bool) {
    linear var l: [int]bool;
    var m: [int]bool;
    l := m;
    o := m;
    havoc pool;
    pool[1] := true;
    call l, m := take(t, t);
    call m, l := take(l, l);
  }
}`, []string{
		`2:18: a linear variable cannot be ghost`,
		`5:16: linear locals are allowed in procedures only`,
		`9:24: linear parameter n has type int: it must be a set of identities`,
		`10:31: public method pub has a linear_in parameter a`,
		`14:10: l is linear and receives only identities a thread owns`,
		`15:10: o is linear and receives only identities a thread owns`,
		`16:11: linear global variable pool is written by actions only`,
		`17:5: linear global variable pool is written by actions only`,
		`18:23: argument a of take is linear_in: pass a linear local or output of the caller, which the call empties`,
		`19:10: output r of take is linear: assign it to a linear local or output`,
		`19:13: l is linear, but output x of take is not: a linear variable receives only linear outputs`,
		`19:26: linear l is passed twice in one call`,
	}},
	{"parallel call arm gives a variable another arm reads", `layer 0 {
  both action give(linear_in a: [int]bool) {}
  both action b(s: [int]bool) {}
  public proc p() {
    linear var l: [int]bool;
    call give(l) | b(l);
  }
}`, []string{
		`6:22: l is given to a linear_in parameter of give by another arm of this parallel call, so no other arm may read it; give it in a call of its own`,
	}},
	{"mover procedure with linear locals and outputs", `layer 0 {
  both action alloc() returns (linear r: [int]bool) {}
  both proc m() returns (linear o: [int]bool) {
    linear var l: [int]bool;
    call l := alloc();
  }
}`, []string{
		`3:33: linear output o is not allowed in mover procedure m: mover procedures do not move identities (borrow them through linear parameters)`,
		`4:5: a linear local is not allowed in mover procedure m: mover procedures do not move identities (borrow them through linear parameters)`,
	}},
	{"linear set parameters", `layer 0 {
  public action a(linear s: [int]bool, linear t: [int]int, linear u: [[int]bool]bool) {}
  action b(linear s: [int]bool, linear r: [int]bool) {}
  proc p(linear s: [int]bool, m: [int]bool) { call b(s, s); call b(m, s); }
}
instance i {
  thread w(tid = 0) calls a;
}`, []string{
		`2:47: linear parameter t has type [int]int: a linear parameter holds`,
		`2:71: map keys must be int, bool or an enumeration, not [int]bool`,
		`4:57: linear s is passed twice in one call; a linear value cannot be duplicated`,
		`4:68: argument s of b is linear: pass a linear parameter of the caller`,
		`7:12: w's thread id goes to a linear parameter, but a has no linear parameter named tid (it has s, t, u)`,
		`7:27: linear set s of a gets no value: give it in role w, as s = {...} for each thread`,
	}},
	{"instance parameter of unknown type", "layer 0 { action a(linear t: int, x: Foo) {} }\ninstance i { thread t(t = 0) calls a(x in 1..2); }", []string{`1:38: unknown type Foo`}},
	{"instance without layers", "instance i { thread t(tid = 0) calls m; }", []string{`1:38: m is not a public method`}},
	{"name with a gap in its layers", "layer 0 {\n  action h() {}\n  action a() {}\n}\nlayer 1 {\n  action a() {}\n}\nlayer 2 {\n  action h() {}\n  action a() {}\n}", []string{
		`9:3: h is declared at layers 0 and 2 but not at layer 1: a name is followed from each layer to the next, so the layers that declare it must be consecutive`,
	}},
	{"public method missing at a layer", "layer 0 {\n  public action a() {}\n}\nlayer 1 {\n  action b() {}\n}", []string{
		`2:3: public method a is not declared at layer 1: a public method is declared at every layer, 0 to 1`,
	}},
	{"public at one layer only", "layer 0 {\n  public action a() {}\n}\nlayer 1 {\n  atomic action a() {}\n}", []string{
		`5:3: a is marked public at layer 0 but not at layer 1: mark it public at every layer`,
	}},
	{"public from layer 1 up", "layer 0 {\n  action a() {}\n  public action b() {}\n}\nlayer 1 {\n  public action a() {}\n  public action b() {}\n}", []string{
		`2:3: a is marked public at layer 1 but not at layer 0: mark it public at every layer`,
	}},
	{"instance calls a helper", "layer 0 {\n  public action a(linear tid: int) {}\n  action h(linear tid: int) {}\n}\ninstance i { thread t(tid = 0) calls a, h; }", []string{
		`5:41: h is not a public method (the file marks its public methods with public)`,
	}},
	{"public is reserved", "var public: int;", []string{`1:5: unexpected keyword public, expected a name`}},
	{"public on a variable", "layer 0 { public var x: int; }", []string{`1:18: unexpected keyword var, expected "action" or "proc"`}},
	{"public twice", "layer 0 { public public action a() {} }", []string{`1:18: unexpected "public"`}},
	{"linear value passed twice", "layer 0 {\n  action swap(linear a: int, linear b: int) {}\n  proc p(linear t: int) { call swap(t, t); }\n}", []string{`3:40: linear t is passed twice in one call; a linear value cannot be duplicated`}},

	// ---- Parallel calls ----
	{"parallel call non-mover arm before a procedure arm", "layer 0 {\n  action a() {}\n  proc q() {}\n  proc p() { call a() | q(); }\n}", []string{`4:19: the arms of a parallel call with procedure arms must be left movers, then the procedures, then right movers: a (a non-mover) can be moved neither before nor after procedure q; make it a left mover (before q) or a right mover (after it)`}},
	{"parallel call left mover after a procedure arm", "layer 0 {\n  left action l() {}\n  proc q() {}\n  proc p() { call q() | l(); }\n}", []string{`4:25: the arms of a parallel call with procedure arms must be left movers, then the procedures, then right movers: l (a left mover) comes after procedure q; move it before q or make it a right mover`}},
	{"parallel call left mover between procedure arms", "layer 0 {\n  left action l() {}\n  proc q() {}\n  proc p() { call q() | l() | q(); }\n}", []string{`4:25: l (a left mover) comes after procedure q`}},
	{"parallel call procedure arm in a mover procedure", "layer 0 {\n  both action a() {}\n  proc q() {}\n  both proc m() { call a() | q(); }\n}", []string{`4:30: mover procedure m cannot call procedure q, which yields`}},
	{"parallel call passes a linear value to two arms", "layer 0 {\n  both action a(linear t: int) {}\n  proc p(linear t: int) { call a(t) | a(t); }\n}", []string{`3:41: linear t is passed to two arms of this parallel call; a linear value cannot be duplicated`}},
	{"parallel call outputs twice to one variable", "layer 0 {\n  both action a() returns (r: int) { r := 1; }\n  proc p() { var x: int; call x := a() | x := a(); }\n}", []string{`3:42: x receives outputs of two arms of this parallel call`}},
	{"parallel call argument reads another arm's output", "layer 0 {\n  both action a() returns (r: int) { r := 1; }\n  both action b(v: int) {}\n  proc p() { var x: int; call x := a() | b(x); }\n}", []string{`4:44: x is an output of another arm of this parallel call: the arms' arguments are evaluated before any arm runs`}},
	{"parallel call non-mover before left mover", "layer 0 {\n  atomic action a() {}\n  left action l() {}\n  proc p() { call a() | l(); }\n}", []string{`4:25: the arms of a parallel call must be left movers, then at most one non-mover or right mover, then right movers: l (a left mover) comes after a (a non-mover)`}},
	{"parallel call right mover before non-mover", "layer 0 {\n  right action r() {}\n  action a() {}\n  proc p() { call r() | a(); }\n}", []string{`4:25: a (a non-mover) comes after r (a right mover)`}},
	{"parallel call with a mover tag", "layer 0 {\n  both action a() {}\n  proc p() { both call a() | a(); }\n}", []string{`3:14: a parallel call has the mover types of the actions it calls: put the tags on the actions`}},
	{"parallel call in an action", "layer 0 {\n  both action a() {}\n  action b() { call a() | a(); }\n}", []string{`3:16: a parallel call is not allowed in an action`}},
	{"parallel call in a step", "var g: int;\nlayer 0 {\n  both action a() {}\n  proc p() { [g := 1; call a() | a();] }\n}", []string{`4:23: a parallel call is not allowed in a step`}},
	{"parallel call arm without a callee", "layer 0 { proc p() { call a() | ; } }", []string{`1:33: unexpected ";", expected a call`}},
	{"parallel call passes a linear value to a linear and a plain parameter", "layer 0 {\n  both action a(linear t: int) {}\n  both action b(v: int) {}\n  proc p(linear t: int) { call a(t) | b(t) | a(t); }\n}", []string{`4:48: linear t is passed to two arms of this parallel call`}},
	{"parallel call mover procedure arm in the pattern by its mover type", "layer 0 {\n  atomic action a() {}\n  left proc m() { call a(); }\n  proc p() { call a() | m(); }\n}", []string{`4:25: the arms of a parallel call must be left movers, then at most one non-mover or right mover, then right movers: m (a left mover) comes after a (a non-mover); reorder the arms or change the mover types`}},
	{"invariant arm with an output", "var x: int;\nyield invariant Y() { x >= 0; }\nlayer 0 {\n  both action a() {}\n  proc p() { var r: bool; call a() | r := Y(); }\n}", []string{`5:38: Y is a yield invariant: an invariant arm of a parallel call has no outputs`}},
	{"invariant arm reads an arm's output", "var x: int;\nyield invariant Y(n: int) { x >= n; }\nlayer 0 {\n  both action a() returns (r: int) {}\n  proc p() { var r: int; call r := a() | Y(r); }\n}", []string{`5:44: r is an output of an arm of this parallel call: an invariant arm's arguments are evaluated before any arm runs; use another variable`}},
	{"invariant arm takes a procedure arm's linear value", "var x: [int]int;\nyield invariant Y(linear t: int) { x[t] >= 0; }\nlayer 0 {\n  proc q(linear t: int) { yield; }\n  proc p(linear t: int) { call q(t) | Y(t); }\n}", []string{`5:41: linear t is passed to procedure arm q and to an invariant arm of this parallel call: the invariant must hold while the procedures run, as a thread of its own whose linear values no arm holds`}},
	{"invariant arm in a mover procedure", "var x: int;\nyield invariant Y() { x >= 0; }\nlayer 0 {\n  both action a() {}\n  both proc m() { call a() | Y(); }\n}", []string{`5:30: an invariant arm (a yield point) is not allowed in mover procedure m: its body is one step for its callers, so it has no yield points`}},
	{"parallel call arm of an unknown action", "layer 0 {\n  both action a() {}\n  proc p() { call a() | zz(); }\n}", []string{`3:25: there is no action or procedure named zz at layer 0`}},
	// ---- Mover procedures ----
	{"mover procedure yields", "layer 0 {\n  left proc p() {\n    yield;\n  }\n}", []string{
		`3:5: yield is not allowed in mover procedure p: its body is one step for its callers, so it has no yield points`,
	}},
	{"mover procedure loops", "layer 0 {\n  both proc p() {\n    var i: int;\n    while (i < 3) { i := i + 1; }\n  }\n}", []string{
		`4:5: a loop is not allowed in mover procedure p: its body is one step, which must end (a left mover must never block), so it has no loops`,
	}},
	{"mover procedure returns early", "layer 0 {\n  right proc p() {\n    if (*) { return; }\n  }\n}", []string{
		`3:14: return is not allowed in mover procedure p: its body is one step that runs to its end; use if/else instead of return`,
	}},
	{"mover procedure calls a yielding procedure", "layer 0 {\n  proc q() { }\n  atomic proc p() { call q(); }\n}", []string{
		`3:26: mover procedure p cannot call procedure q, which yields: a mover procedure may call actions and mover procedures only`,
	}},
	{"mover procedures recursive", "layer 0 {\n  left proc p() { call q(); }\n  left proc q() { call p(); }\n}", []string{
		`2:13: mover procedure p is recursive (p -> q -> p): a call of a mover procedure is one step made of its body, which must be finite`,
	}},
	{"mover procedure calls itself", "layer 0 {\n  both proc p() { if (*) { call p(); } }\n}", []string{
		`2:13: mover procedure p is recursive (p -> p): a call of a mover procedure is one step made of its body, which must be finite`,
	}},
	{"old in a mover procedure body", "var g: int;\nlayer 0 {\n  both proc p() ensures g == old(g) { assert old(g) == g; }\n}", []string{
		`3:46: old is not allowed in the body of mover procedure p: its body is one step, which reads the state before it directly (old may appear in its ensures)`,
	}},
	{"split mover procedure", "layer 0 {\n  proc p() { }\n}\nlayer 1 {\n  left proc p() split p when true { }\n}", []string{
		`5:17: mover procedure p cannot be a split copy: a split copy has the yields of its original`,
	}},
	{"mover tag on a call of a mover procedure", "layer 0 {\n  both proc q() { }\n  proc p() { left call q(); }\n}", []string{
		`3:14: a call has the mover type of the mover procedure it calls: put the tag on the procedure`,
	}},

	// ---- Several independent errors ----
	{"three independent type errors", "var x: int = true;\nvar y: bool = z;\nlayer 0 { proc p() { assume 1; } }", []string{
		`1:14: the initial value of x must have type int, but has type bool`,
		`2:15: z is not declared`,
		`3:29: an assume must have type bool, but has type int`,
	}},
	{"errors in two layers", "var g: int;\nlayer 0 { proc p() { if (g > 0) {} } }\nlayer 1 { proc p() { call q(); } }", []string{
		`2:26: global variable g cannot be read in the condition of an if`,
		`3:27: there is no action or procedure named q at layer 1`,
	}},
}

// errorsOf parses and checks src and returns its errors.
func errorsOf(src string) ErrorList {
	_, _, err := ParseAndCheck("t.lip", []byte(src))
	if err == nil {
		return nil
	}
	var list ErrorList
	if !errors.As(err, &list) {
		return ErrorList{{Msg: "not an ErrorList: " + err.Error()}}
	}
	return list
}

func TestBadInputs(t *testing.T) {
	for _, tc := range badCases {
		t.Run(tc.name, func(t *testing.T) {
			got := errorsOf(tc.src)
			ok := len(got) == len(tc.want)
			for i := 0; ok && i < len(got); i++ {
				ok = matchError(got[i], tc.want[i])
			}
			if !ok {
				var b strings.Builder
				for _, e := range got {
					b.WriteString(e.Detail() + "\n")
				}
				t.Errorf("got %d error(s):\n%swant %d:\n  %s", len(got), b.String(), len(tc.want), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// matchError reports whether e is at the line:col of want and its message
// contains the rest of want.
func matchError(e *Error, want string) bool {
	pos := fmt.Sprintf("%d:%d: ", e.Pos.Line, e.Pos.Col)
	return e.Pos.File == "t.lip" && strings.HasPrefix(want, pos) && strings.Contains(e.Msg, want[len(pos):])
}

func TestBadInputCount(t *testing.T) {
	if len(badCases) < 70 {
		t.Errorf("%d bad inputs, want at least 70", len(badCases))
	}
}

// Every error carries its source line, so that it prints with a caret.
func TestErrorsCarrySourceLine(t *testing.T) {
	for _, tc := range badCases {
		for _, e := range errorsOf(tc.src) {
			lines := strings.Split(tc.src, "\n")
			if e.Pos.Line < 1 || e.Pos.Line > len(lines) {
				t.Errorf("%s: error %v: line out of range", tc.name, e)
				continue
			}
			if e.Line != lines[e.Pos.Line-1] {
				t.Errorf("%s: error %v: source line %q, want %q", tc.name, e, e.Line, lines[e.Pos.Line-1])
			}
			if !strings.HasSuffix(e.Detail(), "^") {
				t.Errorf("%s: detail of %v has no caret:\n%s", tc.name, e, e.Detail())
			}
		}
	}
}

func TestTooManyErrors(t *testing.T) {
	var b strings.Builder
	for i := 0; i < MaxErrors+5; i++ {
		fmt.Fprintf(&b, "var v%d: int = true;\n", i)
	}
	got := errorsOf(b.String())
	if len(got) != MaxErrors+5 {
		t.Fatalf("got %d errors, want %d", len(got), MaxErrors+5)
	}
	msg := got.Error()
	if !strings.Contains(msg, "too many errors (5 more not shown)") {
		t.Errorf("no too-many-errors line in:\n%s", msg)
	}
	if n := strings.Count(msg, "must have type int"); n != MaxErrors {
		t.Errorf("%d errors printed, want %d", n, MaxErrors)
	}
}

func TestCaret(t *testing.T) {
	for _, tc := range []struct {
		line string
		col  int
		want string
	}{
		{"abc", 1, "    abc\n    ^"},
		{"abc", 3, "    abc\n      ^"},
		{"\tx := 1;", 2, "    \tx := 1;\n    \t^"},
		{"é + x", 4, "    é + x\n      ^"}, // é is two bytes, one column
	} {
		if got := Caret(tc.line, tc.col); got != tc.want {
			t.Errorf("Caret(%q, %d) =\n%s\nwant\n%s", tc.line, tc.col, got, tc.want)
		}
	}
}

// TestDeepNesting: no input may exhaust the stack of the parser, the
// checker or the formatter. Deep nesting is an error; long flat chains
// of operators up to a bound are fine.
func TestDeepNesting(t *testing.T) {
	rep := strings.Repeat
	for _, tc := range []struct {
		name string
		src  string
		want string // "" if the input is fine
	}{
		{"parentheses", "var x: int = " + rep("(", 5000) + "1" + rep(")", 5000) + ";", "1:1014: nesting too deep"},
		{"blocks", "layer 0 { proc p() { var x: bool; " + rep("if (x) { ", 3000) + rep("}", 3000) + " } }", "1:9020: nesting too deep"},
		{"else-if chain", "layer 0 { proc p() { var x: bool; if (x) {} " + rep("else if (x) {} ", 3000) + "} }", "1:15008: nesting too deep"},
		{"map types", "var m: " + rep("[int]", 2000) + "int;", "1:5008: nesting too deep"},
		{"negations", "var x: bool = " + rep("!", 5000) + "true;", "1:1015: expression nested too deeply"},
		{"minus signs", "var x: int = " + rep("- ", 5000) + "1;", "1:2014: expression nested too deeply"},
		{"implications", "var x: bool = " + rep("true ==> ", 5000) + "true;", "1:9015: expression nested too deeply"},
		{"if-expressions in else", "var x: int = " + rep("if true then 1 else ", 5000) + "2;", "1:20029: nesting too deep"},
		{"if-expressions in then", "var x: int = " + rep("if true then ", 5000) + "1" + rep(" else 2", 5000) + ";", "1:13004: expression nested too deeply"},
		{"quantifiers", "var x: bool = " + rep("forall i: int :: ", 5000) + "true;", "1:17015: expression nested too deeply"},
		{"long sum", "var x: int = " + strings.Join(make([]string, 20001), "1+") + "1;", "1:20017: expression too large"},
		{"long index chain", "var m: [int]int;\nvar x: int = m" + rep("[1]", 20000) + ";", "2:30017: expression too large"},
		{"long map update chain", "var m: [int]int;\nvar n: [int]int = m" + rep("[0 := 1]", 10005) + ";", "2:80027: expression too large"},
		{"long conjunction is fine", "var x: bool = " + strings.Join(make([]string, 5001), "true && ") + "true;", ""},
		{"long else-if chain is fine", "layer 0 { proc p() { var x: bool; if (x) {} " + rep("else if (x) {} ", 900) + "} }", ""},
		{"many statements are fine", "var g: int;\nlayer 0 { proc p() { " + rep("g := g + 1; if (*) { yield; } else if (*) { } ", 3000) + "} }", ""},
		{"long map type in a parameter", "layer 0 { action a(m: " + rep("[int]", 2000) + "int) {} }", "1:5013: nesting too deep"},
		{"nested map key types", "type T = " + rep("[", 1200) + "int" + rep("]int", 1200) + ";", "1:1010: nesting too deep"},
		{"map types are fine", "type T = " + rep("[int]", 900) + "int;\nvar x: " + rep("[int]", 900) + "int;\nvar y: " + rep("[int]", 900) + "int;", ""},
		{"many consecutive groups are fine", "var g: int;\nlayer 0 { proc p() { var x: int; " + rep("[x := g;] ", 3000) + "} }", ""},
		{"deep parentheses are fine", "var x: int = " + rep("(", 900) + "1" + rep(")", 900) + ";", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, err := ParseAndCheck("t.lip", []byte(tc.src))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %.300v", err)
				}
				checkRoundTrip(t, Format(f))
				return
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 || !matchError(list[0], tc.want) {
				t.Errorf("got %.300v\nwant %s", err, tc.want)
			}
		})
	}
}

// Bad bytes cost a bounded number of errors.
func TestLexErrorCap(t *testing.T) {
	got := errorsOf(strings.Repeat("# x ", maxLexErrors+500))
	if len(got) != maxLexErrors+1 {
		t.Fatalf("%d errors, want %d", len(got), maxLexErrors+1)
	}
	if last := got[len(got)-1]; last.Pos.Col != 4*maxLexErrors+1 || !strings.Contains(last.Msg, "too many bad characters") {
		t.Errorf("last error: %v", last)
	}
}

// Many errors on one long line share that line: attaching a copy of it
// to each error cost memory in proportion to the line's length times the
// number of errors (gigabytes for a megabyte of garbage).
func TestManyErrorsOnOneLongLine(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "var x%d: int = true; ", i)
	}
	got := errorsOf(b.String())
	if len(got) != 2000 {
		t.Fatalf("%d errors, want 2000", len(got))
	}
	for _, e := range got {
		if e.Line != b.String() {
			t.Fatalf("error %v does not carry its line", e)
		}
		if unsafe.StringData(e.Line) != unsafe.StringData(got[0].Line) {
			t.Fatalf("errors on one line carry copies of it")
		}
	}
}
