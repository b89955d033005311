//go:build !unix

package fetch

// cpuTime is 0 where getrusage is missing (BenchmarkDedupScale).
func cpuTime() int64 { return 0 }
