package mc

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/obl"
)

// Every value is one int64 slot: an integer, a boolean (0 or 1) or the id
// of a map in a mapTable. Compiled expressions read a register file that
// holds the variables of the code being run.

// evalFn is a compiled expression.
type evalFn func(r []int64) int64

// code is compiled code in continuation-passing style: it runs its
// command for every outcome and calls its (statically known) continuation
// for each, restoring the registers it changed before it returns.
type code func(x *exec)

// exec is the state of one run of compiled code.
type exec struct {
	r    []int64
	stop bool // abandon the run (a failure was found and the caller wants no more)
	// accessed says the transition has made its one access to a global
	// (access atomicity: the next access starts a transition of its own).
	accessed bool
	// onFail is called when an assert fails; the path ends there.
	onFail func(x *exec, a *obl.Assert)
	// run is the transition being computed, when running a model.
	run *run
	// loops holds, per private loop, the states each active entry of
	// the loop has passed (proc.go, privateLoop).
	loops map[*privateLoopID][]map[string]bool
}

// evalError is raised (as a panic) by compiled code that cannot go on:
// integer overflow, division by zero, a domain too large to enumerate.
type evalError struct {
	msg   string
	pos   lang.Pos // where, if the code that raised it knows; else the run finds it
	forks bool     // explore refuses the options for a program with forks (fork.go)
}

// Error returns the message.
func (e evalError) Error() string { return e.msg }

func fail(format string, args ...any) {
	panic(evalError{msg: fmt.Sprintf(format, args...)})
}

// domain is a finite range of integers.
type domain struct{ lo, hi int64 }

// String prints the domain as lo..hi.
func (d domain) String() string { return fmt.Sprintf("%d..%d", d.lo, d.hi) }

// size is the number of integers in the domain, or math.MaxInt64 if
// there are more: hi - lo overflows for a domain wider than half the
// int64 range, such as -2^62..2^62.
func (d domain) size() int64 {
	if d.hi < d.lo {
		return 0
	}
	if n := uint64(d.hi) - uint64(d.lo); n < math.MaxInt64 {
		return int64(n) + 1
	}
	return math.MaxInt64
}

// maxEnum bounds the number of values a havoc or quantifier enumerates.
const maxEnum = 1 << 20

// compiler compiles IR for one register file.
type compiler struct {
	dom  domain
	maps *mapTable
	reg  map[*obl.Var]int
	nreg int
	// assume turns asserts into assumes (the specification side of a
	// refinement check, where a failing run is simply not a run).
	assume bool
	// lazy maps the registers of owner's frame slots that may hold unset
	// to their slot: reading unset there chooses a value (lazy.go).
	lazy  map[int]int
	owner *cproc
}

func newCompiler(dom domain, maps *mapTable) *compiler {
	return &compiler{dom: dom, maps: maps, reg: map[*obl.Var]int{}, lazy: map[int]int{}}
}

// slot returns v's register, allocating one if v has none yet.
func (c *compiler) slot(v *obl.Var) int {
	if i, ok := c.reg[v]; ok {
		return i
	}
	c.reg[v] = c.nreg
	c.nreg++
	return c.nreg - 1
}

// bind gives v the register i (used to lay out globals and frames).
func (c *compiler) bind(v *obl.Var, i int) {
	c.reg[v] = i
	if i >= c.nreg {
		c.nreg = i + 1
	}
}

// ---- Expressions ----

func (c *compiler) expr(e obl.Expr) evalFn {
	switch e := e.(type) {
	case *obl.IntLit:
		if !e.V.IsInt64() || e.V.Int64() == unset {
			fail("integer literal %s does not fit in 64 bits", e.V)
		}
		n := e.V.Int64()
		return func([]int64) int64 { return n }
	case *obl.BoolLit:
		n := b2i(e.V)
		return func([]int64) int64 { return n }
	case *obl.EnumLit:
		n := int64(e.I)
		return func([]int64) int64 { return n }
	case *obl.VarRef:
		i := c.slot(e.V)
		if slot, ok := c.lazy[i]; ok {
			need := unsetRead{p: c.owner, slot: slot}
			return func(r []int64) int64 {
				if r[i] == unset {
					panic(need)
				}
				return r[i]
			}
		}
		return func(r []int64) int64 { return r[i] }
	case *obl.Unary:
		x := c.expr(e.X)
		if e.Op == obl.OpNot {
			return func(r []int64) int64 { return 1 - x(r) }
		}
		return func(r []int64) int64 { return neg(x(r)) }
	case *obl.Binary:
		return c.binary(e)
	case *obl.Ite:
		cond, th, el := c.expr(e.Cond), c.expr(e.Then), c.expr(e.Else)
		return func(r []int64) int64 {
			if cond(r) != 0 {
				return th(r)
			}
			return el(r)
		}
	case *obl.Select:
		m, k := c.expr(e.Map), c.expr(e.Key)
		t := c.maps
		return func(r []int64) int64 { return t.get(m(r), k(r)) }
	case *obl.Store:
		m, k, v := c.expr(e.Map), c.expr(e.Key), c.expr(e.Val)
		t, finite := c.maps, finiteKeysOf(e.Map)
		return func(r []int64) int64 { return t.set(m(r), k(r), v(r), finite) }
	case *obl.Quant:
		return c.quant(e)
	case *obl.Record:
		return c.record(e)
	case *obl.ConstMap:
		v, t := c.expr(e.V), c.maps
		return func(r []int64) int64 { return t.constant(v(r)) }
	case *obl.SeqApp:
		return c.seq(e)
	case *obl.Field:
		x, i, t := c.expr(e.X), int64(e.I), c.maps
		return func(r []int64) int64 { return t.get(x(r), i) }
	}
	panic(fmt.Sprintf("mc: unexpected expression %T", e))
}

func finiteKeysOf(m obl.Expr) int {
	s, err := obl.SortOf(m)
	if err != nil {
		panic(fmt.Sprintf("mc: ill-sorted map expression %s: %v", m, err))
	}
	return finiteKeys(s.(*obl.MapSort).Key)
}

// finiteKeys returns the number of values of a key sort that has
// finitely many (bool: 2, an enumeration: its members), or 0 for int.
// A map with finite keys is stored with the value at its last key as
// its default (normalizeFiniteMap), so that equal maps are one map.
func finiteKeys(s obl.Sort) int {
	switch s := s.(type) {
	case *obl.EnumSort:
		return len(s.Members)
	case obl.BasicSort:
		if s == obl.BoolSort {
			return 2
		}
	}
	return 0
}

// countTo returns 0, 1, ..., n-1.
func countTo(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (c *compiler) binary(e *obl.Binary) evalFn {
	x, y := c.expr(e.X), c.expr(e.Y)
	switch e.Op {
	case obl.OpAdd:
		return func(r []int64) int64 { return add(x(r), y(r)) }
	case obl.OpSub:
		return func(r []int64) int64 { return sub(x(r), y(r)) }
	case obl.OpMul:
		return func(r []int64) int64 { return mul(x(r), y(r)) }
	case obl.OpDiv:
		return func(r []int64) int64 { q, _ := divmod(x(r), y(r)); return q }
	case obl.OpMod:
		return func(r []int64) int64 { _, m := divmod(x(r), y(r)); return m }
	case obl.OpLt:
		return func(r []int64) int64 { return b2i(x(r) < y(r)) }
	case obl.OpLe:
		return func(r []int64) int64 { return b2i(x(r) <= y(r)) }
	case obl.OpGt:
		return func(r []int64) int64 { return b2i(x(r) > y(r)) }
	case obl.OpGe:
		return func(r []int64) int64 { return b2i(x(r) >= y(r)) }
	case obl.OpEq, obl.OpIff:
		return func(r []int64) int64 { return b2i(x(r) == y(r)) }
	case obl.OpNe:
		return func(r []int64) int64 { return b2i(x(r) != y(r)) }
	case obl.OpAnd:
		return func(r []int64) int64 {
			if x(r) == 0 {
				return 0
			}
			return y(r)
		}
	case obl.OpOr:
		return func(r []int64) int64 {
			if x(r) != 0 {
				return 1
			}
			return y(r)
		}
	case obl.OpImplies:
		return func(r []int64) int64 {
			if x(r) == 0 {
				return 1
			}
			return y(r)
		}
	}
	panic(fmt.Sprintf("mc: unexpected operator %v", e.Op))
}

// quant evaluates a quantifier by enumerating its bound variables over
// the domain (ints) or both truth values (bools).
func (c *compiler) quant(q *obl.Quant) evalFn {
	regs := make([]int, len(q.Bound))
	vals := make([][]int64, len(q.Bound))
	for i, v := range q.Bound {
		regs[i] = c.slot(v)
		vals[i] = c.values(v.Sort)
	}
	body := c.expr(q.Body)
	want := b2i(q.Exists) // the value that decides the quantifier
	var loop func(r []int64, i int) bool
	loop = func(r []int64, i int) bool {
		if i == len(regs) {
			return body(r) == want
		}
		for _, v := range vals[i] {
			r[regs[i]] = v
			if loop(r, i+1) {
				return true
			}
		}
		return false
	}
	return func(r []int64) int64 {
		if loop(r, 0) {
			return want
		}
		return 1 - want
	}
}

// values returns every value of sort s in the domain: the domain's
// integers, both booleans, or every map of the bounded class (see
// mapValues).
func (c *compiler) values(s obl.Sort) []int64 {
	switch s := s.(type) {
	case *obl.MapSort:
		return c.mapValues(s)
	case *obl.EnumSort:
		return countTo(len(s.Members))
	case *obl.RecordSort:
		return c.recordValues(s)
	case *obl.SeqSort:
		fail("the model checker cannot try every sequence of sort %s: give the variable an initial value instead of an arbitrary one (or a havoc)", s)
	}
	if s == obl.BoolSort {
		return []int64{0, 1}
	}
	if c.dom.lo == unset || c.dom.size() > maxEnum {
		fail("the integer domain %s is too large to enumerate", c.dom)
	}
	out := make([]int64, 0, c.dom.size())
	for v := c.dom.lo; v <= c.dom.hi; v++ {
		out = append(out, v)
	}
	return out
}

// mapValues enumerates the maps of sort s that the model checker
// considers: a value for every key of the domain (both keys for bool
// keys) and, for int keys, one default value for every other key, all
// drawn from the values of the value sort.
func (c *compiler) mapValues(s *obl.MapSort) []int64 {
	vals := c.values(s.Val)
	finite := finiteKeys(s.Key)
	var keys []int64
	if finite > 0 {
		keys = countTo(finite)
	} else {
		keys = c.values(obl.IntSort)
	}
	slots := len(keys)
	if finite == 0 {
		slots++ // the default
	}
	total := 1.0
	for i := 0; i < slots; i++ {
		total *= float64(len(vals))
	}
	if total > maxEnum {
		fail("too many maps of sort %s over the domain %s to enumerate (%.3g)", s, c.dom, total)
	}
	var out []int64
	choice := make([]int64, slots)
	var rec func(i int)
	rec = func(i int) {
		if i == slots {
			d := choice[0]
			if finite > 0 {
				d = choice[finite-1]
			}
			ks, vs := keys, choice
			if finite == 0 {
				vs = choice[1:]
			}
			out = append(out, c.maps.fromEntries(d, ks, vs, finite))
			return
		}
		for _, v := range vals {
			choice[i] = v
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

// ---- Arithmetic on 64-bit integers, failing on overflow ----

func add(a, b int64) int64 {
	s := a + b
	if (s > a) != (b > 0) || s == unset {
		fail("integer overflow in %d + %d (the model checker's integers are -(2^63-1)..2^63-1)", a, b)
	}
	return s
}

func sub(a, b int64) int64 {
	d := a - b
	if (d < a) != (b > 0) || d == unset {
		fail("integer overflow in %d - %d (the model checker's integers are -(2^63-1)..2^63-1)", a, b)
	}
	return d
}

func neg(a int64) int64 {
	if a == math.MinInt64 {
		fail("integer overflow in -(%d)", a)
	}
	return -a
}

func mul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	negative := (a < 0) != (b < 0)
	if hi != 0 || lo > math.MaxInt64 { // -2^63 too: it is unset
		fail("integer overflow in %d * %d (the model checker's integers are -(2^63-1)..2^63-1)", a, b)
	}
	if negative {
		return -int64(lo)
	}
	return int64(lo)
}

func abs(a int64) int64 {
	if a < 0 {
		return -a // MinInt64 stays negative; Mul64 of its bits is still right
	}
	return a
}

// divmod is Euclidean division: a == b*q + m and 0 <= m < |b|.
func divmod(a, b int64) (q, m int64) {
	if b == 0 {
		fail("division by zero (%d / 0): its value is unspecified", a)
	}
	if a == math.MinInt64 && b == -1 {
		fail("integer overflow in %d / -1", a)
	}
	q, m = a/b, a%b
	if m < 0 {
		if b > 0 {
			q, m = q-1, m+b
		} else {
			q, m = q+1, m-b
		}
	}
	return q, m
}

// ---- Commands ----

// cmd compiles c with continuation k.
func (c *compiler) cmd(cm obl.Cmd, k code) code {
	switch cm := cm.(type) {
	case *obl.Assume:
		e := c.expr(cm.E)
		return func(x *exec) {
			if e(x.r) != 0 {
				k(x)
			}
		}
	case *obl.Assert:
		e := c.expr(cm.E)
		if c.assume {
			return func(x *exec) {
				if e(x.r) != 0 {
					k(x)
				}
			}
		}
		return func(x *exec) {
			if e(x.r) != 0 {
				k(x)
			} else {
				x.onFail(x, cm)
			}
		}
	case *obl.Assign:
		return c.assign(cm, k)
	case *obl.Havoc:
		for i := len(cm.Vars) - 1; i >= 0; i-- {
			k = c.havoc(cm.Vars[i], k)
		}
		return k
	case *obl.Choice:
		return c.choice(cm, k)
	case *obl.Seq:
		for i := len(cm.Cmds) - 1; i >= 0; i-- {
			k = c.cmd(cm.Cmds[i], k)
		}
		return k
	}
	panic(fmt.Sprintf("mc: unexpected command %T", cm))
}

func (c *compiler) assign(a *obl.Assign, k code) code {
	if len(a.Lhs) == 1 {
		i, e := c.slot(a.Lhs[0]), c.expr(a.Rhs[0])
		return func(x *exec) {
			old := x.r[i]
			x.r[i] = e(x.r)
			k(x)
			x.r[i] = old
		}
	}
	regs := make([]int, len(a.Lhs))
	es := make([]evalFn, len(a.Lhs))
	for j := range a.Lhs {
		regs[j], es[j] = c.slot(a.Lhs[j]), c.expr(a.Rhs[j])
	}
	n := len(regs)
	return func(x *exec) {
		var buf [16]int64
		var vals, olds []int64
		if 2*n <= len(buf) {
			vals, olds = buf[:n], buf[n:2*n]
		} else {
			vals, olds = make([]int64, n), make([]int64, n)
		}
		for j, e := range es {
			vals[j] = e(x.r)
		}
		for j, i := range regs {
			olds[j] = x.r[i]
			x.r[i] = vals[j]
		}
		k(x)
		for j, i := range regs {
			x.r[i] = olds[j]
		}
	}
}

func (c *compiler) havoc(v *obl.Var, k code) code {
	i := c.slot(v)
	if _, ok := v.Sort.(*obl.SeqSort); ok {
		// An error when the havoc runs, so that the run names the
		// statement.
		return func(*exec) {
			fail("havoc of sequence %s: the model checker cannot try every sequence", v.Name)
		}
	}
	vals := c.values(v.Sort)
	return func(x *exec) {
		old := x.r[i]
		for _, val := range vals {
			x.r[i] = val
			k(x)
			if x.stop {
				break
			}
		}
		x.r[i] = old
	}
}

func (c *compiler) choice(ch *obl.Choice, k code) code {
	brs := make([]code, len(ch.Branches))
	for i, b := range ch.Branches {
		brs[i] = c.cmd(b, k)
	}
	return func(x *exec) {
		for _, b := range brs {
			b(x)
			if x.stop {
				return
			}
		}
	}
}
