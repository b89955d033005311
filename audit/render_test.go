package audit

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
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
// raw, every route is the same clean shell. With the crawl, each page is
// rendered once: the crawl reuses the audit's rendering of a listed page
// (it rendered every page twice), and the pages kept for it meanwhile
// are removed when the run ends.
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
	c := &countingRenderer{r: r, n: map[string]int{}}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the rendered pages are kept meanwhile
	o := Options{HTTP: testClient(t), Rate: -1, Render: c, Crawl: &crawl.Options{Rate: -1, Render: c}, CrawlStore: st, CrawlLog: st.Crawl()}
	got, _, tally := runAudit(t, st, names, o)
	for u, n := range c.n {
		if n != 1 {
			t.Errorf("%s rendered %d times, want once", u, n)
		}
	}
	if c.n[srv.URL+"/products/1"] != 1 || c.n[srv.URL+"/about"] != 1 {
		t.Errorf("rendered %v, want the listed /about and the crawl's /products/1 among them", c.n)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*audit-render*")); len(left) > 0 {
		t.Errorf("left %v", left)
	}
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

// countingRenderer counts the pages a real renderer (Chromium) renders,
// by URL.
type countingRenderer struct {
	r  crawl.Renderer
	mu sync.Mutex
	n  map[string]int
}

// Render renders u; only a page rendered counts (one that failed, on a
// loaded machine, is rightly rendered again by the crawl).
func (c *countingRenderer) Render(ctx context.Context, u string) (crawl.Rendered, error) {
	rd, err := c.r.Render(ctx, u)
	if err == nil {
		c.mu.Lock()
		c.n[u]++
		c.mu.Unlock()
	}
	return rd, err
}
