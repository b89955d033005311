package serve_test

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/serve"
)

// TestRunCacheDirInUse: a second server given the --cache-dir of one
// running now is refused in the flag's words (it was the library's
// "serve: CacheDir: …").
func TestRunCacheDirInUse(t *testing.T) {
	path := sqliteTable(t, "https://www.example.com/a")
	cache := filepath.Join(t.TempDir(), "cache")
	s := serve.Settings{DB: serve.SQLSettings{DB: path, Table: "pages"}, Addr: "127.0.0.1:0", Name: "sitemap",
		BaseURL: "https://www.example.com/", ShutdownTimeout: 5 * time.Second, Recheck: time.Second, CacheDir: cache}
	_, _, stop := runServer(t, s)
	defer stop()
	err := serve.Run(context.Background(), s, io.Discard, io.Discard)
	if want := "--cache-dir " + cache + " is the page cache of another sitemap server running now"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Run = %v, want %q…", err, want)
	}
}
