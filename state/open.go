package state

import (
	"context"

	sitemap "github.com/sitemapkit/sitemap"
)

// Options configure [Open] for either backend.
type Options struct {
	// Precision is the lastmod precision Stamp writes for an observed
	// change: sitemap.PrecisionSecond (default) or sitemap.PrecisionDay.
	Precision sitemap.Precision
}

// Open opens the state named by name: a PostgreSQL database when name is
// a postgres:// or postgresql:// URL ([OpenPostgres]), else the SQLite
// file at that path ([OpenSQLite], created when missing). This is what
// `--state` takes on the command line. The result is a *[DB].
func Open(ctx context.Context, name string, o Options) (Store, error) {
	if IsPostgres(name) {
		return OpenPostgres(ctx, name, PostgresOptions{Precision: o.Precision})
	}
	return OpenSQLite(ctx, name, SQLiteOptions{Precision: o.Precision})
}
