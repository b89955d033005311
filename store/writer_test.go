package store

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"testing"
)

// A writer store takes one file: its bytes reach the writer by Commit,
// a second file is refused, and nothing is ever listed or opened.
func TestWriter(t *testing.T) {
	ctx := context.Background()
	var buf bytes.Buffer
	s := Writer(&buf)
	f, err := s.Create(ctx, "sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "<urlset/>")
	if _, err := s.Create(ctx, "sitemap-2.xml"); !errors.Is(err, ErrOneFile) {
		t.Fatalf("second Create: %v, want ErrOneFile", err)
	}
	if err := s.Publish(ctx, Publication{Files: []File{f}}); !errors.Is(err, ErrNotCommitted) {
		t.Fatalf("Publish before Commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "<urlset/>" {
		t.Fatalf("written %q", buf.String())
	}
	if err := s.Publish(ctx, Publication{Files: []File{f}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Write after Publish: %v", err)
	}
	if names, _ := s.List(ctx); len(names) != 0 {
		t.Fatalf("List = %v", names)
	}
	if _, err := s.Open(ctx, "sitemap.xml"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open: %v", err)
	}
}
