//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package serve

import "os"

// lockDir does not lock where flock(2) is missing.
func lockDir(dir string) (*os.File, error) { return os.Open(dir) }
