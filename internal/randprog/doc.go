// Package randprog produces .lip programs for lipton's differential
// soundness test (cmd/lipton/soundness_test.go): the static checker says
// "proven" only for programs whose finite instances the model checker
// finds no violation in.
//
// Generate builds a small random layered program. It starts from what a
// proof writer would write: a few shared variables (integers, a
// boolean, a map, a sequence used as a queue), each with an access
// discipline (updated atomically, protected by a lock, written by one
// owner thread only, a per-thread slot, read only), and public methods
// whose atomic effects are short sequences of operations on them. From
// the effects it derives the whole proof, so that many programs are
// correct and proven:
//
//   - the layer-0 implementation, where every simple statement outside a
//     [ ] group accesses at most one global once (the model checker's
//     access-atomicity mode interleaves layer 0 at every access, so a
//     violation it finds there is a real one), with compare-and-swap
//     loops, lock acquire/release and read-then-write sequences;
//   - mover tags inferred from the disciplines, yields placed where
//     Lipton's atomicity automaton needs them, and yield annotations
//     from facts that are stable under the other threads;
//   - the atomic specification, the effect itself, and sometimes a
//     middle layer (the reduced procedure, or an abstracted
//     specification).
//
// Then it perturbs some programs, the way proof writers and implementers
// err (an atomic update split into a read and a write, a specification
// gate that the implementation cannot rely on, or any mutation of
// Mutate), so that some programs are subtly wrong and others stay
// correct.
//
// Mutate applies one such mutation to any proof, in particular to the
// proofs of the corpus: a mover tag changed, a yield dropped, an
// annotation or gate weakened or strengthened, statements reordered, a
// compare-and-swap reduced to its store, a constant or an operator
// changed, an assume removed. It works on the syntax tree (lang.Parse)
// and prints the result with lang.Format, so that mutants parse.
//
// Every program carries, in its leading comments, how it was made, so a
// disagreement printed by the soundness test says what to look at.
package randprog
