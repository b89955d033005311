package render

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/internal/browsertest"
	"github.com/sitemapkit/sitemap/internal/spatest"
	"github.com/sitemapkit/sitemap/state"
)

// runCrawl crawls start into the state file at path with o and returns
// the summary and the outcomes by path.
func runCrawl(t *testing.T, ctx context.Context, path, start string, o crawl.Options) (crawl.Summary, map[string]crawl.Outcome) {
	t.Helper()
	st, err := state.OpenSQLite(ctx, path, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := crawl.New(ctx, st, st.Crawl(), start, o)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]crawl.Outcome{}
	err = c.Outcomes(ctx, func(oc crawl.Outcome) error {
		out[strings.TrimPrefix(oc.URL, strings.TrimSuffix(start, "/"))] = oc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sum, out
}

// fetched returns the paths the crawl requested (a status), sorted.
func fetched(out map[string]crawl.Outcome) []string {
	var p []string
	for k, o := range out {
		if o.Status != 0 {
			p = append(p, k)
		}
	}
	slices.Sort(p)
	return p
}

// shared is the browser of the tests that need no browser of their own,
// started by the first and closed by TestMain.
var shared struct {
	sync.Mutex
	c *Chromium
}

// sharedChromium returns the shared browser (two tabs).
func sharedChromium(t *testing.T) *Chromium {
	t.Helper()
	path := browsertest.Require(t)
	shared.Lock()
	defer shared.Unlock()
	if shared.c == nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, err := New(ctx, Options{Browser: path, Concurrency: 2})
		if err != nil {
			t.Fatal(err)
		}
		shared.c = c
	}
	return shared.c
}

func newChromium(t *testing.T, o Options) *Chromium {
	t.Helper()
	o.Browser = browsertest.Require(t)
	if os.Getenv("SITEMAP_CHROMIUM") == "" {
		if p, err := Find(""); err == nil {
			o.Browser = p // what users get: the headless shell when installed
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestCrawlSPA: a single-page application's shell has no link, so a raw
// crawl finds its one page; rendered, the crawl finds exactly the routes
// (one reached only through history.replaceState, links injected after a
// fetch of JSON), never the link of an onclick handler nor the image, and
// gives each page its verdict: noindex and canonical set by script, the
// "Not found" route a soft 404, the console error and the failed request
// of /about counted.
func TestCrawlSPA(t *testing.T) {
	site := spatest.New(spatest.Options{})
	srv := httptest.NewServer(site)
	defer srv.Close()
	ctx := context.Background()
	o := crawl.Options{Rate: -1}

	sum, out := runCrawl(t, ctx, filepath.Join(t.TempDir(), "raw.db"), srv.URL+"/", o)
	if got := fetched(out); !slices.Equal(got, []string{"/"}) || sum.Fetched != 1 || sum.Render != nil {
		t.Fatalf("raw crawl fetched %v (%d), render %v; want only /", got, sum.Fetched, sum.Render)
	}

	o.Render = sharedChromium(t)
	sum, out = runCrawl(t, ctx, filepath.Join(t.TempDir(), "rendered.db"), srv.URL+"/", o)
	if got, want := fetched(out), site.Routable(); !slices.Equal(got, want) {
		t.Fatalf("rendered crawl fetched %v, want %v", got, want)
	}
	want := map[string]string{
		"/": "", "/home": "", "/about": "", "/products": "", "/products/1": "", "/products/2": "",
		"/private": crawl.ReasonNoindex, "/old": crawl.ReasonCanonical, "/missing": crawl.ReasonSoft404, "/admin": crawl.ReasonRobots,
	}
	for p, reason := range want {
		if o, ok := out[p]; !ok || o.Reason != reason || o.Included != (reason == "") {
			t.Errorf("%s: %+v, want reason %q", p, out[p], reason)
		}
	}
	if len(out) != len(want) {
		t.Errorf("outcomes %v, want those of %v", out, want)
	}
	facts := func(p string) crawl.RenderFacts {
		if out[p].Render == nil {
			t.Fatalf("%s: no render facts", p)
		}
		return *out[p].Render
	}
	if f := facts("/"); f.JSLinks < 6 || !f.TitleChanged || f.RawTitle != "Shop" {
		t.Errorf("/: %+v, want JS-only links and the title changed", f)
	}
	if f := facts("/about"); f.ConsoleErrors != 1 || f.ConsoleError != "about: no data" || f.FailedRequests != 1 || !strings.Contains(f.FailedRequest, "/api/missing.json: status 404") {
		t.Errorf("/about: %+v, want one console error and one failed request", f)
	}
	if f := facts("/private"); f.Noindex != "added" {
		t.Errorf("/private: %+v, want noindex added", f)
	}
	if f := facts("/old"); !f.CanonicalChanged || !strings.HasSuffix(f.Canonical, "/products") || !strings.HasSuffix(f.RawCanonical, "/old") {
		t.Errorf("/old: %+v, want the canonical changed to /products", f)
	}
	if f := facts("/missing"); !f.Soft404 {
		t.Errorf("/missing: %+v, want a soft 404", f)
	}
	if f := facts("/products"); f.ConsoleErrors != 0 || f.FailedRequests != 0 || f.Soft404 || f.TimedOut {
		t.Errorf("/products: %+v, want a clean page (the blocked tracker, image and fonts are no failures)", f)
	}
	for _, p := range []string{"/secret", "/logo.png"} {
		if n := site.Hits(p); n != 0 {
			t.Errorf("%s requested %d times; an onclick link and an image are never requested", p, n)
		}
	}
	for p, o := range out {
		if o.Render != nil && o.Render.FailedRequests > 0 {
			t.Logf("%s: %s", p, o.Render.FailedRequest)
		}
	}
	r := sum.Render
	if r == nil || r.Rendered != 9 || r.Soft404 != 1 || r.Noindex != 1 || r.Canonical != 1 || r.ConsoleErrors != 1 || r.FailedRequests != 1 || r.JSLinks < 5 {
		t.Errorf("summary render counts %+v", r)
	}
	var b strings.Builder
	if err := sum.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"rendered 9 pages in a browser", "error page with 200 (soft 404)   1 (AUD-23)", "console errors"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("summary text lacks %q:\n%s", w, b.String())
		}
	}
}

// TestRenderAuto: with RenderAuto, the server-rendered twin of the
// application (every page HTML with its links) is read raw, page by page,
// and its application (shells) rendered: the same pages either way.
func TestRenderAuto(t *testing.T) {
	ctx := context.Background()
	o := crawl.Options{Rate: -1, Render: sharedChromium(t), RenderMode: crawl.RenderAuto}
	for _, twin := range []bool{false, true} {
		site := spatest.New(spatest.Options{Twin: twin})
		srv := httptest.NewServer(site)
		sum, out := runCrawl(t, ctx, filepath.Join(t.TempDir(), "s.db"), srv.URL+"/", o)
		srv.Close()
		routes := site.Routable()
		if twin {
			routes = slices.DeleteFunc(routes, func(s string) bool { return s == "/home" }) // no script, no replaceState
		}
		if got := fetched(out); !slices.Equal(got, routes) {
			t.Errorf("twin %v: fetched %v, want %v", twin, got, routes)
		}
		if twin && (sum.Render.Rendered != 0 || sum.Render.Skipped != len(routes)) {
			t.Errorf("twin: %+v, want every page read raw", sum.Render)
		}
		if !twin && (sum.Render.Rendered != len(routes) || sum.Render.Skipped != 0) {
			t.Errorf("application: %+v, want every page rendered", sum.Render)
		}
	}
}

// TestLooksLikeAppShell: the shell of an application is told from a page.
func TestLooksLikeAppShell(t *testing.T) {
	for _, tc := range []struct {
		html string
		want bool
	}{
		{`<html><body><div id="root"></div><script src="/app.js"></script></body></html>`, true},
		{`<html><body><div id="__next"><a href="/a">a</a></div><script src="/_next/x.js"></script></body></html>`, true},
		{`<html><body><p>` + strings.Repeat("text ", 100) + `</p><script>x()</script></body></html>`, false},
		{`<html><body><a href="/a">a</a><a href="/b">b</a><a href="/c">c</a><div id="app"></div><script></script></body></html>`, false},
		{`<html><body><div id="root"></div></body></html>`, false},
	} {
		if got := crawl.LooksLikeAppShell([]byte(tc.html), 0); got != tc.want {
			t.Errorf("LooksLikeAppShell(%s) = %v, want %v", tc.html, got, tc.want)
		}
	}
}

// TestFindMissing: without a browser the error says how to install one.
func TestFindMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Find("")
	if err == nil || !strings.Contains(err.Error(), "apt-get install chromium") || !strings.Contains(err.Error(), "--browser PATH") {
		t.Fatalf("Find: %v", err)
	}
	if _, err := Find(filepath.Join(t.TempDir(), "nothing")); err == nil {
		t.Fatal("Find of a missing path: no error")
	}
}

// TestRestart: after RestartAfter pages the browser is started again, and
// a browser killed under the renderer is replaced; pages keep rendering.
func TestRestart(t *testing.T) {
	site := spatest.New(spatest.Options{})
	srv := httptest.NewServer(site)
	defer srv.Close()
	c := newChromium(t, Options{Concurrency: 1, RestartAfter: 2})
	ctx := context.Background()
	for i, p := range []string{"/products", "/about", "/products/1", "/old"} {
		r, err := c.Render(ctx, srv.URL+p)
		if err != nil || !strings.Contains(string(r.HTML), "<h1>") {
			t.Fatalf("page %d %s: %v %q", i, p, err, r.HTML)
		}
	}
	if c.Restarts() != 1 {
		t.Errorf("restarts %d after 4 pages of 2 per browser, want 1", c.Restarts())
	}
	c.mu.Lock()
	killGroup(c.cur.pgid.Load())
	c.mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for !c.cur.dead() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	r, err := c.Render(ctx, srv.URL+"/products/2")
	if err != nil || !strings.Contains(string(r.HTML), "Product") {
		t.Fatalf("after a crash: %v %q", err, r.HTML)
	}
	if c.Restarts() != 2 {
		t.Errorf("restarts %d after a crash, want 2", c.Restarts())
	}
}
