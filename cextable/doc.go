// Package cextable arranges the counterexample of a failed obligation
// for display: one group per part of the state the obligation names (the
// globals, each thread's frame, the traces of program points), each
// variable named as in the source with its value before and after, as
// lipton check prints it. The editor server and the HTML report show
// counterexamples through it, so that they say what the terminal says.
package cextable
