package main

import (
	"encoding/json"
	"errors"
	"flag"
	"github.com/lipton-dev/lipton/check"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/lipton-dev/lipton/lang"
)

// TestExplicitHelp: help that is asked for is a success, on stdout;
// lipton without a command is a usage error.
func TestExplicitHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // at the start of stdout
	}{
		{[]string{"--help"}, "lipton checks layered proofs"},
		{[]string{"-h"}, "lipton checks layered proofs"},
		{[]string{"-help"}, "lipton checks layered proofs"},
		{[]string{"help"}, "lipton checks layered proofs"},
		{[]string{"help", "check"}, "usage: " + checkUsage + "\n"},
		{[]string{"check", "--help"}, "usage: " + checkUsage + "\n"},
		{[]string{"check", "-h"}, "usage: " + checkUsage + "\n"},
		{[]string{"check", "--layer", "1", "x.lip", "--help"}, "usage: " + checkUsage + "\n"},
		{[]string{"check", "-help=true"}, "usage: " + checkUsage + "\n"},
		{[]string{"fmt", "--help"}, "usage: " + fmtUsage + "\n"},
		{[]string{"fmt", "-h"}, "usage: " + fmtUsage + "\n"},
		{[]string{"show", "--help"}, "usage: " + showUsage + "\n"},
		{[]string{"show", "-h"}, "usage: " + showUsage + "\n"},
		{[]string{"explore", "--help"}, "usage: " + exploreUsage + "\n"},
		{[]string{"explore", "-h"}, "usage: " + exploreUsage + "\n"},
		{[]string{"version", "--help"}, "usage: lipton version\n"},
		{[]string{"help", "--help"}, "usage: lipton help [COMMAND]\n"},
	} {
		code, stdout, stderr := runCLI(tc.args...)
		if code != exitOK || !strings.HasPrefix(stdout, tc.want) || stderr != "" {
			t.Errorf("%v: exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 0 and stdout starting with %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	code, stdout, stderr := runCLI()
	if code != exitBadInput || stdout != "" || !strings.Contains(stderr, "Usage: lipton COMMAND") {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q; want exit 2 and the usage on stderr", code, stdout, stderr)
	}
}

// flagHeadRE matches the first line of a flag in help output.
var flagHeadRE = regexp.MustCompile(`^  (--?[a-z][a-z0-9-]*)( [^ ]+)?( {2,}|$)`)

// TestHelpShowsFlagsAsTyped: every command's help lists its flags as
// users type them (--layer N; -w for one letter), each default at most
// once, and every flag of the command.
func TestHelpShowsFlagsAsTyped(t *testing.T) {
	for _, c := range commands {
		if c.flags == nil {
			continue
		}
		_, stdout, _ := runCLI("help", c.name)
		seen := map[string]bool{}
		var block []string
		check := func() {
			if len(block) > 0 && strings.Count(strings.Join(block, " "), "default") > 1 {
				t.Errorf("%s: a flag's default is shown twice:\n%s", c.name, strings.Join(block, "\n"))
			}
			block = nil
		}
		for _, line := range strings.Split(stdout, "\n") {
			if m := flagHeadRE.FindStringSubmatch(line); m != nil {
				check()
				name := strings.TrimLeft(m[1], "-")
				want := "--" + name
				if len(name) == 1 {
					want = "-" + name
				}
				if m[1] != want {
					t.Errorf("%s: flag shown as %s, want %s", c.name, m[1], want)
				}
				seen[name] = true
			}
			if strings.HasPrefix(line, "  ") {
				block = append(block, line)
			} else {
				check()
			}
		}
		check()
		c.flags().VisitAll(func(f *flag.Flag) {
			if !seen[f.Name] {
				t.Errorf("%s: help does not list --%s:\n%s", c.name, f.Name, stdout)
			}
		})
	}
	_, stdout, _ := runCLI("check", "--help")
	words := strings.Join(strings.Fields(stdout), " ") // the help wraps lines
	for _, want := range []string{"\n  --layer N ", "\n  --jobs N ", "\n  --rlimit N ", "\n  --timeout DURATION ",
		"wall-clock limit for the whole run (0: none); when it is reached the undecided obligations are reported as not decided",
		"\nSolver:\n", "\nOutput:\n", "\n  --max-input SIZE "} {
		if !strings.Contains(stdout, want) && !strings.Contains(words, want) {
			t.Errorf("check --help lacks %q:\n%s", want, stdout)
		}
	}
}

// TestFlagValidation: values that make no sense and flags that exclude
// each other are command-line errors (exit 2) that name the flag.
func TestFlagValidation(t *testing.T) {
	good := writeFile(t, "good.lip", goodSrc)
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"check", "--jobs", "0", good}, "--jobs 0: want at least 1"},
		{[]string{"check", "--jobs", "-1", good}, "--jobs -1: want at least 1"},
		{[]string{"check", "--layer", "-2", good}, "--layer -2: want a layer number"},
		{[]string{"check", "--layer", "-1", good}, "--layer -1: want a layer number"},
		{[]string{"check", "--timeout", "-1s", good}, "--timeout -1s: want a duration"},
		{[]string{"check", "--timeout", "soon", good}, `invalid value "soon" for flag --timeout`},
		{[]string{"check", "--rlimit", "-5", good}, `invalid value "-5" for flag --rlimit`},
		{[]string{"check", "--json", "--format", "github", good}, "--json and --format github exclude each other"},
		{[]string{"check", "--format", "xml", good}, `unknown format "xml" (want text or github)`},
		{[]string{"check", "--max-input", "0", good}, "want a positive size"},
		{[]string{"check", "--max-input", "12XB", good}, "want a positive size"},
		{[]string{"check", "--max-input", "5GiB", good}, "at most 4 GiB"},
		{[]string{"check", "--fallback", "--ints", "-9223372036854775808..9223372036854775807", good},
			"the range has 18446744073709551616 values, more than the 100000000 valuations"},
		{[]string{"check", "--fallback", "--ints", "0..100000000", good}, "the range has 100000001 values"},
		{[]string{"show", "--layer", "-2", good}, "--layer -2: want a layer number"},
		{[]string{"show", "--layer", "1", "--erase-ghost", good}, "--layer and --erase-ghost exclude each other"},
		{[]string{"show", "--layer", "0", "--erase-ghost", good}, "--layer and --erase-ghost exclude each other"},
		{[]string{"show", "--layer", "3", good}, "has no layer 3 (it has layer 0 only)"},
		{[]string{"check", "--layer", "3", good}, "has no layer 3 (it has layer 0 only)"},
		{[]string{"fmt", "--check", "-w", good}, "--check and -w exclude each other"},
		{[]string{"fmt", "-w"}, "-w needs a FILE"},
		{[]string{"fmt", "--max-input", "1x"}, "want a positive size"},
	} {
		code, stdout, stderr := runCLIStdin(goodSrc, tc.args...)
		if code != exitBadInput || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	// --timeout 0 means no limit; a domain of exactly the cap is fine.
	if code, stdout, stderr := runCLI("check", "--timeout", "0", good); code != exitOK {
		t.Errorf("--timeout 0: exit %d\n%s%s", code, stdout, stderr)
	}
	var d domainFlag
	if err := d.Set("1..100000000"); err != nil {
		t.Errorf("--ints 1..100000000: %v", err)
	}
}

// TestCheckFlagsStoreValues: --rlimit and --max-input reach the options.
func TestCheckFlagsStoreValues(t *testing.T) {
	var o checkOptions
	fs := checkFlags(&o)
	if o.rlimit != defaultRLimit || o.maxInput != defaultMaxInput || o.timeout != 0 {
		t.Errorf("defaults: rlimit %d, max-input %d, timeout %s", o.rlimit, o.maxInput, o.timeout)
	}
	if err := fs.Parse([]string{"--rlimit", "123456", "--max-input", "64MiB"}); err != nil {
		t.Fatal(err)
	}
	if o.rlimit != 123456 || o.maxInput != 64<<20 {
		t.Errorf("rlimit %d, max-input %d", o.rlimit, o.maxInput)
	}
}

func TestSizeFlag(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64 // 0: an error
	}{
		{"1", 1}, {"100B", 100}, {"16MiB", 16 << 20}, {"16mib", 16 << 20}, {"16M", 16 << 20}, {"64 MiB", 64 << 20},
		{"1GB", 1e9}, {"1GiB", 1 << 30}, {"2kB", 2000}, {"2K", 2048}, {"4GiB", 4 << 30},
		{"0", 0}, {"-1", 0}, {"MiB", 0}, {"1.5GB", 0}, {"1TB", 0}, {"4097MiB", 0}, {"99999999999999999999", 0},
	} {
		var s sizeFlag
		err := s.Set(tc.in)
		switch {
		case tc.want == 0 && err == nil:
			t.Errorf("%q: accepted as %d", tc.in, s)
		case tc.want != 0 && (err != nil || int64(s) != tc.want):
			t.Errorf("%q: got %d, %v; want %d", tc.in, s, err, tc.want)
		}
	}
	for n, want := range map[int64]string{16 << 20: "16 MiB", 1e9: "1 GB", 1000: "1 kB", 1500: "1500 bytes", 3 << 30: "3 GiB"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// endless is a reader that never ends.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += int64(len(p))
	return len(p), nil
}

// TestReadBoundedEndless: an endless input stops at the limit with an
// error that names it and the flag that raises it.
func TestReadBoundedEndless(t *testing.T) {
	r := &endless{}
	_, err := readBounded(r, "the stream", 1<<20)
	var tooLarge *tooLargeError
	if !errors.As(err, &tooLarge) || err.Error() != "the stream is larger than 1 MiB (--max-input raises the limit)" {
		t.Fatalf("error %v", err)
	}
	if r.read > 1<<20+64<<10 {
		t.Errorf("read %d bytes for a limit of 1 MiB", r.read)
	}
	data, err := readBounded(strings.NewReader("abc"), "s", 3)
	if err != nil || string(data) != "abc" {
		t.Errorf("an input of exactly the limit: %q, %v", data, err)
	}
}

// inputCase is a command line and the start of its one-line error.
type inputCase struct {
	args []string
	want string
}

// sparseFile creates a file of the given size without writing it.
func sparseFile(t *testing.T, name string, size int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHugeInput: endless devices, a gigabyte file and binary data get
// one clear error and exit 2 from every command that reads files.
func TestHugeInput(t *testing.T) {
	huge := sparseFile(t, "huge.lip", 1<<30)
	binary := writeFile(t, "bin.lip", "var x: int;\nvar \x00y: int;\n")
	tests := []inputCase{
		{[]string{"check", huge}, huge + " is larger than 16 MiB (--max-input raises the limit)\n"},
		{[]string{"fmt", huge}, huge + " is larger than 16 MiB (--max-input raises the limit)\n"},
		{[]string{"show", "--max-input", "1MB", huge}, huge + " is larger than 1 MB (--max-input raises the limit)\n"},
		{[]string{"explore", huge}, huge + " is larger than 16 MiB (--max-input raises the limit)\n"},
		{[]string{"check", binary}, binary + " is a binary file, not lipton source (a NUL byte at line 2, column 5)\n"},
		{[]string{"fmt", binary}, binary + " is a binary file"},
	}
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err == nil {
			tests = append(tests,
				inputCase{[]string{"check", dev}, dev + " is larger than 16 MiB (--max-input raises the limit)\n"},
				inputCase{[]string{"fmt", "--max-input", "1KiB", dev}, dev + " is larger than 1 KiB (--max-input raises the limit)\n"},
				inputCase{[]string{"show", dev}, dev + " is larger than 16 MiB"},
				inputCase{[]string{"explore", dev}, dev + " is larger than 16 MiB (--max-input raises the limit)\n"})
		}
	}
	for _, tc := range tests {
		code, stdout, stderr := runCLI(tc.args...)
		if code != exitBadInput || stdout != "" || !strings.HasPrefix(stderr, "lipton: "+tc.want) || strings.Count(stderr, "\n") > 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	// With the limit raised, a file beyond the default (all NUL bytes)
	// is read and refused as binary: --max-input reaches the reader.
	over := sparseFile(t, "over.lip", defaultMaxInput+1)
	code, _, stderr := runCLI("fmt", "--max-input", "32MiB", over)
	if code != exitBadInput || stderr != "lipton: "+over+" is a binary file, not lipton source (a NUL byte at line 1, column 1)\n" {
		t.Errorf("--max-input 32MiB: exit %d, stderr %q", code, stderr)
	}
}

// TestEndlessFIFO: a pipe whose writer never stops is read up to the
// limit.
func TestEndlessFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.lip")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		io.Copy(w, &endless{}) // ends when lipton closes its end
	}()
	code, _, stderr := runCLI("check", "--max-input", "1MiB", fifo)
	<-done
	if code != exitBadInput || stderr != "lipton: "+fifo+" is larger than 1 MiB (--max-input raises the limit)\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestLongLiteralMessage: a 100,000-digit literal makes a short error
// whose caret still points at the literal.
func TestLongLiteralMessage(t *testing.T) {
	digits := strings.Repeat("9", 100000)
	path := writeFile(t, "long.lip", "var x: int = "+digits+";\n")
	code, _, stderr := runCLI("check", path)
	if code != exitBadInput || len(stderr) > 600 {
		t.Fatalf("exit %d, %d bytes of stderr:\n%.1000s", code, len(stderr), stderr)
	}
	lines := strings.Split(stderr, "\n")
	want := path + ":1:14: error: integer literal " + digits[:40] + "… (100000 characters) does not fit in 64 bits"
	if lines[0] != want {
		t.Errorf("first line:\n%s\nwant\n%s", lines[0], want)
	}
	source, caret := []rune(lines[1]), []rune(lines[2])
	if !strings.HasSuffix(lines[1], "…") || len(caret) == 0 || caret[len(caret)-1] != '^' || source[len(caret)-1] != '9' {
		t.Errorf("source line and caret:\n%s\n%s", lines[1], lines[2])
	}
	if prefix := string(source[:len(caret)-1]); prefix != "    var x: int = " {
		t.Errorf("the caret is not under the literal: %q", prefix)
	}
}

// TestBadBytesPrintCleanly: bytes that are not UTF-8 are errors at
// their positions, and the quoted line shows them as U+FFFD, never raw
// (a terminal would garble).
func TestBadBytesPrintCleanly(t *testing.T) {
	path := writeFile(t, "bad.lip", "var x: int;\nvar \xff\x1b[2J: int;\n")
	code, _, stderr := runCLI("check", path)
	if code != exitBadInput || !strings.HasPrefix(stderr, path+":2:5: error: invalid byte 0xff (files must be UTF-8)\n    var \uFFFD\uFFFD[2J: int;\n        ^\n") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if !utf8.ValidString(stderr) || strings.ContainsAny(stderr, "\x1b\x00\r") {
		t.Errorf("stderr has raw bytes: %q", stderr)
	}
}

func TestFmtCheck(t *testing.T) {
	u := writeFile(t, "u.lip", unformatted)
	f := writeFile(t, "f.lip", formatted)
	code, stdout, stderr := runCLI("fmt", "--check", u, f)
	if code != exitFailed || stdout != u+"\n" || stderr != "" {
		t.Errorf("an unformatted File: exit %d, stdout %q, stderr %q; want exit 1 and %s listed", code, stdout, stderr, u)
	}
	if data, _ := os.ReadFile(u); string(data) != unformatted {
		t.Errorf("fmt --check changed the file")
	}
	if code, stdout, stderr := runCLI("fmt", "--check", f); code != exitOK || stdout != "" || stderr != "" {
		t.Errorf("a formatted File: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	bad := writeFile(t, "b.lip", "var x: int = ;\n")
	if code, _, _ := runCLI("fmt", "--check", u, bad); code != exitBadInput {
		t.Errorf("a file that does not parse: exit %d, want 2", code)
	}
}

func TestFmtStdin(t *testing.T) {
	code, stdout, stderr := runCLIStdin(unformatted, "fmt")
	if code != exitOK || stdout != formatted || stderr != "" {
		t.Errorf("fmt: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLIStdin(unformatted, "fmt", "--check")
	if code != exitFailed || stdout != stdinName+"\n" {
		t.Errorf("fmt --check: exit %d, stdout %q", code, stdout)
	}
	code, stdout, _ = runCLIStdin(formatted, "fmt", "-l")
	if code != exitOK || stdout != "" {
		t.Errorf("fmt -l: exit %d, stdout %q", code, stdout)
	}
	code, _, stderr = runCLIStdin("var x: int = ;\n", "fmt")
	if code != exitBadInput || !strings.HasPrefix(stderr, stdinName+":1:14: error: ") {
		t.Errorf("a syntax error: exit %d, stderr %q", code, stderr)
	}
	saved := stdin
	defer func() { stdin = saved }()
	stdin = &endless{}
	code, _, stderr = runCLI("fmt")
	if code != exitBadInput || stderr != "lipton: "+stdinName+" is larger than 16 MiB (--max-input raises the limit)\n" {
		t.Errorf("endless standard input: exit %d, stderr %q", code, stderr)
	}
}

// TestGitHubEscaping: annotation properties and messages are escaped as
// GitHub's workflow commands require.
func TestGitHubEscaping(t *testing.T) {
	f := &check.Finding{Check: "sequential", Layer: 1, Msg: "100% sure:\r\nno, really",
		Pos: []lang.Pos{{File: "dir,1/a:b%.lip", Line: 3, Col: 4}}}
	var b strings.Builder
	printGitHub(&b, &check.Result{Findings: []*check.Finding{f}})
	want := "::error file=dir%2C1/a%3Ab%25.lip,line=3,col=4::sequential (layer 1): 100%25 sure:%0D%0Ano, really\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

// TestGitHubFrontEndErrors: with --format github, parse and type errors
// are annotations too.
func TestGitHubFrontEndErrors(t *testing.T) {
	path := writeFile(t, "bad.lip", badSrc)
	code, stdout, _ := runCLI("check", "--format", "github", path)
	want := "::error file=" + escapeGitHubProperty(path) + ",line=4,col=9::global variable g cannot be read"
	if code != exitBadInput || !strings.HasPrefix(stdout, want) || strings.Count(stdout, "::error ") != 2 {
		t.Errorf("exit %d, stdout:\n%s\nwant two annotations, the first starting with\n%s", code, stdout, want)
	}
}

// TestJSONFrontEndErrors: --json reports parse and type errors with
// their positions, and read errors by their message.
func TestJSONFrontEndErrors(t *testing.T) {
	bad := writeFile(t, "bad.lip", badSrc)
	missing := filepath.Join(t.TempDir(), "missing.lip")
	code, stdout, _ := runCLI("check", "--json", bad, missing)
	if code != exitBadInput {
		t.Errorf("exit %d", code)
	}
	var files []jsonFile
	if err := json.Unmarshal([]byte(stdout), &files); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if len(files) != 2 || files[0].Verdict != "error" || len(files[0].Errors) != 2 {
		t.Fatalf("%+v", files)
	}
	e := files[0].Errors[0]
	if e.File != bad || e.Line != 4 || e.Col != 9 || !strings.HasPrefix(e.Message, "global variable g cannot be read") || e.Source != "    if (g > 0) { }" {
		t.Errorf("first error: %+v", e)
	}
	if f := files[1]; f.Verdict != "error" || f.Error != missing+": no such file" || f.Errors != nil {
		t.Errorf("missing File: %+v", f)
	}
	// The keys of the schema, old and new.
	for _, key := range []string{`"file"`, `"verdict"`, `"error"`, `"errors"`, `"line"`, `"col"`, `"message"`, `"source"`} {
		if !strings.Contains(stdout, key) {
			t.Errorf("no key %s in\n%s", key, stdout)
		}
	}
}

// TestPlurals: counts agree with their nouns.
func TestPlurals(t *testing.T) {
	path := writeFile(t, "good.lip", goodSrc)
	_, stdout, _ := runCLI("check", path)
	if !strings.HasPrefix(stdout, path+": 1 layer\n") {
		t.Errorf("one layer:\n%s", stdout)
	}
	_, stdout, _ = runCLI("check", "--layer", "0", "../../proofs/chaselev/chaselev.lip")
	if !strings.HasPrefix(stdout, "../../proofs/chaselev/chaselev.lip: 4 layers\n") {
		t.Errorf("four layers:\n%s", stdout)
	}
	if plural(1, "assert") != "1 assert" || plural(0, "assert") != "0 asserts" || plural(2, "layer") != "2 layers" {
		t.Error("plural")
	}
}

// readmeVolatile matches what changes from run to run in the README's
// outputs: durations, rates and memory sizes.
var readmeVolatile = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(ns|µs|ms|s|m)\b|[0-9]+ states/s|[0-9]+ MB`)

// TestReadmeOutputs: every output block of README.md that starts with a
// command line ("$ bin/lipton ..." or "$ ./run.sh check") is what that
// command prints today, up to timings and memory sizes.
func TestReadmeOutputs(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```\n\\$ ([^\n]*)\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) < 3 {
		t.Fatalf("%d output blocks in README.md, want at least 3", len(blocks))
	}
	for _, b := range blocks {
		fields := strings.Fields(b[1])
		var args []string
		switch {
		case fields[0] == "./run.sh" && len(fields) == 2 && fields[1] == "check":
			args = []string{"check", "proofs/chaselev/chaselev.lip"}
		case fields[0] == "bin/lipton":
			args = fields[1:]
		default:
			t.Errorf("README.md: unknown command %q", b[1])
			continue
		}
		for i, a := range args {
			if strings.HasPrefix(a, "proofs/") {
				args[i] = "../../" + a
			}
		}
		_, stdout, _ := runCLI(args...)
		got := readmeVolatile.ReplaceAllString(strings.ReplaceAll(stdout, "../../", ""), "X")
		want := readmeVolatile.ReplaceAllString(b[2], "X")
		if got != want {
			t.Errorf("README.md: the output of %q is now\n%s\nthe README says\n%s", b[1], strings.ReplaceAll(stdout, "../../", ""), b[2])
		}
	}
}
