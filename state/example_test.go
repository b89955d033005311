package state_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/state"
)

// A generator keeps a state file between runs: only entries that changed
// get a new lastmod; an entry seen for the first time has none (M-05).
func ExampleSQLite_Stamp() {
	dir, _ := os.MkdirTemp("", "state-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	path := filepath.Join(dir, "state.db")

	run := func(now time.Time, pages map[string]string) {
		st, err := state.OpenSQLite(ctx, path, state.SQLiteOptions{Precision: sitemap.PrecisionDay})
		if err != nil {
			fmt.Println(err)
			return
		}
		defer st.Close()
		for _, loc := range []string{"https://example.com/a", "https://example.com/b"} {
			u := sitemap.URL{Loc: loc, ContentHash: pages[loc]}
			if err := st.Stamp(ctx, &u, now); err != nil {
				fmt.Println(err)
				return
			}
			fmt.Printf("%s lastmod=%q\n", u.Loc, u.LastMod)
		}
	}
	run(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), map[string]string{"https://example.com/a": "v1", "https://example.com/b": "v1"})
	run(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), map[string]string{"https://example.com/a": "v2", "https://example.com/b": "v1"})
	run(time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC), map[string]string{"https://example.com/a": "v2", "https://example.com/b": "v1"})
	// Output:
	// https://example.com/a lastmod=""
	// https://example.com/b lastmod=""
	// https://example.com/a lastmod="2026-03-02"
	// https://example.com/b lastmod=""
	// https://example.com/a lastmod="2026-03-02"
	// https://example.com/b lastmod=""
}
