package store

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteFile replaces a file whole with the mode given and leaves no
// temporary file; a directory that cannot be written leaves the old file.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(name, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(name, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(name)
	fi, _ := os.Stat(name)
	if err != nil || string(b) != "new\n" || fi.Mode().Perm() != 0o644 {
		t.Fatalf("got %q %v (%v), want new with 0644", b, fi.Mode(), err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("left %d entries in the directory, want 1", len(ents))
	}
	if err := WriteFile(filepath.Join(dir, "missing", "robots.txt"), []byte("x"), 0o644); err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
}

// A file in a directory that does not exist is an error naming the file
// and the missing directory, not the temporary file WriteFile would
// have made ("open DIR/.robots.txt.tmp-123: no such file or directory").
func TestWriteFileNoDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nodir")
	name := filepath.Join(dir, "robots.txt")
	err := WriteFile(name, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "no directory "+dir) ||
		strings.Contains(err.Error(), ".tmp-") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v", err)
	}
}

// An AsideFile: the name keeps its old contents until Commit; Abort, on
// any path, leaves no temporary file and the old file as it was; Close
// keeps the file aside for a later Commit.
func TestAsideFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "report.html")
	read := func() string { b, _ := os.ReadFile(name); return string(b) }
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what   string
		finish func(a *AsideFile) error
		want   string
	}{
		{"abort", func(a *AsideFile) error { a.Abort(); return nil }, "old"},
		{"close then abort", func(a *AsideFile) error { a.Close(); a.Abort(); return nil }, "old"},
		{"commit", func(a *AsideFile) error { return a.Commit(0o640) }, "new"},
		{"close then commit", func(a *AsideFile) error { a.Close(); return a.Commit(0o640) }, "new"},
	} {
		if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := CreateAside(name)
		if err != nil {
			t.Fatal(err)
		}
		if a.Name() != name {
			t.Errorf("Name %q", a.Name())
		}
		a.Write([]byte("new"))
		if read() != "old" {
			t.Errorf("%s: the name changed before Commit", c.what)
		}
		if err := c.finish(a); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		a.Abort() // deferred in real use: nothing after Commit
		if got := read(); got != c.want {
			t.Errorf("%s: %q, want %q", c.what, got, c.want)
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			t.Errorf("%s: %d entries left in the directory, want 1", c.what, len(ents))
		}
		if fi, _ := os.Stat(name); c.want == "new" && fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v", c.what, fi.Mode())
		}
	}
	a, _ := CreateAside(name)
	a.Abort()
	if err := a.Commit(0o644); err == nil {
		t.Error("Commit after Abort succeeded")
	}
}

type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteOutputErrorsNameTheOutput: a failed write to standard output
// says so ("writing standard output: "), and a name that is a directory
// is refused before write runs.
func TestWriteOutputErrorsNameTheOutput(t *testing.T) {
	write := func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }
	err := WriteOutput("-", fullWriter{}, write)
	if err == nil || err.Error() != "writing standard output: no space left on device" {
		t.Errorf("stdout: %v", err)
	}
	dir := t.TempDir()
	ran := false
	err = WriteOutput(dir, nil, func(io.Writer) error { ran = true; return nil })
	if err == nil || err.Error() != "writing "+dir+": it is a directory; give the name of a file to write" || ran {
		t.Errorf("directory: %v, write ran: %v", err, ran)
	}
}
