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
// in the directory, which exists only while a run holds it: unlock removes
// it. The lock is also released when the process ends, however it ends; a
// lock file a killed run left is simply taken over.
func (s *DirStore) Lock(ctx context.Context, name string) (unlock func() error, err error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	path := filepath.Join(s.dir, "."+name+".lock")
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
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
		// The holder before us may have removed the file between our open
		// and our flock: then we hold a lock on a file nobody else can
		// see, and must try again on the current one.
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			done := false
			return func() error {
				if done {
					return nil
				}
				done = true
				// Remove before unlocking, so a waiter that opened the old
				// file sees the change and retries.
				os.Remove(path)
				return f.Close()
			}, nil
		}
		f.Close()
	}
}
