// Package og generates the Owicki-Gries obligations of one layer
// (DESIGN §4.1): every fragment, started in a state satisfying its yield
// annotation, reaches the next yield points in states satisfying theirs
// and meets only gates that hold (sequential correctness); and no
// fragment of another thread invalidates a yield annotation
// (non-interference).
package og
