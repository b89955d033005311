package state

import (
	"context"
	"fmt"
	"os"
)

// CrawlState is a state that holds a crawl log: a [SQLite] file or a
// [Postgres] database.
type CrawlState interface {
	Crawl() CrawlLog
	Close() error
}

// OpenCrawlState opens the crawl state a `sitemap crawl --state` run
// wrote, to read it: a postgres:// database, or a file that must exist
// (a missing one is an error, never a new empty state). Every error
// begins with path, a PostgreSQL URL without its password ([Redact]).
func OpenCrawlState(ctx context.Context, path string) (CrawlState, error) {
	if IsPostgres(path) {
		pg, err := OpenPostgres(ctx, path, PostgresOptions{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", Redact(path), err)
		}
		return pg, nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%s: %w (give the file 'sitemap crawl --state' wrote)", path, err)
	}
	f, err := OpenSQLite(ctx, path, SQLiteOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}
