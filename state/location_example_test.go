package state_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/state"
)

// CrawlLocation is the state a crawl opens: here a named file in a dry
// run, which reads a copy of it, and a database, shown without its
// password.
func ExampleCrawlLocation() {
	l, err := state.CrawlLocation("crawl.db", "public", true)
	fmt.Println(l.Path, "|", l.Shown, "|", err)
	l, err = state.CrawlLocation("postgres://crawler:secret@db.example/site", "public", false)
	fmt.Println(l.Shown == state.Redact("postgres://crawler:secret@db.example/site"), err)
	// Output:
	// crawl.db | crawl.db (a copy: dry run) | <nil>
	// true <nil>
}

// OpenNamed refuses a --state that is a directory before SQLite would.
func ExampleOpenNamed() {
	dir, _ := os.MkdirTemp("", "state")
	defer os.RemoveAll(dir)
	_, err := state.OpenNamed(context.Background(), dir, state.Options{})
	fmt.Println(err != nil)
	st, err := state.OpenNamed(context.Background(), filepath.Join(dir, "state.db"), state.Options{})
	fmt.Println(err)
	st.Close()
	// Output:
	// true
	// <nil>
}
