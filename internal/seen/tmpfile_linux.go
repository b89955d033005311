package seen

import (
	"os"
	"syscall"
)

// oTmpfile is Linux's O_TMPFILE (__O_TMPFILE | O_DIRECTORY, the same
// __O_TMPFILE on every architecture Go runs Linux on).
const oTmpfile = 0x400000 | syscall.O_DIRECTORY

// openNameless opens a file in dir that has no name at all (O_TMPFILE):
// there is no moment, not even between its creation and an unlink, at
// which a killed process would leave it behind. It fails where the file
// system cannot (createRunFile then creates and unlinks a named file).
// The file is opened without access times (O_NOATIME, allowed to the
// file's owner, which the process is): a lookup's read would otherwise
// ask the file system whether to update it (0.5 % of generate's CPU at
// 10⁸ URLs); where O_NOATIME is refused, it is opened without it.
func openNameless(dir string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.OpenFile(dir, os.O_RDWR|oTmpfile|syscall.O_NOATIME, 0o600)
	if err != nil {
		f, err = os.OpenFile(dir, os.O_RDWR|oTmpfile, 0o600)
	}
	return f, err
}
