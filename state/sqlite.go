package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	sitemap "github.com/sitemapkit/sitemap"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver (pure Go)
)

// SQLiteOptions tunes [OpenSQLite]. The zero value is ready to use.
type SQLiteOptions struct {
	// BatchSize is the number of writes buffered in one transaction before
	// it is committed (default 1000). A crash loses at most this many
	// writes (a crawl re-fetches the pages whose records were lost: see
	// [CrawlLog.Update]).
	BatchSize int
	// MaxDelay is the longest a write stays uncommitted while the store is
	// in use (default 2s); it is checked on every call.
	MaxDelay time.Duration
	// Precision is the lastmod precision Stamp writes for an observed
	// change: sitemap.PrecisionSecond (default) or sitemap.PrecisionDay.
	Precision sitemap.Precision
}

// schemaVersion is stored in the meta table; a file with a newer version
// is refused rather than misread.
const schemaVersion = 2

// migrations[v] brings a file of version v-1 to version v; schema is
// version 1. Each is idempotent (a run killed between a migration and the
// version's update runs it again).
var migrations = [schemaVersion + 1]string{2: submissionsSchema}

const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS urls (
	loc          TEXT PRIMARY KEY,
	content_hash TEXT NOT NULL DEFAULT '',
	lastmod      TEXT NOT NULL DEFAULT '',
	first_seen   INTEGER NOT NULL DEFAULT 0,
	last_seen    INTEGER NOT NULL DEFAULT 0,
	last_changed INTEGER NOT NULL DEFAULT 0,
	status       INTEGER NOT NULL DEFAULT 0,
	included     INTEGER NOT NULL DEFAULT 0,
	reason       TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
DROP INDEX IF EXISTS frontier_pending;
DROP TABLE IF EXISTS frontier;
`

// SQLite is the embedded [Store]: one SQLite file in WAL mode, through the
// pure-Go modernc.org/sqlite driver. Its [SQLite.Crawl] is the
// [CrawlLog] kept in the same file.
//
// All calls, the crawl log's included, go through one connection guarded
// by a mutex: SQLite has one writer at a time anyway, and one connection
// lets reads see the writes still buffered in the open transaction.
// Store writes are batched: a transaction is opened by the first write
// and committed after BatchSize writes, after MaxDelay, on Flush and
// Close, and before every transaction of the crawl log.
//
// One process at a time should use a file, except to submit to IndexNow:
// submitters sharing a file take turns under its submission lock
// ([SQLite.LockSubmissions]).
type SQLite struct {
	mu     sync.Mutex
	db     *sql.DB
	conn   *sql.Conn
	opt    SQLiteOptions
	closed bool

	inTx    bool
	ops     int
	txStart time.Time

	getURL, putURL *sql.Stmt
	unseen         *sql.Stmt
	begin, commit  *sql.Stmt

	// stmts holds the crawl log's statements, prepared on first use.
	stmts map[string]*sql.Stmt

	// path is the file; crawlLock, when set, a descriptor of it whose
	// flock (crawlLocked) keeps a second process from crawling with it
	// (lockCrawl), closed with the database.
	path        string
	crawlLock   *os.File
	crawlLocked bool

	// The submission lock (LockSubmissions): subTurn keeps this value's
	// callers apart; subFile, a read-write descriptor of the file opened
	// at the first turn, holds the record lock that keeps other
	// descriptors and processes apart, closed with the database (closing
	// it earlier would drop SQLite's own locks); subYield, set by a turn
	// that ended while others waited, is when this value may take the
	// next one (they go first).
	subTurn  chan struct{}
	subFile  *os.File
	subYield time.Time
}

var _ Store = (*SQLite)(nil)

// isState refuses, before anything is written to it, a file that is not
// a state file: one that is not an SQLite database, or a database with
// tables but neither of the state's first ones (meta, urls), such as an
// application's own database given by mistake. A new or empty file is
// a state file to be.
func (s *SQLite) isState(ctx context.Context) error {
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

// OpenSQLite opens (creating when missing) the state file at path. A
// file that is not a state file (another SQLite database, or not one at
// all) is refused and left as it is.
func OpenSQLite(ctx context.Context, path string, o SQLiteOptions) (*SQLite, error) {
	if o.BatchSize <= 0 {
		o.BatchSize = 1000
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 2 * time.Second
	}
	if o.Precision != sitemap.PrecisionDay {
		o.Precision = sitemap.PrecisionSecond
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, fmt.Errorf("state: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("state: open %s: %w", path, err)
	}
	s := &SQLite{db: db, conn: conn, opt: o, stmts: map[string]*sql.Stmt{}, path: path, subTurn: make(chan struct{}, 1)}
	if err := s.init(ctx); err != nil {
		s.closeAll()
		return nil, fmt.Errorf("state: open %s: %w", path, err)
	}
	return s, nil
}

func (s *SQLite) init(ctx context.Context) error {
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
	if _, err := s.conn.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	// The crawl log's tables too, so that its read methods work on any
	// file (a file written before a crawl table was added gets it here).
	if _, err := s.conn.ExecContext(ctx, crawlSchema); err != nil {
		return fmt.Errorf("create crawl tables: %w", err)
	}
	var v string
	have := 1 // a new file has the version-1 tables just created
	err := s.conn.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n > schemaVersion {
			return fmt.Errorf("state file has schema version %q; this program reads version %d or older", v, schemaVersion)
		}
		have = n
	}
	for n := have + 1; n <= schemaVersion; n++ {
		if _, err := s.conn.ExecContext(ctx, migrations[n]); err != nil {
			return fmt.Errorf("migrate the state file to schema version %d: %w", n, err)
		}
	}
	if v != strconv.Itoa(schemaVersion) {
		if _, err := s.conn.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('schema_version', ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value`, strconv.Itoa(schemaVersion)); err != nil {
			return err
		}
	}
	err = nil
	prep := func(dst **sql.Stmt, q string) error {
		if err != nil {
			return err
		}
		*dst, err = s.conn.PrepareContext(ctx, q)
		if err != nil {
			err = fmt.Errorf("prepare %q: %w", q, err)
		}
		return err
	}
	prep(&s.getURL, `SELECT content_hash, lastmod, first_seen, last_seen, last_changed, status, included, reason FROM urls WHERE loc = ?`)
	prep(&s.putURL, `INSERT INTO urls(loc, content_hash, lastmod, first_seen, last_seen, last_changed, status, included, reason)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(loc) DO UPDATE SET content_hash = excluded.content_hash, lastmod = excluded.lastmod,
			first_seen = excluded.first_seen, last_seen = excluded.last_seen, last_changed = excluded.last_changed,
			status = excluded.status, included = excluded.included, reason = excluded.reason`)
	prep(&s.unseen, `SELECT loc, content_hash, lastmod, first_seen, last_seen, last_changed, status, included, reason
		FROM urls WHERE last_seen < ? AND loc > ? ORDER BY loc LIMIT ?`)
	prep(&s.begin, `BEGIN IMMEDIATE`)
	return prep(&s.commit, `COMMIT`)
}

// lock takes the mutex and fails on a closed store.
func (s *SQLite) lock() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	return nil
}

// write runs one buffered write: it opens the batch transaction when
// needed, runs f, and commits when the batch is full or old. Caller holds
// the mutex.
func (s *SQLite) write(ctx context.Context, f func() error) error {
	if !s.inTx {
		if _, err := s.begin.ExecContext(ctx); err != nil {
			return fmt.Errorf("state: begin: %w", err)
		}
		s.inTx, s.ops, s.txStart = true, 0, time.Now()
	}
	if err := f(); err != nil {
		return err
	}
	s.ops++
	if s.ops >= s.opt.BatchSize || time.Since(s.txStart) >= s.opt.MaxDelay {
		return s.flushLocked(ctx)
	}
	return nil
}

func (s *SQLite) flushLocked(ctx context.Context) error {
	if !s.inTx {
		return nil
	}
	if _, err := s.commit.ExecContext(ctx); err != nil {
		return fmt.Errorf("state: commit: %w", err)
	}
	s.inTx, s.ops = false, 0
	return nil
}

// nanos stores a time as UTC Unix nanoseconds, 0 for the zero time.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

type scanner interface{ Scan(...any) error }

// locFirst scans a row whose first column is loc.
type locFirst struct {
	rows *sql.Rows
	loc  *string
}

func (l locFirst) Scan(dst ...any) error {
	return l.rows.Scan(append([]any{l.loc}, dst...)...)
}

// scanRecord reads the columns after loc of the urls table.
func scanRecord(row scanner, r *Record) error {
	var lastmod string
	var first, last, changed int64
	var included int
	if err := row.Scan(&r.ContentHash, &lastmod, &first, &last, &changed, &r.Status, &included, &r.Reason); err != nil {
		return err
	}
	if lastmod != "" {
		d, _, err := sitemap.ParseDateLenient(lastmod)
		if err != nil {
			return fmt.Errorf("state: record %q has a bad lastmod: %w", r.Loc, err)
		}
		r.LastMod = d
	}
	r.FirstSeen, r.LastSeen, r.LastChanged = fromNanos(first), fromNanos(last), fromNanos(changed)
	r.Included = included != 0
	return nil
}

func (s *SQLite) lookupLocked(ctx context.Context, loc string) (Record, bool, error) {
	r := Record{Loc: loc}
	err := scanRecord(s.getURL.QueryRowContext(ctx, loc), &r)
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, fmt.Errorf("state: lookup %q: %w", loc, err)
	}
	return r, true, nil
}

func (s *SQLite) putLocked(ctx context.Context, r Record) error {
	included := 0
	if r.Included {
		included = 1
	}
	return s.write(ctx, func() error {
		_, err := s.putURL.ExecContext(ctx, r.Loc, r.ContentHash, r.LastMod.String(),
			nanos(r.FirstSeen), nanos(r.LastSeen), nanos(r.LastChanged), r.Status, included, r.Reason)
		if err != nil {
			return fmt.Errorf("state: put %q: %w", r.Loc, err)
		}
		return nil
	})
}

// Lookup implements [Store].
func (s *SQLite) Lookup(ctx context.Context, loc string) (Record, bool, error) {
	if err := s.lock(); err != nil {
		return Record{}, false, err
	}
	defer s.mu.Unlock()
	return s.lookupLocked(ctx, loc)
}

// Put implements [Store].
func (s *SQLite) Put(ctx context.Context, r Record) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.putLocked(ctx, r)
}

// Stamp implements [Store] with the rule of [Decide] and the store's
// Precision.
func (s *SQLite) Stamp(ctx context.Context, u *sitemap.URL, now time.Time) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	prev, found, err := s.lookupLocked(ctx, u.Loc)
	if err != nil {
		return err
	}
	r, lastmod := Decide(prev, found, u, now, s.opt.Precision)
	if err := s.putLocked(ctx, r); err != nil {
		return err
	}
	u.LastMod = lastmod
	return nil
}

// unseenPage is the number of records Unseen reads per query; the mutex
// is released between pages so fn may call the store.
const unseenPage = 256

// Unseen implements [Store]. Memory stays bounded: records are read a
// page at a time.
func (s *SQLite) Unseen(ctx context.Context, since time.Time, fn func(Record) error) error {
	after := ""
	for {
		page, err := s.unseenPage(ctx, since, after)
		if err != nil {
			return err
		}
		for _, r := range page {
			if err := fn(r); err != nil {
				return err
			}
		}
		if len(page) < unseenPage {
			return nil
		}
		after = page[len(page)-1].Loc
	}
}

func (s *SQLite) unseenPage(ctx context.Context, since time.Time, after string) ([]Record, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.unseen.QueryContext(ctx, nanos(since), after, unseenPage)
	if err != nil {
		return nil, fmt.Errorf("state: unseen: %w", err)
	}
	defer rows.Close()
	page := make([]Record, 0, unseenPage)
	for rows.Next() {
		var r Record
		if err := scanRecord(locFirst{rows, &r.Loc}, &r); err != nil {
			return nil, fmt.Errorf("state: unseen: %w", err)
		}
		page = append(page, r)
	}
	return page, rows.Err()
}

// Flush implements [Store]: it commits the open batch.
func (s *SQLite) Flush(ctx context.Context) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.flushLocked(ctx)
}

// Close implements [Store]: it commits the open batch and closes the file.
// Closing twice returns ErrClosed.
func (s *SQLite) Close() error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	err := s.flushLocked(context.Background())
	s.closed = true
	if cerr := s.closeAll(); err == nil {
		err = cerr
	}
	return err
}

func (s *SQLite) closeAll() error {
	for _, st := range []*sql.Stmt{s.getURL, s.putURL, s.unseen, s.begin, s.commit} {
		if st != nil {
			st.Close()
		}
	}
	for _, st := range s.stmts {
		st.Close()
	}
	var err error
	if s.conn != nil {
		err = s.conn.Close()
	}
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	if s.crawlLock != nil {
		s.crawlLock.Close()
		s.crawlLock, s.crawlLocked = nil, false
	}
	if s.subFile != nil {
		s.subFile.Close()
		s.subFile = nil
	}
	return err
}
