package layers

import (
	"fmt"
	"strings"

	"github.com/lipton-dev/lipton/lang"
)

// Program is the layered view of a checked file.
type Program struct {
	File   *lang.File
	Info   *lang.Info
	Layers []*Layer
	// Exec says that calls of mover procedures are calls of procedures
	// (see ForExecution).
	Exec bool
}

// Layer is the view of one layer: a complete concurrent program.
type Layer struct {
	Num        int
	Program    *Program
	Decl       *lang.Layer
	Globals    []*lang.Object // global variables visible at this layer
	Invariants []lang.Expr    // global invariants conjoined to every yield annotation
	Procs      []*Proc
	Actions    []*Action
	// Summaries are the actions that the layer's mover procedures stand
	// for: a call of a mover procedure executes its summary's step. They
	// are not methods (refinement follows the procedures themselves).
	Summaries []*Action
	Steps     []*Step // inline steps of the procedures, then the actions, then the summaries
}

// Action is an action of a layer. It is one step.
type Action struct {
	Decl   *lang.Action
	Layer  *Layer
	Step   *Step
	Public bool // a public method: client threads call it
}

// Proc is a procedure of a layer with its control-flow graph.
type Proc struct {
	Decl   *lang.Proc
	Layer  *Layer
	Entry  *Node
	Exit   *Node
	Nodes  []*Node
	Yields []*YieldPoint // entry first, exit last
	Steps  []*Step
	Public bool // a public method: client threads call it
	// Idle, for a public procedure whose requires reads both arguments
	// other than linear ones and facts about the thread's shared state,
	// is the second part as an annotation of the thread between calls
	// (see idleYield); nil otherwise.
	Idle *YieldPoint

	locs    map[lang.Stmt][]location  // where each statement sits
	yieldOf map[lang.Stmt]*YieldPoint // yield points of yields, loops, calls
}

// Name returns the procedure's name.
func (p *Proc) Name() string { return p.Decl.Name.Name }

// Name returns the action's name.
func (a *Action) Name() string { return a.Decl.Name.Name }

// YieldKind says what made a program point a yield point.
type YieldKind int

// Kinds of yield points.
const (
	YieldEntry YieldKind = iota // procedure entry, annotated by requires
	YieldExit                   // procedure exit, annotated by ensures
	YieldStmt                   // yield e;
	YieldLoop                   // head of a loop whose body yields, annotated by its invariants
	YieldCall                   // call of a procedure, annotated by the callee's requires/ensures
	YieldIdle                   // a thread between calls: the part of a requires that reads no argument
)

var yieldKindNames = [...]string{"entry", "exit", "yield", "loop head", "call", "between calls"}

func (k YieldKind) String() string { return yieldKindNames[k] }

// YieldPoint is an interleaving point of a procedure.
type YieldPoint struct {
	Kind YieldKind
	Pos  lang.Pos
	Proc *Proc
	Node *Node
	Stmt lang.Stmt // *lang.YieldStmt, *lang.WhileStmt or *lang.CallStmt; nil at entry and exit
	// Ann holds the conjuncts written by the user (requires, ensures, the
	// yield's expression, loop invariants). The layer's global invariants
	// are conjoined to them when they are used. For a call, Ann is empty:
	// the callee's contract applies (see Callee).
	Ann []lang.Expr
	// Par is, at a call that is an arm of a parallel call, that parallel
	// call: with several procedure arms, the yield point stands for all
	// of them (Calls).
	Par *lang.ParCallStmt
}

// IsMoverCall reports whether s calls a mover procedure.
func IsMoverCall(s lang.Stmt) bool {
	c, ok := s.(*lang.CallStmt)
	if !ok || c.Callee.Obj == nil {
		return false
	}
	p, ok := c.Callee.Obj.Decl.(*lang.Proc)
	return ok && p.Mover != lang.MoverNone
}

// Callee returns the procedure called at a call yield point.
func (y *YieldPoint) Callee() *lang.Proc {
	if c, ok := y.Stmt.(*lang.CallStmt); ok {
		p, _ := c.Callee.Obj.Decl.(*lang.Proc)
		return p
	}
	return nil
}

// Calls returns the calls of procedures at a call yield point: the call,
// or the procedure arms of a parallel call, which run together; nil at
// other yield points.
func (y *YieldPoint) Calls() []*lang.CallStmt {
	if y.Par != nil {
		var out []*lang.CallStmt
		for _, arm := range y.Par.Arms {
			if arm.Class == lang.ClassProcCall {
				out = append(out, arm)
			}
		}
		return out
	}
	if c, ok := y.Stmt.(*lang.CallStmt); ok && y.Kind == YieldCall {
		return []*lang.CallStmt{c}
	}
	return nil
}

// calleeOf returns the procedure a call of a procedure calls.
func calleeOf(c *lang.CallStmt) *lang.Proc {
	p, _ := c.Callee.Obj.Decl.(*lang.Proc)
	return p
}

// describeCall names the requires of the procedure c calls at yield
// point y.
func describeCall(y *YieldPoint, c *lang.CallStmt) string {
	return fmt.Sprintf("the requires of %s at the call at line %d in %s", c.Callee.Name, c.P.Line, y.Proc.Name())
}

func (y *YieldPoint) String() string {
	return fmt.Sprintf("%s of %s at %d:%d", y.Kind, y.Proc.Name(), y.Pos.Line, y.Pos.Col)
}

// Step is an atomic unit of one thread at a layer: an inline step of a
// procedure (a simple statement or [ ] group that touches a global) or an
// action. Calls of actions are executions of the action's step.
type Step struct {
	ID     int // index in Layer.Steps
	Layer  *Layer
	Mover  lang.Mover // never MoverNone: untagged steps are MoverAtomic
	Pos    lang.Pos
	Proc   *Proc     // for an inline step
	Stmt   lang.Stmt // for an inline step
	Node   *Node     // for an inline step
	Action *Action   // for an action
	// Context is the annotation part of an inline step's gate: the yields
	// it directly follows (DESIGN §3).
	Context *GateContext

	paths int // see Paths
}

// Name describes the step for messages: "put:12 (right)".
func (s *Step) Name() string {
	if s.Action != nil {
		if s.Action.Decl.Of != nil {
			return fmt.Sprintf("mover procedure %s", s.Action.Name())
		}
		return fmt.Sprintf("action %s", s.Action.Name())
	}
	return fmt.Sprintf("step of %s at line %d", s.Proc.Name(), s.Pos.Line)
}

// Signature returns the frame of the thread executing the step: the
// procedure's or the action's signature.
func (s *Step) Signature() *lang.Signature {
	if s.Action != nil {
		return &s.Action.Decl.Signature
	}
	return &s.Proc.Decl.Signature
}

// GateContext is the annotation part of a step's gate: when every path
// to the step comes from a yield point without passing another step, the
// yield's annotation and the branch conditions along the path hold when
// the step executes. One GatePath per such path; the gate part is their
// disjunction. A nil *GateContext adds nothing to the gate.
type GateContext struct {
	Paths []*GatePath
}

// GatePath is a path from a yield point to a step through private
// statements and branches only.
type GatePath struct {
	Yield *YieldPoint
	Conds []*Node // NodeCond nodes passed, in path order
	// Assigned are the locals written by private statements on the path:
	// facts about them at the yield no longer hold at the step.
	Assigned map[*lang.Object]bool
}

// StepOf returns the inline step of statement s, or nil if s is not one.
func (p *Proc) StepOf(s lang.Stmt) *Step {
	for _, st := range p.Steps {
		if st.Stmt == s {
			return st
		}
	}
	return nil
}

// Describe names the annotation of a yield point for messages: "the
// requires of put", "the annotation of the yield at line 12 in take1".
func (y *YieldPoint) Describe() string {
	switch y.Kind {
	case YieldEntry:
		return fmt.Sprintf("the requires of %s", y.Proc.Name())
	case YieldExit:
		return fmt.Sprintf("the ensures of %s", y.Proc.Name())
	case YieldLoop:
		return fmt.Sprintf("the invariant of the loop at line %d in %s", y.Pos.Line, y.Proc.Name())
	case YieldCall:
		if calls := y.Calls(); len(calls) > 1 {
			var names []string
			for _, c := range calls {
				names = append(names, c.Callee.Name)
			}
			return fmt.Sprintf("the requires of %s at the parallel call at line %d in %s", strings.Join(names, " and "), y.Pos.Line, y.Proc.Name())
		}
		return fmt.Sprintf("the requires of %s at the call at line %d in %s", y.Callee().Name.Name, y.Pos.Line, y.Proc.Name())
	case YieldIdle:
		return fmt.Sprintf("the part of the requires of %s that reads no argument (it holds while the thread is between calls)", y.Proc.Name())
	}
	if ys, ok := y.Stmt.(*lang.YieldStmt); ok && ys.Arms {
		return fmt.Sprintf("the annotation of the invariant arms of the parallel call at line %d in %s", y.Pos.Line, y.Proc.Name())
	}
	return fmt.Sprintf("the annotation of the yield at line %d in %s", y.Pos.Line, y.Proc.Name())
}
