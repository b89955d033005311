//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package state

// lockCrawl does nothing where flock(2) is missing: two processes
// crawling with one state file there are not kept apart.
func (s *SQLite) lockCrawl() error { return nil }
