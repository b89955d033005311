package serve

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// With a CacheDir a page is built once per change, then sent from its
// file; a changed page is built again and its old file removed.
func TestCache(t *testing.T) {
	src, insert := sqliteBackend.open(t, testRows(25))
	dir := filepath.Join(t.TempDir(), "cache")
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: -1, CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	first := body(t, get(t, h, "GET", "/sitemap-1.xml"))
	if h.stats.cached.Load() != 0 {
		t.Fatal("the first request came from the cache")
	}
	res := get(t, h, "GET", "/sitemap-1.xml")
	if b := body(t, res); b != first || h.stats.cached.Load() != 1 || res.Header.Get("Content-Length") == "" {
		t.Errorf("second request: cached %d, same body %v, headers %v", h.stats.cached.Load(), b == first, res.Header)
	}
	// The gzip form, made from the cached page, then cached itself.
	for range 2 {
		if z := body(t, get(t, h, "GET", "/sitemap-1.xml", "Accept-Encoding", "gzip")); gunzip(t, z) != first {
			t.Error("gzip form differs")
		}
	}
	if h.stats.cached.Load() != 2 {
		t.Errorf("the second gzip request was not cached (cached %d)", h.stats.cached.Load())
	}
	files := func() int {
		m, _ := filepath.Glob(filepath.Join(dir, "page-*"))
		return len(m)
	}
	if files() != 2 {
		t.Errorf("%d cache files, want 2", files())
	}
	insert(row{"https://www.example.com/p/0001", time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)})
	if got := locs(body(t, get(t, h, "GET", "/sitemap-1.xml"))); len(got) != 10 || got[1] != "https://www.example.com/p/0001" {
		t.Errorf("after a row was added to page 1 the cache still answered: %v", got)
	}
	// The old page's two files are gone; the new one is cached.
	if files() != 1 {
		t.Errorf("%d cache files after the change, want 1", files())
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}

// Warm builds every page ahead of requests.
func TestWarm(t *testing.T) {
	src, _ := sqliteBackend.open(t, testRows(35))
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", PerPage: 10, Recheck: time.Hour, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- h.Warm(ctx) }()
	for deadline := time.Now().Add(time.Minute); h.stats.warmed.Load() < 4; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("Warm built %d pages in a minute, want 4", h.stats.warmed.Load())
		}
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Warm returned %v", err)
	}
	for _, p := range []string{"/sitemap-1.xml", "/sitemap-2.xml", "/sitemap-3.xml", "/sitemap-4.xml"} {
		if b := body(t, get(t, h, "GET", p)); len(locs(b)) == 0 {
			t.Errorf("%s empty", p)
		}
	}
	if h.stats.cached.Load() != 4 {
		t.Errorf("%d of 4 pages came from the cache", h.stats.cached.Load())
	}
}
