//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package serve

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an flock(2) on dir itself (no lock file), held until the
// returned file is closed or the process ends, however it ends: a second
// handler on the same cache directory would remove the first one's pages.
func lockDir(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return f, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		f.Close()
		return nil, fmt.Errorf("%s is the page cache of another sitemap server running now: give each its own directory", dir)
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP):
		return f, nil // a file system without flock: unguarded
	}
	f.Close()
	return nil, err
}
