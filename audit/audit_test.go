package audit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/state"
)

func testClient(t testing.TB) *fetch.Client {
	t.Helper()
	c, err := fetch.NewClient(fetch.ClientOptions{UserAgent: "sitemap-audit-test/1.0", Timeout: 10 * time.Second, HeaderTimeout: 10 * time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func openState(t testing.TB, path string) *state.SQLite {
	t.Helper()
	st, err := state.OpenSQLite(context.Background(), path, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// runAudit audits start and returns the rules found per URL.
func runAudit(t *testing.T, st *state.SQLite, names []string, o Options) (map[string][]string, map[string]*Record, Tally) {
	t.Helper()
	ctx := context.Background()
	a, err := New(ctx, st.Audit(), names, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Run(ctx); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	recs := map[string]*Record{}
	var order []string
	tally, err := a.Records(ctx, func(r *Record) error {
		var rules []string
		for _, f := range r.Findings {
			rules = append(rules, string(f.Rule))
		}
		if _, dup := got[r.URL]; dup {
			t.Errorf("%s: two records", r.URL)
		}
		got[r.URL] = rules
		recs[r.URL] = r
		order = append(order, r.URL)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !sort.StringsAreSorted(order) {
		t.Errorf("records not in URL order: %q", order)
	}
	return got, recs, tally
}

func compare(t *testing.T, got, want map[string][]string) {
	t.Helper()
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		g, okg := got[k]
		w, okw := want[k]
		switch {
		case !okg:
			t.Errorf("%s: not reported, want %v", k, w)
		case !okw:
			t.Errorf("%s: reported %v, not planted", k, g)
		case !slices.Equal(g, w):
			t.Errorf("%s: found %v, planted %v", k, g, w)
		}
	}
}

// The audit finds exactly what the planted site holds: every class at
// its URL, nothing else.
func TestAuditFindsThePlantedSet(t *testing.T) {
	ps := newPlantedSite(t)
	st := openState(t, filepath.Join(t.TempDir(), "state.db"))
	got, recs, tally := runAudit(t, st, []string{ps.srv.URL + "/"}, Options{HTTP: testClient(t), Rate: -1, Retries: -1})
	compare(t, got, ps.want)
	u := ps.srv.URL
	for url, want := range map[string]string{
		u + "/chain":          "through 2 redirects to " + u + "/ok, which answers 200 and is listed too",
		u + "/old2":           "to " + u + "/elsewhere, which answers 404 Not Found and is not listed",
		u + "/canon":          "its canonical is " + u + "/ok, which is listed too",
		u + "/en":             u + "/de (de) does not name it back",
		u + "/dup":            "listed 2 times: in " + u + "/sitemap-a.xml and in " + u + "/sitemap-b.xml",
		u + "/noindex-header": "X-Robots-Tag",
		u + "/private/page":   "robots.txt disallows it for the user agent \"", // not "for sitemap"
	} {
		r := recs[url]
		if r == nil || len(r.Findings) == 0 || !strings.Contains(r.Findings[0].Message, want) {
			t.Errorf("%s: findings %+v, want a message with %q", url, r, want)
		}
	}
	if recs[u+"/chain"].Target != u+"/ok" || recs[u+"/canon"].Target != u+"/ok" {
		t.Errorf("targets: %q, %q", recs[u+"/chain"].Target, recs[u+"/canon"].Target)
	}
	if got := ps.hopMethods.String(); got != "HEAD " {
		t.Errorf("the redirect hop /hop was asked with %q, want one HEAD", got)
	}
	if got := ps.pdfMethods.String(); got != "HEAD " {
		t.Errorf("/doc.pdf was asked with %q, want one HEAD", got)
	}
	if tally.Records != len(ps.want) || tally.Rules["AUD-01"] != 4 || tally.Errors == 0 {
		t.Errorf("tally %+v", tally)
	}
}

// With a crawl, the orphan and the page missing from the sitemaps are
// found too, and every URL the crawl reached has its click depth.
func TestAuditCrawlFindsOrphansAndMissingPages(t *testing.T) {
	ps := newPlantedSite(t)
	st := openState(t, filepath.Join(t.TempDir(), "state.db"))
	got, recs, _ := runAudit(t, st, []string{ps.srv.URL + "/sitemap.xml"}, Options{
		HTTP: testClient(t), Rate: -1, Retries: -1,
		Crawl: &crawl.Options{Rate: -1, Retries: -1}, CrawlStore: st, CrawlLog: st.Crawl(),
	})
	compare(t, got, ps.withCrawl())
	u := ps.srv.URL
	if r := recs[u+"/ok"]; r.Depth == nil || *r.Depth != 1 || r.From != u+"/" {
		t.Errorf("/ok: depth %v from %q, want 1 from the homepage", r.Depth, r.From)
	}
	if r := recs[u+"/missing-page"]; r.Listed || r.Depth == nil || *r.Depth != 1 {
		t.Errorf("/missing-page: %+v", r)
	}
	if r := recs[u+"/orphan"]; r.Depth != nil {
		t.Errorf("/orphan has a depth: %+v", r)
	}
}

// An audit interrupted part-way continues with the same state: the
// sitemaps are not read again, the URLs already checked are not requested
// again, and the findings are the planted set.
func TestAuditResumes(t *testing.T) {
	ps := newPlantedSite(t)
	st := openState(t, filepath.Join(t.TempDir(), "state.db"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := Options{HTTP: testClient(t), Rate: -1, Retries: -1, Concurrency: 1,
		Progress: func(n int) {
			if n == 8 {
				cancel()
			}
		}}
	a, err := New(ctx, st.Audit(), []string{ps.srv.URL + "/"}, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Run(ctx); err == nil {
		t.Fatal("the interrupted run returned no error")
	}
	first := strings.Fields(ps.hits.String())
	ps.hits.Reset()
	o.Progress = nil
	if a, err := New(context.Background(), st.Audit(), []string{ps.srv.URL + "/"}, o); err != nil || !a.Resumed() {
		t.Fatalf("not resumed: %v", err)
	}
	got, _, _ := runAudit(t, st, []string{ps.srv.URL + "/"}, o)
	compare(t, got, ps.want)
	second := strings.Fields(ps.hits.String())
	for _, p := range second {
		if strings.HasPrefix(p, "/sitemap") {
			t.Errorf("the resumed run read %s again", p)
		}
	}
	again := 0
	for _, p := range second {
		if slices.Contains(first, p) && p != "/robots.txt" {
			again++
		}
	}
	// At most the URL in flight when the run stopped is asked for again
	// (with its redirect hops).
	if again > 3 || len(second) == 0 {
		t.Errorf("first run %q, resumed run %q: %d requests repeated", first, second, again)
	}
}

// TestAuditSiteDown: a site that answers nothing (connections refused,
// robots.txt included) is AUD-16, request failed, for each listed URL; it
// was AUD-09, "blocked by robots.txt", counted as robots.txt blocking
// pages the site never got a request for. A robots.txt answering 5xx is
// still AUD-09 (RFC 9309: a server error disallows everything).
func TestAuditSiteDown(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	down := srv.URL
	srv.Close()
	dir := t.TempDir()
	sm := filepath.Join(dir, "sitemap.xml")
	if err := os.WriteFile(sm, []byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+down+`/a</loc></url></urlset>`), 0o644); err != nil {
		t.Fatal(err)
	}
	st := openState(t, filepath.Join(dir, "state.db"))
	got, recs, _ := runAudit(t, st, []string{sm}, Options{HTTP: testClient(t), Rate: -1, Retries: -1, Site: down + "/"})
	compare(t, got, map[string][]string{down + "/a": {"AUD-16"}})
	if r := recs[down+"/a"]; r == nil || len(r.Findings) == 0 || !strings.Contains(r.Findings[0].Message, "robots.txt") {
		t.Errorf("record %+v; want an AUD-16 saying robots.txt could not be requested", r)
	}
}
