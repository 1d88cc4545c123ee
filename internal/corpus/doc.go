// Package corpus loads files of the proof corpus (proofs/) for the
// tests of the packages that generate obligations: it parses, checks
// and builds them into layers, so that a test can compare what its
// package computes on real proofs.
package corpus
