package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// AsideFile is a file written aside: under a temporary name in the
// directory of its name (".NAME.tmp-RANDOM"), renamed over the name by
// [AsideFile.Commit]. Until then a reader of the name sees the file as it
// was (or none); after, the whole new one, never a part. Whatever ends
// before Commit (an error, a cancelled context, a signal the program
// turns into one) calls [AsideFile.Abort], usually deferred, and no
// temporary file stays. It is the one write-aside-and-rename of the
// module: [WriteFile], the HTML pages and reports and the graph drawings
// use it (a Dir publishes sets of files through its own journal).
type AsideFile struct {
	f      *os.File
	name   string
	closed bool
	done   bool // committed or aborted
}

// CreateAside starts writing name aside. Its error names name and what
// is wrong with its directory, never the temporary file.
func CreateAside(name string) (*AsideFile, error) {
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &fs.PathError{Op: "write", Path: name, Err: fmt.Errorf("no directory %s: %w", dir, err)}
		}
		return nil, &fs.PathError{Op: "write", Path: name, Err: err}
	}
	return &AsideFile{f: f, name: name}, nil
}

// Name is the name the file is committed to.
func (a *AsideFile) Name() string { return a.name }

// Write writes to the temporary file.
func (a *AsideFile) Write(p []byte) (int, error) { return a.f.Write(p) }

// Sync commits the temporary file's contents to stable storage.
func (a *AsideFile) Sync() error { return a.f.Sync() }

// Close ends the writing and keeps the file aside, for a caller that
// commits a set of files together once each is written. A failed Close
// aborts the file.
func (a *AsideFile) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	if err := a.f.Close(); err != nil {
		a.Abort()
		return &fs.PathError{Op: "write", Path: a.name, Err: err}
	}
	return nil
}

// Commit closes the file, gives it mode and renames it over its name.
// On an error the file is aborted and the name left as it was.
func (a *AsideFile) Commit(mode fs.FileMode) error {
	if a.done {
		return &fs.PathError{Op: "write", Path: a.name, Err: fs.ErrClosed}
	}
	if err := a.Close(); err != nil {
		return err
	}
	err := os.Chmod(a.f.Name(), mode)
	if err == nil {
		err = os.Rename(a.f.Name(), a.name)
	}
	if err != nil {
		a.Abort()
		return &fs.PathError{Op: "write", Path: a.name, Err: err}
	}
	a.done = true
	return nil
}

// Abort closes and removes the temporary file, leaving the name as it
// was. After Commit it does nothing, so it can be deferred.
func (a *AsideFile) Abort() {
	if a.done {
		return
	}
	a.done, a.closed = true, true
	a.f.Close()
	os.Remove(a.f.Name())
}

// WriteFile replaces the file name with data, the way a Dir publishes: a
// temporary file in the same directory is written, given mode, synced,
// and renamed over name, then the directory is synced. A reader sees the
// old file or the new one, never a part; on an error name is untouched
// and the temporary file is removed. It is for single files outside a
// set, such as a robots.txt beside the sitemaps.
func WriteFile(name string, data []byte, mode fs.FileMode) error {
	a, err := CreateAside(name)
	if err != nil {
		return err
	}
	defer a.Abort()
	if _, err := a.Write(data); err != nil {
		return err
	}
	if err := a.Sync(); err != nil {
		return err
	}
	if err := a.Commit(mode); err != nil {
		return err
	}
	if d, derr := os.Open(filepath.Dir(name)); derr == nil {
		d.Sync() // make the rename durable; not every file system supports it
		d.Close()
	}
	return nil
}

// WriteOutput runs write on stdout when name is "-", else on the file
// name written aside ([CreateAside]) and renamed to name (mode 0644) when
// write succeeds: name is never left half written, and no temporary file
// stays. Its errors start "writing NAME: " ("writing standard output: "
// for "-") and name the directory, not the temporary file, when the file
// cannot be created there; a name that is a directory is refused before
// write runs.
func WriteOutput(name string, stdout io.Writer, write func(io.Writer) error) error {
	if name == "-" {
		if err := write(stdout); err != nil {
			return fmt.Errorf("writing standard output: %w", err)
		}
		return nil
	}
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		return fmt.Errorf("writing %s: it is a directory; give the name of a file to write", name)
	}
	f, err := CreateAside(name)
	if err != nil {
		dir := filepath.Dir(name)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("writing %s: directory %s does not exist; create it first", name, dir)
		}
		return fmt.Errorf("writing %s: cannot create a file in %s: %v", name, dir, errors.Unwrap(err))
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return fmt.Errorf("writing %s: %v", name, err)
	}
	if err := f.Commit(0o644); err != nil {
		return fmt.Errorf("writing %s: %v", name, errors.Unwrap(err))
	}
	return nil
}

// CheckOutputFile says why the file at path cannot be written by
// WriteOutput (nil when it can, and for "-", standard output): path is a
// directory, its directory does not exist (it is not created), or no file
// can be created there (CheckWritable). It creates nothing that stays.
func CheckOutputFile(path string) error {
	if path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.New("is a directory; give the name of a file to write")
	}
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("%v (the directory is not created)", err)
	}
	return CheckWritable(dir)
}

// CheckWritable says why a file cannot be created in dir, or, when
// dir does not exist, in the directory that creating it would start
// from (its nearest existing parent, which must be a directory): it
// creates a temporary file there and removes it at once. A program checks
// its output directory with it before long work, so that the work is
// not done for nothing; nil when a file can be created.
func CheckWritable(dir string) error {
	d := dir
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is a file, not a directory", d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return err
		}
		d = parent
	}
	f, err := os.CreateTemp(d, ".sitemap-check-*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("cannot create a file in %s: %v", d, pe.Err)
		}
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
