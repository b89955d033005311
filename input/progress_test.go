package input

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Options.Progress is told of a local file's size when it is opened and
// of every byte read from it, for a progress line's bytes read of the
// size.
func TestOpenProgress(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.xml")
	os.WriteFile(p, make([]byte, 100000), 0o644)
	var read, size int64
	rc, err := Open(context.Background(), &Doc{Name: p, Path: p}, Options{Progress: func(r, n int64) { read += r; size += n }})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if size != 100000 || read != 0 {
		t.Fatalf("after open: read %d of %d, want 0 of 100000", read, size)
	}
	if _, err := io.CopyN(io.Discard, rc, 40000); err != nil {
		t.Fatal(err)
	}
	if read < 40000 || read > 100000 {
		t.Fatalf("after 40000 bytes: read %d", read)
	}
	io.Copy(io.Discard, rc)
	if read != 100000 || size != 100000 {
		t.Fatalf("at the end: read %d of %d", read, size)
	}
}
