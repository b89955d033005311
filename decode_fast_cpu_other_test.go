//go:build !unix

package sitemap

// decCPUTime is not available here; the benchmarks then report wall time only.
func decCPUTime() (int64, bool) { return 0, false }
