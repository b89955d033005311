package view

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/state"
)

// crawlState writes a crawl state into dir whose run fetched the pages
// of titles (a loc to its title, "" for none).
func crawlState(t *testing.T, dir string, titles map[string]string) string {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(dir, "crawl.db")
	st, err := state.OpenSQLite(ctx, db, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := st.Crawl()
	if _, err := log.Begin(ctx, "https://www.example.com/", time.Now()); err != nil {
		t.Fatal(err)
	}
	err = log.Update(ctx, func(tx state.CrawlTx) error {
		for loc, title := range titles {
			if err := tx.Enqueue(ctx, state.CrawlLink{Loc: loc}); err != nil {
				return err
			}
			if err := tx.Record(ctx, state.CrawlResult{Loc: loc, Status: 200, Title: title, Entry: &sitemap.URL{Loc: loc}}); err != nil {
				return err
			}
		}
		return tx.Finish(ctx, "")
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// CrawlTitles finds the title of every page the crawl fetched, and ""
// for a URL it did not see, one that sorts just before or after a
// crawled one included.
func TestCrawlTitles(t *testing.T) {
	const ex = "https://www.example.com"
	titles := map[string]string{ex + "/": "Home", ex + "/a": "A page", ex + "/ab": "", ex + "/b": "B page"}
	ctx := context.Background()
	st, err := state.OpenCrawlState(ctx, crawlState(t, t.TempDir(), titles))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	title := CrawlTitles(st.Crawl())
	for loc, want := range map[string]string{
		ex + "/": "Home", ex + "/a": "A page", ex + "/ab": "", ex + "/b": "B page",
		ex + "/aa": "", ex + "/`": "", ex + "/c": "", ex: "", "": "",
	} {
		if got, err := title(ctx, loc); got != want || err != nil {
			t.Errorf("%q: %q, %v; want %q", loc, got, err, want)
		}
	}
}
