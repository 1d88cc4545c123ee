//go:build amd64 || arm64

package mc

import "unsafe"

// prefetch asks the processor to bring the cache line at p into its
// caches without waiting for it (prefetch_amd64.s, prefetch_arm64.s): a
// hint, which neither reads p for the program nor faults.
//
//go:noescape
func prefetch(p unsafe.Pointer)
