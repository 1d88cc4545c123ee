package refine

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// ClientContract is the check kind of the client-contract obligations.
const ClientContract obl.Kind = "client contract"

// The client contract (DESIGN §4.3, soundness of the refinement claim).
// A client calls a public method only when the method's requires at the
// top layer holds: that is the whole contract a user of the atomic
// specification knows. Each layer's checks assume the requires of that
// layer at the method's entry, so every layer's requires must follow
// from the layer above's, at the moment of the call; by induction, from
// the top layer's. What holds at a call besides the requires is what
// every layer proves of every state in which no thread is inside a
// fragment: the global invariants of both layers.

// publicMember returns the public method name's declaration at layer l.
func publicMember(l *layers.Layer, name string) (sig *lang.Signature, pos lang.Pos) {
	if p := l.Proc(name); p != nil {
		return &p.Decl.Signature, p.Decl.P
	}
	if a := l.Action(name); a != nil {
		return &a.Decl.Signature, a.Decl.P
	}
	return nil, lang.Pos{}
}

// clientContracts checks, for every public method, that its requires at
// the upper layer and the invariants of both layers imply its requires
// at the lower layer. Members whose signatures differ are skipped:
// sameShape reported them.
func (r *refiner) clientContracts() {
	for _, name := range r.prog.Info.PublicMethods() {
		lower, _ := publicMember(r.lower, name)
		upper, upos := publicMember(r.upper, name)
		if lower == nil || upper == nil || !shapesMatch(lower, upper) || len(lower.Requires) == 0 {
			continue
		}
		if why := r.contractTrivial(lower, upper); why != "" {
			r.skipped = append(r.skipped, layers.Skip{Check: ClientContract, Layer: r.lower.Num,
				Reason: fmt.Sprintf("%s at layer %d: %s", name, r.lower.Num, why)})
			continue
		}
		r.obs = append(r.obs, r.contractObligation(name, lower, upper, upos))
	}
}

// contractTrivial returns why a method's client-contract obligation
// needs no solver, or "": when every conjunct of its requires at the
// lower layer is, as built, a conjunct of its requires at the upper
// layer or of the two layers' invariants. Those are all assumed at the
// call (contractObligation's opening facts) in the state where the
// lower requires is asserted, on every branch, whatever the thread's
// history: the branches only add assumptions and set their own trace
// flags, which no requires reads (it is built over the globals and the
// parameters alone). The
// comparison is syntactic (obl.Equal, the same variables: the
// parameters are one set of variables at both layers), so a requires
// that follows from the upper one only by reasoning still goes to the
// solver; this skips the common case of a requires unchanged from one
// layer to the next, such as every copy's in bench/copies' files, where
// the obligations after each other copy's methods grew with the square
// of the copies.
func (r *refiner) contractTrivial(lower, upper *lang.Signature) string {
	b := layers.NewBuilder(r.prog)
	c := &contract{r: r, b: b, lower: lower}
	c.globals = b.GlobalsOf(r.bothGlobals(), "", "globals")
	c.bindParams(upper)
	facts := obl.And(b.Conj(r.lower.Invariants, c.globals), b.Conj(r.upper.Invariants, c.globals), b.Conj(upper.Requires, c.uenv))
	goal := b.Conj(lower.Requires, c.lenv)
	if !goalAssumed(facts, goal) {
		return ""
	}
	return fmt.Sprintf("the requires is among the requires at layer %d and the invariants, which a client's call assumes", r.upper.Num)
}

// goalAssumed reports whether every conjunct of goal is syntactically a
// conjunct of facts: then goal holds in every state where facts does.
func goalAssumed(facts, goal obl.Expr) bool {
	assumed := obl.Conjuncts(facts)
	for _, g := range obl.Conjuncts(goal) {
		found := false
		for _, f := range assumed {
			if obl.Equal(f, g) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sameShape checks that a member takes the same parameters and returns
// the same outputs at both layers: the same names, types, order, and
// linear and ghost marks. Callers bind arguments by position while the
// refinement checks pair variables by name, and the checks of every
// layer rely on which parameters are linear, so any difference would let
// a layer prove something about a different call.
func (r *refiner) sameShape(name string, lower, upper *lang.Signature, lpos, upos lang.Pos) bool {
	return r.sameList(name, "parameters", lower.Params, upper.Params, lpos, upos) &&
		r.sameList(name, "outputs", lower.Returns, upper.Returns, lpos, upos)
}

func (r *refiner) sameList(name, what string, lower, upper []*lang.Param, lpos, upos lang.Pos) bool {
	if len(lower) != len(upper) {
		r.fail(Structure, fmt.Sprintf("%s has %d %s at layer %d but %d at layer %d: a member has the same signature at every layer",
			name, len(lower), what, r.lower.Num, len(upper), r.upper.Num), upos, lpos)
		return false
	}
	for i := range lower {
		if !sameParam(lower[i], upper[i]) {
			r.fail(Structure, fmt.Sprintf("%s %d of %s is %s at layer %d but %s at layer %d: a member has the same signature at every layer",
				what[:len(what)-1], i+1, name, paramText(lower[i]), r.lower.Num, paramText(upper[i]), r.upper.Num), upper[i].Name.P, lower[i].Name.P)
			return false
		}
	}
	return true
}

func sameParam(a, b *lang.Param) bool {
	return a.Name.Name == b.Name.Name && a.Linear == b.Linear && a.LinearIn == b.LinearIn && a.Ghost == b.Ghost &&
		lang.Identical(a.Name.Obj.Type, b.Name.Obj.Type)
}

// shapesMatch is sameShape without reports.
func shapesMatch(lower, upper *lang.Signature) bool {
	if len(lower.Params) != len(upper.Params) || len(lower.Returns) != len(upper.Returns) {
		return false
	}
	for i := range lower.Params {
		if !sameParam(lower.Params[i], upper.Params[i]) {
			return false
		}
	}
	for i := range lower.Returns {
		if !sameParam(lower.Returns[i], upper.Returns[i]) {
			return false
		}
	}
	return true
}

func paramText(p *lang.Param) string {
	s := fmt.Sprintf("%s: %s", p.Name.Name, p.Name.Obj.Type)
	if p.Ghost {
		s = "ghost " + s
	}
	if p.LinearIn {
		s = "linear_in " + s
	} else if p.Linear {
		s = "linear " + s
	}
	return s
}

// contractObligation builds, for one public method P, "what holds when
// a client calls P as the upper layer allows implies P's requires at the
// lower layer". At the call, the upper requires and the invariants of
// both layers hold, and so does what the calling thread's history
// guarantees (one branch per case, each with its own assert):
//
//   - P is the thread's first call: every other thread's step so far
//     kept P's lower requires if it held initially, since non-interference
//     proves the entry annotation stable (for a procedure whose requires
//     reads no parameter but linear ones); so it suffices that it held in
//     every initial state.
//   - the thread's previous call was the public procedure Q: Q's ensures
//     held at its exit and, by non-interference of the exit annotation,
//     still holds. After a public action nothing is known but the facts
//     about its parameters.
//
// The thread's identity is its linear parameters: a linear parameter of
// P stands for the same value as Q's linear parameter of the same name
// and type (one of another type is unrelated: nothing is assumed of it).
func (r *refiner) contractObligation(name string, lower, upper *lang.Signature, upos lang.Pos) *obl.Obligation {
	b := layers.NewBuilder(r.prog)
	c := &contract{r: r, b: b, name: name, lower: lower}
	c.globals = b.GlobalsOf(r.bothGlobals(), "", "globals")
	c.bindParams(upper)
	where := upos
	if len(upper.Requires) > 0 {
		where = upper.Requires[0].Pos()
	}
	c.pos = []lang.Pos{lower.Requires[0].Pos(), where}
	facts := obl.And(b.Conj(r.lower.Invariants, c.globals), b.Conj(r.upper.Invariants, c.globals), b.Conj(upper.Requires, c.uenv))
	var check obl.Cmd
	if c.historyHelps() {
		branches := []obl.Cmd{c.firstCall()}
		for _, q := range r.prog.Info.PublicMethods() {
			branches = append(branches, c.afterCall(q))
		}
		check = &obl.Choice{Branches: branches}
	} else {
		check = c.goal("")
	}
	body := obl.Sequence(b.ClearTraces(), &obl.Assume{E: facts}, check)
	return b.Obligation(fmt.Sprintf("l%d-contract-%s", r.lower.Num, name), ClientContract, body)
}

// historyHelps reports whether the thread's history can add anything in
// every case: when P's first call or a call after a public action knows
// nothing beyond the upper requires and the invariants, that plain case
// implies all the others, and one assert says it.
func (c *contract) historyHelps() bool {
	if c.threadPart() == nil || !readsGlobals(c.lower.Requires) {
		return false
	}
	for _, q := range c.r.prog.Info.PublicMethods() {
		if c.r.lower.Action(q) != nil {
			return false
		}
	}
	return true
}

// contract builds one client-contract obligation.
type contract struct {
	r          *refiner
	b          *layers.Builder
	name       string
	lower      *lang.Signature
	globals    *layers.Env
	lenv, uenv *layers.Env         // the globals and P's parameters at each layer
	linear     map[string]obl.Expr // P's linear parameters by name
	pos        []lang.Pos
}

// bindParams makes P's parameters, the same variables at both layers.
func (c *contract) bindParams(upper *lang.Signature) {
	c.lenv, c.uenv = c.globals.Child(), c.globals.Child()
	c.linear = map[string]obl.Expr{}
	var params []*obl.Var
	for i, p := range c.lower.Params {
		v := c.b.NewVar(p.Name.Name, layers.SortOf(p.Name.Obj.Type))
		params = append(params, v)
		c.lenv.Set(p.Name.Obj, obl.Ref(v))
		c.uenv.Set(upper.Params[i].Name.Obj, obl.Ref(v))
		if p.Linear {
			c.linear[p.Name.Name] = obl.Ref(v)
		}
	}
	c.b.Group("arguments of "+c.name, params)
}

// goal asserts P's lower requires, with a message for one case.
func (c *contract) goal(when string) obl.Cmd {
	if when != "" {
		when = " (" + when + ")"
	}
	msg := fmt.Sprintf("the requires of %s at layer %d may not hold when a client calls %s as layer %d allows%s: a layer may not require more of its clients than the layer above, and at the top layer the requires is all a client guarantees",
		c.name, c.r.lower.Num, c.name, c.r.upper.Num, when)
	return layers.Check(ClientContract, c.b.Conj(c.lower.Requires, c.lenv), msg, c.pos...)
}

// threadPart returns the part of P's lower requires that can hold before
// the thread's first call and that non-interference proves stable: all
// of it if it reads no argument but linear ones (the entry annotation),
// the idle annotation's part if the procedure has one, else nil.
func (c *contract) threadPart() []lang.Expr {
	p := c.r.lower.Proc(c.name)
	switch {
	case p == nil:
		return nil
	case readsOnlyLinearParams(c.lower):
		return c.lower.Requires
	case p.Idle != nil:
		return p.Idle.Ann
	}
	return nil
}

// firstCall is the branch of the thread's first call: the thread part of
// the requires holds now if it held in the initial state, since other
// threads keep it.
func (c *contract) firstCall() obl.Cmd {
	b := c.b
	init := b.GlobalsOf(c.r.bothGlobals(), ".init", "")
	ienv := init.Child()
	for _, prm := range c.lower.Params {
		ienv.Set(prm.Name.Obj, c.lenv.Lookup(prm.Name.Obj))
	}
	var facts []obl.Expr
	for _, g := range c.r.bothGlobals() {
		if d := g.Decl.(*lang.VarDecl); d.Init != nil {
			facts = append(facts, obl.Eq(init.Lookup(g), b.Expr(d.Init, init)))
		}
	}
	thread := c.threadPart()
	facts = append(facts, obl.Implies(b.Conj(thread, ienv), b.Conj(thread, c.lenv)))
	var vs []*obl.Var
	for _, g := range c.r.bothGlobals() {
		vs = append(vs, init.Var(g))
	}
	return obl.Sequence(b.Marked("an initial state", "init", vs), &obl.Assume{E: obl.And(facts...)},
		c.goal("at the thread's first call"))
}

// readsOnlyLinearParams reports whether the requires of sig reads no
// parameter but linear ones: it is then a fact about the shared state and
// the thread, which can hold before the thread's first call.
func readsOnlyLinearParams(sig *lang.Signature) bool {
	for _, e := range sig.Requires {
		for o := range layers.ReadVars(e) {
			for _, p := range sig.Params {
				if p.Name.Obj == o && !p.Linear {
					return false
				}
			}
		}
	}
	return true
}

// readsGlobals reports whether some expression reads a global variable:
// a requires that does not is about the arguments alone, which no history
// changes.
func readsGlobals(es []lang.Expr) bool {
	for _, e := range es {
		for o := range layers.ReadVars(e) {
			if o.Kind == lang.ObjGlobal {
				return true
			}
		}
	}
	return false
}

// afterCall is the branch where the thread's previous call was q.
func (c *contract) afterCall(q string) obl.Cmd {
	b := c.b
	sig, _ := publicMember(c.r.lower, q)
	if sig == nil {
		return &obl.Assume{E: obl.Bool(false)}
	}
	env := b.Frame(c.globals, sig, ".prev", "")
	for _, prm := range sig.Params {
		v, ok := c.linear[prm.Name.Name]
		if ok && prm.Linear && obl.SortEqual(v.(*obl.VarRef).V.Sort, layers.SortOf(prm.Name.Obj.Type)) {
			env.Set(prm.Name.Obj, v)
		}
	}
	var facts []obl.Expr
	params := map[*obl.Var]bool{}
	for _, prm := range sig.Params {
		if v, ok := env.Lookup(prm.Name.Obj).(*obl.VarRef); ok {
			params[v.V] = true
		}
	}
	for _, e := range obl.Conjuncts(b.Conj(sig.Requires, env)) {
		if b.OnlyVars(e, params) {
			facts = append(facts, e) // its facts about parameters still hold
		}
	}
	var frame []*obl.Var
	for _, o := range sig.Frame() {
		if v, ok := env.Lookup(o).(*obl.VarRef); ok {
			frame = append(frame, v.V)
		}
	}
	mark := b.Marked(fmt.Sprintf("the thread's previous call, of %s", q), "prev."+q, frame)
	facts = append(facts, b.Conj(sig.Ensures, env))
	when := fmt.Sprintf("after the thread's previous call, of %s, whose ensures at layer %d still holds", q, c.r.lower.Num)
	return obl.Sequence(mark, &obl.Assume{E: obl.And(facts...)}, c.goal(when))
}
