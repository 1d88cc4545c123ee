package mc

import "math"

// Lazily chosen initial values.
//
// A frame slot that may be read before it is written (uninit.go) starts
// unset: a reserved value no computation produces (arithmetic treats
// -2^63 as an overflow). Compiled code that reads an unset slot raises
// unsetRead; the run then starts the transition again, once for every
// value of the domain, with the slot set to that value — in the source
// state's frame, or, for a frame the transition creates (a call), in the
// new frame. Since nothing read the slot before, choosing its value now
// is the same as choosing it at the call, and states in which it is
// never read (`!f || t == 0` with f false) do not multiply.
//
// Go code that reads frame values as values sets them first: the outputs
// a return shows (needSet), and those a callee hands to its caller. The
// annotation of a waiting thread, re-checked after other threads' steps,
// must hold for every value of its unset slots (annotationHolds).

// unset marks a slot whose arbitrary initial value is not chosen yet.
const unset = math.MinInt64

// unsetRead is raised (as a panic) by code that reads an unset slot of a
// frame of p. frame is filled in by the run: the index of the frame in
// the thread's call stack, or -1 for a frame the transition creates.
type unsetRead struct {
	p     *cproc
	slot  int
	frame int
	path  []int // the arm whose stack holds the frame (fork.go); empty: the thread's own
}

// freshValue is the value chosen for an unset slot of frames of p that
// the transition creates.
type freshValue struct {
	p    *cproc
	slot int
	v    int64
}

// choose runs thread t's transition from s once for every value of the
// slot that need read unset.
func (ru *run) choose(s *dstate, t int, need *unsetRead) error {
	for _, a := range need.p.arbitrary {
		if a.slot != need.slot {
			continue
		}
		for _, v := range a.values {
			var err error
			if need.frame < 0 {
				ru.fresh = append(ru.fresh, freshValue{p: need.p, slot: need.slot, v: v})
				err = ru.successors(s, t)
				ru.fresh = ru.fresh[:len(ru.fresh)-1]
			} else {
				err = ru.successors(withFrameValue(s, t, need.path, need.frame, need.slot, v), t)
			}
			if err != nil || ru.x.stop {
				return err
			}
		}
		return nil
	}
	panic("mc: an unset slot that does not start arbitrary")
}

// withFrameValue returns a copy of s in which slot of frame frame of
// thread t holds v; path names the arm whose stack holds the frame.
func withFrameValue(s *dstate, t int, path []int, frame, slot int, v int64) *dstate {
	n := *s
	n.th = append([]dthread(nil), s.th...)
	th := &n.th[t]
	frames := &th.frames
	arms := &th.arms
	for _, i := range path {
		*arms = append([]armState(nil), (*arms)...)
		a := &(*arms)[i]
		frames, arms = &a.frames, &a.arms
	}
	*frames = append([]dframe(nil), (*frames)...)
	f := &(*frames)[frame]
	f.vals = append([]int64(nil), f.vals...)
	f.vals[slot] = v
	return &n
}

// applyFresh sets the values chosen for unset slots of a new frame of p,
// whose values are in regs after the globals.
func (ru *run) applyFresh(p *cproc, regs []int64) {
	g := ru.m.nglob()
	for _, f := range ru.fresh {
		if f.p == p {
			regs[g+f.slot] = f.v
		}
	}
}

// needSet raises unsetRead if one of the given slots of p's frame vals
// is unset: Go code is about to use them as values.
func needSet(p *cproc, vals []int64, slots []int) {
	if len(p.arbitrary) == 0 {
		return
	}
	for _, s := range slots {
		if vals[s] == unset {
			panic(unsetRead{p: p, slot: s})
		}
	}
}

// annotationHolds evaluates the annotation ann of a waiting thread whose
// frame of p is loaded in r: true if it holds for every value of the
// unset slots it reads.
func (m *model) annotationHolds(ann evalFn, p *cproc, r []int64) (holds bool) {
	if len(p.arbitrary) == 0 {
		return ann(r) != 0
	}
	var need *unsetRead
	func() {
		defer func() {
			if e := recover(); e != nil {
				u, ok := e.(unsetRead)
				if !ok {
					panic(e)
				}
				need = &u
			}
		}()
		holds = ann(r) != 0
	}()
	if need == nil {
		return holds
	}
	slot := m.nglob() + need.slot
	defer func() { r[slot] = unset }()
	for _, a := range p.arbitrary {
		if a.slot != need.slot {
			continue
		}
		for _, v := range a.values {
			r[slot] = v
			if !m.annotationHolds(ann, p, r) {
				return false
			}
		}
	}
	return true
}
