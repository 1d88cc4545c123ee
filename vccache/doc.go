// Package vccache stores, on disk, which verification conditions Z3 has
// proven, so that re-checking an unchanged proof does not solve them
// again (lipton check's cache, docs/checks.md "The cache").
//
// An entry is an empty file named by a key, a SHA-256 digest that the
// caller computes from everything a verdict depends on (package check:
// the obligation's formulas, the solver's limit, the Z3 library and the
// lipton executable); the file's existence means "proven". Only proven
// obligations are stored: a failure needs its counterexample, and an
// unknown may be decided another time. An entry is empty, so creating
// it is atomic: concurrent runs never see a half-written entry. The
// directory is pruned to a bounded number of entries, oldest
// first (a hit refreshes an entry's time).
package vccache
