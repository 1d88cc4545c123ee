package mc

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// TestControlFlowOnRandomPrograms runs explore's static analyses of
// control flow (partial-order reduction's fragments, dead variables,
// the variables that may be read before they are written) on random
// layer-0 procedures with the shapes the programs of the differential
// soundness test do not have: branches, loops of private statements
// with break and return inside, returns in branches, yields between,
// a caller that reads the output (and a thread that calls p itself,
// whose exit is its return), and a third thread that writes the global
// p's ensures reads. Two oracles:
//
//   - the reductions: no reductions, all, dead variables alone and
//     partial-order reduction alone give the same status, and dead
//     variables alone a failure at the same depth (compareFlow; the
//     kind of the failure found first may differ: these programs often
//     have two, an assert and p's ensures, and a reduced graph may reach
//     the deeper one first, while the other stays reachable);
//   - the initial values: the program again with every local and
//     output of p havocked when p starts gives the same verdict (a
//     variable the analysis wrongly thinks written first starts at 0
//     instead of every value).
//
// A return inside a private loop, which the graph does not connect to
// the exit (flowSuccs), is the kind of corner this test is for. A third
// of the programs keep p's code private, with a private loop between
// two yields and no caller thread: there a partial-order reduction
// that misses the exit's ensures behind a loop's return runs p's
// fragment before w's write and loses the failure (program 29 without
// flowSuccs in por.go), which the programs with globals in p hide
// (another step of p, or the caller waiting at p's exit, meets w's
// write anyway).
func TestControlFlowOnRandomPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("random programs take a while")
	}
	compared := 0
	for seed := int64(0); seed < 150; seed++ {
		src := randomFlowProgram(rand.New(rand.NewSource(seed)), false)
		prog, ok := parseFlow(t, src)
		if !ok {
			continue
		}
		path := fmt.Sprintf("flow program %d", seed)
		before := t.Failed()
		n := compareFlow(t, prog, path, Options{Instance: "i"})
		n += compareFlow(t, prog, path, Options{Instance: "i", Atomicity: AtomicityAccess})
		if n == 2 && compareHavocked(t, prog, seed) {
			compared++
		}
		if t.Failed() && !before {
			t.Logf("%s:\n%s", path, src)
		}
	}
	t.Logf("%d random programs compared", compared)
	if compared < 100 {
		t.Errorf("only %d of 150 random programs compared: the generator lost its programs", compared)
	}
}

// compareFlow runs one search without reductions, with all, with dead
// variables alone and with partial-order reduction alone; it returns 1
// if it compared them.
func compareFlow(t *testing.T, prog *layers.Program, path string, opts Options) int {
	t.Helper()
	var status [4]Status
	var depth [4]int
	for i, off := range [][3]bool{{true, true, true}, {false, false, false}, {true, true, false}, {false, true, true}} {
		o := opts
		o.NoPOR, o.NoSymmetry, o.NoDeadVars, o.MaxStates = off[0], off[1], off[2], reductionBudget
		res, err := runShared(prog, o)
		if err != nil || res.Status == Incomplete {
			return 0
		}
		status[i], depth[i] = res.Status, len(res.Trace)
		if res.Failure != nil {
			checkTrace(t, res)
		}
	}
	if status[1] != status[0] || status[2] != status[0] || status[3] != status[0] || depth[2] != depth[0] {
		t.Errorf("%s atomicity %s: status (none, all, dead, por) %v, trace lengths %v", path, opts.Atomicity, status, depth)
	}
	return 1
}

func parseFlow(t *testing.T, src string) (*layers.Program, bool) {
	f, info, err := lang.ParseAndCheck("flow.lip", []byte(src))
	if err != nil {
		t.Logf("generated program rejected: %v\n%s", err, src)
		return nil, false
	}
	return layers.Build(f, info), true
}

// compareHavocked compares prog, without reductions, with the same
// program whose p havocs its locals and output first.
func compareHavocked(t *testing.T, prog *layers.Program, seed int64) bool {
	src := randomFlowProgram(rand.New(rand.NewSource(seed)), true)
	hav, ok := parseFlow(t, src)
	if !ok {
		t.Errorf("flow program %d: the havocked program does not parse", seed)
		return false
	}
	o := Options{Instance: "i", NoPOR: true, NoSymmetry: true, NoDeadVars: true, MaxStates: reductionBudget}
	a, errA := runShared(prog, o)
	b, errB := Run(hav, o)
	if errA != nil || errB != nil || a.Status == Incomplete || b.Status == Incomplete {
		return false
	}
	if a.Status != b.Status {
		t.Errorf("flow program %d: %v, but %v when p havocs its variables first\n%s", seed, a.Status, b.Status, src)
	}
	return true
}

// randomFlowProgram returns a program whose procedure p mixes local
// and global steps, yields, branches and private loops with break and
// return, called by m, which asserts on p's output. With havoc, p
// havocs its locals and output first.
func randomFlowProgram(r *rand.Rand, havoc bool) string {
	// A third of the programs keep p's globals out of its code: only
	// the ensures reads one, so partial-order reduction may run p's
	// fragments alone, and only the fragments that reach the exit
	// (through a return in a private loop, too) must wait for w.
	g := &flowGen{r: r, private: r.Intn(3) == 0}
	var b strings.Builder
	b.WriteString("var g: int = 0;\nvar h: int = 1;\n\nlayer 0 {\n")
	// p's ensures and w's write often name the same value, which the
	// ensures excludes: whether p reaches its exit before or after w's
	// write then decides the verdict, which a reduced graph must keep.
	k := 1 + r.Intn(3)
	ens := ""
	if r.Intn(2) == 0 {
		ens = fmt.Sprintf(" ensures g != %d", k)
	}
	written := k
	if r.Intn(2) == 0 {
		written = r.Intn(4)
	}
	fmt.Fprintf(&b, "  proc p(linear tid: int) returns (r: int)%s\n  {\n    var a, c, i: int;\n", ens)
	if havoc {
		b.WriteString("    havoc a, c, i, r;\n")
	}
	body := g.block(2, 3+r.Intn(4))
	if g.private {
		// always a private loop, often one that returns
		body = append(append(g.block(1, 1+r.Intn(2)), g.privateLoop()...), g.block(1, 1+r.Intn(2))...)
	}
	for _, s := range body {
		b.WriteString("    " + s + "\n")
	}
	if r.Intn(2) == 0 {
		// the output written last: written earlier, it is dead at the
		// yields between unless some path returns before this
		fmt.Fprintf(&b, "    r := %d;\n", r.Intn(3))
	}
	b.WriteString("  }\n\n")
	fmt.Fprintf(&b, "  proc m(linear tid: int)\n  {\n    var z: int;\n    call z := p(tid);\n    assert z != %d;\n  }\n\n", r.Intn(4))
	fmt.Fprintf(&b, "  proc w(linear tid: int) { g := %d; }\n}\n\n", written)
	// A private p has no caller thread: a thread that waits at p's exit
	// to return to m would see w's write as interference with the
	// ensures there, whatever the reduction did before.
	caller := "  thread t(tid = 1) calls m max 1;\n"
	if g.private {
		caller = ""
	}
	b.WriteString("instance i {\n" + caller + "  thread s(tid = 2) calls p max 1;\n  thread u(tid = 3) calls w max 1;\n  ints -1..4;\n}\n")
	return b.String()
}

type flowGen struct {
	r       *rand.Rand
	private bool // p's statements touch no global
}

// block returns n statements, nested at most depth deep.
func (g *flowGen) block(depth, n int) []string {
	var out []string
	for k := 0; k < n; k++ {
		out = append(out, g.stmt(depth)...)
	}
	return out
}

func (g *flowGen) stmt(depth int) []string {
	r := g.r
	simple := []string{
		"a := a + 1;", "c := a;", "r := c;", "r := a + c;", "a := g;", "c := h;",
		"g := a;", "h := c;", "[g := g + 1; r := g;]", "yield;", "yield;", "r := 3; yield;",
		fmt.Sprintf("assert g != %d;", r.Intn(5)), "a := 0;", "r := 1;",
	}
	if g.private {
		simple = []string{"a := a + 1;", "c := a;", "r := c;", "r := a + c;", "yield;", "yield;", "r := 3; yield;", "a := 0;", "r := 1;"}
	}
	if depth == 0 || r.Intn(3) > 0 {
		return []string{simple[r.Intn(len(simple))]}
	}
	switch r.Intn(3) {
	case 0:
		s := []string{fmt.Sprintf("if (%s) {", g.cond())}
		s = append(s, indent(g.block(depth-1, 1+r.Intn(2)))...)
		if r.Intn(2) == 0 {
			s = append(s, "  return;")
		}
		s = append(s, "} else {")
		s = append(s, indent(g.block(depth-1, 1+r.Intn(2)))...)
		return append(s, "}")
	case 1:
		return g.privateLoop()
	}
	return []string{fmt.Sprintf("if (%s) {", g.cond()), "  return;", "}"}
}

// privateLoop is a loop of private statements only (no yield, no
// global): the graph summarizes it by one node. Half of them stand
// between two yields, so that a fragment may run from a yield through
// the loop's return to the exit with no global access on the way.
func (g *flowGen) privateLoop() []string {
	r := g.r
	between := r.Intn(2) == 0
	var s []string
	if between {
		s = append(s, "yield;")
	}
	s = append(s, "i := 0;", "while (i < 2) {")
	body := []string{"a := a + i;", "c := c - 1;", "r := i;", "r := a;",
		fmt.Sprintf("if (%s) { return; }", g.cond()), fmt.Sprintf("if (%s) { break; }", g.cond())}
	for k := 0; k < 1+r.Intn(3); k++ {
		s = append(s, "  "+body[r.Intn(len(body))])
	}
	s = append(s, "  i := i + 1;", "}")
	if between {
		s = append(s, "yield;")
	}
	return s
}

func (g *flowGen) cond() string {
	return []string{"a > 0", "c == 1", "r != 0", "a == c", "i == 1"}[g.r.Intn(5)]
}

func indent(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "  " + s
	}
	return out
}
