// Package movers generates lipton's reduction checks of one layer
// (DESIGN §4.2): yield sufficiency, decided here without a solver by
// CIVL's atomicity automaton, and the commutativity, gate preservation,
// failure preservation and non-blocking obligations that mover types
// require, and the linearity obligation of each action that moves
// identities (linearity.go), which smt (or mc, by enumeration) decides.
package movers
