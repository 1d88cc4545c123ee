package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
)

// The proof corpus: every .lip file under proofs/ declares its expected
// verdict in header comments, and TestProofCorpus checks exactly that.
//
//	// expect: proven
//	// expect: fail <check kind> at <line>      (one line per expected failure)
//	// expect: error at <line>                  (rejected by the front end)
//	// expect: message "<text>"                 (some failure's message contains text)
//
// A failing file must fail every listed (check, line) pair, and fail no
// check kind that is not listed.

type expectation struct {
	proven   bool
	errAt    int // > 0: the front end must reject the file at this line
	fails    []expectedFail
	messages []string // each in the message of some failure
}

type expectedFail struct {
	check string
	line  int
}

var (
	expectFail  = regexp.MustCompile(`^//\s*expect:\s*fail\s+(.+?)\s+at\s+(\d+)\s*$`)
	expectError = regexp.MustCompile(`^//\s*expect:\s*error\s+at\s+(\d+)\s*$`)
	expectOK    = regexp.MustCompile(`^//\s*expect:\s*proven\s*$`)
	expectMsg   = regexp.MustCompile(`^//\s*expect:\s*message\s+"(.+)"\s*$`)
)

// readExpectation parses the expect lines of a file's leading comments.
func readExpectation(src []byte) (expectation, error) {
	var e expectation
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "//") {
			break
		}
		switch {
		case expectOK.MatchString(line):
			e.proven = true
		case expectError.MatchString(line):
			e.errAt, _ = strconv.Atoi(expectError.FindStringSubmatch(line)[1])
		case expectFail.MatchString(line):
			m := expectFail.FindStringSubmatch(line)
			n, _ := strconv.Atoi(m[2])
			e.fails = append(e.fails, expectedFail{m[1], n})
		case expectMsg.MatchString(line):
			e.messages = append(e.messages, expectMsg.FindStringSubmatch(line)[1])
		case strings.Contains(line, "expect:"):
			return e, fmt.Errorf("malformed expect line %q", line)
		}
	}
	if !e.proven && e.errAt == 0 && len(e.fails) == 0 {
		return e, fmt.Errorf("no expect line: start the file with // expect: proven, // expect: fail <check> at <line>, or // expect: error at <line>")
	}
	return e, nil
}

func corpusFiles(t *testing.T) []string {
	var files []string
	err := filepath.Walk("../../proofs", func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(path, ".lip") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no proofs found")
	}
	return files
}

func TestProofCorpus(t *testing.T) {
	for _, path := range corpusFiles(t) {
		path := path
		t.Run(strings.TrimPrefix(path, "../../proofs/"), func(t *testing.T) {
			t.Parallel()
			checkCorpusFile(t, path)
		})
	}
}

func checkCorpusFile(t *testing.T, path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := readExpectation(src)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	f, info, err := lang.ParseAndCheck(path, src)
	if want.errAt > 0 {
		checkFrontEndError(t, err, want.errAt)
		return
	}
	if err != nil {
		t.Fatalf("front end rejected the file:\n%v", err)
	}
	// No wall-clock limit: every query is bounded by Z3's resource
	// limit (the default --rlimit), which does not depend on the
	// machine's load, so a loaded machine gives the same verdicts.
	r, err := runChecks(f, info, checkOptions{layer: -1, jobs: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want.proven {
		if r.Failed() {
			t.Errorf("expected proven, got:\n%s", describeFindings(r))
		}
		return
	}
	checkFailures(t, r, want.fails)
	checkMessages(t, r, want.messages)
}

func checkMessages(t *testing.T, r *check.Result, want []string) {
	for _, m := range want {
		found := false
		for _, f := range r.Findings {
			found = found || !f.Unknown && strings.Contains(f.Msg, m)
		}
		if !found {
			t.Errorf("no failure's message contains %q; got:\n%s", m, describeFindings(r))
		}
	}
}

func checkFrontEndError(t *testing.T, err error, line int) {
	list, ok := err.(lang.ErrorList)
	if !ok || len(list) == 0 {
		t.Fatalf("expected a front-end error at line %d, got %v", line, err)
	}
	for _, e := range list {
		if e.Pos.Line == line {
			return
		}
	}
	t.Errorf("expected a front-end error at line %d, got:\n%v", line, err)
}

func checkFailures(t *testing.T, r *check.Result, want []expectedFail) {
	kinds := map[string]bool{}
	for _, w := range want {
		kinds[w.check] = true
		found := false
		for _, f := range r.Findings {
			found = found || string(f.Check) == w.check && !f.Unknown && len(f.Pos) > 0 && f.Pos[0].Line == w.line
		}
		if !found {
			t.Errorf("expected a %s failure at line %d; got:\n%s", w.check, w.line, describeFindings(r))
		}
	}
	for _, f := range r.Findings {
		if !kinds[string(f.Check)] || f.Unknown {
			t.Errorf("unexpected %s: %s", verdictWord(f), findingLine(f))
		}
	}
}

func verdictWord(f *check.Finding) string {
	if f.Unknown {
		return "unknown " + string(f.Check)
	}
	return string(f.Check) + " failure"
}

func findingLine(f *check.Finding) string {
	where := "?"
	if len(f.Pos) > 0 {
		where = f.Pos[0].String()
	}
	return fmt.Sprintf("%s: %s (layer %d): %s", where, f.Check, f.Layer, f.Msg)
}

func describeFindings(r *check.Result) string {
	if len(r.Findings) == 0 {
		return "  (no failures)"
	}
	var lines []string
	for _, f := range r.Findings {
		lines = append(lines, "  "+findingLine(f))
	}
	return strings.Join(lines, "\n")
}

// TestCorpusIndex keeps the index of proofs/README.md true: every corpus
// file has a row, and the row's verdict column says what the file's
// expect lines say.
func TestCorpusIndex(t *testing.T) {
	readme, err := os.ReadFile("../../proofs/README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| .* \\| (.*) \\|$")
	rows := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		rows[m[1]] = m[2]
	}
	for _, path := range corpusFiles(t) {
		rel := strings.TrimPrefix(path, "../../proofs/")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		e, err := readExpectation(src)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		got, ok := rows[rel]
		switch {
		case !ok:
			t.Errorf("proofs/README.md has no row for %s (verdict: %s)", rel, e.summary())
		case got != e.summary():
			t.Errorf("proofs/README.md, row of %s: verdict %q, the file expects %q", rel, got, e.summary())
		}
	}
}

// summary renders an expectation as the index does: "proven", "front-end
// error at N", or each check kind with its lines, in order of first
// appearance.
func (e expectation) summary() string {
	switch {
	case e.proven:
		return "proven"
	case e.errAt > 0:
		return fmt.Sprintf("front-end error at %d", e.errAt)
	}
	var kinds []string
	lines := map[string][]string{}
	for _, f := range e.fails {
		if lines[f.check] == nil {
			kinds = append(kinds, f.check)
		}
		lines[f.check] = append(lines[f.check], strconv.Itoa(f.line))
	}
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s (%s)", k, strings.Join(lines[k], ", ")))
	}
	return strings.Join(parts, "; ")
}

// TestCorpusFormatted keeps every corpus file in `lipton fmt` form: the
// corpus is also what users copy from.
func TestCorpusFormatted(t *testing.T) {
	for _, path := range corpusFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := lang.Parse(path, src)
		if err != nil {
			continue // a front-end failure: TestProofCorpus checks it
		}
		if !bytes.Equal(lang.Format(f), src) {
			t.Errorf("%s is not formatted: run lipton fmt -w %s (and update its expect lines)", path, path)
		}
	}
}
