// Package obl defines lipton's obligations: small sequential check
// programs that say what must hold. It is the seam between the checks
// that build obligations (og, movers, refine, from the layers model) and
// the two deciders that answer them (smt with Z3, mc by enumeration);
// nothing here knows about Z3, the surface language or layers, and it is
// pure Go.
//
// An Obligation declares typed variables (their initial values are
// universally quantified) and a body of commands: assume, assert, parallel
// assignment, havoc, nondeterministic choice and sequence. Expressions are
// immutable trees over integers, booleans and total maps, with quantifiers.
// Each Assert has a kind, a message and source positions; a witness assert
// asks for a reachable point instead (the vacuity checks).
//
// The package also holds what both deciders return: a Verdict per assert
// (Result, ObligationResult) and a Counterexample with the values of the
// variables before and at the failing assert, in Value form.
//
// Relation computes the transition relation of a command by path
// enumeration, with syntactic elimination of existentials; the mover and
// refinement checks use it to compare steps. Defined gives the condition
// under which an expression divides by no zero.
//
// String prints an obligation as a readable check program (the .obl files
// of lipton check --dump).
package obl
