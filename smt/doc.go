// Package smt decides obligations (package obl) with Z3, through the
// project's own cgo binding in smt/z3; it is the only package of lipton
// that links libz3.
//
// Discharge decides a batch of obligations with a pool of workers, each
// owning a Prover with its own Z3 context (Z3 contexts are not
// thread-safe), and returns the results in the order of the batch; a
// Prover can also be used directly by one goroutine. Workers take the
// obligations by index, and every query is bounded by Z3's deterministic
// resource limit (Options.RLimit), so the verdicts are the same on every
// run whatever the machine's load; the wall-clock limit of a run is the
// caller's context.
//
// Deciding an obligation computes its weakest liberal precondition in
// passive form: the body is put in SSA form (every assignment and havoc
// makes a new incarnation of the variable, branches of a choice are joined
// by equalities, Boogie-style), so the verification condition is linear in
// the size of the program and a model gives the value of every variable at
// every point. Each Assert gets its own verdict, with a counterexample when
// it fails; an assert is checked assuming the asserts before it on the
// same path hold.
//
// WriteSMT2 and WriteDump print an obligation as SMT-LIB2 (and as readable
// check program text), so that `z3 -smt2 file.smt2` reproduces the
// verdicts.
package smt
