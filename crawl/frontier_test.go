package crawl

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/state"
)

// Options.Frontier reports the pages done of those seen every 64 pages
// of a level: a homepage (level 0) linking to 200 pages gives 65 of 201
// first (the homepage and 64 of level 1; every link is known once the
// homepage is read), then 129 of 201, then 193 of 201, for a progress
// line's total and ETA; with a state file and with PostgreSQL alike.
func TestFrontierProgress(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) { testFrontierProgress(t, backend) })
	}
}

func testFrontierProgress(t *testing.T, backend string) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "<html><head><title>%s</title></head><body>", r.URL.Path)
		if r.URL.Path == "/" {
			for i := range 200 {
				fmt.Fprintf(w, `<a href="/p%d">p</a>`, i)
			}
		}
		fmt.Fprint(w, "</body></html>")
	}))
	defer srv.Close()
	var mu sync.Mutex
	var got []string
	o := siteOptions()
	o.Frontier = func(done, seen int) {
		mu.Lock()
		got = append(got, fmt.Sprintf("%d/%d", done, seen))
		mu.Unlock()
	}
	var c *Crawler
	if backend == "postgres" {
		st, err := state.OpenPostgres(t.Context(), pgtest.DB(t), state.PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if c, err = New(t.Context(), st, st.Crawl(), srv.URL+"/", o); err != nil {
			t.Fatal(err)
		}
	} else {
		var st *state.SQLite
		var err error
		c, st, err = openCrawler(t.Context(), filepath.Join(t.TempDir(), "state.db"), srv.URL+"/", o)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
	}
	c.frontierGap = 0 // every write
	if _, err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"65/201", "129/201", "193/201"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Frontier calls %v, want %v", got, want)
	}
}

// The frontier is counted at most once a second: a crawl of 201 pages
// done in well under a second counts it once.
func TestFrontierProgressThrottled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>")
		if r.URL.Path == "/" {
			for i := range 200 {
				fmt.Fprintf(w, `<a href="/p%d">p</a>`, i)
			}
		}
		fmt.Fprint(w, "</body></html>")
	}))
	defer srv.Close()
	calls := 0
	o := siteOptions()
	o.Frontier = func(done, seen int) { calls++ }
	c, st, err := openCrawler(t.Context(), filepath.Join(t.TempDir(), "state.db"), srv.URL+"/", o)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Now()
	if _, err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if most := int(time.Since(t0)/time.Second) + 1; calls < 1 || calls > most {
		t.Errorf("the frontier counted %d times in %s, want 1 to %d", calls, time.Since(t0), most)
	}
}
