package state

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	sitemap "github.com/sitemapkit/sitemap"
)

// PostgresOptions tunes [OpenPostgres]. The zero value is ready to use.
type PostgresOptions struct {
	// BatchSize is the number of records buffered before they are written
	// in one statement (default 5000). A crash loses at most this many
	// writes.
	BatchSize int
	// MaxDelay is the longest a write stays buffered while the store is in
	// use (default 2s); it is checked on every call.
	MaxDelay time.Duration
	// Precision is the lastmod precision Stamp writes for an observed
	// change: sitemap.PrecisionSecond (default) or sitemap.PrecisionDay.
	Precision sitemap.Precision
	// MaxConns caps the connection pool (default 8).
	MaxConns int32
}

// pgSchemaVersion is the schema version this program writes; a database
// with a newer one is refused rather than misread.
const pgSchemaVersion = 5

// pgMigrations[v] brings a database of version v-1 to version v. Each runs
// in the transaction that records the new version, so a migration is
// applied whole or not at all, and by one opener at a time (the others
// wait on the version row's lock). The SQL is what CockroachDB accepts
// too: no advisory locks, no PL/pgSQL, no PostgreSQL-only types.
var pgMigrations = [pgSchemaVersion + 1]string{
	1: `
CREATE TABLE IF NOT EXISTS sitemap_urls (
	loc          TEXT COLLATE "C" PRIMARY KEY,
	content_hash TEXT NOT NULL DEFAULT '',
	lastmod      TEXT NOT NULL DEFAULT '',
	first_seen   BIGINT NOT NULL DEFAULT 0,
	last_seen    BIGINT NOT NULL DEFAULT 0,
	last_changed BIGINT NOT NULL DEFAULT 0,
	status       INTEGER NOT NULL DEFAULT 0,
	included     BOOLEAN NOT NULL DEFAULT false,
	reason       TEXT NOT NULL DEFAULT ''
)`,
	2: `
CREATE TABLE IF NOT EXISTS sitemap_submissions (
	loc      TEXT NOT NULL,
	version  TEXT NOT NULL,
	endpoint TEXT NOT NULL DEFAULT '',
	at       BIGINT NOT NULL,
	status   INTEGER NOT NULL DEFAULT 0,
	outcome  TEXT NOT NULL,
	PRIMARY KEY (loc, version)
);
CREATE INDEX IF NOT EXISTS sitemap_submissions_sent ON sitemap_submissions (at) WHERE outcome = 'sent'`,
	3: pgCrawlSchema,
	4: pgLeaseSchema,
	5: `ALTER TABLE sitemap_crawl_hosts ADD COLUMN IF NOT EXISTS paused_until TIMESTAMPTZ`,
}

// Postgres is the [Store] kept in a PostgreSQL database (or one speaking
// its protocol, such as CockroachDB), through a pgx connection pool,
// shared by any number of processes. Its tables are named sitemap_*, so
// the database may hold others; the schema is created and migrated by
// [OpenPostgres].
//
// Writes are buffered (visible at once to later calls on the same
// Postgres) and written BatchSize at a time in one multi-row upsert, on
// Flush, on Close, and after MaxDelay. [Postgres.StampMany] reads and
// writes a whole batch of entries in two statements: that, not Stamp one
// by one, is the fast way in (each Stamp of a URL not buffered reads one
// row over the network).
//
// Stamp is atomic within one Postgres value. Several processes stamping
// the same URL at once each apply [Decide] to what they read, and the
// last write wins; processes that share the work by URL (each URL
// stamped by one of them, as `generate --shard` does) never race.
type Postgres struct {
	mu     sync.Mutex
	pool   *pgxpool.Pool
	opt    PostgresOptions
	closed bool

	buf     []Record       // buffered writes, in order
	bufIdx  map[string]int // loc -> index in buf
	bufFrom time.Time      // when the oldest buffered write was made

	// pre holds the records the last Prefetch read (found false: the
	// database had none); Lookup reads it after the buffer.
	pre map[string]prefetched

	// subTurn keeps the callers of LockSubmissions on this value apart.
	subTurn chan struct{}
}

type prefetched struct {
	r     Record
	found bool
}

var (
	_ Store      = (*Postgres)(nil)
	_ Prefetcher = (*Postgres)(nil)
)

// IsPostgres reports whether name is a PostgreSQL connection URL
// (postgres:// or postgresql://).
func IsPostgres(name string) bool {
	return len(name) > 11 && (name[:11] == "postgres://" || len(name) > 13 && name[:13] == "postgresql://")
}

// OpenPostgres connects to the database of url (postgres://user:pass@host:port/db?…,
// any setting pgx reads, including the PG* environment variables for
// what the URL leaves out), creates or migrates the schema, and returns
// the store.
func OpenPostgres(ctx context.Context, url string, o PostgresOptions) (*Postgres, error) {
	if o.BatchSize <= 0 {
		o.BatchSize = 5000
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 2 * time.Second
	}
	if o.Precision != sitemap.PrecisionDay {
		o.Precision = sitemap.PrecisionSecond
	}
	if o.MaxConns <= 0 {
		o.MaxConns = 8
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("state: %s: %w (use postgres://user:password@host:5432/database)", Redact(url), err)
	}
	cfg.MaxConns = o.MaxConns
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("state: %s: %w", Redact(url), err)
	}
	if err := pgMigrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("state: %s: %w", Redact(url), err)
	}
	return &Postgres{pool: pool, opt: o, bufIdx: map[string]int{}, subTurn: make(chan struct{}, 1)}, nil
}

// Redact returns name for messages: a PostgreSQL URL without its
// password; anything else as it is.
func Redact(name string) string {
	if !IsPostgres(name) {
		return name
	}
	cfg, err := pgx.ParseConfig(name)
	if err != nil {
		return "postgres://…" // unparsable: it may hold a password anywhere
	}
	if cfg.Password == "" {
		return name
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s", cfg.User, cfg.Host, cfg.Port, cfg.Database)
}

// pgMigrate applies the migrations the database lacks, each in one
// transaction holding the version row's lock.
func pgMigrate(ctx context.Context, pool *pgxpool.Pool) error {
	// Two openers creating the table at once can both pass IF NOT EXISTS
	// and one fail on the catalog's unique index: try again.
	var err error
	for range 3 {
		_, err = pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS sitemap_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`)
		if err == nil {
			_, err = pool.Exec(ctx, `INSERT INTO sitemap_meta (key, value) VALUES ('schema_version', '0') ON CONFLICT (key) DO NOTHING`)
		}
		if err == nil || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	var v string
	if err := tx.QueryRow(ctx, `SELECT value FROM sitemap_meta WHERE key = 'schema_version' FOR UPDATE`).Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	have, err := strconv.Atoi(v)
	if err != nil || have > pgSchemaVersion {
		return fmt.Errorf("the database has state schema version %q; this program reads version %d or older (upgrade it)", v, pgSchemaVersion)
	}
	if have == pgSchemaVersion {
		return nil
	}
	for n := have + 1; n <= pgSchemaVersion; n++ {
		if _, err := tx.Exec(ctx, pgMigrations[n]); err != nil {
			return fmt.Errorf("migrate the state to schema version %d: %w", n, err)
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE sitemap_meta SET value = $1 WHERE key = 'schema_version'`, strconv.Itoa(pgSchemaVersion)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func (s *Postgres) lock() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	return nil
}

const pgColumns = `loc, content_hash, lastmod, first_seen, last_seen, last_changed, status, included, reason`

// scanPG reads one row of pgColumns.
func scanPG(row pgx.Row, r *Record) error {
	var lastmod string
	var first, last, changed int64
	if err := row.Scan(&r.Loc, &r.ContentHash, &lastmod, &first, &last, &changed, &r.Status, &r.Included, &r.Reason); err != nil {
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
	return nil
}

// lookupLocked finds loc in the buffer, then in the database.
func (s *Postgres) lookupLocked(ctx context.Context, loc string) (Record, bool, error) {
	if i, ok := s.bufIdx[loc]; ok {
		return s.buf[i], true, nil
	}
	if p, ok := s.pre[loc]; ok {
		return p.r, p.found, nil
	}
	var r Record
	err := scanPG(s.pool.QueryRow(ctx, `SELECT `+pgColumns+` FROM sitemap_urls WHERE loc = $1`, loc), &r)
	if errors.Is(err, pgx.ErrNoRows) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, fmt.Errorf("state: lookup %q: %w", loc, err)
	}
	return r, true, nil
}

// putLocked buffers r and writes the buffer when it is full or old.
func (s *Postgres) putLocked(ctx context.Context, r Record) error {
	if i, ok := s.bufIdx[r.Loc]; ok {
		s.buf[i] = r
	} else {
		if len(s.buf) == 0 {
			s.bufFrom = time.Now()
		}
		s.bufIdx[r.Loc] = len(s.buf)
		s.buf = append(s.buf, r)
	}
	if len(s.buf) >= s.opt.BatchSize || time.Since(s.bufFrom) >= s.opt.MaxDelay {
		return s.flushLocked(ctx)
	}
	return nil
}

// flushLocked writes the buffer in one upsert.
func (s *Postgres) flushLocked(ctx context.Context) error {
	if len(s.buf) == 0 {
		return nil
	}
	n := len(s.buf)
	locs, hashes, lastmods, reasons := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	firsts, lasts, changes := make([]int64, n), make([]int64, n), make([]int64, n)
	statuses, included := make([]int32, n), make([]bool, n)
	for i, r := range s.buf {
		locs[i], hashes[i], lastmods[i], reasons[i] = r.Loc, r.ContentHash, r.LastMod.String(), r.Reason
		firsts[i], lasts[i], changes[i] = nanos(r.FirstSeen), nanos(r.LastSeen), nanos(r.LastChanged)
		statuses[i], included[i] = int32(r.Status), r.Included
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO sitemap_urls (`+pgColumns+`)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[], $6::int8[], $7::int4[], $8::bool[], $9::text[])
		ON CONFLICT (loc) DO UPDATE SET content_hash = excluded.content_hash, lastmod = excluded.lastmod,
			first_seen = excluded.first_seen, last_seen = excluded.last_seen, last_changed = excluded.last_changed,
			status = excluded.status, included = excluded.included, reason = excluded.reason`,
		locs, hashes, lastmods, firsts, lasts, changes, statuses, included, reasons)
	if err != nil {
		return fmt.Errorf("state: writing %d records: %w", n, err)
	}
	// The prefetched copies of what was just written are stale.
	for _, r := range s.buf {
		delete(s.pre, r.Loc)
	}
	s.buf = s.buf[:0]
	clear(s.bufIdx)
	return nil
}

// Prefetch implements [Prefetcher]: one query for the locs not in the
// write buffer.
func (s *Postgres) Prefetch(ctx context.Context, locs []string) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if s.pre == nil {
		s.pre = make(map[string]prefetched, len(locs))
	}
	clear(s.pre)
	ask := make([]string, 0, len(locs))
	for _, l := range locs {
		if _, ok := s.bufIdx[l]; ok {
			continue
		}
		if _, ok := s.pre[l]; !ok {
			s.pre[l] = prefetched{}
			ask = append(ask, l)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	rows, err := s.pool.Query(ctx, `SELECT `+pgColumns+` FROM sitemap_urls WHERE loc = ANY($1::text[])`, ask)
	if err != nil {
		clear(s.pre)
		return fmt.Errorf("state: lookup of %d URLs: %w", len(ask), err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Record
		if err := scanPG(rows, &r); err != nil {
			clear(s.pre)
			return fmt.Errorf("state: lookup: %w", err)
		}
		s.pre[r.Loc] = prefetched{r, true}
	}
	if err := rows.Err(); err != nil {
		clear(s.pre)
		return fmt.Errorf("state: lookup of %d URLs: %w", len(ask), err)
	}
	return nil
}

// Lookup implements [Store].
func (s *Postgres) Lookup(ctx context.Context, loc string) (Record, bool, error) {
	if err := s.lock(); err != nil {
		return Record{}, false, err
	}
	defer s.mu.Unlock()
	return s.lookupLocked(ctx, loc)
}

// Put implements [Store].
func (s *Postgres) Put(ctx context.Context, r Record) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.putLocked(ctx, r)
}

// Stamp implements [Store] with the rule of [Decide] and the store's
// Precision.
func (s *Postgres) Stamp(ctx context.Context, u *sitemap.URL, now time.Time) error {
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

// StampMany is Stamp of every entry of us, in order, with one read of the
// database for all of them (a loc given twice is stamped twice, the
// second time against the first's record). On an error, the entries
// before the failing one may have been stamped and recorded.
func (s *Postgres) StampMany(ctx context.Context, us []*sitemap.URL, now time.Time) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	prev := make(map[string]Record, len(us))
	var ask []string
	for _, u := range us {
		if i, ok := s.bufIdx[u.Loc]; ok {
			prev[u.Loc] = s.buf[i]
		} else if _, ok := prev[u.Loc]; !ok {
			prev[u.Loc] = Record{} // asked once
			ask = append(ask, u.Loc)
		}
	}
	found := make(map[string]bool, len(us))
	for l := range prev {
		if _, ok := s.bufIdx[l]; ok {
			found[l] = true
		}
	}
	if len(ask) > 0 {
		rows, err := s.pool.Query(ctx, `SELECT `+pgColumns+` FROM sitemap_urls WHERE loc = ANY($1::text[])`, ask)
		if err != nil {
			return fmt.Errorf("state: lookup of %d URLs: %w", len(ask), err)
		}
		for rows.Next() {
			var r Record
			if err := scanPG(rows, &r); err != nil {
				rows.Close()
				return fmt.Errorf("state: lookup: %w", err)
			}
			prev[r.Loc], found[r.Loc] = r, true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("state: lookup of %d URLs: %w", len(ask), err)
		}
	}
	for _, u := range us {
		r, lastmod := Decide(prev[u.Loc], found[u.Loc], u, now, s.opt.Precision)
		if err := s.putLocked(ctx, r); err != nil {
			return err
		}
		prev[u.Loc], found[u.Loc] = r, true
		u.LastMod = lastmod
	}
	return nil
}

// Unseen implements [Store]: it writes the buffer, then reads the
// records a page at a time (memory stays bounded), in byte order of Loc.
func (s *Postgres) Unseen(ctx context.Context, since time.Time, fn func(Record) error) error {
	if err := s.Flush(ctx); err != nil {
		return err
	}
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

func (s *Postgres) unseenPage(ctx context.Context, since time.Time, after string) ([]Record, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.pool.Query(ctx, `SELECT `+pgColumns+` FROM sitemap_urls
		WHERE last_seen < $1 AND loc > $2 ORDER BY loc LIMIT $3`, nanos(since), after, unseenPage)
	if err != nil {
		return nil, fmt.Errorf("state: unseen: %w", err)
	}
	defer rows.Close()
	page := make([]Record, 0, unseenPage)
	for rows.Next() {
		var r Record
		if err := scanPG(rows, &r); err != nil {
			return nil, fmt.Errorf("state: unseen: %w", err)
		}
		page = append(page, r)
	}
	return page, rows.Err()
}

// Flush implements [Store]: it writes the buffer.
func (s *Postgres) Flush(ctx context.Context) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.flushLocked(ctx)
}

// Close implements [Store]: it writes the buffer and closes the pool.
// Closing twice returns ErrClosed.
func (s *Postgres) Close() error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	err := s.flushLocked(context.Background())
	s.closed = true
	s.pool.Close()
	return err
}

// Pool returns the store's connection pool (for the crawl log and tools
// that share the database).
func (s *Postgres) Pool() *pgxpool.Pool { return s.pool }
