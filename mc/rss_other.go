//go:build !unix

package mc

// PeakRSS returns 0: the peak resident set size is not known here.
func PeakRSS() int64 { return 0 }
