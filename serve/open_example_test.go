package serve_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/serve"
	"github.com/sitemapkit/sitemap/state"
)

// A program serves what a finished crawl listed; a state file without a
// crawl is refused with a *CrawlStateError.
func ExampleOpenCrawl() {
	dir, _ := os.MkdirTemp("", "serve-open")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "crawl.db")
	st, _ := state.OpenSQLite(context.Background(), path, state.SQLiteOptions{})
	st.Close() // a new state: no crawl yet

	_, _, err := serve.OpenCrawl(context.Background(), path)
	var cse *serve.CrawlStateError
	fmt.Println(errors.As(err, &cse), cse.NotFinished)
	// Output: true false
}

// OpenDB opens the database of a SQL source: a SQLite file (read-only) or
// a postgres:// URL.
func ExampleOpenDB() {
	dir, _ := os.MkdirTemp("", "serve-opendb")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "pages.db")
	_, err := serve.OpenDB(path)
	fmt.Println(errors.Is(err, os.ErrNotExist))
	// Output: true
}
