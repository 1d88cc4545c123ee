package randprog

import "github.com/lipton-dev/lipton/lang"

// policy is the access discipline of a shared variable: who reads and
// writes it, and how. The generator derives mover tags and stable
// annotations from it, and never breaks it unless it perturbs the
// program on purpose.
type policy int

const (
	polAtomic   policy = iota // any thread, each operation one atomic step
	polLocked                 // any thread, only while holding the lock
	polOwner                  // written by the owner thread (tid 0) only, read by all
	polSlot                   // a map whose entry m[tid] only thread tid touches
	polReadOnly               // never written
)

var policyNames = [...]string{"atomic", "locked", "owner", "slot", "read-only"}

func (p policy) String() string { return policyNames[p] }

// varType is the type of a generated variable.
type varType int

const (
	tInt varType = iota
	tBool
	tMap // [int]int
	tSeq // []int, always starting empty
)

var typeNames = [...]string{"int", "bool", "[int]int", "[]int"}

func (t varType) String() string { return typeNames[t] }

// global is a shared variable of the generated program.
type global struct {
	name string
	typ  varType
	pol  policy
	init string // the initial value; "" leaves it arbitrary

	// What analyze finds once every method is chosen.
	written  bool // some method writes it
	monotone bool // only ever increased, each time atomically (or stably)
}

// opKind is an operation of a method's atomic effect.
type opKind int

const (
	opRead     opKind = iota // out := g
	opWrite                  // g := val
	opAdd                    // g := g + val
	opFetchAdd               // out := g; g := g + val
	opCondDec                // if (g > c) { g := g - 1; out := true; } else { out := false; }
	opCopy                   // g := src
	opAssume                 // assume g > c (blocks until it holds)
	opFlip                   // g := !g (bool)
	opTestSet                // if (!g) { g := true; out := true; } else { out := false; }
	opLen                    // out := len(g) (a sequence)
	opPush                   // g := append(g, val)
	opPop                    // if (len(g) > 0) { out := g[0]; g := g[1:]; } else { out := -1; }
)

// op is one operation of an effect, on a location: a variable, or a map
// entry (loc "m[tid]").
type op struct {
	kind   opKind
	g      *global
	loc    string
	src    *global // opCopy: the variable read
	srcLoc string
	val    string // the value written or added, over parameters and constants
	nonNeg bool   // val >= 0 whatever the parameters (opAdd, opFetchAdd)
	out    string // the output it assigns, if any
	c      int    // the constant compared with (opCondDec, opAssume)
}

// writes reports whether the operation writes g.
func (o *op) writes() bool { return o.kind != opRead && o.kind != opAssume && o.kind != opLen }

// shape is how a method is implemented.
type shape int

const (
	shapeOps     shape = iota // the operations one after the other, atomically or split
	shapeCAS                  // read, yield, one compare-and-swap that may fail
	shapeCASLoop              // read, yield, compare-and-swap, until it succeeds
	shapeChoice               // if (*) one atomic step, else another: the effect is a choice
)

// method is a public method: its effect and how it is implemented.
type method struct {
	name    string
	owner   bool // only the owner thread (tid 0) calls it
	hasK    bool // takes an int parameter k
	kNonNeg bool // requires k >= 0
	ops     []*op
	shape   shape
	outs    []param // outputs
	temps   []param // locals of the implementation
	// split marks the atomic operations the implementation performs as
	// single accesses anyway (a perturbation: a lost update).
	split map[*op]bool
	// specGate is an extra conjunct of the specification's requires (a
	// perturbation: a gate the client guarantees only at the call).
	specGate string
	// specOverride replaces the specification's body when not nil.
	specOverride []string
	// implGate is an extra conjunct of the implementation's requires.
	implGate string
	items    []item // the implementation's body
	casOK    string // the variable a compare-and-swap loop tests
	// natural writes a compare-and-swap loop as while (!ok) { ... }
	// rather than while (true) { ... if (ok) { return; } }.
	natural bool
	// choiceAt splits the operations of a shapeChoice method: the first
	// branch does ops[:choiceAt], the second the rest.
	choiceAt int
}

// param is a parameter, output or local: a name and a type.
type param struct {
	name string
	typ  varType
}

// locked reports whether the method takes the lock.
func (m *method) locked() bool {
	for _, o := range m.ops {
		if o.g.pol == polLocked || (o.src != nil && o.src.pol == polLocked) {
			return true
		}
	}
	return false
}

// layout is how the layers of a program are arranged.
type layout int

const (
	layoutTwo      layout = iota // implementation; specification
	layoutReduce                 // fine-grained implementation; reduced with movers; specification
	layoutAbstract               // implementation; specification; weaker specification
)

var layoutNames = [...]string{"two layers", "fine-grained, reduced, spec", "impl, spec, abstracted spec"}

// item is a statement of an implementation body.
type item struct {
	text    string
	globals []*global  // the variables it accesses; none: a private statement
	mover   lang.Mover // its tag where movers are used
	facts   []fact     // facts that hold right after it (stable ones only)
	unlocks bool       // it releases the lock: the facts that need it end
	writes  bool       // it writes loc: the facts about loc end
	loc     string
	into    string // a read: the local it reads into
	call    bool   // a call of an action: its mover type is the action's
	// abstract is the read weakened to a right mover, at the layer
	// that reduces (layoutReduce), when it reads a counter that only
	// grows into a temporary.
	abstract string
}

// fact is a stable fact for yield annotations: locked facts hold only
// while the thread holds the lock.
type fact struct {
	text   string
	locked bool
	loc    string // the location it is about
}
