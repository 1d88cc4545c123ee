package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fatih/color"
	"github.com/lipton-dev/lipton/lang"
)

// loadProgram is loadFile for the commands that verify or explore a
// program: a file without layers is bad input for them.
func loadProgram(path string, stderr io.Writer) (*lang.File, *lang.Info) {
	f, info := loadFile(path, stderr)
	if f == nil {
		return nil, nil
	}
	if err := lang.RequireLayers(f); err != nil {
		printLangErrors(stderr, err)
		return nil, nil
	}
	return f, info
}

// loadFile reads, parses and checks one file. Errors are printed to
// stderr; the result is nil if there were any.
func loadFile(path string, stderr io.Writer) (*lang.File, *lang.Info) {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "lipton: %v\n", describeReadError(path, err))
		return nil, nil
	}
	f, info, err := lang.ParseAndCheck(path, src)
	if err != nil {
		printLangErrors(stderr, err)
		return nil, nil
	}
	return f, info
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

// printLangErrors prints a lang.ErrorList: position, message, source
// line and caret; at most lang.MaxErrors of them.
func printLangErrors(w io.Writer, err error) {
	var list lang.ErrorList
	if !errors.As(err, &list) {
		fmt.Fprintf(w, "lipton: %v\n", err)
		return
	}
	for i, e := range list {
		if i == lang.MaxErrors {
			fmt.Fprintf(w, "too many errors (%d more not shown)\n", len(list)-lang.MaxErrors)
			break
		}
		fmt.Fprintf(w, "%s: %s %s\n", posLabel.Sprint(e.Pos), errorLabel.Sprint("error:"), e.Msg)
		if e.Line != "" || e.Pos.IsValid() {
			fmt.Fprintln(w, lang.Caret(e.Line, e.Pos.Col))
		}
	}
}
