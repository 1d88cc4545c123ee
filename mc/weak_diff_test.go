package mc

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/lipton-dev/lipton/internal/randprog"
	"github.com/lipton-dev/lipton/lang"
)

// fenceEveryWrite returns src with a fence after every statement of a
// layer-0 procedure that writes a global of the implementation outside
// a [ ] group (a group that writes is a locked instruction already).
func fenceEveryWrite(t *testing.T, name, src string) string {
	t.Helper()
	f, _, err := lang.ParseAndCheck(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	for _, l := range f.Layers {
		if l.Num != 0 {
			continue
		}
		for _, m := range l.Members {
			if p, ok := m.(*lang.Proc); ok {
				fenceBlock(p.Body)
			}
		}
	}
	return string(lang.Format(f))
}

func fenceBlock(b *lang.Block) {
	if b != nil {
		b.Stmts = fenceStmts(b.Stmts)
	}
}

func fenceStmts(ss []lang.Stmt) []lang.Stmt {
	var out []lang.Stmt
	for _, s := range ss {
		out = append(out, s)
		switch s := s.(type) {
		case *lang.IfStmt:
			fenceBlock(s.Then)
			fenceElse(s.Else)
		case *lang.WhileStmt:
			fenceBlock(s.Body)
		case *lang.ChoiceStmt:
			for _, br := range s.Branches {
				fenceBlock(br)
			}
		case *lang.BlockStmt:
			fenceBlock(s.Block)
		}
		if writesRealGlobal(s) {
			out = append(out, &lang.FenceStmt{StmtBase: lang.StmtBase{P: s.Pos(), End: lang.Base(s).End}})
		}
	}
	return out
}

func fenceElse(s lang.Stmt) {
	switch s := s.(type) {
	case *lang.IfStmt:
		fenceBlock(s.Then)
		fenceElse(s.Else)
	case *lang.BlockStmt:
		fenceBlock(s.Block)
	}
}

// writesRealGlobal reports whether a simple statement assigns a global
// variable that is not ghost.
func writesRealGlobal(s lang.Stmt) bool {
	var ids []*lang.Ident
	switch s := s.(type) {
	case *lang.AssignStmt:
		for _, lv := range s.Lhs {
			ids = append(ids, lv.Name)
		}
	case *lang.HavocStmt:
		ids = s.Vars
	}
	for _, id := range ids {
		if id.Obj != nil && id.Obj.Kind == lang.ObjGlobal && !id.Obj.Ghost {
			return true
		}
	}
	return false
}

// weakDiffBudget bounds each search of the differential test; searches
// that reach it are not compared.
const weakDiffBudget = 150_000

// TestFencedTSOIsSC is a differential test: for random programs
// (internal/randprog) with a fence after every write, TSO and PSO give
// exactly the verdicts of sequential consistency (with the same access
// atomicity), for safety and for linearizability. A write followed by a
// fence reaches memory before its thread does anything else, so the
// store buffers change nothing that can be observed. The same programs
// without the fences must differ somewhere, or the test would prove
// nothing.
func TestFencedTSOIsSC(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 10
	}
	r := rand.New(rand.NewSource(15))
	compared, violations, unfencedDiffer := 0, 0, 0
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("gen%d.lip", i)
		plain := randprog.Generate(r)
		src := fenceEveryWrite(t, name, plain)
		for _, v := range memoryVerdicts(t, name, src) {
			compared++
			if v[MemorySC] != "ok" {
				violations++
			}
			for _, mm := range memories[1:] {
				if v[mm] != v[MemorySC] {
					t.Errorf("%s: SC says %s, %s says %s\n%s", name, v[MemorySC], mm, v[mm], src)
				}
			}
		}
		for _, v := range memoryVerdicts(t, name, plain) {
			if v[MemoryTSO] != v[MemorySC] || v[MemoryPSO] != v[MemorySC] {
				unfencedDiffer++
			}
		}
	}
	t.Logf("%d searches compared, %d of them with a violation under SC; without the fences %d differ", compared, violations, unfencedDiffer)
	if compared < n/2 || !testing.Short() && (violations == 0 || unfencedDiffer == 0) {
		t.Errorf("too few searches compared (%d), or none with a violation (%d), or none that the fences matter to (%d)",
			compared, violations, unfencedDiffer)
	}
}

// memoryVerdicts runs every instance of a program at layer 0 for safety
// and, if it has a specification, for linearizability, under every
// memory model, and returns the verdicts of the searches that completed.
func memoryVerdicts(t *testing.T, name, src string) []map[Memory]string {
	t.Helper()
	prog := loadSrc(t, name, src)
	var insts []string
	for in := range prog.Info.Instances {
		insts = append(insts, in)
	}
	sort.Strings(insts)
	var out []map[Memory]string
	for _, in := range insts {
		modes := []Mode{ModeSafety}
		if len(prog.Layers) > 1 {
			modes = append(modes, ModeLinearizability)
		}
		for _, mode := range modes {
			v := map[Memory]string{}
			for _, mm := range memories {
				res, err := Run(prog, Options{Instance: in, Mode: mode, Memory: mm, Atomicity: AtomicityAccess, MaxStates: weakDiffBudget})
				if err != nil {
					t.Fatalf("%s: %v\n%s", name, err, src)
				}
				if res.Status == Incomplete && !res.Vacuous {
					v = nil
					break
				}
				v[mm] = verdictOf(res)
			}
			if v != nil {
				out = append(out, v)
			}
		}
	}
	return out
}

// verdictOf summarizes a result for comparison: ok, vacuous, or the
// kind of failure.
func verdictOf(res *Result) string {
	switch {
	case res.Vacuous:
		return "vacuous"
	case res.Status == Violation:
		return res.Failure.Kind
	}
	return "ok"
}
