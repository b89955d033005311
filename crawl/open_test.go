package crawl

import (
	"context"
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
