package crawl

import (
	"context"

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
