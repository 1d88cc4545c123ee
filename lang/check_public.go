package lang

// The public interface of a file (docs/language.md, "Public methods").
//
// A file either marks its public methods with the word public, at every
// layer, or marks none. Marked, a name is public if and only if it is
// marked, and a name declared at every layer but not marked is a helper:
// only procedures call it, never a client. Unmarked, the public methods
// are the names declared at every layer, as before the mark existed.
// Either way a public method is declared at every layer from 0 to the
// top, so that every layer says what a client's call of it does.

// checkPublic computes the public methods and checks the marks.
func (c *checker) checkPublic() {
	if len(c.info.Layers) == 0 {
		return
	}
	if !c.marksPublic() {
		c.info.public = everyLayerNames(c.info.Layers)
		return
	}
	var public []string
	for i, li := range c.info.Layers {
		for _, m := range li.Layer.Members {
			sig := m.Sig()
			if !sig.Public {
				continue
			}
			if c.firstMarked(sig.Name.Name) == i && c.markedEverywhere(sig) {
				public = append(public, sig.Name.Name)
			}
		}
	}
	c.info.public = inLayerZeroOrder(public, c.info.Layers[0])
}

// publicRule says what makes a method public in this file, for messages.
func (c *checker) publicRule() string {
	if c.marksPublic() {
		return "the file marks its public methods with public"
	}
	return "a name declared at every layer from 0 to the top"
}

// marksPublic reports whether some declaration is marked public.
func (c *checker) marksPublic() bool {
	for _, li := range c.info.Layers {
		for _, m := range li.Layer.Members {
			if m.Sig().Public {
				return true
			}
		}
	}
	return false
}

// firstMarked returns the lowest layer where name is marked public.
func (c *checker) firstMarked(name string) int {
	for i, li := range c.info.Layers {
		if m := li.Members[name]; m != nil && m.Sig().Public {
			return i
		}
	}
	return -1
}

// markedEverywhere reports, with an error at sig's mark if not, whether
// the method that sig declares public is declared, and marked public, at
// every layer.
func (c *checker) markedEverywhere(sig *Signature) bool {
	name := sig.Name.Name
	for i, li := range c.info.Layers {
		m := li.Members[name]
		switch {
		case m == nil:
			c.errorf(sig.PublicPos, "public method %s is not declared at layer %d: a public method is declared at every layer, 0 to %d, so that each layer says what a client's call does",
				name, i, len(c.info.Layers)-1)
			return false
		case !m.Sig().Public:
			c.errorf(m.Pos(), "%s is marked public at layer %d but not at layer %d: mark it public at every layer",
				name, sig.Layer.Num, i)
			return false
		}
	}
	return true
}

// everyLayerNames returns the names declared at every layer, in the
// order of layer 0.
func everyLayerNames(layers []*LayerInfo) []string {
	var names []string
	for _, m := range layers[0].Layer.Members {
		name := m.MemberName().Name
		everywhere := true
		for _, l := range layers[1:] {
			if l.Members[name] == nil {
				everywhere = false
			}
		}
		if everywhere {
			names = append(names, name)
		}
	}
	return names
}

// inLayerZeroOrder sorts names, all declared at layer 0, in its order.
func inLayerZeroOrder(names []string, l0 *LayerInfo) []string {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []string
	for _, m := range l0.Layer.Members {
		if n := m.MemberName().Name; want[n] {
			out = append(out, n)
		}
	}
	return out
}
