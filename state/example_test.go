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
func ExampleDB_Stamp() {
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

// A crawl log in a state file: one run's frontier and outcomes, written
// in transactions and read back sorted (the same code runs on
// PostgreSQL, given state.OpenPostgres).
func ExampleDB_Crawl() {
	dir, _ := os.MkdirTemp("", "state-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := state.OpenSQLite(ctx, filepath.Join(dir, "state.db"), state.SQLiteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	log := st.Crawl()
	if _, err := log.Begin(ctx, "https://example.com/", time.Now()); err != nil {
		fmt.Println(err)
		return
	}
	err = log.Update(ctx, func(tx state.CrawlTx) error {
		for _, l := range []state.CrawlLink{
			{Loc: "https://example.com/"},
			{Loc: "https://example.com/b", Depth: 1, Referrer: "https://example.com/"},
			{Loc: "https://example.com/private", Depth: 1, Referrer: "https://example.com/", Reason: "robots.txt"},
		} {
			if err := tx.Enqueue(ctx, l); err != nil {
				return err
			}
		}
		return tx.Record(ctx, state.CrawlResult{Loc: "https://example.com/", Status: 200, Entry: &sitemap.URL{Loc: "https://example.com/"}})
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	pending, _ := log.Pending(ctx, 1, "", 10)
	outcomes, _ := log.Outcomes(ctx, "", 10)
	fmt.Println("pending:", pending[0].Loc)
	for _, o := range outcomes {
		fmt.Printf("%s status=%d listed=%v reason=%q\n", o.Loc, o.Status, o.Included, o.Reason)
	}
	// Output:
	// pending: https://example.com/b
	// https://example.com/ status=200 listed=true reason=""
	// https://example.com/private status=0 listed=false reason="robots.txt"
}
