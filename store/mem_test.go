package store

import (
	"context"
	"testing"
)

// The zero MemStore is an empty store: publishing into one panicked on
// its nil map.
func TestMemStoreZero(t *testing.T) {
	ctx := context.Background()
	var s MemStore
	if names, err := s.List(ctx); err != nil || len(names) != 0 {
		t.Fatalf("List: %v %v", names, err)
	}
	f, err := s.Create(ctx, "sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("<urlset/>"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.Publish(ctx, Publication{Files: []File{f}}); err != nil {
		t.Fatal(err)
	}
	if got := string(s.Bytes("sitemap.xml")); got != "<urlset/>" {
		t.Errorf("published %q", got)
	}
}
