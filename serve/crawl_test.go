package serve

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/state"
)

// The crawl source serves the listed pages of a crawl state, over the
// same conformance as the SQL sources.
func TestCrawl(t *testing.T) {
	testConformance(t, backend{name: "crawl", open: func(t *testing.T, rows []row) (Source, func(...row)) {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), "crawl.db")
		st, err := state.OpenSQLite(ctx, path, state.SQLiteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		log := st.Crawl()
		if _, err := log.Begin(ctx, "https://www.example.com/", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
		record := func(rs ...row) {
			err := log.Update(ctx, func(tx state.CrawlTx) error {
				for _, r := range rs {
					if err := tx.Enqueue(ctx, state.CrawlLink{Loc: r.loc, Depth: 1}); err != nil {
						return err
					}
					if err := tx.Record(ctx, state.CrawlResult{Loc: r.loc, Status: 200, Entry: &sitemap.URL{Loc: r.loc, LastMod: sitemap.DateOf(r.lastmod)}}); err != nil {
						return err
					}
				}
				// A page left out is not served.
				if err := tx.Record(ctx, state.CrawlResult{Loc: "https://www.example.com/p/0005", Status: 404, Reason: "status:404"}); err != nil {
					return err
				}
				return tx.Finish(ctx, "") // a crawl is served once finished

			})
			if err != nil {
				t.Fatal(err)
			}
		}
		record(rows...)
		return Crawl(log, nil), record
	}})
}
