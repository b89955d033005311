//go:build unix

package sitemap

import "syscall"

// cpuTime returns the process's user+system CPU time in nanoseconds, so
// the decoder benchmarks can report CPU time per URL, which other work on a
// busy machine disturbs far less than wall time.
func cpuTime() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
