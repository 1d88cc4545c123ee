// Package vcgen defines lipton's obligations, small sequential check
// programs that say what must hold, and decides them with Z3.
//
// An Obligation declares typed variables (their initial values are
// universally quantified) and a body of commands: assume, assert, parallel
// assignment, havoc, nondeterministic choice and sequence. Expressions are
// immutable trees over integers, booleans and total maps, with quantifiers.
// Nothing here knows about lipton's surface language or its layers: the
// packages above build obligations, this package and the model checker
// decide them.
//
// Discharge decides a batch of obligations with a pool of workers, each
// owning a Prover with its own Z3 context (Z3 contexts are not
// thread-safe), and returns the results in the order of the batch; a
// Prover can also be used directly by one goroutine.
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
// Relation computes the transition relation of a command by path
// enumeration, with syntactic elimination of existentials; the mover and
// refinement checks use it to compare steps.
//
// WriteSMT2 and WriteDump print an obligation as SMT-LIB2 (and as readable
// check program text), so that `z3 -smt2 file.smt2` reproduces the
// verdicts.
package vcgen
