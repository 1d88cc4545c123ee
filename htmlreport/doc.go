// Package htmlreport writes lipton show --html: one self-contained HTML
// page (inline CSS, no script, nothing fetched) for people who read or
// teach a proof.
//
// The page shows the layers side by side, one column per layer and one
// row per method, so that a procedure can be read next to the atomic
// action that abstracts it: each step carries a badge of its mover type
// (coloured), the fragments of a procedure (from one yield point to the
// next) are shaded, and the yield points are marked. Every failed or
// unknown obligation of a check, and the violation of a model-checker
// run, comes with its counterexample as a swim-lane diagram: one column
// per thread, the steps in order, the values each step changes and where
// each thread then waits (its yield point).
package htmlreport
