package crawl

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/state"
)

// Start in each mode: a crawl alone publishes; a second one of another
// start URL replaces the unfinished first (said in a note); a worker or
// a finisher needs a shared (PostgreSQL) state.
func TestStartModes(t *testing.T) {
	ctx := context.Background()
	site := newTestSite()
	defer site.Close()
	st, err := state.Open(ctx, filepath.Join(t.TempDir(), "s.db"), state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var notes []string
	so := StartOptions{Shown: "s.db", Note: func(m string) { notes = append(notes, m) }}
	o := Options{MaxPages: 2, Rate: -1}
	cr, sum, publish, err := Start(ctx, st, site.URL+"/", o, so)
	if err != nil || !publish || cr == nil || sum.Fetched != 2 {
		t.Fatalf("Start alone: %v publish=%v fetched=%d", err, publish, sum.Fetched)
	}
	if len(notes) != 0 {
		t.Errorf("notes of a new crawl: %q", notes)
	}
	for _, c := range []struct {
		mode Mode
		want string
	}{{Worker, "--worker needs a PostgreSQL state"}, {Finisher, "crawl: "}} {
		so.Mode = c.mode
		_, _, publish, err := Start(ctx, st, site.URL+"/", Options{}, so)
		var rerr *RunError
		if err == nil || publish || errors.As(err, &rerr) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("mode %d on a state file: %v, publish %v; want an error before the run starting %q", c.mode, err, publish, c.want)
		}
	}
	// A cancelled run is a RunError, returned with its Crawler.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopper := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cancel()
		<-r.Context().Done()
	}))
	defer stopper.Close()
	so.Mode = Alone
	cr, _, _, err = Start(cctx, st, stopper.URL+"/", Options{Rate: -1, NoSitemaps: true}, so)
	var rerr *RunError
	if !errors.As(err, &rerr) || cr == nil {
		t.Errorf("cancelled crawl: %v (%T), crawler %v; want a *RunError with the crawler", err, err, cr)
	}
}

// SharedStart reads the start URL of a shared crawl, refusing an empty
// log and another START-URL.
func TestSharedStart(t *testing.T) {
	ctx := context.Background()
	st := openPostgres(t, pgtest.DB(t))
	log := st.Crawl().(state.SharedCrawlLog)
	if _, err := SharedStart(ctx, log, "", "db"); err == nil || !strings.Contains(err.Error(), "db holds no crawl") {
		t.Errorf("empty log: %v", err)
	}
	const start = "https://www.example.com/"
	if _, err := log.Join(ctx, start, time.Now(), state.CrawlWorker{ID: "w", Lease: time.Second}, false); err != nil {
		t.Fatal(err)
	}
	if got, err := SharedStart(ctx, log, "", "db"); got != start || err != nil {
		t.Errorf("SharedStart = %q, %v; want %s", got, err, start)
	}
	if _, err := SharedStart(ctx, log, "https://other.example/", "db"); err == nil || !strings.Contains(err.Error(), "holds the crawl of "+start) {
		t.Errorf("another START-URL: %v", err)
	}
}
