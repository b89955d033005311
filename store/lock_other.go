//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

import "context"

// Lock implements Locker; on this platform it does not lock, and one run
// at a time per name is up to the caller.
func (s *DirStore) Lock(ctx context.Context, name string) (unlock func() error, err error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return func() error { return nil }, nil
}
