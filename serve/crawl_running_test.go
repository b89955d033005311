package serve

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/state"
)

// TestCrawlRunningNotServed: while a new crawl runs in the state being
// served (it forgot the last crawl's pages and has listed only what it
// reached), no page of it is served: 503 without a page cache, the pages
// counted before from the cache with one; once it finishes, its pages.
func TestCrawlRunningNotServed(t *testing.T) {
	ctx := context.Background()
	const ex = "https://www.example.com"
	st, err := state.OpenSQLite(ctx, filepath.Join(t.TempDir(), "crawl.db"), state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := st.Crawl()
	crawl := func(finish bool, locs ...string) {
		t.Helper()
		if _, err := log.Begin(ctx, ex+"/", time.Now()); err != nil {
			t.Fatal(err)
		}
		err := log.Update(ctx, func(tx state.CrawlTx) error {
			for _, l := range append([]string{"/"}, locs...) {
				if err := tx.Enqueue(ctx, state.CrawlLink{Loc: ex + l}); err != nil {
					return err
				}
			}
			if err := tx.Record(ctx, state.CrawlResult{Loc: ex + "/", Status: 200, Entry: &sitemap.URL{Loc: ex + "/"}}); err != nil {
				return err
			}
			if !finish {
				return nil
			}
			for _, l := range locs {
				if err := tx.Record(ctx, state.CrawlResult{Loc: ex + l, Status: 200, Entry: &sitemap.URL{Loc: ex + l}}); err != nil {
					return err
				}
			}
			return tx.Finish(ctx, "")
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	crawl(true, "/a", "/b")
	for _, cached := range []bool{false, true} {
		o := Options{Hosts: []string{"www.example.com"}, Recheck: -1} // check at every request
		if cached {
			o.BaseURL, o.CacheDir = ex+"/", t.TempDir()
		}
		h, err := NewHandler(Crawl(log, nil), o)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if res := get(t, h, "GET", "/sitemap-1.xml"); res.StatusCode != http.StatusOK || strings.Count(body(t, res), "<url>") != 3 {
			t.Fatalf("cached %v: the finished crawl: %d", cached, res.StatusCode)
		}
		crawl(false, "/a", "/b", "/c") // a new crawl, under way: lists / alone so far
		res := get(t, h, "GET", "/sitemap-1.xml")
		doc := body(t, res)
		switch {
		case res.StatusCode == http.StatusOK && strings.Count(doc, "<url>") != 3:
			t.Errorf("cached %v: during a new crawl the page lists %d URLs:\n%s", cached, strings.Count(doc, "<url>"), doc)
		case res.StatusCode != http.StatusOK && res.StatusCode != http.StatusServiceUnavailable:
			t.Errorf("cached %v: during a new crawl: %d %s", cached, res.StatusCode, doc)
		}
		crawl(true, "/a", "/b", "/c")
		if res := get(t, h, "GET", "/sitemap-1.xml"); res.StatusCode != http.StatusOK || strings.Count(body(t, res), "<url>") != 4 {
			t.Errorf("cached %v: the new crawl finished: %d", cached, res.StatusCode)
		}
		crawl(true, "/a", "/b") // back to the first state for the next round
	}
}
