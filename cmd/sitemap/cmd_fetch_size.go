package main

import "github.com/sitemapkit/sitemap/internal/seen"

// byteSize is the value of --dedup-memory (seen.Memory).
type byteSize = seen.Memory

// checkDedupMemory refuses a --dedup-memory too small to be of use
// (seen.Memory.Check).
func checkDedupMemory(b byteSize, def int64) error {
	if err := b.Check("--dedup-memory", def); err != nil {
		return cannotRun("%v", err)
	}
	return nil
}
