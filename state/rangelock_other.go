//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package state

import "os"

// Without fcntl record locks the submission lock keeps apart the callers
// of one *SQLite only.
const rangeLocks = false

const (
	lockByte = 0
	waitByte = 0
)

func tryRange(*os.File, int64, bool) (bool, error) { return true, nil }
func unlockRange(*os.File, int64) error            { return nil }
func othersHold(*os.File, int64) bool              { return false }
