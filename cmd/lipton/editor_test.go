package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// vscodeDir is the VS Code extension (docs/editor.md). Building it needs
// npm; this test only checks what it declares, without the network.
const vscodeDir = "../../editors/vscode"

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
}

// TestVSCodeExtensionManifest: package.json parses, names files that
// exist, and declares the .lip language with its grammar; the grammar
// parses and its patterns colour lipton's words.
func TestVSCodeExtensionManifest(t *testing.T) {
	var manifest struct {
		Main        string
		Scripts     map[string]string
		Contributes struct {
			Languages []struct {
				ID            string
				Extensions    []string
				Configuration string
			}
			Grammars []struct{ Language, ScopeName, Path string }
		}
	}
	readJSON(t, filepath.Join(vscodeDir, "package.json"), &manifest)
	if manifest.Main != "./out/extension.js" || manifest.Scripts["compile"] == "" {
		t.Errorf("main %q, scripts %v", manifest.Main, manifest.Scripts)
	}
	if _, err := os.Stat(filepath.Join(vscodeDir, "src", "extension.ts")); err != nil {
		t.Errorf("the source of %s: %v", manifest.Main, err)
	}
	c := manifest.Contributes
	if len(c.Languages) != 1 || c.Languages[0].ID != "lipton" || strings.Join(c.Languages[0].Extensions, " ") != ".lip" {
		t.Fatalf("languages: %+v", c.Languages)
	}
	var config map[string]any
	readJSON(t, filepath.Join(vscodeDir, c.Languages[0].Configuration), &config)
	if len(c.Grammars) != 1 || c.Grammars[0].Language != "lipton" {
		t.Fatalf("grammars: %+v", c.Grammars)
	}
	var grammar struct{ ScopeName string }
	readJSON(t, filepath.Join(vscodeDir, c.Grammars[0].Path), &grammar)
	if grammar.ScopeName != c.Grammars[0].ScopeName {
		t.Errorf("the grammar's scope %q, package.json's %q", grammar.ScopeName, c.Grammars[0].ScopeName)
	}
	checkGrammarMatches(t, filepath.Join(vscodeDir, c.Grammars[0].Path))
}

// checkGrammarMatches compiles every match of the grammar (they use no
// Oniguruma-only syntax) and checks that lipton's words are coloured.
func checkGrammarMatches(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var all []*regexp.Regexp
	for _, m := range regexp.MustCompile(`"(?:match|begin)": "((?:[^"\\]|\\.)*)"`).FindAllSubmatch(data, -1) {
		var pattern string
		if err := json.Unmarshal([]byte(`"`+string(m[1])+`"`), &pattern); err != nil {
			t.Fatal(err)
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Errorf("grammar pattern %q: %v", pattern, err)
			continue
		}
		all = append(all, re)
	}
	for _, word := range []string{"yield", "right", "left", "both", "atomic", "proc", "action", "layer", "requires",
		"ensures", "invariant", "ghost", "linear", "havoc", "assume", "assert", "call", "forall", "// a comment", ":="} {
		matched := false
		for _, re := range all {
			if re.MatchString(word) {
				matched = true
				break
			}
		}
		if !matched {
			t.Errorf("no pattern of the grammar matches %q", word)
		}
	}
}
