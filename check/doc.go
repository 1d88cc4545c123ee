// Package check runs a whole static check of a program: the library
// behind `lipton check`, and what the differential soundness test, the
// benchmarks and (later) the editor server call.
//
// Run builds the layers model of a checked file, runs the generators in
// order for every layer (og, movers, refine: each returns
// layers.Findings in one shape), decides the obligations with Z3 (package
// smt) under a context that a signal or a time limit may end, optionally
// decides what Z3 leaves unknown by enumeration (package mc, the
// fallback: never reported as proven), and tallies everything per layer
// and kind of check, with the findings (failed and unknown checks) a user
// needs to see and the claim a successful run proves.
package check
