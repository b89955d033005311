package crawl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// TestMaxTimeStopsWaitingRequests: when --max-time runs out, requests
// still waiting for the rate limiter (or Crawl-delay) are not made: they
// stay in the frontier and are reported as "limit:max-time". Before, every
// task already handed to a worker waited for its token and was fetched
// after the deadline, overrunning max-time by up to Concurrency/Rate.
func TestMaxTimeStopsWaitingRequests(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	o := siteOptions()
	o.Rate = 0.2 // one token now, the next in 5s
	o.Concurrency = 4
	// Long enough for robots.txt, the sitemap and one page on a loaded
	// machine under -race; far shorter than the wait for a second token.
	o.MaxTime = 2 * time.Second
	sum, _, out := crawlSite(t, site, filepath.Join(t.TempDir(), "s.db"), o)
	// The home page and the sitemap's /from-sitemap are both at depth 0
	// and race for the one token; whichever wins is the only page fetched.
	if sum.Fetched != 1 {
		t.Errorf("fetched %d pages in a 2s max-time at 0.2 requests/s; want 1 (requests waiting for the rate limiter at the deadline are not made)", sum.Fetched)
	}
	if len(sum.Limits) != 1 || sum.Limits[0] != "max-time" || sum.Reasons[ReasonMaxTime] == 0 {
		t.Errorf("max-time not reported: %+v", sum)
	}
	winner, loser := "/", "/from-sitemap"
	if out[winner].Status == 0 {
		winner, loser = loser, winner
	}
	if out[winner].Status != 200 || !out[winner].Included {
		t.Errorf("%s: %+v; want the one page fetched and listed", winner, out[winner])
	}
	waiting := []string{loser}
	if winner == "/" {
		// The home page's links were found but their tokens come after
		// the deadline.
		waiting = append(waiting, "/a", "/b")
	}
	for _, u := range waiting {
		if out[u].Reason != ReasonMaxTime || out[u].Status != 0 {
			t.Errorf("%s: %+v; want reason %s, not fetched", u, out[u], ReasonMaxTime)
		}
	}
}

// TestStartRedirectsOutOfScope: a start URL that redirects to another
// host or scheme (http to https, example.com to www.example.com) lists
// nothing; the summary says where it went and to start there instead.
func TestStartRedirectsOutOfScope(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, "https://www.example.com/", http.StatusMovedPermanently)
	}))
	defer srv.Close()
	ctx := context.Background()
	c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), srv.URL+"/", siteOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range sum.Warnings {
		if strings.Contains(w, "https://www.example.com/") && strings.Contains(w, "outside") {
			found = true
		}
	}
	if sum.Listed != 0 || !found {
		t.Errorf("summary %+v; want a warning naming the redirect target outside the scope", sum)
	}
}

// TestLastModifiedResponseTime: a server that sends the response's own
// time as Last-Modified (dynamic pages: Last-Modified equal to Date) says
// nothing about when the page changed; that is the crawl time M-02
// forbids. It is ignored, and the content fingerprint decides (state.Decide):
// no lastmod on a first crawl. A Last-Modified older than Date is kept.
func TestLastModifiedResponseTime(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
			return
		case "/":
			now := time.Now().UTC().Format(http.TimeFormat)
			w.Header().Set("Date", now)
			w.Header().Set("Last-Modified", now)
			w.Write([]byte(`<html><body><main>Home <a href="/old">old</a></main></body></html>`))
		case "/old":
			w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
			w.Write([]byte(`<html><body><main>Old</main></body></html>`))
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), srv.URL+"/", siteOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	if err := c.Entries(ctx, func(u *sitemap.URL) error { got[strings.TrimPrefix(u.Loc, srv.URL)] = u.LastMod.String(); return nil }); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"/": "", "/old": "2006-01-02T15:04:05Z"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("M-02: lastmods %v; want %v (a Last-Modified equal to Date is the response time, not the page's)", got, want)
	}
}
