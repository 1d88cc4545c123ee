package mc

// porInfo is the static analysis behind partial-order reduction.
type porInfo struct{}

func (m *Model) porAnalysis() *porInfo {
	m.porOff = "not implemented"
	return nil
}

func (e *explorer) ample(s *dstate, i int) int { return -1 }
