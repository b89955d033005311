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
func openNameless(dir string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	return os.OpenFile(dir, os.O_RDWR|oTmpfile, 0o600)
}
