//go:build !amd64 && !arm64

package mc

import "unsafe"

// prefetch is a hint to the processor's caches (prefetch_asm.go); here
// it does nothing.
func prefetch(unsafe.Pointer) {}
