package randprog

import (
	"fmt"
	"math/rand"
	"strings"
)

// gen is the state of one generation.
type gen struct {
	r          *rand.Rand
	layout     layout
	globals    []*global // the data variables the methods operate on
	lk, holder *global   // the lock, when some variable is lock-protected
	lockCalls  bool      // acquire and release are actions the methods call
	methods    []*method
	notes      []string // how the program was made, for its header
}

// Generate returns the source of a small random layered program: two or
// three layers, a few shared variables, one to three public methods,
// and an instance of two or three threads making a few calls each. Most
// programs parse and type-check; many are correct proofs, some are
// subtly wrong (see the package comment). The same r state gives the
// same program.
func Generate(r *rand.Rand) string {
	gen := &gen{r: r, layout: layout(r.Intn(3))}
	gen.chooseGlobals()
	gen.chooseMethods()
	gen.analyze()
	kind := gen.choosePerturbation()
	gen.perturbEffects(kind)
	for _, m := range gen.methods {
		m.items = gen.methodItems(m)
	}
	gen.perturbItems(kind)
	src := gen.render()
	if r.Intn(10) < 4 {
		if mutant, ok := Mutate(r, src); ok {
			src = mutant
		}
	}
	return src
}

// chooseGlobals declares the shared variables and their disciplines.
func (gen *gen) chooseGlobals() {
	add := func(name string, t varType, pols ...policy) {
		g := &global{name: name, typ: t, pol: pols[gen.r.Intn(len(pols))]}
		if t != tMap && gen.r.Intn(5) > 0 || t == tSeq {
			g.init = map[varType]string{tInt: "0", tBool: "false", tSeq: "[]int{}"}[t]
		}
		gen.globals = append(gen.globals, g)
	}
	add("x", tInt, polAtomic, polAtomic, polLocked, polOwner)
	if gen.r.Intn(5) < 3 {
		add("y", tInt, polAtomic, polLocked, polOwner, polReadOnly)
	}
	if gen.r.Intn(5) < 2 {
		add("flag", tBool, polAtomic, polLocked, polOwner)
	}
	if gen.r.Intn(5) < 2 {
		add("m", tMap, polSlot, polSlot, polAtomic, polLocked)
	}
	if gen.r.Intn(5) < 2 {
		add("sq", tSeq, polAtomic, polLocked, polLocked, polOwner)
	}
	for _, g := range gen.globals {
		if g.pol == polLocked && gen.lk == nil {
			gen.lk = &global{name: "lk", typ: tBool, pol: polLocked, init: "false"}
			gen.holder = &global{name: "holder", typ: tInt, pol: polLocked, init: "-1"}
			gen.lockCalls = gen.r.Intn(2) == 0
		}
	}
}

// hasOwner reports whether some variable is written by the owner only.
func (gen *gen) hasOwner() bool {
	for _, g := range gen.globals {
		if g.pol == polOwner {
			return true
		}
	}
	return false
}

// chooseMethods chooses one to three public methods and their effects.
// The first method is never an owner's: some thread other than the
// owner must have something to call.
func (gen *gen) chooseMethods() {
	n := []int{1, 2, 2, 3}[gen.r.Intn(4)]
	for i := 0; i < n; i++ {
		m := &method{name: []string{"p", "q", "s"}[i], split: map[*op]bool{}}
		m.owner = i > 0 && gen.hasOwner() && gen.r.Intn(2) == 0
		m.hasK = gen.r.Intn(2) == 0
		m.kNonNeg = m.hasK && gen.r.Intn(10) < 7
		for j := []int{1, 1, 1, 2, 2, 3}[gen.r.Intn(6)]; j > 0; j-- {
			m.ops = append(m.ops, gen.newOp(m, gen.globals[gen.r.Intn(len(gen.globals))]))
		}
		if gen.r.Intn(5) > 0 {
			clusterAtomic(m)
		}
		gen.chooseShape(m)
		gen.methods = append(gen.methods, m)
	}
}

// clusterAtomic moves a method's operations on atomic variables next to
// each other, so that they form one step, as a proof writer who wants the
// method atomic would write it.
func clusterAtomic(m *method) {
	var before, atomic, after []*op
	for _, o := range m.ops {
		switch {
		case o.g.pol == polAtomic:
			atomic = append(atomic, o)
		case len(atomic) == 0:
			before = append(before, o)
		default:
			after = append(after, o)
		}
	}
	m.ops = append(append(before, atomic...), after...)
}

// chooseShape makes some single updates of an atomic variable a
// compare-and-swap, tried once or until it succeeds.
func (gen *gen) chooseShape(m *method) {
	if len(m.ops) > 1 && allAtomic(m.ops) && gen.r.Intn(10) < 3 {
		m.shape, m.choiceAt = shapeChoice, 1+gen.r.Intn(len(m.ops)-1)
		return
	}
	if len(m.ops) != 1 {
		return
	}
	o := m.ops[0]
	if o.g.pol != polAtomic || o.g.typ == tBool {
		return
	}
	switch o.kind {
	case opAdd, opWrite, opFetchAdd:
	default:
		return
	}
	switch gen.r.Intn(10) {
	case 0, 1, 2:
		m.shape = shapeCAS
	case 3, 4:
		m.shape = shapeCASLoop
		m.natural = gen.r.Intn(2) == 0
	}
}

// allAtomic reports whether every operation is on atomic variables.
func allAtomic(ops []*op) bool {
	for _, o := range ops {
		if o.g.pol != polAtomic || (o.src != nil && o.src.pol != polAtomic) {
			return false
		}
	}
	return true
}

// analyze finds which variables are written, and which only grow.
func (gen *gen) analyze() {
	for _, g := range gen.globals {
		g.monotone = g.typ == tInt
	}
	for _, m := range gen.methods {
		for _, o := range m.ops {
			if !o.writes() {
				continue
			}
			o.g.written = true
			grows := (o.kind == opAdd || o.kind == opFetchAdd) && o.nonNeg
			if !grows {
				o.g.monotone = false
			}
		}
	}
}

// methodItems is the body of a method's implementation.
func (gen *gen) methodItems(m *method) []item {
	switch m.shape {
	case shapeOps:
		return gen.implItems(m)
	case shapeChoice:
		a, b := atomicItem(m.ops[:m.choiceAt]), atomicItem(m.ops[m.choiceAt:])
		text := "if (*) { " + a.text + " } else { " + b.text + " }"
		return []item{{text: text, globals: append(a.globals, b.globals...)}}
	}
	o := m.ops[0]
	c := m.newTemp(tInt)
	var ok string
	if m.shape == shapeCAS {
		ok = m.newOutput(tBool)
	} else {
		ok = m.newTemp(tBool)
	}
	next := c + " + " + paren(o.val)
	if o.kind == opWrite {
		next = o.val
	}
	then := o.loc + " := " + next + ";"
	if o.out != "" {
		then += " " + o.out + " := " + c + ";"
	}
	read := item{text: c + " := " + o.loc + ";", globals: []*global{o.g}, into: c, loc: o.loc}
	if o.g.monotone {
		read.facts = []fact{{text: c + " <= " + o.loc, loc: o.loc}}
		read.abstract = weakRead(c, o.loc)
	}
	cas := fmt.Sprintf("[if (%s == %s) { %s %s := true; } else { %s := false; }]", o.loc, c, then, ok, ok)
	m.casOK = ok
	return []item{read, {text: cas, globals: []*global{o.g}}}
}

// describe is the program's header comment: how it was made.
func (gen *gen) describe() []string {
	lines := []string{"// generated by internal/randprog: " + layoutNames[gen.layout]}
	var gs []string
	for _, g := range gen.globals {
		gs = append(gs, fmt.Sprintf("%s (%s, %s)", g.name, g.typ, g.pol))
	}
	lines = append(lines, "// variables: "+strings.Join(gs, ", "))
	for _, m := range gen.methods {
		what := []string{"operations", "compare-and-swap", "compare-and-swap loop", "choice"}[m.shape]
		if m.owner {
			what += ", owner only"
		}
		lines = append(lines, "// method "+m.name+": "+what)
	}
	for _, n := range gen.notes {
		lines = append(lines, "// perturbation: "+n)
	}
	return lines
}
