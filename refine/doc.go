// Package refine generates the checks that link each layer to the next
// (DESIGN §4.3) and those about the program as a whole:
//
//   - refinement structure, step abstraction, action abstraction and method
//     abstraction, for every name present at two consecutive layers;
//   - the client contract: for every public method, what a client
//     guarantees when it calls as the upper layer allows (with the calling
//     thread's history) implies the lower layer's requires;
//   - vacuity: a state in which each public method may be called, a first
//     call in the initial state, a path on which each public method of
//     layer 0 returns, asked with witness asserts.
//
// Like og and movers, it builds obligations from the layers model and
// knows nothing of how they are decided.
package refine
