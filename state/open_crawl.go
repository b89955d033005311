package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, &noCrawlFile{path}
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w (give the file 'sitemap crawl --state' wrote)", path, err)
	}
	f, err := OpenSQLite(ctx, path, SQLiteOptions{})
	var ns *notStateError
	if errors.As(err, &ns) {
		// An existing crawl's, not a new one: no new file to suggest.
		return nil, fmt.Errorf("%s: not a crawl state (%s); give the file 'sitemap crawl --state' wrote", path, ns.why)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// noCrawlFile is a crawl state file that is not there: fs.ErrNotExist,
// said once with what to give.
type noCrawlFile struct{ path string }

func (e *noCrawlFile) Error() string {
	return e.path + ": no such file; give the file 'sitemap crawl --state' wrote"
}

func (e *noCrawlFile) Unwrap() error { return fs.ErrNotExist }
