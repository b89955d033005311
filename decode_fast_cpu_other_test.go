//go:build !unix

package sitemap

// cpuTime is not available here; the benchmarks then report wall time only.
func cpuTime() (int64, bool) { return 0, false }
