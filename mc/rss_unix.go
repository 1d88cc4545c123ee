//go:build unix

package mc

import (
	"runtime"
	"syscall"
)

// PeakRSS returns the peak resident set size of the process in bytes, or
// 0 if it is not known.
func PeakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes on macOS
	}
	return int64(ru.Maxrss) * 1024 // kilobytes on Linux
}
