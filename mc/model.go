package mc

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// DefaultInts is the integer domain of an instance without an `ints`
// clause.
var DefaultInts = Domain{0, 3}

// maxInitial bounds the number of initial states (valuations of
// uninitialized globals and uninterpreted constants).
const maxInitial = 1 << 20

// maxDepth bounds the call stack of a thread (procedures may recurse).
const maxDepth = 64

// model is one layer of a program compiled for one instance: the threads,
// the public methods they call, every procedure's control-flow graph as
// compiled code, and the initial states.
type model struct {
	prog  *layers.Program
	layer *layers.Layer
	inst  *lang.Instance
	dom   domain
	maps  *mapTable
	// spec is set for the specification side of a refinement check:
	// asserts are assumed (a run that would fail is no run), annotations
	// are not checked, and a method returns in a step of its own.
	spec bool
	// access: layer 0 interleaves at every access to a global (access.go);
	// annotations, invariants and interference are not checked.
	access bool
	// linear: the layer has linear globals or linear frame variables,
	// whose disjointness every state must keep (checkLinear).
	linear bool
	// memory is the memory model (weak.go); under tso and pso access is
	// set too. isMap and finiteKeys describe each global slot, realSlots
	// are the slots whose writes are buffered; bufferFull records that
	// a write waited for a full buffer.
	memory     Memory
	isMap      []bool
	finiteKeys []int
	realSlots  []int
	bufferFull atomic.Bool

	b    *layers.Builder
	genv *layers.Env

	globals []*lang.Object // the layer's globals, then the uninterpreted constants
	gvars   []*obl.Var     // their IR variables: register i holds slot i
	nconst  int            // how many of globals are constants (at the end)
	inits   [][]int64      // initial valuations of globals

	procs []*cproc
	// moverProcs is set when some procedure calls a mover procedure
	// (midfrag.go).
	moverProcs bool
	procOf     map[lang.Member]*cproc
	methods    []*method
	roles      []*role
	threads    []*threadInfo

	inv      evalFn   // the layer's invariants over the globals, nil if none
	invs     []evalFn // each invariant, to tell which one fails
	invReads uint64   // globals the invariants read (bit i: global i)

	recursive bool     // some procedure may call itself
	forks     bool     // some procedure has a parallel call with a procedure arm (fork.go)
	forkPos   lang.Pos // the first such call
	porOff    string   // why partial-order reduction is off
	notes     []string // semantic choices worth telling the user
}

// role is a thread declaration of the instance.
type role struct {
	name   string
	decl   *lang.ThreadDecl
	lo, hi int64
	first  int // index of its first thread
	max    int // calls per thread; 0: unbounded
	calls  []*callChoice
	sym    bool   // symmetry reduction applies to the role
	noSym  string // why it does not, if it has several threads
	// tainted are, per procedure, the frame slots that may hold one of
	// the role's thread identities (symmetry.go).
	tainted map[*cproc][]bool
}

// callChoice is a method a role calls with the argument tuples to try.
type callChoice struct {
	m    *method
	args [][]int64 // values of the method's parameters; the tid slot is filled per thread
	tid  int       // index of the parameter receiving the thread id, or -1
	// sets are the parameters receiving the thread's linear sets: the
	// index of the parameter, and the index of the set in the role's
	// ThreadDecl.Sets.
	sets []setSlot
}

// setSlot is a parameter that receives one of the thread's linear sets.
type setSlot struct{ param, set int }

// fill puts the thread's identity and linear sets into an argument tuple
// of cc (a copy of args).
func (cc *callChoice) fill(args []int64, ti *threadInfo) []int64 {
	a := append([]int64(nil), args...)
	if cc.tid >= 0 {
		a[cc.tid] = ti.tid
	}
	for _, s := range cc.sets {
		a[s.param] = ti.sets[s.set]
	}
	return a
}

// threadInfo is one thread of the instance.
type threadInfo struct {
	role *role
	tid  int64
	sets []int64 // the map ids of the thread's linear sets (ThreadDecl.Sets)
}

// String names the thread: role(tid).
func (t *threadInfo) String() string { return fmt.Sprintf("%s(%d)", t.role.name, t.tid) }

// method is a public method at the model's layer.
type method struct {
	name   string
	idx    int
	proc   *cproc
	atomic bool   // an action executed with its call and return in one step
	guard  evalFn // the requires (client contract), over proc's registers
	// In a refinement check whose specification's requires of the method
	// reads only what this layer has (contract.go): that requires over
	// proc's registers, as IR, and the globals it reads. nil otherwise.
	specGuard evalFn
	specIR    obl.Expr
	specReads uint64
	// disturbedBy: by method index, whether that method may write a
	// global that specGuard reads (it is then not evaluated while such a
	// method is in progress). disturbing: the method disturbs some
	// method's specGuard.
	disturbedBy []bool
	disturbing  bool
	// visible parameters and outputs (not ghost): frame slots.
	inSlots, outSlots []int
}

// modelOptions select how a layer is compiled.
type modelOptions struct {
	// spec compiles the layer as the specification of a refinement
	// check (see model.spec).
	spec bool
	// maps shares a map table with another model (so that map values
	// compare across models); nil makes a new one.
	maps *mapTable
	// access compiles layer 0 for access atomicity.
	access bool
	// memory is the memory model layer 0 runs under.
	memory Memory
}

// newModel compiles layer num of prog for instance inst.
func newModel(prog *layers.Program, inst *lang.Instance, num int, opts modelOptions) (m *model, err error) {
	if num < 0 || num >= len(prog.Layers) {
		return nil, fmt.Errorf("there is no layer %d (the layers are 0..%d)", num, len(prog.Layers)-1)
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(evalError)
			if !ok {
				panic(r)
			}
			m, err = nil, e
		}
	}()
	prog = layers.ForExecution(prog)
	m = &model{prog: prog, layer: prog.Layers[num], inst: inst, spec: opts.spec, access: opts.access, memory: opts.memory,
		maps: opts.maps, procOf: map[lang.Member]*cproc{}}
	if m.maps == nil {
		m.maps = newMapTable()
	}
	m.dom = DefaultInts.internal()
	if inst.Ints != nil {
		m.dom = domain{inst.Ints.Lo, inst.Ints.Hi}
	} else {
		m.note("the instance has no ints clause: the integer domain is %s", m.dom)
	}
	m.b = layers.NewBuilder(prog)
	m.genv = m.b.Globals(m.layer, "", "globals")
	m.layoutGlobals()
	m.setupWeak()
	if err := m.compileCode(); err != nil {
		return nil, err
	}
	m.linear = m.usesLinear()
	if n := m.arbitraryNote(); n != "" {
		m.note("%s", n)
	}
	if err := m.buildMethods(); err != nil {
		return nil, err
	}
	if err := m.buildThreads(); err != nil {
		return nil, err
	}
	if err := m.initialStates(); err != nil {
		return nil, err
	}
	m.symmetry()
	for _, p := range m.procs {
		p.regs = make([]int64, p.c.nreg)
	}
	return m, nil
}

func (m *model) note(format string, args ...any) {
	m.notes = append(m.notes, fmt.Sprintf(format, args...))
}

// layoutGlobals gives every global and uninterpreted constant its slot.
func (m *model) layoutGlobals() {
	for _, g := range m.layer.Globals {
		m.globals = append(m.globals, g)
		m.gvars = append(m.gvars, m.genv.Var(g))
	}
	for _, c := range m.prog.Info.Consts {
		if c.Decl.(*lang.ConstDecl).Value != nil {
			continue
		}
		ref, ok := m.b.Expr(&lang.Ident{Name: c.Name, Obj: c}, m.genv).(*obl.VarRef)
		if !ok {
			continue
		}
		m.globals = append(m.globals, c)
		m.gvars = append(m.gvars, ref.V)
		m.nconst++
	}
}

// nglob is the number of global slots.
func (m *model) nglob() int { return len(m.gvars) }

// newCompiler returns a compiler with the globals in registers 0..G-1.
func (m *model) newCompiler() *compiler {
	c := newCompiler(m.dom, m.maps)
	c.assume = m.spec
	for i, v := range m.gvars {
		c.bind(v, i)
	}
	return c
}

// globalMask returns the set of global slots that e reads.
func (m *model) globalMask(e obl.Expr) uint64 {
	var mask uint64
	for _, v := range obl.FreeVars(e) {
		for i, g := range m.gvars {
			if g == v && i < 64 {
				mask |= 1 << i
			}
		}
	}
	return mask
}

// zeroOf returns the default value of a type: 0, false, the constant
// map of the value type's default, the record of its fields' defaults, or
// the empty sequence.
func (m *model) zeroOf(t lang.Type) int64 { return m.zeroOfSort(layers.SortOf(t)) }

// compileCode compiles every procedure and action of the layer and the
// layer's invariants.
func (m *model) compileCode() error {
	for _, p := range m.layer.Procs {
		cp := m.newProc(p.Decl, &p.Decl.Signature)
		cp.lp = layers.ForExplore(p) // a parallel call's arms in every order
		m.procOf[p.Decl] = cp
	}
	for _, a := range m.layer.Actions {
		if !a.Public {
			continue // actions called inside steps are inlined
		}
		cp := m.newProc(a.Decl, &a.Decl.Signature)
		cp.action = a.Decl
		m.procOf[a.Decl] = cp
	}
	for _, cp := range m.procs {
		if cp.lp != nil {
			m.compileProc(cp)
		} else {
			m.compileAction(cp)
		}
	}
	if len(m.layer.Invariants) > 0 {
		c := m.newCompiler()
		e := m.b.Conj(m.layer.Invariants, m.genv)
		m.inv = c.expr(e)
		m.invReads = m.globalMask(e)
		for _, inv := range m.layer.Invariants {
			m.invs = append(m.invs, c.expr(m.b.Expr(inv, m.genv)))
		}
	}
	m.recursive = m.findRecursion()
	return nil
}

// findRecursion reports whether the call graph has a cycle.
func (m *model) findRecursion() bool {
	state := map[*cproc]int{} // 1: on the stack, 2: done
	var visit func(p *cproc) bool
	visit = func(p *cproc) bool {
		state[p] = 1
		for _, q := range p.callees() {
			if state[q] == 1 || state[q] == 0 && visit(q) {
				return true
			}
		}
		state[p] = 2
		return false
	}
	for _, p := range m.procs {
		if state[p] == 0 && visit(p) {
			return true
		}
	}
	return false
}

// buildMethods collects the public methods at this layer.
func (m *model) buildMethods() error {
	for _, name := range m.prog.Info.PublicMethods() {
		mem := m.prog.Info.Layers[m.layer.Num].Members[name]
		cp := m.procOf[mem]
		if cp == nil {
			return fmt.Errorf("public method %s has no code at layer %d", name, m.layer.Num)
		}
		mt := &method{name: name, idx: len(m.methods), proc: cp, atomic: cp.action != nil && !m.spec}
		cp.method = mt
		sig := cp.sig
		mt.guard = cp.c.expr(m.b.Conj(sig.Requires, cp.env))
		for i, p := range sig.Params {
			if !p.Ghost {
				mt.inSlots = append(mt.inSlots, i)
			}
		}
		for i, p := range sig.Returns {
			if !p.Ghost {
				mt.outSlots = append(mt.outSlots, len(sig.Params)+i)
			}
		}
		m.methods = append(m.methods, mt)
	}
	return nil
}

func (m *model) method(name string) *method {
	for _, mt := range m.methods {
		if mt.name == name {
			return mt
		}
	}
	return nil
}

// buildThreads creates the roles and threads of the instance.
func (m *model) buildThreads() error {
	for _, td := range m.inst.Threads {
		r := &role{name: td.Role.Name, decl: td, lo: td.Tids.Lo, hi: td.Tids.Hi, first: len(m.threads), max: td.Max}
		for _, cs := range td.Calls {
			cc, err := m.callChoice(td, cs)
			if err != nil {
				return err
			}
			r.calls = append(r.calls, cc)
		}
		for tid := r.lo; tid <= r.hi; tid++ {
			m.threads = append(m.threads, &threadInfo{role: r, tid: tid, sets: m.threadSets(td, tid)})
			if len(m.threads) > 255 {
				return fmt.Errorf("instance %s has more than 255 threads", m.inst.Name.Name)
			}
		}
		if r.max == 0 {
			m.note("threads of role %s call methods without bound (no max): the search ends only if the state space is finite", r.name)
		}
		m.roles = append(m.roles, r)
	}
	return nil
}

// threadSets returns the map ids of the linear sets of thread tid of
// role td: maps to bool, true exactly at the set's members. A set's key
// sort is known from the methods that receive it (lang checks that they
// agree with the members); without one it is int.
func (m *model) threadSets(td *lang.ThreadDecl, tid int64) []int64 {
	var ids []int64
	for _, ts := range td.Sets {
		finite := m.setKeys(td, ts.Param.Name)
		var keys, vals []int64
		for _, v := range ts.Sets[tid-td.Tids.Lo].Values() {
			keys, vals = append(keys, v), append(vals, 1)
		}
		ids = append(ids, m.maps.fromEntries(0, keys, vals, finite))
	}
	return ids
}

// setKeys is finiteKeys of the key sort of linear set parameter name of
// the methods role td calls.
func (m *model) setKeys(td *lang.ThreadDecl, name string) int {
	for _, cs := range td.Calls {
		if mt := m.method(cs.Method.Name); mt != nil {
			for _, p := range mt.proc.sig.Params {
				if p.Name.Name == name && p.Linear {
					if mt, ok := p.Name.Obj.Type.(*lang.MapType); ok {
						return finiteKeys(layers.SortOf(mt.Key))
					}
				}
			}
		}
	}
	return 0
}

// setIndex is the index of the linear set name among td's, or -1.
func setIndex(td *lang.ThreadDecl, name string) int {
	for i, ts := range td.Sets {
		if ts.Param.Name == name {
			return i
		}
	}
	return -1
}

// callChoice enumerates the arguments a role passes to a method.
func (m *model) callChoice(td *lang.ThreadDecl, cs *lang.CallSpec) (*callChoice, error) {
	mt := m.method(cs.Method.Name)
	if mt == nil {
		return nil, fmt.Errorf("%s is not a public method at layer %d", cs.Method.Name, m.layer.Num)
	}
	cc := &callChoice{m: mt, tid: -1}
	var domains [][]int64
	for i, p := range mt.proc.sig.Params {
		var vals []int64
		switch {
		case p.Name.Name == td.TidParam.Name:
			cc.tid = i
			vals = []int64{0}
		case p.Linear && setIndex(td, p.Name.Name) >= 0:
			cc.sets = append(cc.sets, setSlot{i, setIndex(td, p.Name.Name)})
			vals = []int64{0}
		case p.Linear:
			return nil, fmt.Errorf("%s: linear parameter %s of %s gets no value: only the thread identity %s and the role's linear sets are passed to methods",
				td.Role.P, p.Name.Name, mt.name, td.TidParam.Name)
		default:
			var err error
			if vals, err = m.argValues(cs, p); err != nil {
				return nil, err
			}
		}
		domains = append(domains, vals)
	}
	cc.args = product(domains)
	if len(cc.args) > maxInitial {
		return nil, fmt.Errorf("%s: too many argument tuples for %s (%d)", td.Role.P, mt.name, len(cc.args))
	}
	return cc, nil
}

func (m *model) argValues(cs *lang.CallSpec, p *lang.Param) ([]int64, error) {
	for _, a := range cs.Args {
		if a.Param.Name == p.Name.Name {
			var vals []int64
			for v := a.Range.Lo; v <= a.Range.Hi; v++ {
				vals = append(vals, v)
			}
			return vals, nil
		}
	}
	if _, ok := p.Name.Obj.Type.(*lang.MapType); ok {
		return nil, fmt.Errorf("%s: parameter %s of %s is a map: the model checker cannot choose its value", cs.Method.P, p.Name.Name, cs.Method.Name)
	}
	c := m.newCompiler()
	return c.values(layers.SortOf(p.Name.Obj.Type)), nil
}

// product returns the cartesian product of domains, in lexicographic
// order.
func product(domains [][]int64) [][]int64 {
	out := [][]int64{{}}
	for _, d := range domains {
		var next [][]int64
		for _, prefix := range out {
			for _, v := range d {
				t := append(append([]int64(nil), prefix...), v)
				next = append(next, t)
			}
		}
		out = next
	}
	return out
}

// initialStates enumerates the initial valuations of the globals:
// initializers where given; otherwise every value of the domain for ints
// and both for bools; maps without initializer start as the constant
// map of their value type's default (0, false).
func (m *model) initialStates() error {
	c := m.newCompiler()
	var domains [][]int64
	var inits []evalFn
	var uninit []string
	for _, g := range m.globals {
		var init lang.Expr
		if d, ok := g.Decl.(*lang.VarDecl); ok {
			init = d.Init
		}
		if init != nil {
			inits = append(inits, c.expr(m.b.Expr(init, m.genv)))
			domains = append(domains, []int64{0})
			continue
		}
		inits = append(inits, nil)
		if mt, ok := g.Type.(*lang.MapType); ok {
			domains = append(domains, []int64{m.zeroOf(mt)})
			m.note("%s %s has no initial value: it starts as the constant map %s", g.Kind, g.Name, m.showValue(m.zeroOf(mt), g.Type))
			continue
		}
		if _, isSeq := g.Type.(*lang.SeqType); isSeq {
			panic(evalError{msg: fmt.Sprintf("%s %s has no initial value, and the model checker cannot try every sequence: give it one", g.Kind, g.Name), pos: g.Pos})
		}
		domains = append(domains, c.values(layers.SortOf(g.Type)))
		uninit = append(uninit, g.Name)
	}
	if len(uninit) > 0 {
		m.note("%s without initial value take every value of the domain (%s for ints)", strings.Join(uninit, ", "), m.dom)
	}
	total := 1
	for _, d := range domains {
		total *= len(d)
		if total > maxInitial {
			return fmt.Errorf("too many initial states (more than %d)", maxInitial)
		}
	}
	r := make([]int64, c.nreg)
	for _, vals := range product(domains) {
		copy(r, vals)
		// Initializers may read constants and earlier globals.
		for i, f := range inits {
			if f != nil {
				r[i] = f(r)
			}
		}
		m.inits = append(m.inits, append([]int64(nil), r[:m.nglob()]...))
	}
	return nil
}

// showValue prints a slot of type t.
func (m *model) showValue(v int64, t lang.Type) string {
	c := &compiler{maps: m.maps}
	return c.value(v, layers.SortOf(t)).String()
}
