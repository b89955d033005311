package crawl

import (
	"path/filepath"
	"testing"
	"time"
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
	o.Rate = 0.5 // one token now, the next in 2s
	o.Concurrency = 4
	o.MaxTime = 300 * time.Millisecond
	sum, _, out := crawlSite(t, site, filepath.Join(t.TempDir(), "s.db"), o)
	// robots.txt, the seed sitemap and the home page; the home page's
	// links are not fetched (their tokens come after the deadline).
	if sum.Fetched > 1 {
		t.Errorf("fetched %d pages in a 300ms max-time at 0.5 requests/s; want 1 (requests waiting for the rate limiter at the deadline are not made)", sum.Fetched)
	}
	if out["/"].Status != 200 || !out["/"].Included {
		t.Errorf("home: %+v", out["/"])
	}
	if len(sum.Limits) != 1 || sum.Limits[0] != "max-time" || sum.Reasons[ReasonMaxTime] == 0 {
		t.Errorf("max-time not reported: %+v", sum)
	}
	for _, u := range []string{"/a", "/b", "/from-sitemap"} {
		if out[u].Reason != ReasonMaxTime || out[u].Status != 0 {
			t.Errorf("%s: %+v; want reason %s, not fetched", u, out[u], ReasonMaxTime)
		}
	}
}
