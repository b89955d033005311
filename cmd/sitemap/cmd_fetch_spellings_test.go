package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFetchDedupSpellings: `sitemap fetch` prints the eight URLs of issue
// 21 as three, whether it reads the sitemap over HTTP (fetch.Walk) or as a
// local file (input); --no-dedup prints all eight.
func TestFetchDedupSpellings(t *testing.T) {
	locs := []string{
		"https://example.com/~user", "https://example.com/%7euser", "https://example.com/%7Euser",
		"https://example.com/a/../b/c", "https://example.com/b/c",
		"https://example.com/caf%c3%a9", "https://example.com/caf%C3%A9", "HTTPS://EXAMPLE.COM:443/b/./c",
	}
	body := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	for _, l := range locs {
		body += "<url><loc>" + l + "</loc></url>\n"
	}
	body += "</urlset>\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	file := filepath.Join(t.TempDir(), "sitemap.xml")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{"https://example.com/~user", "https://example.com/a/../b/c", "https://example.com/caf%c3%a9"}
	for _, in := range []string{srv.URL + "/sitemap.xml", file} {
		_, out, stderr := runCLI(t, "", "fetch", "--concurrency", "1", in)
		if got := strings.Fields(out); !slices.Equal(got, want) {
			t.Errorf("fetch %s printed %q, want %q; stderr %s", in, got, want, stderr)
		}
		if !strings.Contains(stderr, "3 URLs (5 duplicates dropped)") {
			t.Errorf("fetch %s: stderr %s", in, stderr)
		}
		_, out, _ = runCLI(t, "", "fetch", "--concurrency", "1", "--no-dedup", in)
		if got := strings.Fields(out); len(got) != 8 {
			t.Errorf("fetch --no-dedup %s printed %q, want all 8", in, got)
		}
	}
}
