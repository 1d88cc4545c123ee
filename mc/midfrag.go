package mc

import (
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// Mover procedures run inside their caller's fragment: the static
// checks treat a call of one as a step, and its body's yield points are
// not yield points of the layer. Explore runs the call as a call (other
// threads interleave at the call, inside the callee and at its exit), so
// that it does not assume the mover claim. While some thread is inside
// such a call, a layer invariant or an annotation of a waiting thread
// may be false for a while and true again when the fragment ends
// (proofs/moverproc/broken/entry-invariant.lip's neighbour without the
// reader is proven). So the invariants and the annotations of yield
// points are checked only in states where no thread is inside a call of
// a mover procedure, and in full after the step that ends one; the
// gates (asserts, the requires of a called action or procedure) are
// checked wherever they are met, as reduction preserves their failures.

// isMoverCall reports whether yield point y is the call of a mover
// procedure.
func isMoverCall(y *layers.YieldPoint) bool {
	if y.Par != nil || y.Kind != layers.YieldCall {
		return false
	}
	p := y.Callee()
	return p != nil && p.Mover != lang.MoverNone
}

// insideMover reports whether frame f runs a mover procedure or waits
// at a call of one.
func insideMover(f *dframe) bool {
	return f.p.mover || f.p.moverCall != nil && f.p.moverCall[f.node]
}

// midFragment reports whether thread record th is inside a call of a
// mover procedure (in a frame or in an arm of a parallel call).
func midFragment(th *dthread) bool {
	for i := range th.frames {
		if insideMover(&th.frames[i]) {
			return true
		}
	}
	found := false
	armWaitingFrames(th.arms, nil, func(top *dframe) {
		found = found || insideMover(top)
	})
	return found
}

// othersMid reports whether a thread other than the running one is
// inside a call of a mover procedure in the state the step starts from.
func (ru *run) othersMid() bool {
	if ru.src == nil {
		return false
	}
	for u := range ru.src.th {
		if u != ru.t && midFragment(&ru.src.th[u]) {
			return true
		}
	}
	return false
}

// skipAnnotation reports whether the running thread, reaching yield
// point node of cp, must not check its annotation: another thread is
// inside a fragment, or the running thread is inside a call of a mover
// procedure but not at a yield point of the mover procedure itself. At
// the call of a mover procedure the annotation is the callee's requires
// only, a gate, checked always; the yield points of a mover procedure
// carry no invariant (layers.InvariantsAt), and its entry and exit the
// requires and ensures its body is proven to keep.
func (ru *run) skipAnnotation(cp *cproc, node int) bool {
	if !ru.m.moverProcs || cp.moverCall != nil && cp.moverCall[node] {
		return false
	}
	if ru.othersMid() {
		return true
	}
	if cp.mover {
		return false
	}
	for i := range ru.below {
		if insideMover(&ru.below[i]) {
			return true
		}
	}
	return false
}

// fragmentChecks decides the invariant and annotation checks after a
// step of the running thread, which leaves it with record rec: none
// while some thread is inside a call of a mover procedure; all of them
// (every global counts as changed) after the step that ends the last
// such call, since the steps inside it were not checked.
func (ru *run) fragmentChecks(rec *dthread, changed uint64) (uint64, bool) {
	if midFragment(rec) || ru.othersMid() {
		return changed, true
	}
	if ru.src != nil && midFragment(&ru.src.th[ru.t]) {
		return ^uint64(0), false
	}
	return changed, false
}
