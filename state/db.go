package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// DB is the state kept in SQL: the [Store], its crawl log ([DB.Crawl]),
// its audit log ([DB.Audit]) and its IndexNow ledger
// ([DB.RecordSubmissions]), in an SQLite file ([OpenSQLite]) or a
// PostgreSQL database ([OpenPostgres]). One implementation serves both
// engines: the SQL is written once and a dialect says what the engines
// spell or do differently.
//
// Store writes are buffered (visible at once to later calls on the same
// DB) and written BatchSize at a time: on SQLite in one transaction, on
// PostgreSQL in one multi-row upsert; also on Flush, on Close, after
// MaxDelay, and before every transaction of the crawl log and the
// ledger. [DB.StampMany] reads and writes a whole batch of entries with
// one read of the database.
//
// On SQLite every call goes through one connection guarded by a mutex
// (SQLite has one writer at a time anyway). On PostgreSQL the DB is a
// pool shared by any number of processes: Stamp is atomic within one DB
// value; several processes stamping the same URL at once each apply
// [Decide] to what they read and the last write wins (processes sharing
// the work by URL, as `generate --shard` does, never race).
type DB struct {
	mu     sync.Mutex
	db     *sql.DB
	d      *dialect
	sql    *rewrites
	opt    options
	closed bool

	buf     []Record       // buffered writes, in order (PostgreSQL)
	bufIdx  map[string]int // loc -> index in buf
	bufFrom time.Time      // when the oldest buffered write was made

	// inTx is set while SQLite's transaction of buffered writes is open,
	// ops counts its writes.
	inTx bool
	ops  int

	// pre holds the records the last Prefetch read (found false: the
	// database had none); Lookup reads it after the buffer.
	pre map[string]prefetched

	// subTurn keeps the callers of LockSubmissions on this value apart.
	subTurn chan struct{}

	// SQLite only: conn is the one connection, stmts its prepared
	// statements.
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
	// path is the file; crawlLock, when set, a descriptor of it whose
	// flock (crawlLocked) keeps a second process from crawling with it
	// (lockCrawl), closed with the database.
	path        string
	crawlLock   *os.File
	crawlLocked bool
	// The submission lock: subFile, a read-write descriptor of the file
	// opened at the first turn, holds the record lock that keeps other
	// descriptors and processes apart, closed with the database (closing
	// it earlier would drop SQLite's own locks); subYield, set by a turn
	// that ended while others waited, is when this value may take the
	// next one (they go first).
	subFile  *os.File
	subYield time.Time
	// removeCopy removes the copy a dry run opened (Open), at Close.
	removeCopy func()
}

// SQLite is the name of a [DB] in a state file, as [OpenSQLite] returns.
type SQLite = DB

// Postgres is the name of a [DB] in PostgreSQL, as [OpenPostgres]
// returns; its crawl log is a [SharedCrawlLog].
type Postgres = DB

// options are the tunings both engines take.
type options struct {
	batch     int
	maxDelay  time.Duration
	precision sitemap.Precision
}

type prefetched struct {
	r     Record
	found bool
}

var (
	_ Store      = (*DB)(nil)
	_ Prefetcher = (*DB)(nil)
)

func newDB(db *sql.DB, d *dialect, o options) *DB {
	if o.maxDelay <= 0 {
		o.maxDelay = 2 * time.Second
	}
	if o.precision != sitemap.PrecisionDay {
		o.precision = sitemap.PrecisionSecond
	}
	return &DB{db: db, d: d, sql: &rewrites{d: d}, opt: o, bufIdx: map[string]int{}, subTurn: make(chan struct{}, 1)}
}

// lock takes the mutex and fails on a closed store.
func (s *DB) lock() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	return nil
}

// direct is the session of statements outside a transaction.
func (s *DB) direct() sess {
	if s.conn != nil {
		return sess{s: s, x: s.conn}
	}
	return sess{s: s, x: s.db}
}

// read runs f on the session of reads: on SQLite with the mutex held
// (one connection), on PostgreSQL without it (the pool reads in
// parallel, and a long transaction of the crawl log holds up no read).
func (s *DB) read(f func(x sess) error) error {
	if err := s.lock(); err != nil {
		return err
	}
	if s.conn != nil {
		defer s.mu.Unlock()
	} else {
		s.mu.Unlock()
	}
	return f(s.direct())
}

// txLocked writes the store's buffer, then runs f in a transaction of
// its own: SQLite's BEGIN IMMEDIATE on its connection, a READ COMMITTED
// transaction of the pool on PostgreSQL (whatever the database's
// default: the shared crawl's statements are written for it). Caller
// holds the mutex.
func (s *DB) txLocked(ctx context.Context, f func(x sess) error) error {
	if err := s.flushLocked(ctx); err != nil {
		return err
	}
	return s.rawTx(ctx, f)
}

// rawTx is txLocked without writing the buffer.
func (s *DB) rawTx(ctx context.Context, f func(x sess) error) error {
	if s.conn != nil {
		x := s.direct()
		if _, err := x.exec(ctx, `BEGIN IMMEDIATE`); err != nil {
			return fmt.Errorf("state: begin: %w", err)
		}
		if err := f(x); err != nil {
			s.conn.ExecContext(context.Background(), "ROLLBACK")
			return err
		}
		if _, err := x.exec(ctx, `COMMIT`); err != nil {
			s.conn.ExecContext(context.Background(), "ROLLBACK")
			return fmt.Errorf("state: commit: %w", err)
		}
		return nil
	}
	c, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("state: begin: %w", err)
	}
	defer c.Close()
	tx, err := c.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return fmt.Errorf("state: begin: %w", err)
	}
	defer tx.Rollback()
	if err := f(sess{s: s, x: tx, c: c}); err != nil {
		return s.d.conflict(err)
	}
	if err := tx.Commit(); err != nil {
		return s.d.conflict(fmt.Errorf("state: commit: %w", err))
	}
	return nil
}

// urlColumns are the columns of the urls table, loc first.
var urlColumns = []string{"loc", "content_hash", "lastmod", "first_seen", "last_seen", "last_changed", "status", "included", "reason"}

const urlSelect = `SELECT loc, content_hash, lastmod, first_seen, last_seen, last_changed, status, included, reason FROM {urls}`

// scanRecord reads one row of urlSelect.
func scanRecord(row interface{ Scan(...any) error }, r *Record) error {
	var lastmod string
	var first, last, changed int64
	if err := row.Scan(&r.Loc, &r.ContentHash, &lastmod, &first, &last, &changed, num(&r.Status), &r.Included, &r.Reason); err != nil {
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

// lookupLocked finds loc in the buffer, then in what Prefetch read, then
// in the database.
func (s *DB) lookupLocked(ctx context.Context, loc string) (Record, bool, error) {
	if i, ok := s.bufIdx[loc]; ok {
		return s.buf[i], true, nil
	}
	if p, ok := s.pre[loc]; ok {
		return p.r, p.found, nil
	}
	var r Record
	err := scanRecord(s.direct().row(ctx, urlSelect+` WHERE loc = ?`, loc), &r)
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, fmt.Errorf("state: lookup %q: %w", loc, err)
	}
	return r, true, nil
}

// readMany calls fn with the record of every one of locs the database
// holds, in one query.
func (s *DB) readMany(ctx context.Context, locs []string, fn func(Record)) error {
	rows, err := s.direct().query(ctx, urlSelect+` WHERE `+s.d.inList("loc"), s.d.bindList(locs))
	err = scanAll(rows, err, func(rows *sql.Rows) error {
		var r Record
		if err := scanRecord(rows, &r); err != nil {
			return err
		}
		fn(r)
		return nil
	})
	if err != nil {
		return fmt.Errorf("state: lookup of %d URLs: %w", len(locs), err)
	}
	return nil
}

// recordRow is r as a row of urlColumns.
func recordRow(r Record) []any {
	return []any{r.Loc, r.ContentHash, r.LastMod.String(), nanos(r.FirstSeen), nanos(r.LastSeen), nanos(r.LastChanged), int64(r.Status), r.Included, r.Reason}
}

// putLocked buffers r and writes the buffer when it is full or old. On
// SQLite the buffer is the open transaction: r is written in it at once
// (the lookups that follow run in it too, with no transaction of their
// own each); on PostgreSQL, memory, written in one upsert.
func (s *DB) putLocked(ctx context.Context, r Record) error {
	n := 0
	if s.conn != nil {
		if !s.inTx {
			if _, err := s.direct().exec(ctx, `BEGIN IMMEDIATE`); err != nil {
				return fmt.Errorf("state: begin: %w", err)
			}
			s.inTx, s.ops, s.bufFrom = true, 0, time.Now()
		}
		if err := s.d.upsertMany(ctx, s.direct(), "urls", urlColumns, 1, [][]any{recordRow(r)}); err != nil {
			return fmt.Errorf("state: put %q: %w", r.Loc, err)
		}
		s.ops++
		n = s.ops
	} else {
		if i, ok := s.bufIdx[r.Loc]; ok {
			s.buf[i] = r
		} else {
			if len(s.buf) == 0 {
				s.bufFrom = time.Now()
			}
			s.bufIdx[r.Loc] = len(s.buf)
			s.buf = append(s.buf, r)
		}
		n = len(s.buf)
	}
	if n >= s.opt.batch || time.Since(s.bufFrom) >= s.opt.maxDelay {
		return s.flushLocked(ctx)
	}
	return nil
}

// flushLocked writes the buffer: SQLite commits the open transaction,
// PostgreSQL writes every record in one upsert.
func (s *DB) flushLocked(ctx context.Context) error {
	if s.inTx {
		if _, err := s.direct().exec(ctx, `COMMIT`); err != nil {
			return fmt.Errorf("state: commit: %w", err)
		}
		s.inTx = false
	}
	if len(s.buf) == 0 {
		return nil
	}
	rows := make([][]any, len(s.buf))
	for i, r := range s.buf {
		rows[i] = recordRow(r)
	}
	// One statement: atomic without a transaction of its own.
	err := s.d.upsertMany(ctx, s.direct(), "urls", urlColumns, 1, rows)
	if err != nil {
		return fmt.Errorf("state: writing %d records: %w", len(rows), err)
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
// write buffer. On SQLite, where a lookup is no round trip to a server,
// it does nothing.
func (s *DB) Prefetch(ctx context.Context, locs []string) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if !s.d.pg {
		return nil
	}
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
	err := s.readMany(ctx, ask, func(r Record) { s.pre[r.Loc] = prefetched{r, true} })
	if err != nil {
		clear(s.pre)
	}
	return err
}

// Lookup implements [Store].
func (s *DB) Lookup(ctx context.Context, loc string) (Record, bool, error) {
	if err := s.lock(); err != nil {
		return Record{}, false, err
	}
	defer s.mu.Unlock()
	return s.lookupLocked(ctx, loc)
}

// Put implements [Store].
func (s *DB) Put(ctx context.Context, r Record) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.putLocked(ctx, r)
}

// Stamp implements [Store] with the rule of [Decide] and the store's
// Precision.
func (s *DB) Stamp(ctx context.Context, u *sitemap.URL, now time.Time) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	prev, found, err := s.lookupLocked(ctx, u.Loc)
	if err != nil {
		return err
	}
	r, lastmod := Decide(prev, found, u, now, s.opt.precision)
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
func (s *DB) StampMany(ctx context.Context, us []*sitemap.URL, now time.Time) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	prev := make(map[string]Record, len(us))
	found := make(map[string]bool, len(us))
	var ask []string
	for _, u := range us {
		if i, ok := s.bufIdx[u.Loc]; ok {
			prev[u.Loc], found[u.Loc] = s.buf[i], true
		} else if _, ok := prev[u.Loc]; !ok {
			prev[u.Loc] = Record{} // asked once
			ask = append(ask, u.Loc)
		}
	}
	if len(ask) > 0 {
		if err := s.readMany(ctx, ask, func(r Record) { prev[r.Loc], found[r.Loc] = r, true }); err != nil {
			return err
		}
	}
	for _, u := range us {
		r, lastmod := Decide(prev[u.Loc], found[u.Loc], u, now, s.opt.precision)
		if err := s.putLocked(ctx, r); err != nil {
			return err
		}
		prev[u.Loc], found[u.Loc] = r, true
		u.LastMod = lastmod
	}
	return nil
}

// unseenPage is the number of records Unseen reads per query; the mutex
// is released between pages so fn may call the store.
const unseenPage = 256

// Unseen implements [Store]: it writes the buffer, then reads the
// records a page at a time (memory stays bounded), in byte order of Loc.
func (s *DB) Unseen(ctx context.Context, since time.Time, fn func(Record) error) error {
	if err := s.Flush(ctx); err != nil {
		return err
	}
	after := ""
	for {
		page := make([]Record, 0, unseenPage)
		err := s.read(func(x sess) error {
			rows, err := x.query(ctx, urlSelect+` WHERE last_seen < ? AND loc > ? ORDER BY loc LIMIT ?`, nanos(since), after, unseenPage)
			return scanAll(rows, err, func(rows *sql.Rows) error {
				var r Record
				err := scanRecord(rows, &r)
				page = append(page, r)
				return err
			})
		})
		if err != nil {
			return fmt.Errorf("state: unseen: %w", err)
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

// Flush implements [Store]: it writes the buffer.
func (s *DB) Flush(ctx context.Context) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.flushLocked(ctx)
}

// Close implements [Store]: it writes the buffer and closes the
// database. Closing twice returns ErrClosed.
func (s *DB) Close() error {
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

func (s *DB) closeAll() error {
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
	if s.removeCopy != nil {
		s.removeCopy()
		s.removeCopy = nil
	}
	return err
}

// meta reads key of the table (meta, crawl_meta, audit_meta): "" when
// it has none.
func (x sess) meta(ctx context.Context, table, key string) (string, error) {
	var v string
	err := x.row(ctx, `SELECT value FROM {`+table+`} WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// setMeta writes key's value in the table.
func (x sess) setMeta(ctx context.Context, table, key, value string) error {
	_, err := x.exec(ctx, `INSERT INTO {`+table+`} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}
