// Command copies writes a program made of k independent copies of a
// lipton proof, for measuring how the checker scales with the number of
// procedures: copy i renames every constant, global variable, function,
// action and procedure of the proof by the suffix _i (types and
// enumeration members are shared), and the members of each layer of all
// copies form that layer. Instances and comments are dropped.
//
// Usage (from the repository root):
//
//	go run ./bench/copies -k 3 proofs/chaselev/chaselev.lip > /tmp/cl3.lip
package main
