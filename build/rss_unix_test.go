//go:build linux

package build

import "syscall"

// peakRSSMB returns the process's peak resident set size in MiB
// (getrusage ru_maxrss is in KiB on Linux).
func peakRSSMB() (float64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return float64(ru.Maxrss) / 1024, true
}

// threadCPU returns the user+system CPU time of the calling OS thread (the
// caller locks its goroutine to the thread).
func threadCPU() (float64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_THREAD, &ru) != nil {
		return 0, false
	}
	return float64(syscall.TimevalToNsec(ru.Utime)+syscall.TimevalToNsec(ru.Stime)) / 1e9, true
}

// processCPU returns the user+system CPU time of the process.
func processCPU() (float64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return float64(syscall.TimevalToNsec(ru.Utime)+syscall.TimevalToNsec(ru.Stime)) / 1e9, true
}
