package check

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// The package graph of DESIGN §1: data flows one way, and the
// obligation IR is the seam between the generators and the deciders.
// A package may import only packages of a lower rank.
var rank = map[string]int{
	"lang": 0, "obl": 0, "smt/z3": 0,
	"layers": 1, "smt": 1, "internal/randprog": 1, "internal/corpus": 2,
	"og": 2, "movers": 2, "refine": 2, "mc": 2,
	"vccache":  0,
	"cextable": 1, // counterexamples for display: obl only
	"check":    3,
	// The editor server and the HTML report present what check and mc
	// compute; lsp/jsonrpc is the protocol's base layer, which knows
	// nothing of lipton.
	"lsp/jsonrpc": 0, "lsp": 4, "htmlreport": 4,
	"cmd/lipton": 5, "bench/checkbench": 4, "bench/copies": 1,
}

// cgoFree are the packages that must build without cgo: everything below
// check but the Z3 decider.
var cgoFree = []string{"lang", "obl", "layers", "og", "movers", "refine", "mc", "internal/randprog", "internal/corpus", "vccache", "cextable", "lsp/jsonrpc"}

const module = "github.com/lipton-dev/lipton/"

// goTool runs the go command in the module's root with extra environment.
func goTool(t *testing.T, env []string, args ...string) string {
	t.Helper()
	bin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(bin); err != nil {
		if bin, err = exec.LookPath("go"); err != nil {
			t.Fatalf("the go command is needed to check the package graph: %v", err)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestPackageGraph checks that every package of the module has a rank and
// imports only packages of lower rank: no cycles, and nothing below check
// imports check or the CLI.
func TestPackageGraph(t *testing.T) {
	out := goTool(t, nil, "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "./...")
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, module)
		seen[pkg] = true
		r, ok := rank[pkg]
		if !ok {
			t.Errorf("package %s has no place in the package graph (seam_test.go, rank)", pkg)
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			if ri, ok := rank[imp]; ok && ri >= r {
				t.Errorf("%s (rank %d) imports %s (rank %d): data must flow one way", pkg, r, imp, ri)
			}
		}
	}
	for pkg := range rank {
		if !seen[pkg] {
			t.Errorf("package %s is in the graph but not in the module", pkg)
		}
	}
}

// TestOnlySMTLinksCgo builds every package below check with cgo turned
// off (the obligation IR, the generators and the model checker know
// nothing of Z3), and checks that the only package with cgo files is the
// Z3 binding.
func TestOnlySMTLinksCgo(t *testing.T) {
	var pkgs []string
	for _, p := range cgoFree {
		pkgs = append(pkgs, "./"+p)
	}
	goTool(t, []string{"CGO_ENABLED=0"}, append([]string{"build"}, pkgs...)...)
	out := goTool(t, nil, "list", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", "./...")
	got := strings.Fields(out)
	sort.Strings(got)
	if strings.Join(got, " ") != module+"smt/z3" {
		t.Errorf("packages with cgo files: %v; want only smt/z3", got)
	}
}
