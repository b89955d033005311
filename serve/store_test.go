package serve

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// With a CacheDir every built page is a file; a changed page is built
// again and its old file removed; what an earlier run left is swept.
func TestCacheDir(t *testing.T) {
	src, insert := sqliteBackend.open(t, testRows(25))
	dir := filepath.Join(t.TempDir(), "cache")
	os.MkdirAll(dir, 0o755)
	for _, n := range []string{".part-123", "doc-7.xml.gz"} {
		os.WriteFile(filepath.Join(dir, n), []byte("left by a killed run"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not ours"), 0o644)
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: -1, CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	files := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, "*"))
		m2, _ := filepath.Glob(filepath.Join(dir, ".*"))
		return append(m, m2...)
	}
	if got := files(); len(got) != 1 || filepath.Base(got[0]) != "notes.txt" {
		t.Fatalf("after NewHandler the directory holds %v, want only notes.txt", got)
	}
	first := body(t, get(t, h, "GET", "/sitemap-1.xml"))
	// Three pages and the index, plus notes.txt.
	if got := files(); len(got) != 5 {
		t.Errorf("%d files, want 5: %v", len(got), got)
	}
	if z := body(t, get(t, h, "GET", "/sitemap-1.xml", "Accept-Encoding", "gzip")); gunzip(t, z) != first {
		t.Error("gzip form differs")
	}
	insert(row{"https://www.example.com/p/0001", time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)})
	if got := locs(body(t, get(t, h, "GET", "/sitemap-1.xml"))); len(got) != 10 || got[1] != "https://www.example.com/p/0001" {
		t.Errorf("after a row was added to page 1 the old page was served: %v", got)
	}
	// Page 1 split in two (11 entries): the old page 1 and the index are
	// replaced, one page added.
	if got := files(); len(got) != 6 {
		t.Errorf("%d files after the change, want 6: %v", len(got), got)
	}
}

// Run builds every page ahead of requests and keeps them current.
func TestRun(t *testing.T) {
	src, insert := sqliteBackend.open(t, testRows(35))
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- h.Run(ctx) }()
	waitFor(t, "Run to build 4 pages", func() bool { return h.Pages() == 4 })
	before := h.stats.refreshes.Load()
	insert(row{"https://www.example.com/p/0351", time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)})
	waitFor(t, "Run to see the new row", func() bool {
		return len(locs(body(t, get(t, h, "GET", "/sitemap-4.xml")))) == 6
	})
	if h.stats.refreshes.Load() == before {
		t.Error("no check ran")
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Run returned %v", err)
	}
}

// waitFor polls cond for up to a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

// A second handler on the same CacheDir is refused while the first has it.
func TestCacheDirLocked(t *testing.T) {
	src, _ := sqliteBackend.open(t, testRows(5))
	dir := t.TempDir()
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", CacheDir: dir}); err == nil || !strings.Contains(err.Error(), "another sitemap server") {
		t.Errorf("a second handler on the directory: %v", err)
	}
	h.Close()
	h2, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", CacheDir: dir})
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	h2.Close()
}

// A page's file removed from CacheDir by hand: the request that finds it
// gone gets 503, and the page is built again at once.
func TestCacheFileRemoved(t *testing.T) {
	src, _ := sqliteBackend.open(t, testRows(25))
	dir := t.TempDir()
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: -1, CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	want := body(t, get(t, h, "GET", "/sitemap-2.xml"))
	files, _ := filepath.Glob(filepath.Join(dir, "doc-*"))
	for _, f := range files {
		os.Remove(f)
	}
	for _, p := range []string{"/sitemap-2.xml", "/sitemap.xml"} {
		if res := get(t, h, "GET", p); res.StatusCode != 503 && res.StatusCode != 200 {
			t.Errorf("%s with its file gone: %s", p, res.Status)
		}
	}
	if res := get(t, h, "GET", "/sitemap-2.xml"); res.StatusCode != 200 || body(t, res) != want {
		t.Errorf("after the check: %s", res.Status)
	}
	if res := get(t, h, "GET", "/sitemap.xml"); res.StatusCode != 200 {
		t.Errorf("the index after the check: %s", res.Status)
	}
}
