package refine

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/obl"
)

// Vacuity is the check kind of the vacuity checks.
const Vacuity obl.Kind = "vacuity"

// The vacuity checks. Every other check assumes that a client called a
// public method with its requires satisfied, and follows the method's
// paths; when no client can call anything, or a method can never
// return, they all hold and lipton would report a proof about nothing.
// These checks ask the opposite question, with witness asserts: is there
// a state in which a client can call each public method, a state in
// which some thread can make a first call, a path on which each public
// method of the implementation returns. A missing witness is a failure.

// vacuityChecks returns the vacuity obligations of layer l, and a
// diagnostic if the program has no public method at all. The questions
// about clients are asked at the top layer, whose requires are the
// client contract; those about returning, at layer 0, the implementation.
func vacuityChecks(l *layers.Layer) ([]*obl.Obligation, []*layers.Diagnostic) {
	prog := l.Program
	public := prog.Info.PublicMethods()
	var obs []*obl.Obligation
	if l.Num == len(prog.Layers)-1 {
		if len(public) == 0 {
			return nil, []*layers.Diagnostic{{Check: Vacuity, Layer: l.Num, Subject: "public methods",
				Msg: fmt.Sprintf("no procedure or action is present at every layer from 0 to %d: the public methods, which clients call, are the names present at every layer, and there are none, so no thread ever runs and every check would hold vacuously", l.Num),
				Pos: []lang.Pos{l.Decl.P}}}
		}
		for _, name := range public {
			obs = append(obs, callable(prog, name))
		}
		obs = append(obs, firstCallPossible(prog, public))
	}
	if l.Num == 0 {
		for _, name := range public {
			if p := l.Proc(name); p != nil {
				obs = append(obs, returns(p))
			} else if a := l.Action(name); a != nil {
				obs = append(obs, executes(a))
			}
		}
		// A helper procedure too: its callers' paths go through its
		// ensures, which a helper that can never return satisfies
		// vacuously.
		for _, p := range l.Procs {
			if !p.Public {
				obs = append(obs, returns(p))
			}
		}
	}
	return obs, nil
}

// allInvariants conjoins the global invariants of every layer: each holds
// in every reachable state in which no thread is inside a fragment.
func allInvariants(b *layers.Builder, prog *layers.Program, env *layers.Env) obl.Expr {
	var parts []obl.Expr
	for _, l := range prog.Layers {
		parts = append(parts, b.Conj(l.Invariants, env))
	}
	return obl.And(parts...)
}

// witness is a witness assert: it holds if some execution reaches it.
func witness(msg string, pos ...lang.Pos) *obl.Assert {
	w := layers.Check(Vacuity, obl.Bool(false), msg, pos...)
	w.Witness = true
	return w
}

// callable asks for a state, satisfying every layer's invariants, in
// which a client may call public method name (its requires at the top
// layer holds for some arguments).
func callable(prog *layers.Program, name string) *obl.Obligation {
	top := prog.Layers[len(prog.Layers)-1]
	sig, pos := publicMember(top, name)
	b := layers.NewBuilder(prog)
	env := b.GlobalsOf(prog.Info.Globals, "", "globals")
	env = b.Frame(env, sig, "", "arguments of "+name)
	if len(sig.Requires) > 0 {
		pos = sig.Requires[0].Pos()
	}
	msg := fmt.Sprintf("the requires of %s at layer %d contradicts the invariants: no client can ever call %s, so every check about it holds vacuously", name, top.Num, name)
	// A client's linear values are disjoint from the pools: a call
	// that needs otherwise is never made.
	own := layers.OwnLinearFacts(prog.Info.Globals, sig, env)
	body := obl.Sequence(&obl.Assume{E: obl.And(allInvariants(b, prog, env), b.Conj(sig.Requires, env), own)}, witness(msg, pos))
	return b.Obligation("vacuity-callable-"+name, Vacuity, body)
}

// firstCallPossible asks for an initial state in which some thread may
// call some public method: otherwise no thread ever moves.
func firstCallPossible(prog *layers.Program, public []string) *obl.Obligation {
	top := prog.Layers[len(prog.Layers)-1]
	b := layers.NewBuilder(prog)
	env := b.GlobalsOf(prog.Info.Globals, "", "initial state")
	var facts, calls []obl.Expr
	for _, g := range prog.Info.Globals {
		if d := g.Decl.(*lang.VarDecl); d.Init != nil {
			facts = append(facts, obl.Eq(env.Lookup(g), b.Expr(d.Init, env)))
		}
	}
	for _, name := range public {
		sig, _ := publicMember(top, name)
		frame := b.Frame(env, sig, "."+name, "arguments of "+name)
		calls = append(calls, obl.And(b.Conj(sig.Requires, frame), layers.OwnLinearFacts(prog.Info.Globals, sig, frame)))
	}
	why := fmt.Sprintf("the requires at layer %d of every one of them is false for every argument", top.Num)
	for _, g := range prog.Info.Globals {
		if g.Linear {
			why += ", or a linear global holds the identities of every argument"
			break
		}
	}
	msg := fmt.Sprintf("in the initial state no public method may be called (%s), so no thread ever runs and every check holds vacuously", why)
	body := obl.Sequence(&obl.Assume{E: obl.And(append(facts, obl.Or(calls...))...)}, witness(msg, top.Decl.P))
	return b.Obligation("vacuity-first-call", Vacuity, body)
}

// returns asks for a path on which procedure p of layer 0, called with
// its requires, returns. Every exit of the walk carries a witness
// assert; together they ask one question (see obl.Assert).
func returns(p *layers.Proc) *obl.Obligation {
	b := layers.NewBuilder(p.Layer.Program)
	env := b.Globals(p.Layer, "", "globals")
	env = b.Frame(env, &p.Decl.Signature, "", "locals of "+p.Name())
	msg := fmt.Sprintf("%s can never return: no path from its requires reaches its exit (every path blocks in an assume, meets an annotation that cannot hold, or loops forever), so what is proven about %s holds vacuously", p.Name(), p.Name())
	w := &layers.Walk{B: b, Env: env, Proc: p, Mode: layers.Assume}
	w.Reach = func(*layers.YieldPoint) obl.Cmd { return obl.Sequence() }
	w.Exit = func() obl.Cmd { return witness(msg, p.Exit.Yield.Pos, p.Decl.P) }
	start := obl.And(b.AnnotationAfter(p.Entry.Yield, env), b.ParamFacts(p, env), layers.OwnLinearFacts(p.Layer.Globals, &p.Decl.Signature, env))
	return b.Obligation("vacuity-returns-"+p.Name(), Vacuity, obl.Sequence(&obl.Assume{E: start}, w.Body()))
}

// executes asks for a state satisfying public action a's requires and
// its layer's invariants from which a can run to its end.
func executes(a *layers.Action) *obl.Obligation {
	l := a.Layer
	b := layers.NewBuilder(l.Program)
	env := b.Globals(l, "", "globals")
	env = b.Frame(env, &a.Decl.Signature, "", "locals of "+a.Name())
	msg := fmt.Sprintf("action %s can never execute: from no state satisfying its requires and the invariants does its body run to its end, so what is proven about %s holds vacuously", a.Name(), a.Name())
	body := obl.Sequence(
		&obl.Assume{E: obl.And(b.Conj(a.Decl.Requires, env), b.Conj(l.Invariants, env), layers.OwnLinearFacts(l.Globals, &a.Decl.Signature, env))},
		b.Stmts(a.Decl.Body.Stmts, env, layers.Assume),
		witness(msg, a.Decl.P))
	return b.Obligation("vacuity-executes-"+a.Name(), Vacuity, body)
}
