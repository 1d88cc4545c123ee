package layers

// FragmentPath is one path of a fragment: from a yield point through
// steps, private statements and branches to the next yield point.
type FragmentPath struct {
	From  *YieldPoint
	Nodes []*Node // the nodes between the two yield points
	To    *YieldPoint
	// Return: the path reaches the exit by a return inside the private
	// loop that is its last node.
	Return bool
}

// MaxFragmentPaths bounds the paths FragmentPaths lists per procedure.
const MaxFragmentPaths = 256

// FragmentPaths enumerates the fragments of p path by path, in the order
// of p's yield points. It stops after MaxFragmentPaths paths and reports
// whether the list is complete.
func FragmentPaths(p *Proc) ([]*FragmentPath, bool) {
	var paths []*FragmentPath
	complete := true
	var walk func(from *YieldPoint, n *Node, prefix []*Node)
	walk = func(from *YieldPoint, n *Node, prefix []*Node) {
		for _, m := range n.Succs {
			if len(paths) >= MaxFragmentPaths {
				complete = false
				return
			}
			if m.IsYield() {
				paths = append(paths, &FragmentPath{From: from, Nodes: append([]*Node(nil), prefix...), To: m.Yield})
				continue
			}
			if m.ReturnsInside() {
				// the path that leaves by the return inside the loop
				paths = append(paths, &FragmentPath{From: from, Nodes: append(append([]*Node(nil), prefix...), m), To: p.Exit.Yield, Return: true})
				if len(paths) >= MaxFragmentPaths {
					complete = false
					return
				}
			}
			walk(from, m, append(prefix, m))
		}
	}
	for _, y := range p.Yields {
		if y.Kind != YieldExit {
			walk(y, y.Node, nil)
		}
	}
	return paths, complete
}
