package audit

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/rules"
)

// historySite is a site on 127.0.0.1 whose every page has a footer that
// counts the requests (the page is never byte-identical twice, and its
// ETag and Last-Modified change at every request), whose sitemap gives
// every page the build time as lastmod, except /docs/churn whose lastmod
// moves at every build without a change. At the second build (next),
// /blog/stale's main content changes and its lastmod does not.
type historySite struct {
	srv   *httptest.Server
	build time.Time
	pages []string
	mu    sync.Mutex
	run   int // builds since the first
	hits  atomic.Int64
}

func newHistorySite(t testing.TB) *historySite {
	t.Helper()
	hs := &historySite{build: time.Now().UTC().Add(-48 * time.Hour).Truncate(time.Second)}
	hs.pages = []string{"/", "/about", "/blog/stale", "/docs/churn"}
	for i := range 5 {
		hs.pages = append(hs.pages, fmt.Sprintf("/blog/post-%d", i), fmt.Sprintf("/docs/page-%d", i))
	}
	slices.Sort(hs.pages)
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\n\nSitemap: %s/sitemap.xml\n", hs.srv.URL)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		hs.mu.Lock()
		run := hs.run
		hs.mu.Unlock()
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range hs.pages {
			lm := hs.build
			if p == "/docs/churn" {
				lm = lm.Add(time.Duration(run+1) * time.Hour) // a new stamp at every build
			}
			fmt.Fprintf(&b, "<url><loc>%s%s</loc><lastmod>%s</lastmod></url>", hs.srv.URL, p, lm.Format(time.RFC3339))
		}
		b.WriteString("</urlset>")
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprint(w, b.String())
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(hs.pages, r.URL.Path) {
			http.NotFound(w, r)
			return
		}
		hs.mu.Lock()
		run := hs.run
		hs.mu.Unlock()
		body := "The text of " + r.URL.Path + ", the same at every build."
		if r.URL.Path == "/blog/stale" {
			body = fmt.Sprintf("The text of %s, edition %d.", r.URL.Path, min(run, 1)+1)
		}
		n := hs.hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("ETag", fmt.Sprintf(`W/"%d"`, n))
		w.Header().Set("Last-Modified", time.Now().UTC().Format(http.TimeFormat))
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>%s</title></head><body>
<header><nav><a href="/">Home</a> <a href="/blog/post-0">Blog</a></nav></header>
<main><h1>%s</h1><p>%s</p></main>
<footer>Served %d times so far; rendered at %s.</footer></body></html>`, r.URL.Path, r.URL.Path, body, n, time.Now().Format(time.RFC3339Nano))
	})
	hs.srv = httptest.NewServer(mux)
	t.Cleanup(hs.srv.Close)
	return hs
}

// next is the site's next build: /docs/churn's lastmod moves (not its
// content); at the first, /blog/stale's content changes (not its lastmod).
func (hs *historySite) next() {
	hs.mu.Lock()
	hs.run++
	hs.mu.Unlock()
}

// historyRules are the findings of a record under the history's rules.
func historyRules(r *Record) []string {
	var out []string
	for _, f := range r.Findings {
		switch f.Rule {
		case rules.AUD27, rules.AUD28, rules.AUD29, rules.AUD30, rules.AUD31:
			out = append(out, string(f.Rule))
		}
	}
	return out
}

// Two audits with history of a site whose footers change at every
// request and whose lastmods are the build time find exactly the page
// whose content changed under an unchanged lastmod (AUD-28, stale) and
// the page whose lastmod moved without a change (AUD-27, churning), and
// no other page; the site's build-time stamp is AUD-30. The first audit
// only records. A third, with nothing changed in between but the churning
// lastmod, still finds the stale lastmod stale.
func TestHistoryFindsChurnAndStale(t *testing.T) {
	hs := newHistorySite(t)
	st := openState(t, filepath.Join(t.TempDir(), "state.db"))
	o := Options{HTTP: testClient(t), Rate: -1, Retries: -1, History: true}
	u := hs.srv.URL
	audit := func() (map[string][]string, map[string]*Record, Tally) {
		t.Helper()
		got, recs, tally := runAudit(t, st, []string{u + "/"}, o)
		hist := map[string][]string{}
		for loc, r := range recs {
			if hr := historyRules(r); len(hr) > 0 || len(got[loc]) > 0 {
				hist[loc] = got[loc]
			}
		}
		return hist, recs, tally
	}

	found, recs, tally := audit()
	compare(t, found, map[string][]string{})
	for loc, r := range recs {
		if r.History == nil || r.History.Verdict != VerdictNew || r.History.Runs != 1 || !strings.HasPrefix(r.ContentHash, "html:") {
			t.Errorf("first run, %s: history %+v, content hash %q; want a new URL with its fingerprint", loc, r.History, r.ContentHash)
		}
	}
	checkSite(t, tally.History, SiteHistory{New: len(hs.pages)}, len(hs.pages))

	for run := 2; run <= 3; run++ {
		hs.next()
		time.Sleep(10 * time.Millisecond) // runs' times differ on a coarse clock
		found, recs, tally = audit()
		want := map[string][]string{u + "/blog/stale": {"AUD-28"}, u + "/docs/churn": {"AUD-27"}}
		compare(t, found, want)
		for loc, r := range recs {
			verdict := VerdictHonest
			switch loc {
			case u + "/blog/stale":
				verdict = VerdictStale
			case u + "/docs/churn":
				verdict = VerdictChurning
			}
			if r.History == nil || r.History.Verdict != verdict || r.History.Runs != run || r.History.Previous == nil {
				t.Errorf("run %d, %s: history %+v; want %s after %d runs", run, loc, r.History, verdict, run)
			}
		}
		if h := recs[u+"/blog/stale"].History; h.ContentChanged != (run == 2) {
			t.Errorf("run %d: /blog/stale's content changed %v", run, h.ContentChanged)
		}
		if m := recs[u+"/docs/churn"].Findings[0].Message; !strings.Contains(m, "but the main content is the same") {
			t.Errorf("churn message %q", m)
		}
		if m := recs[u+"/blog/stale"].Findings[0].Message; !strings.Contains(m, "lastmod "+hs.build.Format(time.RFC3339)+" is older than that change") {
			t.Errorf("stale message %q", m)
		}
		checkSite(t, tally.History, SiteHistory{Honest: len(hs.pages) - 2, Churning: 1, Stale: 1}, len(hs.pages))
		if tally.Rules[rules.AUD30] != 1 || tally.Rules[rules.AUD27] != 1 || tally.Rules[rules.AUD28] != 1 {
			t.Errorf("run %d: tally %v", run, tally.Rules)
		}
	}
}

// checkSite compares the site's verdict counts and its build-time stamp
// finding (every page but /docs/churn shares the build time).
func checkSite(t *testing.T, got *SiteHistory, want SiteHistory, pages int) {
	t.Helper()
	if got == nil {
		t.Fatal("no site history")
	}
	if got.Honest != want.Honest || got.Churning != want.Churning || got.Stale != want.Stale || got.New != want.New || got.Unknown != 0 {
		t.Errorf("site history %+v; want %+v", got, want)
	}
	if (got.Score != nil) != (want.Compared() > 0) || got.Score != nil && *got.Score != float64(want.Honest)*100/float64(want.Compared()) {
		t.Errorf("score %v", got.Score)
	}
	if got.Shared != pages-1 || got.WithLastMod != pages || len(got.Findings) != 1 || got.Findings[0].Rule != rules.AUD30 {
		t.Errorf("shared lastmod %q by %d of %d, findings %+v; want AUD-30 for %d of %d", got.SharedLastMod, got.Shared, got.WithLastMod, got.Findings, pages-1, pages)
	}
}

// With history, a sample is the same URLs at every run (drawn by a hash
// of the URL), so each sampled URL is compared with its previous run.
func TestHistorySampleIsStable(t *testing.T) {
	hs := newHistorySite(t)
	st := openState(t, filepath.Join(t.TempDir(), "state.db"))
	o := Options{HTTP: testClient(t), Rate: -1, Retries: -1, History: true, Sample: 5}
	var first []string
	for run := 1; run <= 2; run++ {
		_, recs, _ := runAudit(t, st, []string{hs.srv.URL + "/"}, o)
		var locs []string
		for loc, r := range recs {
			locs = append(locs, loc)
			if run == 2 && (r.History == nil || r.History.Runs != 2) {
				t.Errorf("run 2, %s: history %+v; want its second run", loc, r.History)
			}
		}
		slices.Sort(locs)
		if len(locs) != 5 {
			t.Fatalf("run %d audited %d URLs, want a sample of 5", run, len(locs))
		}
		if run == 1 {
			first = locs
		} else if !slices.Equal(first, locs) {
			t.Errorf("the samples differ: %q, then %q", first, locs)
		}
	}
}
