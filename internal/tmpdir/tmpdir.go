// Package tmpdir makes temporary directories that do not outlive their
// process for long: each is locked (flock) by its process while it
// lives, and every Make first removes the directories of the same
// pattern whose process is gone, however it ended (kill -9 included).
//
// It is for what must have a name on disk while the process runs, such
// as a SQLite database (its journal is opened by name); a file that needs
// no name is better unlinked at once.
package tmpdir

import (
	"os"
	"path/filepath"
	"strings"
)

// Make creates a new directory in dir (os.TempDir() when "") named
// pattern with its last "*" replaced by a random string, as
// os.MkdirTemp does, locked by this process until release is called or
// the process ends. Before that it removes every directory of dir that
// matches pattern and is not locked: one a process left behind when it
// was killed. release removes the directory and drops the lock.
//
// Where the system has no flock, nothing is swept and the directory is
// only removed by release.
func Make(dir, pattern string) (path string, release func(), err error) {
	if dir == "" {
		dir = os.TempDir()
	}
	Sweep(dir, pattern)
	// Made under a name the sweep does not match, locked, then renamed:
	// a sweeper never sees it unlocked.
	tmp, err := os.MkdirTemp(dir, ".new-"+pattern)
	if err != nil {
		return "", nil, err
	}
	unlock := lock(tmp)
	path = filepath.Join(dir, strings.TrimPrefix(filepath.Base(tmp), ".new-"))
	if err := os.Rename(tmp, path); err != nil {
		unlock()
		os.RemoveAll(tmp)
		return "", nil, err
	}
	return path, func() {
		os.RemoveAll(path)
		unlock()
	}, nil
}

// Sweep removes the directories of dir matching pattern (a "*" for any
// run of characters, as Make's pattern) that no process holds locked.
// It reports nothing: a directory it cannot remove stays.
func Sweep(dir, pattern string) {
	glob := pattern
	if !strings.Contains(glob, "*") {
		glob += "*"
	}
	names, _ := filepath.Glob(filepath.Join(dir, glob))
	for _, name := range names {
		if fi, err := os.Lstat(name); err != nil || !fi.IsDir() {
			continue
		}
		if abandoned(name) {
			os.RemoveAll(name)
		}
	}
}
