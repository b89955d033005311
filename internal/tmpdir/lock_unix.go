//go:build unix

package tmpdir

import (
	"os"
	"syscall"
)

// lock takes an flock on dir held until unlock (or the process's end);
// on a file system without flock it does nothing.
func lock(dir string) (unlock func()) {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() }
}

// abandoned reports whether no process holds dir locked: the lock could
// be taken (and is dropped again at once). A file system without flock
// says no: nothing is removed there.
func abandoned(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
