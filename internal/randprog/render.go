package randprog

import (
	"fmt"
	"strings"
)

// render prints the program: declarations, layers, instance.
func (gen *gen) render() string {
	w := &writer{}
	for _, l := range gen.describe() {
		w.line(l)
	}
	lastProcLayer := 0
	if gen.layout == layoutReduce {
		lastProcLayer = 1
	}
	gen.renderDecls(w, lastProcLayer)
	switch gen.layout {
	case layoutTwo:
		gen.renderProcLayer(w, 0, yieldsReduced)
		gen.renderSpecLayer(w, 1, false)
	case layoutReduce:
		gen.renderProcLayer(w, 0, yieldsAll)
		gen.renderProcLayer(w, 1, yieldsAbstract)
		gen.renderSpecLayer(w, 2, false)
	case layoutAbstract:
		gen.renderProcLayer(w, 0, yieldsReduced)
		gen.renderSpecLayer(w, 1, false)
		gen.renderSpecLayer(w, 2, true)
	}
	gen.renderInstance(w)
	return w.String()
}

// renderDecls prints the shared variables; the lock exists only at the
// layers of procedures, 0..procTop.
func (gen *gen) renderDecls(w *writer, procTop int) {
	w.blank()
	for _, g := range gen.globals {
		init := ""
		if g.init != "" {
			init = " = " + g.init
		}
		w.linef("var %s: %s%s;", g.name, g.typ, init)
	}
	if gen.lk != nil {
		w.linef("var lk: bool = false layers 0..%d;", procTop)
		w.linef("ghost var holder: int = -1 layers 0..%d;", procTop)
		w.linef("invariant lk <==> holder != -1 layers 0..%d;", procTop)
	}
	for _, g := range gen.globals {
		if g.monotone && g.init == "0" && gen.r.Intn(2) == 0 {
			w.linef("invariant %s >= 0;", g.name)
		}
	}
}

// paramFacts are the requires conjuncts about a method's parameters;
// with a lock, no thread identity is the holder's "nobody" (-1).
func (m *method) paramFacts(lock bool) []string {
	var cs []string
	if m.owner {
		cs = append(cs, "tid == 0")
	}
	if lock {
		cs = append(cs, "tid != -1")
	}
	if m.kNonNeg {
		cs = append(cs, "k >= 0")
	}
	return cs
}

// signature is "name(params) returns (outs)".
func (m *method) signature(outs []param) string {
	ps := "linear tid: int"
	if m.hasK {
		ps += ", k: int"
	}
	s := m.name + "(" + ps + ")"
	if len(outs) > 0 {
		s += " returns (" + paramList(outs) + ")"
	}
	return s
}

// renderProcLayer prints a layer of implementations.
func (gen *gen) renderProcLayer(w *writer, n int, mode yieldMode) {
	w.blank()
	w.open(fmt.Sprintf("layer %d", n))
	if gen.lockCalls {
		gen.renderLockActions(w, mode != yieldsAll)
	}
	for i, m := range gen.methods {
		if i > 0 || gen.lockCalls {
			w.blank()
		}
		outs, locals := m.outs, m.temps
		w.line("proc " + m.signature(outs))
		req := m.paramFacts(gen.lk != nil)
		if gen.lk != nil {
			req = append(req, "holder != tid") // no thread holds the lock between calls
		}
		if m.implGate != "" {
			req = append(req, m.implGate)
		}
		w.indent += 2
		if len(req) > 0 {
			w.line("requires " + conj(req))
		}
		if gen.lk != nil {
			w.line("ensures holder != tid")
		}
		w.indent -= 2
		w.open("")
		for _, l := range locals {
			w.linef("var %s: %s;", l.name, l.typ)
		}
		gen.renderBody(w, m, mode)
		w.close()
	}
	w.close()
}

// renderLockActions prints acquire and release as actions of a layer
// below the specification, with their mover types where movers are used.
func (gen *gen) renderLockActions(w *writer, movers bool) {
	right, left := "right ", "left "
	if !movers {
		right, left = "", ""
	}
	w.line(right + "action acquire(linear tid: int)")
	w.line("    requires tid != -1")
	w.open("")
	w.line("assume !lk;")
	w.line("lk, holder := true, tid;")
	w.close()
	w.blank()
	w.line(left + "action release(linear tid: int)")
	w.line("    requires tid != -1 && " + heldGate)
	w.open("")
	w.line("lk, holder := false, -1;")
	w.close()
}

// renderBody prints an implementation's statements; a compare-and-swap
// loop wraps them in while (true) and returns on success, or, written
// naturally, in while (!ok), which the successful compare-and-swap ends.
func (gen *gen) renderBody(w *writer, m *method, mode yieldMode) {
	var entry []fact
	if gen.lk != nil {
		entry = append(entry, notHolder)
	}
	if m.shape != shapeCASLoop {
		renderItems(m.items, mode, entry, w)
		return
	}
	if m.natural {
		w.line(m.casOK + " := false;")
		w.line("while (!" + m.casOK + ")")
		if len(entry) > 0 {
			w.line("  invariant " + conj(factTexts(entry)) + ";")
		}
		w.open("")
		renderItems(m.items, mode, entry, w)
		w.close()
		return
	}
	w.line("while (true)")
	if len(entry) > 0 {
		w.line("  invariant " + conj(factTexts(entry)) + ";")
	}
	w.open("")
	renderItems(m.items, mode, entry, w)
	w.line("if (" + m.casOK + ") { return; }")
	w.close()
}

// spec is the body of a method's atomic specification.
func (m *method) spec() []string {
	if m.specOverride != nil {
		return m.specOverride
	}
	var body []string
	for _, o := range m.ops {
		body = append(body, o.specText()...)
	}
	switch m.shape {
	case shapeChoice:
		var second []string
		for _, o := range m.ops[m.choiceAt:] {
			second = append(second, o.specText()...)
		}
		first := body[:len(body)-len(second)]
		return []string{"choice { " + strings.Join(first, " ") + " } or { " + strings.Join(second, " ") + " }"}
	case shapeCAS:
	default:
		return body
	}
	fail := m.casOK + " := false;"
	if out := m.ops[0].out; out != "" {
		fail = "havoc " + out + "; " + fail
	}
	return []string{"choice { " + strings.Join(body, " ") + " " + m.casOK + " := true; } or { " + fail + " }"}
}

// renderSpecLayer prints a layer of atomic actions: the specification,
// or, when weaker, an abstraction of it that may also return any value
// in some outputs.
func (gen *gen) renderSpecLayer(w *writer, n int, weaker bool) {
	w.blank()
	w.open(fmt.Sprintf("layer %d", n))
	for i, m := range gen.methods {
		if i > 0 {
			w.blank()
		}
		outs := m.outs
		w.line("atomic action " + m.signature(outs))
		req := m.paramFacts(gen.lk != nil)
		if m.specGate != "" {
			req = append(req, m.specGate)
		}
		if len(req) > 0 {
			w.line("    requires " + conj(req))
		}
		w.open("")
		body := m.spec()
		if weaker && len(outs) > 0 && gen.r.Intn(2) == 0 {
			out := outs[gen.r.Intn(len(outs))].name
			inner := strings.Join(body, " ")
			body = []string{"choice { " + inner + " } or { " + inner + " havoc " + out + "; }"}
		}
		for _, s := range body {
			w.line(s)
		}
		w.close()
	}
	w.close()
}

// renderInstance prints the instance: the owner and the other threads,
// or threads calling everything; two threads make a call or two each,
// three threads mostly one, so that exploring stays short.
func (gen *gen) renderInstance(w *writer) {
	w.blank()
	w.open("instance small")
	threads, maxCalls := 2+gen.r.Intn(2), 1+gen.r.Intn(2)
	if threads == 3 && gen.r.Intn(4) > 0 {
		maxCalls = 1
	}
	var all, others []string
	for _, m := range gen.methods {
		call := m.name
		if m.hasK {
			call += "(k in -1..1)"
			if m.kNonNeg {
				call = m.name + "(k in 0..1)"
			}
		}
		all = append(all, call)
		if !m.owner {
			others = append(others, call)
		}
	}
	if len(others) < len(all) {
		w.linef("thread owner(tid = 0) calls %s max %d;", strings.Join(all, ", "), maxCalls)
		w.linef("thread other(tid = 1..%d) calls %s max %d;", threads-1, strings.Join(others, ", "), maxCalls)
	} else {
		w.linef("thread worker(tid = 0..%d) calls %s max %d;", threads-1, strings.Join(all, ", "), maxCalls)
	}
	w.line("ints -1..2;")
	w.close()
}
