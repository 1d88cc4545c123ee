// Command checkbench measures the checker on every proof of the corpus.
// It runs package check in-process (the library behind `lipton check`),
// several times per file, and prints the number of obligations, the
// verdict, and medians of the CPU time (user + system, of this process,
// so Z3's work is included) and of the wall time split into front end,
// obligation generation and solving. CPU time is the figure to compare
// across runs on a shared machine; wall time is shown beside it.
//
// Usage (from the repository root):
//
//	go run ./bench/checkbench [-runs 5] [-jobs 0] [DIR]
package main
