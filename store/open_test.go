package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Open picks the store by the location; undo removes only the directories
// it created, while they are empty; a dry run creates nothing.
func TestOpen(t *testing.T) {
	root := t.TempDir()
	var buf bytes.Buffer
	if st, _, err := Open("-", OpenOptions{Stdout: &buf}); err != nil {
		t.Fatal(err)
	} else if _, ok := st.(*WriterStore); !ok {
		t.Errorf(`"-": %T, want a writer store`, st)
	}
	if st, _, err := Open("-", OpenOptions{DryRun: true}); st != nil || err != nil {
		t.Errorf(`"-" in a dry run: %v %v, want none`, st, err)
	}
	if st, _, err := Open("s3://bucket/prefix/", OpenOptions{}); err != nil {
		t.Fatal(err)
	} else if s3, ok := st.(*S3Store); !ok || s3.Location() != "s3://bucket/prefix/" {
		t.Errorf("s3: %T", st)
	}
	if _, _, err := Open("s3://", OpenOptions{}); err == nil {
		t.Error("s3:// without a bucket opened")
	}

	deep := filepath.Join(root, "a", "b", "c")
	if st, _, err := Open(deep, OpenOptions{DryRun: true}); st != nil || err != nil {
		t.Errorf("dry run of a missing directory: %v %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(root, "a")); err == nil {
		t.Fatal("a dry run created a directory")
	}
	st, undo, err := Open(deep, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.(*DirStore); !ok {
		t.Errorf("directory: %T", st)
	}
	os.WriteFile(filepath.Join(root, "a", "keep"), nil, 0o644)
	undo()
	if _, err := os.Stat(filepath.Join(root, "a", "b")); err == nil {
		t.Error("undo left a/b")
	}
	if _, err := os.Stat(filepath.Join(root, "a", "keep")); err != nil {
		t.Error("undo removed a directory that is not empty")
	}
	if st, _, err := Open(root, OpenOptions{DryRun: true}); err != nil || st == nil {
		t.Errorf("dry run of an existing directory: %v %v", st, err)
	}
	file := filepath.Join(root, "a", "keep")
	if _, _, err := Open(file, OpenOptions{}); err == nil {
		t.Error("a file opened as a directory")
	}
}
