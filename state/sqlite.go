package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver (pure Go)
)

// SQLiteOptions tunes [OpenSQLite]. The zero value is ready to use.
type SQLiteOptions struct {
	// BatchSize is the number of writes buffered before they are
	// committed in one transaction (default 1000). A crash loses at most
	// this many writes (a crawl re-fetches the pages whose records were
	// lost: see [CrawlLog.Update]).
	BatchSize int
	// MaxDelay is the longest a write stays uncommitted while the store is
	// in use (default 2s); it is checked on every call.
	MaxDelay time.Duration
	// Precision is the lastmod precision Stamp writes for an observed
	// change: sitemap.PrecisionSecond (default) or sitemap.PrecisionDay.
	Precision sitemap.Precision
}

// schemaVersion is the version of a state file, stored in the meta
// table; a file with a newer version is refused rather than misread.
const schemaVersion = 2

// migrations[v] brings a file of version v-1 to version v; schema is
// version 1. Each is idempotent (a run killed between a migration and the
// version's update runs it again).
var migrations = [schemaVersion + 1]string{2: submissionsSchema}

// metaSchema is the table of the schema's version (and the holder of
// the submission lock).
const metaSchema = `CREATE TABLE IF NOT EXISTS {meta} (key TEXT PRIMARY KEY, value TEXT NOT NULL){sqlite: WITHOUT ROWID}`

// schema is version 1 of a state file (and of the PostgreSQL state):
// the Store's table.
const schema = metaSchema + `;
CREATE TABLE IF NOT EXISTS {urls} (
	loc          TEXT{C} PRIMARY KEY,
	content_hash TEXT NOT NULL DEFAULT '',
	lastmod      TEXT NOT NULL DEFAULT '',
	first_seen   {sqlite:INTEGER}{pg:BIGINT} NOT NULL DEFAULT 0,
	last_seen    {sqlite:INTEGER}{pg:BIGINT} NOT NULL DEFAULT 0,
	last_changed {sqlite:INTEGER}{pg:BIGINT} NOT NULL DEFAULT 0,
	status       INTEGER NOT NULL DEFAULT 0,
	included     {sqlite:INTEGER NOT NULL DEFAULT 0}{pg:BOOLEAN NOT NULL DEFAULT false},
	reason       TEXT NOT NULL DEFAULT ''
){sqlite: WITHOUT ROWID}`

// submissionsSchema is schema version 2: what was submitted to a search
// engine (IndexNow), per URL and version of its content.
const submissionsSchema = `
CREATE TABLE IF NOT EXISTS {submissions} (
	loc      TEXT NOT NULL,
	version  TEXT NOT NULL,
	endpoint TEXT NOT NULL DEFAULT '',
	at       {sqlite:INTEGER}{pg:BIGINT} NOT NULL,
	status   INTEGER NOT NULL DEFAULT 0,
	outcome  TEXT NOT NULL,
	PRIMARY KEY (loc, version)
){sqlite: WITHOUT ROWID};
CREATE INDEX IF NOT EXISTS {submissions_sent} ON {submissions} (at) WHERE outcome = 'sent'`

// isState refuses, before anything is written to it, a file that is not
// a state file: one that is not an SQLite database, or a database with
// tables but neither of the state's first ones (meta, urls), such as an
// application's own database given by mistake. A new or empty file is
// a state file to be.
func (s *DB) isState(ctx context.Context) error {
	var tables, ours int
	err := s.conn.QueryRowContext(ctx, `SELECT count(*), count(CASE WHEN name IN ('meta', 'urls') THEN 1 END)
		FROM sqlite_master WHERE type = 'table'`).Scan(&tables, &ours)
	switch {
	case err != nil && strings.Contains(err.Error(), "file is not a database"):
		return errors.New("not a sitemap state file (not an SQLite database): give the file a --state run of crawl, generate or submit wrote, or the name of a new one")
	case err != nil:
		return err
	case tables > 0 && ours == 0:
		return fmt.Errorf("not a sitemap state file (an SQLite database whose %d table(s) are none of a state file's): give the file a --state run of crawl, generate or submit wrote, or the name of a new one", tables)
	}
	return nil
}

// OpenSQLite opens (creating when missing) the state file at path: one
// SQLite file in WAL mode, through the pure-Go modernc.org/sqlite
// driver. A file that is not a state file (another SQLite database, or
// not one at all) is refused and left as it is.
//
// One process at a time should use a file, except to submit to IndexNow:
// submitters sharing a file take turns under its submission lock
// ([DB.LockSubmissions]).
func OpenSQLite(ctx context.Context, path string, o SQLiteOptions) (*SQLite, error) {
	if o.BatchSize <= 0 {
		o.BatchSize = 1000
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, fmt.Errorf("state: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, openError(path, err)
	}
	s := newDB(db, sqliteDialect(), options{batch: o.BatchSize, maxDelay: o.MaxDelay, precision: o.Precision})
	s.conn, s.stmts, s.path = conn, map[string]*sql.Stmt{}, path
	if err := s.initSQLite(ctx); err != nil {
		s.closeAll()
		return nil, openError(path, err)
	}
	return s, nil
}

// openError is the error of a state file at path that SQLite could not
// open (err): when no file can be created beside it (a read-only file
// system, a directory of another user), SQLite's "unable to open
// database file (14)" says nothing of why, so the error says that
// instead, and what to do (SQLite writes its journal beside the file,
// so even an existing state needs a directory it can write to).
func openError(path string, err error) error {
	if werr := store.CheckWritable(filepath.Dir(path)); werr != nil {
		return fmt.Errorf("state: open %s: %v; give a state file in a directory you can write to", path, werr)
	}
	return fmt.Errorf("state: open %s: %w", path, err)
}

func (s *DB) initSQLite(ctx context.Context) error {
	if _, err := s.conn.ExecContext(ctx, "PRAGMA busy_timeout = 10000"); err != nil {
		return err
	}
	if err := s.isState(ctx); err != nil {
		return err
	}
	for _, p := range []string{
		"PRAGMA journal_mode = WAL",
		"PRAGMA synchronous = NORMAL",
		"PRAGMA temp_store = MEMORY",
		"PRAGMA cache_size = -16384", // 16 MiB of page cache, a bound
	} {
		if _, err := s.conn.ExecContext(ctx, p); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	// The crawl log's tables too, so that its read methods work on any
	// file (a file written before a crawl table was added gets it here).
	for _, ddl := range []string{schema, `DROP INDEX IF EXISTS frontier_pending; DROP TABLE IF EXISTS frontier`, crawlSchema} {
		if _, err := s.conn.ExecContext(ctx, s.d.rewrite(ddl)); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
	}
	v, err := s.direct().meta(ctx, "meta", "schema_version")
	if err != nil {
		return err
	}
	have := 1 // a new file has the version-1 tables just created
	if v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n > schemaVersion {
			return fmt.Errorf("state file has schema version %q; this program reads version %d or older", v, schemaVersion)
		}
		have = n
	}
	for n := have + 1; n <= schemaVersion; n++ {
		if _, err := s.conn.ExecContext(ctx, s.d.rewrite(migrations[n])); err != nil {
			return fmt.Errorf("migrate the state file to schema version %d: %w", n, err)
		}
	}
	if v != strconv.Itoa(schemaVersion) {
		return s.direct().setMeta(ctx, "meta", "schema_version", strconv.Itoa(schemaVersion))
	}
	return nil
}
