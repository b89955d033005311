package store

import (
	"errors"
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
