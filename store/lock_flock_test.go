//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// One run per directory: a second Lock, of any name, fails at once until
// the first is released; nothing is left in the directory, not even while
// the lock is held.
func TestLock(t *testing.T) {
	ctx := context.Background()
	s, _ := Dir(t.TempDir())
	unlock, err := s.Lock(ctx, "sitemap")
	if err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(s.Path()); len(ents) != 0 {
		t.Fatalf("the lock put %v into the directory", ents)
	}
	if _, err := s.Lock(ctx, "sitemap"); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Lock: %v, want ErrLocked", err)
	}
	// Another store on the same directory (another run) is refused too,
	// whatever the name.
	s2, _ := Dir(s.Path())
	if _, err := s2.Lock(ctx, "news"); !errors.Is(err, ErrLocked) {
		t.Fatalf("Lock of another name: %v, want ErrLocked", err)
	}
	unlock()
	unlock() // idempotent
	again, err := s2.Lock(ctx, "news")
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	again()
	if ents, _ := os.ReadDir(s.Path()); len(ents) != 0 {
		t.Fatalf("lock files left after unlock: %v", ents)
	}
	// The file lock of file systems that cannot lock a directory: a lock
	// file a killed run left behind is taken over, and Recover keeps it.
	os.WriteFile(filepath.Join(s.Path(), ".sitemap.lock"), nil, 0o644)
	held, err := s.lockFile(ctx, "sitemap")
	if err != nil {
		t.Fatalf("Lock over a stale lock file: %v", err)
	}
	if _, err := s.lockFile(ctx, "sitemap"); !errors.Is(err, ErrLocked) {
		t.Fatalf("second file Lock: %v, want ErrLocked", err)
	}
	if err := s.Recover(ctx, "sitemap.publish-journal", func(string) bool { return true }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Path(), ".sitemap.lock")); err != nil {
		t.Fatalf("Recover removed a held lock file: %v", err)
	}
	held()
	if ents, _ := os.ReadDir(s.Path()); len(ents) != 0 {
		t.Fatalf("lock file left after unlock: %v", ents)
	}
}
