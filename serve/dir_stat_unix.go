//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package serve

import (
	"fmt"
	"os"
	"syscall"
)

// fileIdentity is what tells a file's bytes apart beyond its size and
// modification time: its inode (a file renamed into place is a new one)
// and its change time, which every write moves and no tool sets back (a
// rewrite of the same length with its old mtime restored keeps both).
func fileIdentity(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("-%x-%x", st.Ino, ctimeNanos(st))
}
