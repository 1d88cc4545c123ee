package lang

import "strings"

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
		for _, cs := range t.Calls {
			c.checkCallSpec(t, cs, public)
		}
	}
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
	if linear := linearParams(sig); len(linear) > 0 && !contains(linear, t.TidParam.Name) {
		c.errorf(t.TidParam.P, "%s's thread id goes to a linear parameter, but %s has no linear parameter named %s (it has %s)",
			t.Role.Name, name, t.TidParam.Name, strings.Join(linear, ", "))
	}
	if p := findParam(sig, t.TidParam.Name); p != nil && p.Linear {
		c.checkTidsFit(t, name, p.Name.Obj.Type)
	}
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
