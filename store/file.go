package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the file name with data, the way a Dir publishes: a
// temporary file in the same directory is written, given mode, synced,
// and renamed over name, then the directory is synced. A reader sees the
// old file or the new one, never a part; on an error name is untouched
// and the temporary file is removed. It is for single files outside a
// set, such as a robots.txt beside the sitemaps.
func WriteFile(name string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(name)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		// Named by the file asked for, not the temporary one.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return &fs.PathError{Op: "write", Path: name, Err: fmt.Errorf("no directory %s: %w", dir, err)}
		}
		return &fs.PathError{Op: "write", Path: name, Err: err}
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync() // make the rename durable; not every file system supports it
		d.Close()
	}
	return nil
}
