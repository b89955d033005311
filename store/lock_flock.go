//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Lock implements Locker with an flock(2) on the hidden file ".NAME.lock"
// in the directory. The lock is released by unlock or when the process
// ends, however it ends; the lock file itself stays (it is empty and
// hidden).
func (s *DirStore) Lock(ctx context.Context, name string) (unlock func() error, err error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	path := filepath.Join(s.dir, "."+name+".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("store: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: another run is writing %s in %s (it holds %s); wait for it to finish", ErrLocked, name, s.dir, path)
		}
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	done := false
	return func() error {
		if done {
			return nil
		}
		done = true
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return f.Close()
	}, nil
}
