package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/fatih/color"
	"github.com/lipton-dev/lipton/lang"
)

// defaultMaxInput is the size limit of an input file. lipton holds a
// file, its tokens and its syntax tree in memory: reading /dev/zero or a
// gigabyte of garbage must end with an error, not with the Go runtime
// running out of memory. The largest proof of the corpus is some 40 KB.
const defaultMaxInput = 16 << 20

// maxMaxInput is the largest --max-input: beyond it, a runaway input
// would exhaust the memory of most machines before the limit stops it.
const maxMaxInput = 4 << 30

// stdin is the standard input of the commands that read it (a variable
// so that tests can replace it).
var stdin io.Reader = os.Stdin

// sizeFlag is a size in bytes, such as 16MiB or 1GB (--max-input).
type sizeFlag int64

// sizeUnits are the suffixes of sizeFlag, in lower case. K, M and G
// alone are binary units, as in most memory options.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
	"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
	"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
}

// String implements flag.Value.
func (s *sizeFlag) String() string { return formatSize(int64(*s)) }

// Set implements flag.Value: a positive number of bytes with an optional
// unit (B, KiB, MiB, GiB, kB, MB, GB; K, M and G mean KiB, MiB, GiB).
func (s *sizeFlag) Set(text string) error {
	n, err := parseSize(text, maxMaxInput, "64MiB or 1GB")
	*s = sizeFlag(n)
	return err
}

// parseSize parses a positive size with an optional unit, at most most
// bytes; example is shown in the error.
func parseSize(text string, most int64, example string) (int64, error) {
	t := strings.TrimSpace(text)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') {
		i--
	}
	unit, ok := sizeUnits[strings.ToLower(strings.TrimSpace(t[i:]))]
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if !ok || err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive size such as %s", example)
	}
	if n > most/unit {
		return 0, fmt.Errorf("at most %s", formatSize(most))
	}
	return n * unit, nil
}

// formatSize prints a size in the largest unit that divides it.
func formatSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"GB", 1e9}, {"MiB", 1 << 20}, {"MB", 1e6}, {"KiB", 1 << 10}, {"kB", 1e3}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// addInputFlags registers --max-input, the flag of every command that
// reads files.
func addInputFlags(fs *flag.FlagSet, limit *sizeFlag) {
	*limit = defaultMaxInput
	fs.Var(limit, "max-input", "read at most `SIZE` bytes of an input file, such as 64MiB or 1GB")
}

// tooLargeError is the error for an input beyond the size limit.
type tooLargeError struct {
	name  string
	limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s (--max-input raises the limit)", e.name, formatSize(e.limit))
}

// readBounded reads all of r, but at most limit bytes: a longer input is
// a tooLargeError, whether it is a huge file or an endless stream.
func readBounded(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &tooLargeError{name: name, limit: limit}
	}
	return data, nil
}

// checkText rejects a binary file with one error: the lexer would report
// a bad character at every few bytes of it. Source text never contains a
// NUL byte; other bytes that are not UTF-8 are the lexer's to report, at
// their positions.
func checkText(name string, data []byte) error {
	i := bytes.IndexByte(data, 0)
	if i < 0 {
		return nil
	}
	line := 1 + bytes.Count(data[:i], []byte{'\n'})
	col := i - bytes.LastIndexByte(data[:i], '\n')
	return fmt.Errorf("%s is a binary file, not lipton source (a NUL byte at line %d, column %d)", name, line, col)
}

// readSource reads the text of a source file of at most limit bytes.
func readSource(path string, limit int64) ([]byte, error) {
	src, err := readFile(path, limit)
	var tooLarge *tooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, err
	case err != nil:
		return nil, errors.New(describeReadError(path, err))
	}
	if err := checkText(path, src); err != nil {
		return nil, err
	}
	return src, nil
}

// readFile reads a file of at most limit bytes. A regular file is
// measured before it is read; anything else (a device, a pipe) is read
// up to the limit.
func readFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > limit {
		return nil, &tooLargeError{name: path, limit: limit}
	}
	return readBounded(f, path, limit)
}

// loadProgramLimit is loadSource for the commands that verify or explore
// a program: a file without layers is bad input for them.
func loadProgramLimit(path string, limit int64) (*lang.File, *lang.Info, error) {
	f, info, err := loadSource(path, limit)
	if err != nil {
		return nil, nil, err
	}
	if err := lang.RequireLayers(f); err != nil {
		return nil, nil, err
	}
	return f, info, nil
}

// loadSource reads, parses and checks one file of at most limit bytes.
// The error is a lang.ErrorList if the file was read but is not a
// well-typed program.
func loadSource(path string, limit int64) (*lang.File, *lang.Info, error) {
	src, err := readSource(path, limit)
	if err != nil {
		return nil, nil, err
	}
	return lang.ParseAndCheck(path, src)
}

func describeReadError(path string, err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Sprintf("%s: no such file", path)
	case errors.Is(err, os.ErrPermission):
		return fmt.Sprintf("%s: permission denied", path)
	}
	return err.Error()
}

var (
	errorLabel = color.New(color.FgRed, color.Bold)
	posLabel   = color.New(color.Bold)
)

// printLoadError prints why a file could not be loaded: its position
// errors (printLangErrors) or one line.
func printLoadError(w io.Writer, err error) {
	var list lang.ErrorList
	if errors.As(err, &list) {
		printLangErrors(w, list)
		return
	}
	fmt.Fprintf(w, "lipton: %v\n", err)
}

// printLangErrors prints a lang.ErrorList: position, message, source
// line and caret; at most lang.MaxErrors of them.
func printLangErrors(w io.Writer, list lang.ErrorList) {
	for i, e := range list {
		if i == lang.MaxErrors {
			fmt.Fprintf(w, "too many errors (%d more not shown)\n", len(list)-lang.MaxErrors)
			break
		}
		fmt.Fprintf(w, "%s: %s %s\n", paint(w, posLabel, e.Pos.String()), paint(w, errorLabel, "error:"), e.Msg)
		if e.Line != "" || e.Pos.IsValid() {
			fmt.Fprintln(w, lang.Caret(e.Line, e.Pos.Col))
		}
	}
}
