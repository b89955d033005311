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
