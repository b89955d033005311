package audit

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/internal/browsertest"
	"github.com/sitemapkit/sitemap/internal/spatest"
	"github.com/sitemapkit/sitemap/render"
	"github.com/sitemapkit/sitemap/rules"
)

// TestAuditRender: audited in a browser, the listed routes of a
// single-page application get what only rendering shows: the noindex and
// canonical the script sets, the "Not found" route, the console error and
// failed request, the links that appear only after rendering; with
// --crawl, the pages the rendered crawl finds that no sitemap lists. Read
// raw, every route is the same clean shell.
func TestAuditRender(t *testing.T) {
	path := browsertest.Require(t)
	srv := httptest.NewServer(spatest.New(spatest.Options{}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := render.New(ctx, render.Options{Browser: path, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dir := t.TempDir()
	names := []string{srv.URL + "/sitemap.xml"}

	raw, _, _ := runAudit(t, openState(t, filepath.Join(dir, "raw.db")), names, Options{HTTP: testClient(t), Rate: -1})
	for u, got := range raw {
		if len(got) != 0 {
			t.Errorf("raw %s: %v, want a clean shell", u, got)
		}
	}

	st := openState(t, filepath.Join(dir, "rendered.db"))
	o := Options{HTTP: testClient(t), Rate: -1, Render: r, Crawl: &crawl.Options{Rate: -1, Render: r}, CrawlStore: st, CrawlLog: st.Crawl()}
	got, _, tally := runAudit(t, st, names, o)
	has := func(u string, want ...rules.ID) {
		t.Helper()
		for _, w := range want {
			if !slices.Contains(got[srv.URL+u], string(w)) {
				t.Errorf("%s: %v, want %s among them", u, got[srv.URL+u], w)
			}
		}
	}
	has("/", rules.AUD19, rules.AUD22)
	has("/about", rules.AUD24, rules.AUD25)
	has("/private", rules.AUD07, rules.AUD20)
	has("/old", rules.AUD08, rules.AUD21)
	has("/missing", rules.AUD23)
	has("/products/1", rules.AUD17) // found by the rendered crawl only
	if slices.Contains(got[srv.URL+"/products"], string(rules.AUD24)) || slices.Contains(got[srv.URL+"/products"], string(rules.AUD23)) {
		t.Errorf("/products: %v, want no error finding", got[srv.URL+"/products"])
	}
	if tally.Rules[rules.AUD23] != 1 || tally.Rules[rules.AUD20] != 1 || tally.Rules[rules.AUD24] != 1 {
		t.Errorf("tally %+v, want one soft 404, one noindex and one page with console errors", tally.Rules)
	}
}
