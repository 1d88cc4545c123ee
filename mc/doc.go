// Package mc is lipton's finite-instance model checker (DESIGN §6).
//
// It runs a layer of a checked program concretely on an instance (the
// threads, calls and integer domain of an `instance` block) and explores
// every interleaving of the threads at yield granularity: a thread runs a
// fragment, the code from one yield point to the next, atomically, and
// threads interleave at yield points. Statements are executed on obl's
// obligation IR as the layers package translates them, so the model
// checker and the static checks share one semantics. IR expressions and
// commands are compiled once into closures over a slot-indexed register
// file; states are encoded compactly (zigzag varints) and stored
// compressed (collapse.go: their parts interned, a tree of pairs, an
// 8-byte key per state; or, lossy, a 64-bit hash: compact.go), explored
// breadth first so that traces are shortest.
//
// Three checks are offered:
//
//   - Explore (ModeSafety): every gate, assert, yield annotation and
//     layer invariant in every reachable state. Annotations of threads
//     waiting at a yield point are re-checked whenever another thread
//     changes a variable they read.
//   - Linearizability (ModeLinearizability): the chosen layer against the
//     top layer's atomic actions, as trace refinement of the events "call"
//     and "return" of public methods, with the specification normalized
//     on the fly (seed 001): the search matches product states (state of
//     the implementation, set of specification states closed under hidden
//     steps), never recorded histories.
//   - Refinement (ModeRefines): the same product check of a layer against
//     another (normally the next).
//
// In a refinement check the client contract is the specification's
// requires: a thread calls a method whenever the specification allows
// it, and an implementation whose requires does not hold there fails
// (kind "contract"). Under access atomicity (Options.Atomicity,
// access.go) layer 0 interleaves at every access to a global instead of
// at yield points only, to test the atomicity its statements claim.
// Under a weak memory model (Options.Memory, weak.go: TSO or PSO) layer
// 0 runs with access atomicity and store buffers: writes of globals go
// to the writing thread's buffer and reach memory in flush transitions
// of their own; `fence;` and locked [ ] groups wait for empty buffers.
//
// Locals and outputs that the code may read before writing them start
// arbitrary, as the language says; their value is chosen from the domain
// where the code first reads them (uninit.go, lazy.go). A search in
// which no thread ever makes a call is incomplete (Result.Vacuous): it
// checked nothing.
//
// Partial-order reduction (persistent sets of one thread's invisible,
// progressing fragments that are independent of everything the other
// threads may still do) and symmetry reduction (threads of one role whose
// identities are only compared for equality with constants outside their
// range) shrink the search; both can be switched off.
//
// A search stops cleanly, as Incomplete with the statistics of the part
// explored, at the limits of its Options: states stored, time, the
// memory it holds (its own estimate, backed up by the Go heap's live
// bytes) and the caller's context, which a signal cancels (limits.go).
//
// Decide is the enumeration fallback for obligations (DESIGN §5): it
// executes an obligation for every valuation of its variables over a
// finite integer domain.
package mc
