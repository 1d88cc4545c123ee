package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fatih/color"
	"github.com/lipton-dev/lipton/lang"
)

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(childArgsEnv); ok {
		// A test runs this binary as lipton (runChild), with the
		// colour that fatih/color chose for its stdout.
		os.Exit(run(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
	}
	color.NoColor = true
	stdin = bytes.NewReader(nil)
	// The cache of proven obligations goes to a directory of this run:
	// tests neither read the user's cache nor fill it.
	cacheHome, err := os.MkdirTemp("", "lipton-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cacheHome)
	code := m.Run()
	os.RemoveAll(cacheHome)
	os.Exit(code)
}

// childArgsEnv holds the command line, separated by \x1f, of a test
// binary that runs as lipton.
const childArgsEnv = "LIPTON_TEST_CHILD_ARGS"

// runCLI runs a command line and returns its exit code and output.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// runCLIStdin is runCLI with the given standard input.
func runCLIStdin(input string, args ...string) (code int, stdout, stderr string) {
	saved := stdin
	defer func() { stdin = saved }()
	stdin = strings.NewReader(input)
	return runCLI(args...)
}

// writeFile writes a file into a fresh temporary directory.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// goodSrc is well-typed and has nothing that could fail a check: its
// only procedure has one step.
const goodSrc = `var g: int;
layer 0 {
  action a() { g := 1; }
  proc p() {
    var x: int;
    x := 1;
    call a();
  }
}
`

const badSrc = `var g: int;
layer 0 {
  proc p() {
    if (g > 0) { }
    assume  1;
  }
}
`

// A well-typed file is checked: exit code 0 and a report that names the
// file on stdout, nothing on stderr. (The report itself is tested where
// it is made.)
func TestCheckGood(t *testing.T) {
	path := writeFile(t, "good.lip", goodSrc)
	code, stdout, stderr := runCLI("check", path)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.HasPrefix(stdout, path+": ") {
		t.Errorf("stdout does not start with %q:\n%s", path+": ", stdout)
	}
}

func TestCheckBad(t *testing.T) {
	path := writeFile(t, "bad.lip", badSrc)
	code, stdout, stderr := runCLI("check", path)
	if code != exitBadInput {
		t.Errorf("exit %d, want %d", code, exitBadInput)
	}
	if stdout != "" {
		t.Errorf("stdout: %q", stdout)
	}
	want := path + ":4:9: error: global variable g cannot be read in the condition of an if in a procedure" +
		" (it may read locals only; read the global into a local in a step first)\n" +
		"        if (g > 0) { }\n" +
		"            ^\n" +
		path + ":5:13: error: an assume must have type bool, but has type int\n" +
		"        assume  1;\n" +
		"                ^\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
}

func TestCheckSyntaxError(t *testing.T) {
	path := writeFile(t, "syntax.lip", "var x: int;\nvar y: int = x +;\n\tvar z int;\n")
	code, _, stderr := runCLI("check", path)
	if code != exitBadInput {
		t.Errorf("exit %d, want %d", code, exitBadInput)
	}
	for _, want := range []string{
		path + ":2:17: error: expected an expression, found \";\"\n    var y: int = x +;\n                    ^\n",
		path + ":3:8: error: unexpected name int, expected \":\"\n    \tvar z int;\n    \t      ^\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr:\n%s\nwant it to contain:\n%s", stderr, want)
		}
	}
}

// A good file is still summarised when another file is bad; the exit
// code reports the bad one.
func TestCheckSeveralFiles(t *testing.T) {
	good := writeFile(t, "good.lip", goodSrc)
	bad := writeFile(t, "bad.lip", badSrc)
	code, stdout, stderr := runCLI("check", bad, good)
	if code != exitBadInput {
		t.Errorf("exit %d, want %d", code, exitBadInput)
	}
	if !strings.HasPrefix(stdout, good+": ") || !strings.HasPrefix(stderr, bad+":4:9: ") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

func TestTooManyErrors(t *testing.T) {
	var b strings.Builder
	for i := 0; i < lang.MaxErrors+7; i++ {
		fmt.Fprintf(&b, "var v%d: int = true;\n", i)
	}
	path := writeFile(t, "many.lip", b.String())
	code, _, stderr := runCLI("check", path)
	if code != exitBadInput {
		t.Errorf("exit %d", code)
	}
	if n := strings.Count(stderr, ": error: "); n != lang.MaxErrors {
		t.Errorf("%d errors printed, want %d", n, lang.MaxErrors)
	}
	if !strings.HasSuffix(stderr, "too many errors (7 more not shown)\n") {
		t.Errorf("no too-many-errors line at the end of:\n%s", stderr)
	}
}

func TestUnreadableInput(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.lip")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", missing}, "lipton: " + missing + ": no such file\n"},
		{[]string{"fmt", missing}, "lipton: " + missing + ": no such file\n"},
		{[]string{"check", dir}, "lipton: read " + dir + ": is a directory\n"},
		{[]string{"fmt", "-w", dir}, "lipton: read " + dir + ": is a directory\n"},
	} {
		code, stdout, stderr := runCLI(tc.args...)
		if code != exitBadInput || stdout != "" || stderr != tc.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

func TestPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can read any file")
	}
	path := writeFile(t, "secret.lip", goodSrc)
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("check", path)
	if code != exitBadInput || stderr != "lipton: "+path+": permission denied\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		{nil, "Usage: lipton COMMAND"},
		{[]string{"frobnicate"}, `lipton: unknown command "frobnicate"`},
		{[]string{"check"}, "usage: lipton check"},
		{[]string{"show"}, "usage: lipton show"},
		{[]string{"check", "-nosuchflag", "x.lip"}, "flag provided but not defined: --nosuchflag"},
		{[]string{"fmt", "-x"}, "flag provided but not defined: -x"},
		{[]string{"version", "x"}, "usage: lipton version"},
		{[]string{"help", "frobnicate"}, `lipton: unknown command "frobnicate"`},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != exitBadInput || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, stdout, stderr := runCLI(args...)
		if code != exitOK || !strings.HasPrefix(stdout, "lipton "+version+" (go") || stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

func TestHelp(t *testing.T) {
	code, stdout, _ := runCLI("help")
	if code != exitOK {
		t.Errorf("help: exit %d", code)
	}
	for _, c := range commands {
		if !strings.Contains(stdout, "  "+c.name+" ") {
			t.Errorf("help does not list %s:\n%s", c.name, stdout)
		}
	}
	code, stdout, _ = runCLI("help", "check")
	if code != exitOK || !strings.HasPrefix(stdout, "usage: "+checkUsage+"\n\n"+checkCmd.summary+"\n") {
		t.Errorf("help check: exit %d:\n%s", code, stdout)
	}
	code, stdout, _ = runCLI("help", "fmt")
	for _, flag := range []string{"\n  -w ", "\n  -l ", "\n  --check ", "\n  --max-input SIZE "} {
		if code != exitOK || !strings.Contains(stdout, flag) {
			t.Errorf("help fmt: exit %d, no %q flag:\n%s", code, flag, stdout)
		}
	}
}

const unformatted = "var x:int;  // x\nlayer 0{proc p(){var y:int;y:=x+1;}}\n"

const formatted = "var x: int;  // x\n\nlayer 0 {\n  proc p()\n  {\n    var y: int;\n    y := x + 1;\n  }\n}\n"

func TestFmt(t *testing.T) {
	path := writeFile(t, "u.lip", unformatted)
	code, stdout, stderr := runCLI("fmt", path)
	if code != exitOK || stdout != formatted || stderr != "" {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(path); string(data) != unformatted {
		t.Errorf("fmt without -w changed the file")
	}
}

func TestFmtWrite(t *testing.T) {
	path := writeFile(t, "u.lip", unformatted)
	code, stdout, stderr := runCLI("fmt", "-w", path)
	if code != exitOK || stdout != "" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(path); string(data) != formatted {
		t.Errorf("after fmt -w the file is:\n%s\nwant:\n%s", data, formatted)
	}
	// A second run leaves the file as it is.
	if code, _, _ := runCLI("fmt", "-w", path); code != exitOK {
		t.Errorf("second fmt -w: exit %d", code)
	}
	if data, _ := os.ReadFile(path); string(data) != formatted {
		t.Errorf("second fmt -w changed the file")
	}
}

func TestFmtList(t *testing.T) {
	u := writeFile(t, "u.lip", unformatted)
	f := writeFile(t, "f.lip", formatted)
	code, stdout, stderr := runCLI("fmt", "-l", u, f)
	if code != exitOK || stdout != u+"\n" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want only %s listed", code, stdout, stderr, u)
	}
	if data, _ := os.ReadFile(u); string(data) != unformatted {
		t.Errorf("fmt -l changed the file")
	}
}

// fmt formats files that parse even if they do not type-check, and
// refuses files that do not parse, leaving them untouched.
func TestFmtBadInput(t *testing.T) {
	illTyped := writeFile(t, "t.lip", "var x:bool=1;\n")
	code, stdout, _ := runCLI("fmt", illTyped)
	if code != exitOK || stdout != "var x: bool = 1;\n" {
		t.Errorf("ill-typed file: exit %d, stdout %q", code, stdout)
	}
	src := "var x: int = ;\n"
	bad := writeFile(t, "b.lip", src)
	code, stdout, stderr := runCLI("fmt", "-w", bad)
	if code != exitBadInput || stdout != "" || !strings.HasPrefix(stderr, bad+":1:14: error: ") {
		t.Errorf("syntax error: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(bad); string(data) != src {
		t.Errorf("fmt -w changed a file that does not parse")
	}
}

// errorLine matches the first line of a printed error.
var errorLine = regexp.MustCompile(`^(.+):(\d+):(\d+): error: .+$`)

// TestNoCrashOnGarbage runs check and fmt on random bytes and random
// token soup: the exit code is 0 or 2, nothing looks like a Go panic,
// and every error has a position, a source line and a caret.
func TestNoCrashOnGarbage(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"type", "const", "var", "ghost", "function", "invariant", "layers", "layer", "action", "proc",
		"requires", "ensures", "returns", "linear", "right", "left", "both", "atomic", "havoc", "assume", "assert",
		"call", "yield", "if", "then", "else", "while", "choice", "or", "return", "forall", "exists", "true", "false",
		"instance", "thread", "calls", "max", "in", "ints", "x", "y", "int", "bool", "0", "1", "-", "99999999999999999999",
		"<==>", "==>", ":=", "::", "==", "!=", "<=", ">=", "&&", "||", "..", "[", "]", "(", ")", "{", "}", ";", ",", ":",
		"<", ">", "+", "*", "/", "%", "!", "=", "//c\n", "/*", "*/", "\n", "\t", "é", "\xff", "@"}
	var inputs [][]byte
	for i := 0; i < 150; i++ {
		b := make([]byte, rng.Intn(200))
		rng.Read(b)
		inputs = append(inputs, b)
		var s strings.Builder
		for j := rng.Intn(80); j > 0; j-- {
			s.WriteString(words[rng.Intn(len(words))])
			s.WriteByte(' ')
		}
		inputs = append(inputs, []byte(s.String()))
	}
	// Inputs that once broke the front end.
	inputs = append(inputs,
		[]byte("layer 0 { foo }"),
		[]byte("var x: int = "+strings.Repeat("(", 100000)),
		[]byte("var x: bool = "+strings.Repeat("!", 100000)+"true;"),
		[]byte("layer 0 { proc p() { call q(1); } proc q() {} }"),
	)
	dir := t.TempDir()
	for i, in := range inputs {
		path := filepath.Join(dir, fmt.Sprintf("g%d.lip", i))
		if err := os.WriteFile(path, in, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range [][]string{{"check", path}, {"fmt", path}} {
			code, _, stderr := runCLI(cmd...)
			if code != exitOK && code != exitBadInput {
				t.Fatalf("%v on %q: exit %d\n%s", cmd, in, code, stderr)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") || strings.Contains(stderr, "internal error") {
				t.Fatalf("%v on %q: crash:\n%s", cmd, in, stderr)
			}
			checkErrorOutput(t, stderr, path)
		}
	}
}

// checkErrorOutput checks that every error in stderr is followed by its
// source line and a caret line.
func checkErrorOutput(t *testing.T, stderr, path string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		m := errorLine.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if m[1] != path {
			t.Fatalf("error names file %q, want %q:\n%s", m[1], path, stderr)
		}
		if i+2 >= len(lines) || !strings.HasPrefix(lines[i+1], "    ") || strings.TrimSpace(lines[i+2]) != "^" {
			t.Fatalf("error without source line and caret:\n%s", stderr)
		}
	}
}

// A panic inside a command is reported as an internal error with exit
// code 3 and without a Go stack trace.
func TestInternalError(t *testing.T) {
	saved := commands
	defer func() { commands = saved }()
	commands = append(commands, &command{name: "boom", run: func([]string, io.Writer, io.Writer) int { panic("kaboom") }})
	t.Setenv("LIPTON_DEBUG", "")
	code, _, stderr := runCLI("boom", "--x", "f.lip")
	if code != exitInternal || strings.Contains(stderr, "goroutine") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	// The message says that this is a bug and what a report needs.
	for _, want := range []string{"lipton: internal error: kaboom\n", "This is a bug in lipton",
		"the command line: lipton boom --x f.lip\n", "the input files", "lipton version: lipton " + version, "LIPTON_DEBUG=1"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the message lacks %q:\n%s", want, stderr)
		}
	}
	t.Setenv("LIPTON_DEBUG", "1")
	if _, _, stderr := runCLI("boom"); !strings.Contains(stderr, "goroutine") {
		t.Errorf("LIPTON_DEBUG=1 prints no stack:\n%s", stderr)
	}
}

// TestLanguageDocExamplesProve: every complete example of the language
// reference (docs/language.md) is not only well-typed (lang tests that)
// but a correct proof.
func TestLanguageDocExamplesProve(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "language.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	var block []string
	in := false
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```lip":
			in, block = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			if !declaresLayer(block) {
				continue // a fragment of declarations: lang's tests type-check it
			}
			path := filepath.Join(dir, fmt.Sprintf("language.md-%d.lip", i-len(block)))
			if err := os.WriteFile(path, []byte(strings.Join(block, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, path)
		case in:
			block = append(block, line)
		}
	}
	if len(paths) < 15 {
		t.Fatalf("only %d examples with layers found", len(paths))
	}
	code, stdout, stderr := runCLI(append([]string{"check"}, paths...)...)
	if code != exitOK {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// declaresLayer reports whether an example has a layer block: the
// others are fragments of declarations, which there is nothing to check in.
func declaresLayer(lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "layer ") {
			return true
		}
	}
	return false
}
