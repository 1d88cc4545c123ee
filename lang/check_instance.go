package lang

import (
	"fmt"
	"strings"
)

// Checks of instance blocks (DESIGN §2.3).

func (c *checker) checkInstances() {
	public := map[string]bool{}
	for _, name := range c.info.PublicMethods() {
		public[name] = true
	}
	for _, in := range c.file.Instances {
		if prev := c.info.Instances[in.Name.Name]; prev != nil {
			c.errorf(in.Name.P, "instance %s is already declared at %s", in.Name.Name, prev.P)
		}
		c.info.Instances[in.Name.Name] = in
		c.checkInstance(in, public)
	}
}

func (c *checker) checkInstance(in *Instance, public map[string]bool) {
	if in.Ints != nil {
		c.checkRange(in.Ints, "the ints domain")
	}
	roles := map[string]bool{}
	var tids []*IntRange
	for _, t := range in.Threads {
		if roles[t.Role.Name] {
			c.errorf(t.Role.P, "thread role %s is declared twice in instance %s", t.Role.Name, in.Name.Name)
		}
		roles[t.Role.Name] = true
		c.checkRange(t.Tids, "the thread ids")
		for _, other := range tids {
			if t.Tids.Lo <= other.Hi && other.Lo <= t.Tids.Hi {
				c.errorf(t.Tids.P, "thread ids %d..%d overlap those of another role (%d..%d): thread ids must be distinct", t.Tids.Lo, t.Tids.Hi, other.Lo, other.Hi)
			}
		}
		tids = append(tids, t.Tids)
		if t.Max < 0 || t.Max == 0 && t.MaxPos.IsValid() {
			c.errorf(t.MaxPos, "max must be at least 1")
		}
		c.checkThreadSets(t)
		for _, cs := range t.Calls {
			c.checkCallSpec(t, cs, public)
		}
	}
	c.checkSetsDisjoint(in)
}

// checkThreadSets checks the shape of a role's linear sets: one set per
// thread, each parameter named once and not the thread id's.
func (c *checker) checkThreadSets(t *ThreadDecl) {
	n := t.Tids.Hi - t.Tids.Lo + 1
	seen := map[string]bool{t.TidParam.Name: true}
	for _, ts := range t.Sets {
		if seen[ts.Param.Name] {
			c.errorf(ts.Param.P, "%s is given twice in role %s (a thread id or a linear set goes to each linear parameter once)", ts.Param.Name, t.Role.Name)
		}
		seen[ts.Param.Name] = true
		if n > 0 && int64(len(ts.Sets)) != n {
			c.errorf(ts.Param.P, "role %s has %d thread(s) (ids %d..%d), but %s gives %d set(s): give one set per thread, in the order of the ids", t.Role.Name, n, t.Tids.Lo, t.Tids.Hi, ts.Param.Name, len(ts.Sets))
		}
		for _, sl := range ts.Sets {
			for _, r := range sl.Elems {
				c.checkRange(r, "the members of "+ts.Param.Name)
			}
		}
	}
}

// linearOwner is the thread, and its parameter, that an instance gives
// a linear value to.
type linearOwner struct {
	role  string
	tid   int64
	param string
}

func (o linearOwner) String() string {
	return fmt.Sprintf("%s(%d)'s %s", o.role, o.tid, o.param)
}

// linearKey is a linear value of a domain (its type's name).
type linearKey struct {
	dom string
	v   int64
}

// checkSetsDisjoint checks that no linear value is given twice: a thread
// id, or a member of a linear set, given to one thread's parameter is
// given to no other parameter, of that thread or another, as a value of
// the same domain. The checks assume exactly that (docs/checks.md,
// "Linear values"). A value goes to the domain of the linear parameters that
// receive it (lang.LinearDomain); one that no called method receives is
// nobody's linear value.
func (c *checker) checkSetsDisjoint(in *Instance) {
	owner := map[linearKey]linearOwner{}
	for _, t := range in.Threads {
		if dom := c.linearDomainOf(t, t.TidParam.Name); dom != nil {
			for id := t.Tids.Lo; id <= t.Tids.Hi && id-t.Tids.Lo < maxOwnerScan; id++ {
				owner[linearKey{dom.String(), id}] = linearOwner{t.Role.Name, id, t.TidParam.Name}
			}
		}
	}
	for _, t := range in.Threads {
		for _, ts := range t.Sets {
			dom := c.linearDomainOf(t, ts.Param.Name)
			for i, sl := range ts.Sets {
				me := linearOwner{t.Role.Name, t.Tids.Lo + int64(i), ts.Param.Name}
				for _, v := range setValues(sl) {
					if dom == nil {
						break
					}
					k := linearKey{dom.String(), v}
					if o, ok := owner[k]; ok && o != me {
						c.errorf(sl.P, "%s holds %d, which %s holds too: linear values must be disjoint", me, v, o)
						break
					}
					owner[k] = me
				}
			}
		}
	}
}

// linearDomainOf is the domain of the linear parameter name of the
// methods role t calls, or nil if none has one.
func (c *checker) linearDomainOf(t *ThreadDecl, name string) Type {
	if len(c.info.Layers) == 0 {
		return nil
	}
	for _, cs := range t.Calls {
		m := c.info.Layers[0].Members[cs.Method.Name]
		if m == nil {
			continue
		}
		if p := findParam(m.Sig(), name); p != nil && p.Linear && p.Name.Obj.Type != nil {
			if dom, _, ok := LinearDomain(p.Name.Obj.Type); ok {
				return dom
			}
		}
	}
	return nil
}

// maxOwnerScan bounds the values of one range that the disjointness
// checks enumerate; larger ranges are rejected by the model checker.
const maxOwnerScan = 1 << 16

// setValues returns the members of sl, bounded by maxOwnerScan per range.
func setValues(sl *SetLit) []int64 {
	var short SetLit
	for _, r := range sl.Elems {
		hi := r.Hi
		if r.Hi-r.Lo >= maxOwnerScan {
			hi = r.Lo + maxOwnerScan - 1
		}
		short.Elems = append(short.Elems, &IntRange{Lo: r.Lo, Hi: hi})
	}
	return short.Values()
}

func (c *checker) checkRange(r *IntRange, what string) {
	if r.Lo > r.Hi {
		c.errorf(r.P, "empty range %d..%d for %s", r.Lo, r.Hi, what)
	}
}

func (c *checker) checkCallSpec(t *ThreadDecl, cs *CallSpec, public map[string]bool) {
	name := cs.Method.Name
	if !public[name] {
		c.errorf(cs.Method.P, "%s is not a public method (%s)", name, c.publicRule())
		return
	}
	sig := c.info.Layers[0].Members[name].Sig()
	if linear := linearParams(sig); len(linear) > 0 && len(t.Sets) == 0 && !contains(linear, t.TidParam.Name) {
		c.errorf(t.TidParam.P, "%s's thread id goes to a linear parameter, but %s has no linear parameter named %s (it has %s)",
			t.Role.Name, name, t.TidParam.Name, strings.Join(linear, ", "))
	}
	if p := findParam(sig, t.TidParam.Name); p != nil && p.Linear {
		c.checkTidsFit(t, name, p.Name.Obj.Type)
	}
	c.checkSetParams(t, cs.Method, sig)
	seen := map[string]bool{}
	for _, a := range cs.Args {
		p := findParam(sig, a.Param.Name)
		switch {
		case p == nil:
			c.errorf(a.Param.P, "%s has no parameter named %s", name, a.Param.Name)
		case p.Linear:
			c.errorf(a.Param.P, "parameter %s of %s is linear: it receives the thread id (%s)", a.Param.Name, name, t.TidParam.Name)
		case p.Name.Obj.Type != nil && p.Name.Obj.Type != Int:
			c.errorf(a.Param.P, "parameter %s of %s has type %s; only int parameters take ranges", a.Param.Name, name, p.Name.Obj.Type)
		case seen[a.Param.Name]:
			c.errorf(a.Param.P, "parameter %s is given twice", a.Param.Name)
		}
		seen[a.Param.Name] = true
		c.checkRange(a.Range, "parameter "+a.Param.Name)
	}
}

// checkSetParams checks that every linear parameter of the method sig
// but the thread id's is a linear set that role t gives its threads, and
// that the members of those sets fit the set's domain.
func (c *checker) checkSetParams(t *ThreadDecl, method *Ident, sig *Signature) {
	given := map[string]*ThreadSets{}
	for _, ts := range t.Sets {
		given[ts.Param.Name] = ts
	}
	for _, p := range sig.Params {
		ts := given[p.Name.Name]
		if p.Name.Name == t.TidParam.Name || p.Name.Obj.Type == nil || (!p.Linear && ts == nil) {
			continue
		}
		dom, isSet, _ := LinearDomain(p.Name.Obj.Type)
		switch {
		case !p.Linear:
			c.errorf(ts.Param.P, "role %s gives a linear set %s, but parameter %s of %s is not linear", t.Role.Name, ts.Param.Name, p.Name.Name, method.Name)
		case !isSet && ts != nil:
			c.errorf(ts.Param.P, "role %s gives a linear set %s, but linear parameter %s of %s has type %s, not a set", t.Role.Name, ts.Param.Name, p.Name.Name, method.Name, p.Name.Obj.Type)
		case !isSet && len(t.Sets) == 0 && findParam(sig, t.TidParam.Name) == nil:
			// reported above: the thread id has no parameter
		case !isSet:
			c.errorf(method.P, "linear parameter %s of %s is not a set and not the thread id (%s): it gets no value", p.Name.Name, method.Name, t.TidParam.Name)
		case ts == nil:
			c.errorf(method.P, "linear set %s of %s gets no value: give it in role %s, as %s = {...} for each thread", p.Name.Name, method.Name, t.Role.Name, p.Name.Name)
		default:
			c.checkSetsFit(ts, method.Name, dom)
		}
	}
}

// checkSetsFit checks that the members of the sets ts fit dom: any int,
// 0..1 for bool, the member indices for an enumeration.
func (c *checker) checkSetsFit(ts *ThreadSets, method string, dom Type) {
	n := int64(2)
	if e, ok := dom.(*EnumType); ok {
		n = int64(len(e.Members))
	} else if dom != Bool {
		return
	}
	for _, sl := range ts.Sets {
		for _, r := range sl.Elems {
			if r.Lo <= r.Hi && (r.Lo < 0 || r.Hi >= n) {
				c.errorf(r.P, "%d..%d do not fit %s's linear set %s of type [%s]bool: its members are 0..%d", r.Lo, r.Hi, method, ts.Param.Name, dom, n-1)
			}
		}
	}
}

// checkTidsFit checks that every thread id of role t is a distinct value
// of the type of the linear parameter that receives it: the two-thread
// checks assume that the linear values of two threads differ, so an
// instance must not give two threads the same one. A bool parameter
// takes ids 0 and 1 (false and true), an enumeration's the indices of
// its members.
func (c *checker) checkTidsFit(t *ThreadDecl, method string, typ Type) {
	var n int
	switch typ := typ.(type) {
	case *EnumType:
		n = len(typ.Members)
	default:
		if typ == Int || typ == nil {
			return
		}
		if typ != Bool {
			c.errorf(t.TidParam.P, "%s's thread ids go to %s's linear parameter %s of type %s; thread ids are int, bool or enumeration values", t.Role.Name, method, t.TidParam.Name, typ)
			return
		}
		n = 2
	}
	if t.Tids.Lo < 0 || t.Tids.Hi >= int64(n) {
		c.errorf(t.Tids.P, "thread ids %d..%d do not fit %s's linear parameter %s of type %s: its %d values are the ids 0..%d, and two threads must not share one", t.Tids.Lo, t.Tids.Hi, method, t.TidParam.Name, typ, n, n-1)
	}
}

func findParam(sig *Signature, name string) *Param {
	for _, p := range sig.Params {
		if p.Name.Name == name {
			return p
		}
	}
	return nil
}

func linearParams(sig *Signature) []string {
	var names []string
	for _, p := range sig.Params {
		if p.Linear {
			names = append(names, p.Name.Name)
		}
	}
	return names
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
