package serve_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sitemapkit/sitemap/serve"
)

// A program serves a database as `sitemap serve --db … --table …` does:
// the triggers installed once (SetTriggers, as --install-trigger), then
// Follow chooses the feed: here the change log of the SQLite table.
func ExampleFollow() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "site.sqlite")
	w, _ := sql.Open("sqlite", path)
	w.Exec(`CREATE TABLE pages (url TEXT PRIMARY KEY, updated_at TEXT)`)
	w.Exec(`INSERT INTO pages VALUES ('https://www.example.com/', '2026-01-01')`)
	w.Close()

	db, err := serve.OpenDB(path) // read-only
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	src, err := serve.SQL(ctx, db, serve.Query{Table: "pages"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	for _, remove := range []bool{false, true} {
		said, err := serve.SetTriggers(ctx, path, src, remove)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(said)
		fw, err := serve.Follow(ctx, src, serve.FollowOptions{DSN: path, Recheck: 2 * time.Second})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("changes:", fw.How)
		// A program gives fw.Source to serve.NewHandler, and fw.Log its
		// options.
	}
	// Output:
	// change triggers installed on table pages (key url): serve reads only the pages a commit touches (each write also writes a row of sitemap_changes); --remove-trigger removes them
	// changes: the change log of table pages: only the pages a commit touches are read
	// the change triggers of table pages are removed
	// changes: table pages has no change triggers (to install them, run this command once with --install-trigger added): after each commit every page is read and compared (about 1 s a million rows)
}
