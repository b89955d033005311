//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package state

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockCrawl takes an flock(2) on the state file, held until the SQLite is
// closed (or the process ends, however it ends): a crawl log in a file is
// one process's, and a second crawl with the same file would crawl the
// same frontier at once. No lock file is made. The descriptor stays open
// until Close even when the lock is refused: closing a descriptor of the
// file would drop SQLite's own (fcntl) locks on it.
func (s *SQLite) lockCrawl() error {
	if s.crawlLock != nil {
		if s.crawlLocked {
			return nil
		}
	} else {
		f, err := os.Open(s.path)
		if err != nil {
			return fmt.Errorf("state: lock %s: %w", s.path, err)
		}
		s.crawlLock = f
	}
	err := syscall.Flock(int(s.crawlLock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		s.crawlLocked = true
		return nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return errors.New("another process is crawling with this state file; wait for it to end, or give another state file")
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP):
		s.crawlLocked = true // a file system without flock: unguarded, as before
		return nil
	}
	return fmt.Errorf("state: lock %s: %w", s.path, err)
}
