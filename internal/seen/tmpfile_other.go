//go:build !linux

package seen

import (
	"errors"
	"os"
)

// openNameless fails: only Linux opens a file with no name
// (createRunFile then creates and unlinks a named file).
func openNameless(string) (*os.File, error) {
	return nil, errors.ErrUnsupported
}
