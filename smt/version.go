package smt

import "github.com/lipton-dev/lipton/smt/z3"

// SolverVersion returns the version of the Z3 library that decides
// obligations, for caches and reports.
func SolverVersion() string { return z3.Version() }
