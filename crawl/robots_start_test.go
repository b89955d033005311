package crawl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartDisallowedByRobots: a robots.txt that disallows the start URL
// for the crawler's product token ends the crawl before it starts; the
// summary says so, which line of robots.txt, and what to do, instead of
// a bare count of one URL left out for "robots".
func TestStartDisallowedByRobots(t *testing.T) {
	for _, tt := range []struct {
		robots string
		warn   bool
	}{
		{"User-agent: *\nDisallow: /\n", true},
		{"User-agent: *\nDisallow: /private/\n", false},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				w.Write([]byte(tt.robots))
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<a href="/private/x">x</a>`))
		}))
		ctx := context.Background()
		c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), srv.URL+"/", siteOptions())
		if err != nil {
			t.Fatal(err)
		}
		sum, err := c.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, w := range sum.Warnings {
			if strings.Contains(w, srv.URL+"/robots.txt") && strings.Contains(w, "disallows the start URL") && strings.Contains(w, "--ignore robots") {
				found = true
			}
		}
		if found != tt.warn {
			t.Errorf("robots.txt %q: warnings %q; want a warning about the start URL: %v", tt.robots, sum.Warnings, tt.warn)
		}
		st.Close()
		srv.Close()
	}
}
