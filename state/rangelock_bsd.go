//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package state

import "syscall"

// Classic POSIX record locks: a process's, so two descriptors of one
// process do not exclude each other (one *SQLite's callers are kept
// apart by its own turn; two *SQLite of one file in one process are not).
func rangeCmd(get bool) int {
	if get {
		return syscall.F_GETLK
	}
	return syscall.F_SETLK
}
