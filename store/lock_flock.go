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

// Lock implements Locker with an flock(2) on the directory itself, so no
// lock file is ever left among the published files: it is released when
// unlock is called or when the process ends, however it ends. The lock
// covers the whole directory, whatever name: two runs writing into one
// directory at once, with the same or different names, would otherwise
// take each other's new files for leftovers of a killed run. On a file
// system that cannot lock a directory (NFS emulates flock with locks that
// need a file open for writing), the lock is an flock on the hidden file
// ".NAME.lock" in the directory instead, removed by unlock.
func (s *DirStore) Lock(ctx context.Context, name string) (unlock func() error, err error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d, err := os.Open(s.dir)
	if err != nil {
		return nil, fmt.Errorf("store: lock: %w", err)
	}
	err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		done := false
		return func() error {
			if done {
				return nil
			}
			done = true
			return d.Close()
		}, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		d.Close()
		return nil, fmt.Errorf("%w: another run is writing sitemaps into %s; wait for it to finish", ErrLocked, s.dir)
	case errors.Is(err, syscall.EBADF), errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP):
		d.Close()
		return s.lockFile(ctx, name)
	default:
		d.Close()
		return nil, fmt.Errorf("store: lock %s: %w", s.dir, err)
	}
}

// lockFile is Lock on a file system that cannot lock a directory: an
// flock on ".NAME.lock", which exists only while a run holds it. A lock
// file a killed run left is simply taken over.
func (s *DirStore) lockFile(ctx context.Context, name string) (unlock func() error, err error) {
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
