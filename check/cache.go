package check

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/lipton-dev/lipton/obl"
	"github.com/lipton-dev/lipton/smt"
	"github.com/lipton-dev/lipton/vccache"
)

// The cache of proven obligations (package vccache). The key of an
// obligation is a digest of everything its verdict depends on:
//   - its formulas, as the SMT-LIB2 script that smt.WriteSMT2 prints
//     without its comments (which hold messages and positions), with its
//     constants renamed in the order of their declarations (some names
//     hold line numbers): moving a procedure's text, or editing another
//     procedure, does not change its verification conditions' keys;
//   - which asserts are witness asserts: the prover answers a witness
//     the other way round (obl.AnswerWitnesses), so one script is a
//     different question when its asserts are witnesses (found by the
//     corpus test: a vacuity check answered by another file's ordinary
//     obligation with the same formulas passed silently);
//   - the resource limit of a query;
//   - the Z3 library's version, and a digest of the lipton executable, so
//     that an entry never outlives the code that proved it: a new build
//     or a new Z3 starts from an empty cache.
// So a cached "proven" is exactly as trustworthy as a fresh one: the same
// formulas, given to the same solver by the same program, with the same
// limit. Only obligations whose every assert Z3 proved are stored.

// cacheSalt is the digest of the executable and the solver's version,
// computed once.
var cacheSalt = sync.OnceValues(func() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	fmt.Fprintf(h, "lipton proven-obligation cache v1\n%s\n", smt.SolverVersion())
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
})

// obligationKey returns the cache key of ob under the resource limit.
func obligationKey(ob *obl.Obligation, rlimit uint64) (vccache.Key, error) {
	salt, err := cacheSalt()
	if err != nil {
		return vccache.Key{}, err
	}
	var text bytes.Buffer
	if err := smt.WriteSMT2(&text, ob); err != nil {
		return vccache.Key{}, err
	}
	h := sha256.New()
	h.Write(salt)
	fmt.Fprintf(h, "rlimit %d\nasserts ", rlimit)
	for _, a := range ob.Asserts() {
		if a.Witness {
			h.Write([]byte{'w'})
		} else {
			h.Write([]byte{'a'})
		}
	}
	h.Write([]byte{'\n'})
	canonicalSMT(h, text.Bytes())
	var k vccache.Key
	copy(k[:], h.Sum(nil))
	return k, nil
}

// canonicalSMT writes the script without comments, its declared
// constants renamed in the order of their declarations. A new name is a
// NUL byte and the constant's number: no token of an SMT-LIB script
// starts with NUL (simple symbols cannot contain it, quoted ones start
// with |), so a new name never equals a symbol the renaming keeps, such
// as a quantifier's bound variable, which the script names after the
// source. With c0, c1, ... a constant renamed c0 inside `forall c0 ::`
// was captured: `forall c0 :: c0 <= x` and the valid `forall c0 :: c0 <=
// c0` had one key, and the second file's proof answered the first.
func canonicalSMT(w io.Writer, script []byte) {
	lines := bytes.Split(script, []byte{'\n'})
	names := map[string]string{}
	for _, line := range lines {
		if rest, ok := bytes.CutPrefix(line, []byte("(declare-const ")); ok {
			name := string(firstSymbol(rest))
			if _, seen := names[name]; !seen {
				names[name] = fmt.Sprintf("\x00%d", len(names))
			}
		}
	}
	for _, line := range lines {
		if len(line) == 0 || line[0] == ';' {
			continue
		}
		writeRenamed(w, line, names)
		w.Write([]byte{'\n'})
	}
}

// firstSymbol returns the SMT-LIB symbol at the start of b (|quoted| or
// simple).
func firstSymbol(b []byte) []byte {
	if len(b) > 0 && b[0] == '|' {
		if end := bytes.IndexByte(b[1:], '|'); end >= 0 {
			return b[:end+2]
		}
		return b
	}
	end := bytes.IndexAny(b, " ()\t")
	if end < 0 {
		return b
	}
	return b[:end]
}

// writeRenamed writes line with every symbol in names replaced.
func writeRenamed(w io.Writer, line []byte, names map[string]string) {
	for len(line) > 0 {
		c := line[0]
		if c == '(' || c == ')' || c == ' ' || c == '\t' {
			w.Write(line[:1])
			line = line[1:]
			continue
		}
		sym := firstSymbol(line)
		if len(sym) == 0 {
			sym = line[:1]
		}
		if r, ok := names[string(sym)]; ok {
			io.WriteString(w, r)
		} else {
			w.Write(sym)
		}
		line = line[len(sym):]
	}
}

// cachedRun splits obs into those the cache answers, whose results are
// given, and those left to the solver, whose keys are returned so that
// the proven ones can be stored.
type cachedRun struct {
	dir     *vccache.Dir
	rlimit  uint64
	results []obl.ObligationResult // for every obligation; set for hits
	hit     []bool
	keys    []vccache.Key
	keyOK   []bool
}

func newCachedRun(dir *vccache.Dir, obs []*obl.Obligation, rlimit uint64, jobs int) *cachedRun {
	c := &cachedRun{dir: dir, rlimit: rlimit, results: make([]obl.ObligationResult, len(obs)),
		hit: make([]bool, len(obs)), keys: make([]vccache.Key, len(obs)), keyOK: make([]bool, len(obs))}
	// The keys are independent: compute them on every worker.
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < max(jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(obs); i = int(next.Add(1) - 1) {
				c.lookup(i, obs[i])
			}
		}()
	}
	wg.Wait()
	return c
}

// lookup computes the key of obligation i and answers it if the cache
// has it.
func (c *cachedRun) lookup(i int, ob *obl.Obligation) {
	k, err := obligationKey(ob, c.rlimit)
	if err != nil {
		return // not cacheable: solve it
	}
	c.keys[i], c.keyOK[i] = k, true
	if c.dir.Has(k) {
		c.hit[i] = true
		c.results[i] = provenFromCache(ob)
	}
}

// misses returns the obligations the cache does not answer.
func (c *cachedRun) misses(obs []*obl.Obligation) []*obl.Obligation {
	var out []*obl.Obligation
	for i, ob := range obs {
		if !c.hit[i] {
			out = append(out, ob)
		}
	}
	return out
}

// merge puts the solver's results for the misses in place, stores the
// obligations Z3 proved entirely, and returns every result in order.
func (c *cachedRun) merge(solved []obl.ObligationResult) []obl.ObligationResult {
	j := 0
	for i := range c.results {
		if c.hit[i] || j >= len(solved) {
			continue
		}
		c.results[i] = solved[j]
		j++
		if c.keyOK[i] && allProven(solved[j-1]) {
			_ = c.dir.Put(c.keys[i]) // the cache is an optimization: a failed write costs a re-solve
		}
	}
	_, _ = c.dir.PruneIfDue(vccache.MaxEntries)
	return c.results
}

// hits returns how many obligations the cache answered.
func (c *cachedRun) hits() int {
	n := 0
	for _, h := range c.hit {
		if h {
			n++
		}
	}
	return n
}

func allProven(r obl.ObligationResult) bool {
	if r.Err != nil || len(r.Results) == 0 {
		return false
	}
	for _, a := range r.Results {
		if a.Verdict != obl.Proven {
			return false
		}
	}
	return true
}

// provenFromCache is the result of an obligation the cache answers.
func provenFromCache(ob *obl.Obligation) obl.ObligationResult {
	res := obl.ObligationResult{Obligation: ob}
	for _, a := range ob.Asserts() {
		res.Results = append(res.Results, obl.Result{Assert: a, Verdict: obl.Proven, Cached: true})
	}
	return res
}
