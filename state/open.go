package state

import (
	"context"
	"errors"
	"fmt"

	sitemap "github.com/sitemapkit/sitemap"
)

// Options configure [Open] for either backend.
type Options struct {
	// Precision is the lastmod precision Stamp writes for an observed
	// change: sitemap.PrecisionSecond (default) or sitemap.PrecisionDay.
	Precision sitemap.Precision
	// DryRun opens a SQLite file through a copy of it ([DryRunCopy]),
	// which Close removes, so the run writes nothing to name: not its
	// rows, not even the schema of a new file. A PostgreSQL database is
	// opened as it is; a caller in a dry run reads it and writes nothing.
	DryRun bool
}

// Open opens the state named by name: a PostgreSQL database when name is
// a postgres:// or postgresql:// URL ([OpenPostgres]), else the SQLite
// file at that path ([OpenSQLite], created when missing). This is what
// `--state` takes on the command line. The [DB] is a [Store], holds the
// crawl log ([DB.Crawl]; on PostgreSQL a [SharedCrawlLog]), the audit log
// and the IndexNow submissions. With o.DryRun, a SQLite file is opened
// through a copy (an error copying it names the file); Close removes it.
func Open(ctx context.Context, name string, o Options) (*DB, error) {
	if IsPostgres(name) {
		return OpenPostgres(ctx, name, PostgresOptions{Precision: o.Precision})
	}
	path, remove := name, func() {}
	if o.DryRun {
		var err error
		if path, remove, err = DryRunCopy(name); err != nil {
			return nil, err
		}
	}
	db, err := OpenSQLite(ctx, path, SQLiteOptions{Precision: o.Precision})
	if err != nil {
		remove()
		var ns *notStateError
		if o.DryRun && errors.As(err, &ns) {
			// Said of the file named, not of its copy in a
			// temporary directory.
			return nil, fmt.Errorf("state: open %s: %w", name, ns)
		}
		return nil, err
	}
	db.removeCopy = remove
	return db, nil
}

// OpenNamed is [Open] of the state a person names (the --state of
// `sitemap generate` and `submit`): a path that cannot be a state file
// ([CheckFile]: a directory, not an SQLite database, no such directory)
// is refused first, before SQLite would create or misread it. An error
// names the flag: "--state …", a database without its password ([Redact]).
func OpenNamed(ctx context.Context, name string, o Options) (*DB, error) {
	if !IsPostgres(name) {
		if err := CheckFile(name); err != nil {
			return nil, fmt.Errorf("--state %w", err)
		}
	}
	st, err := Open(ctx, name, o)
	if err != nil {
		return nil, fmt.Errorf("--state %s: %w", Redact(name), err)
	}
	return st, nil
}
