package crawl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/state"
)

// openCrawler opens the state file at path, as the CLI does, and a
// Crawler of start over it. The caller closes the returned store.
func openCrawler(ctx context.Context, path, start string, o Options) (*Crawler, *state.SQLite, error) {
	st, err := state.OpenSQLite(ctx, path, state.SQLiteOptions{})
	if err != nil {
		return nil, nil, err
	}
	c, err := New(ctx, st, st.Crawl(), start, o)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return c, st, nil
}

// crawled runs a crawl of start with siteOptions into a new state file
// and returns the crawler and its state, closed when the test ends.
func crawled(t *testing.T, start string) (*Crawler, *state.SQLite) {
	t.Helper()
	ctx := context.Background()
	c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "state.db"), start, siteOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return c, st
}

// TestImageHostsAreHostNames: an ImageHosts entry that is a URL, a path or
// empty would match no image; New refuses it and names the host to give.
func TestImageHostsAreHostNames(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		host, want string // want "" when accepted
	}{
		{"cdn.example.com", ""},
		{"cdn.example.com:8443", ""},
		{"CDN.Example.com", ""},
		{"https://cdn.example.com", "give the host name alone: cdn.example.com"},
		{"ftp://x", "give the host name alone: x"},
		{"cdn.example.com/img", "not a URL or a path"},
		{"", "give a host name"},
		{"user@cdn.example.com", "not a URL or a path"},
	} {
		c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), "https://www.example.com/", Options{ImageHosts: []string{tc.host}})
		if st != nil {
			st.Close()
		}
		_ = c
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q refused: %v", tc.host, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want one saying %q", tc.host, err, tc.want)
		}
	}
}

// TestUnreachable: Summary.Unreachable names the first request of a run
// that got no HTTP response when none got one, and stays empty when the
// site answered anything, a 404 included.
func TestUnreachable(t *testing.T) {
	ctx := context.Background()
	srv := httptest.NewServer(http.NotFoundHandler())
	start := srv.URL + "/"
	c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), start, Options{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(ctx)
	st.Close()
	if err != nil || sum.Unreachable != "" {
		t.Errorf("a site answering 404: %v, unreachable %q; want none", err, sum.Unreachable)
	}
	srv.Close()
	c, st, err = openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), start, Options{Rate: -1, IgnoreRobots: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err = c.Run(ctx)
	if err != nil || !strings.HasPrefix(sum.Unreachable, start+": ") {
		t.Errorf("a closed port: %v, unreachable %q; want it to name %s", err, sum.Unreachable, start)
	}
}
