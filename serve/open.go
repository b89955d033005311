package serve

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/state"
)

// OpenDB opens the database a [SQL] source reads: a postgres:// or
// postgresql:// URL through pgx's database/sql driver, anything else a
// SQLite file, which must exist, opened read-only. A SQLite file that is
// not there is an error naming it and saying what to give.
func OpenDB(dsn string) (*sql.DB, error) {
	if state.IsPostgres(dsn) {
		return sql.Open("pgx", dsn)
	}
	if _, err := os.Stat(dsn); err != nil {
		return nil, fmt.Errorf("%s: %w (give a SQLite file or a postgres:// URL)", dsn, err)
	}
	return sql.Open("sqlite", "file:"+dsn+"?mode=ro")
}

// OpenCrawl opens the crawl state at path (a file, or a PostgreSQL
// database: postgres://…) as the [Crawl] source of the pages its crawl
// listed, with the exact change check of a file ([FileVersion]). It
// refuses a state that holds no crawl, one whose crawl has not finished
// (serving it would publish only the pages it reached), and one whose
// crawl listed no page. Every error begins with path (a PostgreSQL URL
// without its password). close closes the state.
func OpenCrawl(ctx context.Context, path string) (src Source, close func(), err error) {
	shown := state.Redact(path)
	st, err := state.OpenCrawlState(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	var version func(context.Context) (string, error) // nil: the listed pages counted
	if !state.IsPostgres(path) {
		version = FileVersion(path, path+"-wal")
	}
	if err := crawlServable(ctx, st.Crawl(), shown); err != nil {
		st.Close()
		return nil, nil, err
	}
	return Crawl(st.Crawl(), version), func() { st.Close() }, nil
}

// CrawlStateError is the error of [OpenCrawl] for a crawl state that
// cannot be served.
type CrawlStateError struct {
	Path string // the state (a PostgreSQL URL without its password)
	// NotFinished is set when the crawl has not finished: Pending URLs are
	// still to fetch (the same crawl run again finishes it). Otherwise
	// the state holds no crawl (Left 0), or its crawl listed no page and
	// left Left URLs out.
	NotFinished   bool
	Pending, Left int
}

func (e *CrawlStateError) Error() string {
	switch {
	case e.NotFinished:
		return fmt.Sprintf("%s: the crawl has not finished (%s still to fetch): serving it would publish only the pages it reached; run the same 'sitemap crawl' command again to finish it, then serve", e.Path, plural.Of(e.Pending, "URL", "URLs"))
	case e.Left == 0:
		return fmt.Sprintf("%s holds no crawl, so it lists no page: give the state of a 'sitemap crawl --state' run", e.Path)
	}
	return fmt.Sprintf("%s: the crawl lists no page (%s left out; 'sitemap crawl --report' says why): nothing to serve", e.Path, plural.Of(e.Left, "URL", "URLs"))
}

// crawlServable says why the crawl log cl cannot be served (nil when it
// can): no crawl, a crawl not finished, or no page listed.
func crawlServable(ctx context.Context, cl state.CrawlLog, shown string) error {
	counts, err := cl.Reasons(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", shown, err)
	}
	left := 0
	for reason, n := range counts {
		if reason != "" {
			left += n
		}
	}
	pending := 0
	if fc, ok := cl.(state.FrontierCounter); ok {
		if pending, err = fc.Frontier(ctx); err != nil {
			return fmt.Errorf("%s: %w", shown, err)
		}
	}
	if counts[""]+left+pending == 0 {
		return &CrawlStateError{Path: shown}
	}
	// The crawl log holds one run: a stopped one has listed only the
	// pages it reached, and serving it would publish part of the site.
	finished := pending == 0
	if d, ok := cl.(state.CrawlDone); ok && finished {
		if finished, err = d.Finished(ctx); err != nil {
			return fmt.Errorf("%s: %w", shown, err)
		}
	}
	if !finished {
		return &CrawlStateError{Path: shown, NotFinished: true, Pending: pending}
	}
	if counts[""] == 0 {
		return &CrawlStateError{Path: shown, Left: left}
	}
	return nil
}
