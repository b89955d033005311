//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package state

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// The byte ranges of the submission lock in the SQLite file, far past
// the ones SQLite locks itself (from 1 GiB) and past any file's end:
// lockByte is the lock, waitByte is read-locked by those waiting for it.
const (
	lockByte = 1 << 60
	waitByte = lockByte + 1
)

// tryRange takes a lock on the byte at off without waiting: a write
// (exclusive) lock, or a read (shared) one. It reports false when
// another holds a conflicting lock. A file system without record locks
// counts as locked (unguarded, as the crawl's flock is there).
func tryRange(f *os.File, off int64, write bool) (bool, error) {
	typ := int16(syscall.F_RDLCK)
	if write {
		typ = syscall.F_WRLCK
	}
	lk := syscall.Flock_t{Type: typ, Whence: io.SeekStart, Start: off, Len: 1}
	err := syscall.FcntlFlock(f.Fd(), rangeCmd(false), &lk)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EACCES):
		return false, nil
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP):
		return true, nil
	}
	return false, err
}

// unlockRange drops this descriptor's lock on the byte at off.
func unlockRange(f *os.File, off int64) error {
	lk := syscall.Flock_t{Type: syscall.F_UNLCK, Whence: io.SeekStart, Start: off, Len: 1}
	return syscall.FcntlFlock(f.Fd(), rangeCmd(false), &lk)
}

// othersHold reports whether another holds a lock on the byte at off.
func othersHold(f *os.File, off int64) bool {
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart, Start: off, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), rangeCmd(true), &lk); err != nil {
		return false
	}
	return lk.Type != syscall.F_UNLCK
}

// rangeLocks reports whether this system has the record locks above.
const rangeLocks = true
