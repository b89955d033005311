package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/source"
)

// pgCrawlSchema is schema version 3 of the PostgreSQL state: the crawl
// log, the tables of the SQLite one (crawl_sqlite.go) with a sitemap_
// prefix, text in byte order (COLLATE "C") so that every ORDER BY loc is
// the byte order the interface promises.
const pgCrawlSchema = `
CREATE TABLE IF NOT EXISTS sitemap_crawl_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sitemap_crawl_urls (
	loc      TEXT COLLATE "C" PRIMARY KEY,
	depth    INTEGER NOT NULL,
	referrer TEXT COLLATE "C" NOT NULL DEFAULT '',
	state    INTEGER NOT NULL DEFAULT 0,
	status   INTEGER NOT NULL DEFAULT 0,
	included INTEGER NOT NULL DEFAULT 0,
	reason   TEXT NOT NULL DEFAULT '',
	pathkey  TEXT COLLATE "C" NOT NULL DEFAULT '',
	counted  INTEGER NOT NULL DEFAULT 0,
	fetched  INTEGER NOT NULL DEFAULT 0,
	entry    BYTEA
);
CREATE INDEX IF NOT EXISTS sitemap_crawl_pending ON sitemap_crawl_urls (depth, loc) WHERE state = 0;
CREATE INDEX IF NOT EXISTS sitemap_crawl_variants ON sitemap_crawl_urls (pathkey, depth, loc) WHERE counted = 1;
CREATE TABLE IF NOT EXISTS sitemap_crawl_links (
	src  TEXT COLLATE "C" NOT NULL,
	dst  TEXT COLLATE "C" NOT NULL,
	kind INTEGER NOT NULL,
	PRIMARY KEY (src, dst, kind)
);
CREATE INDEX IF NOT EXISTS sitemap_crawl_links_dst ON sitemap_crawl_links (dst, src);
CREATE TABLE IF NOT EXISTS sitemap_crawl_titles (loc TEXT COLLATE "C" PRIMARY KEY, title TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sitemap_crawl_clicks (loc TEXT COLLATE "C" PRIMARY KEY, depth INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS sitemap_crawl_clicks_depth ON sitemap_crawl_clicks (depth, loc)`

// pgq rewrites the SQLite crawl log's SQL for PostgreSQL: its tables get
// the sitemap_ prefix and each ? placeholder becomes $1, $2, … (the
// statements hold no ? of their own).
func pgq(q string) string {
	q = strings.ReplaceAll(q, "crawl_", "sitemap_crawl_")
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Crawl returns the crawl log kept in the same database as s. Update
// holds the store's mutex and first writes its buffer (see
// [CrawlLog.Update]); reads go straight to the pool. One crawl runs in a
// database at a time, by one process (Begin), or by any number of
// workers sharing it (the log is a [SharedCrawlLog]: Join, Lease, …).
func (s *Postgres) Crawl() CrawlLog { return pgCrawl{s} }

type pgCrawl struct{ s *Postgres }

// pgCrawlTx is the CrawlTx of pgCrawl.Update.
type pgCrawlTx struct {
	tx pgx.Tx
	q  *enqueued
}

// enqueued holds a transaction's Enqueues until it ends (or until a
// statement on one of their URLs), to write them in loc order, in one
// round trip: transactions of workers writing links to the same URLs
// then take the rows' locks in the same order (a deadlock otherwise).
type enqueued struct {
	links []CrawlLink
	locs  map[string]bool
}

var (
	_ CrawlLog        = pgCrawl{}
	_ CrawlTx         = pgCrawlTx{}
	_ FrontierCounter = pgCrawl{}
)

func (t pgCrawlTx) exec(ctx context.Context, q string, args ...any) error {
	_, err := t.tx.Exec(ctx, pgq(q), args...)
	return err
}

func (t pgCrawlTx) meta(ctx context.Context, key string) (string, error) {
	var v string
	err := t.tx.QueryRow(ctx, pgq(`SELECT value FROM crawl_meta WHERE key = ?`), key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func (t pgCrawlTx) setMeta(ctx context.Context, key, value string) error {
	return t.exec(ctx, `INSERT INTO crawl_meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
}

// tx writes the store's buffer, then runs f in a transaction. The mutex
// is held throughout.
func (c pgCrawl) tx(ctx context.Context, f func(pgCrawlTx) error) error {
	s := c.s
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if err := s.flushLocked(ctx); err != nil {
		return err
	}
	// READ COMMITTED whatever the database's default: the shared crawl's
	// statements are written for it (an UPDATE whose WHERE is false
	// takes no lock; SKIP LOCKED).
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return fmt.Errorf("state: crawl: begin: %w", err)
	}
	defer tx.Rollback(context.Background())
	t := pgCrawlTx{tx, &enqueued{locs: map[string]bool{}}}
	if err := f(t); err != nil {
		return conflict(err)
	}
	if err := t.flush(ctx); err != nil {
		return conflict(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return conflict(fmt.Errorf("state: crawl: commit: %w", err))
	}
	return nil
}

// txRetry is tx, tried again while it fails with ErrConflict.
func (c pgCrawl) txRetry(ctx context.Context, f func(pgCrawlTx) error) error {
	return retry(ctx, func() error { return c.tx(ctx, f) })
}

// retry runs f again, a few times, while it fails with ErrConflict
// (another transaction wrote the same rows at the same time: the
// database ended this one, and nothing was written).
func retry(ctx context.Context, f func() error) error {
	var err error
	for try := range 10 {
		if err = f(); !errors.Is(err, ErrConflict) {
			return err
		}
		t := time.NewTimer(time.Duration(try+1) * 10 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
	return err
}

// conflict marks the error of a transaction that the database ended
// because of another one (a deadlock, a serialization failure: SQLSTATE
// 40P01, 40001) with ErrConflict.
func conflict(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001") && !errors.Is(err, ErrConflict) {
		return fmt.Errorf("%w: %w", ErrConflict, err)
	}
	return err
}

// Begin implements [CrawlLog].
func (c pgCrawl) Begin(ctx context.Context, start string, now time.Time) (CrawlRun, error) {
	var r CrawlRun
	err := c.tx(ctx, func(t pgCrawlTx) error {
		r = CrawlRun{Start: start}
		// One process does not crawl beside workers: it would fetch
		// what they hold.
		var live int
		if err := t.tx.QueryRow(ctx, `SELECT count(*) FROM sitemap_crawl_workers WHERE seen + lease_ms * interval '1 millisecond' > now()`).Scan(&live); err != nil {
			return err
		}
		if live > 0 {
			return fmt.Errorf("%w: %d live %s crawl in this database; join them as a worker, or wait for them to end", ErrCrawlBusy, live, plural(live, "worker", "workers"))
		}
		status, err := t.meta(ctx, "status")
		if err != nil {
			return err
		}
		prevStart, err := t.meta(ctx, "start")
		if err != nil {
			return err
		}
		if status == "running" && prevStart == start {
			if err := t.resume(ctx, &r); err != nil {
				return err
			}
			return t.exec(ctx, `UPDATE crawl_urls SET counted = 0 WHERE state = 0 AND counted = 1`)
		}
		r.Time = now.UTC()
		if status == "running" && prevStart != "" {
			r.Discarded = prevStart
		}
		for _, tb := range []string{"crawl_urls", "crawl_links", "crawl_titles", "crawl_clicks"} {
			if err := t.exec(ctx, `DELETE FROM `+tb); err != nil {
				return err
			}
		}
		for _, kv := range [][2]string{{"status", "running"}, {"start", start}, {"run_time", strconv.FormatInt(r.Time.UnixNano(), 10)}, {"seeded", "0"}} {
			if err := t.setMeta(ctx, kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return CrawlRun{}, fmt.Errorf("state: crawl: begin %s: %w", start, err)
	}
	return r, nil
}

// Update implements [CrawlLog].
func (c pgCrawl) Update(ctx context.Context, fn func(CrawlTx) error) error {
	return c.tx(ctx, func(t pgCrawlTx) error { return fn(t) })
}

// Enqueue implements [CrawlTx]. The link is written when the
// transaction ends (or before a statement on its URL), with the others
// of the transaction in loc order.
func (t pgCrawlTx) Enqueue(ctx context.Context, l CrawlLink) error {
	t.q.links = append(t.q.links, l)
	t.q.locs[l.Loc] = true
	return nil
}

// An enqueued link is two statements: the row is inserted when new;
// else it is updated when the link changes it (a URL left out as
// nofollow followed after all, a lower referrer at the same depth). The
// UPDATE's WHERE is false for every other row, which is then not locked:
// a link to a URL another worker holds does not wait for it.
const (
	pgEnqueueInsert = `INSERT INTO sitemap_crawl_urls (loc, depth, referrer, state, reason, pathkey) VALUES($1, $2, $3, $4, $5, $6) ON CONFLICT (loc) DO NOTHING`
	pgEnqueueUpdate = `UPDATE sitemap_crawl_urls SET
			state    = CASE WHEN state = 3 AND $4::integer = 0 THEN 0 ELSE state END,
			reason   = CASE WHEN state = 3 AND $4::integer = 0 THEN '' ELSE reason END,
			depth    = CASE WHEN state = 3 AND $4::integer = 0 THEN $2::integer ELSE depth END,
			referrer = CASE WHEN state = 3 AND $4::integer = 0 THEN $3::text
			                WHEN fetched = 0 AND depth = $2::integer AND $3::text COLLATE "C" < referrer THEN $3::text
			                ELSE referrer END
		WHERE loc = $1 AND ((state = 3 AND $4::integer = 0) OR (fetched = 0 AND depth = $2::integer AND $3::text COLLATE "C" < referrer))`
)

// flush writes the enqueued links, sorted by loc (the links to one URL
// in the order they came: each applies to what the one before left).
func (t pgCrawlTx) flush(ctx context.Context) error {
	if len(t.q.links) == 0 {
		return nil
	}
	ls := t.q.links
	slices.SortStableFunc(ls, func(a, b CrawlLink) int { return strings.Compare(a.Loc, b.Loc) })
	var b pgx.Batch
	var which []string
	for i, l := range ls {
		if i > 0 && l == ls[i-1] {
			continue // the same link again changes nothing
		}
		st := crawlPending
		switch {
		case l.Nofollow:
			st = crawlNofollow
		case l.Reason != "":
			st = crawlDecided
		}
		b.Queue(pgEnqueueInsert, l.Loc, l.Depth, l.Referrer, st, l.Reason, l.PathKey)
		b.Queue(pgEnqueueUpdate, l.Loc, l.Depth, l.Referrer, st)
		which = append(which, l.Loc, l.Loc)
	}
	t.q.links = ls[:0]
	clear(t.q.locs)
	br := t.tx.SendBatch(ctx, &b)
	for _, loc := range which {
		if _, err := br.Exec(); err != nil {
			br.Close()
			return fmt.Errorf("state: crawl: enqueue %s: %w", loc, err)
		}
	}
	return br.Close()
}

// flushFor writes the enqueued links first when one is to loc, before a
// statement on loc's row.
func (t pgCrawlTx) flushFor(ctx context.Context, loc string) error {
	if !t.q.locs[loc] {
		return nil
	}
	return t.flush(ctx)
}

// Variants implements [CrawlTx].
func (t pgCrawlTx) Variants(ctx context.Context, key string, depth int, loc string) (int, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	var k int
	err := t.tx.QueryRow(ctx, pgq(`SELECT count(*) FROM crawl_urls WHERE counted = 1 AND pathkey = ? AND (depth < ? OR (depth = ? AND loc < ?))`), key, depth, depth, loc).Scan(&k)
	return k, err
}

// Count implements [CrawlTx].
func (t pgCrawlTx) Count(ctx context.Context, loc string) error {
	if err := t.flushFor(ctx, loc); err != nil {
		return err
	}
	return t.exec(ctx, `UPDATE crawl_urls SET counted = 1 WHERE loc = ?`, loc)
}

// Skip implements [CrawlTx].
func (t pgCrawlTx) Skip(ctx context.Context, loc, reason string) error {
	if err := t.flushFor(ctx, loc); err != nil {
		return err
	}
	return t.exec(ctx, `UPDATE crawl_urls SET state = 2, reason = ? WHERE loc = ?`, reason, loc)
}

// Record implements [CrawlTx]: the entry is stored as its JSONL record.
func (t pgCrawlTx) Record(ctx context.Context, r CrawlResult) error {
	if err := t.flushFor(ctx, r.Loc); err != nil {
		return err
	}
	var entry []byte
	inc := 0
	if r.Entry != nil {
		b := source.AppendJSONL(nil, r.Entry)
		entry, inc = b[:len(b)-1], 1
	}
	if err := t.exec(ctx, `UPDATE crawl_urls SET state = 2, fetched = 1, fetched_at = now(), status = ?, included = ?, reason = ?, entry = ? WHERE loc = ?`,
		r.Status, inc, r.Reason, entry, r.Loc); err != nil {
		return err
	}
	if r.Title == "" {
		return t.exec(ctx, `DELETE FROM crawl_titles WHERE loc = ?`, r.Loc)
	}
	return t.exec(ctx, `INSERT INTO crawl_titles(loc, title) VALUES(?, ?) ON CONFLICT(loc) DO UPDATE SET title = excluded.title`, r.Loc, r.Title)
}

// Link implements [CrawlTx].
func (t pgCrawlTx) Link(ctx context.Context, e CrawlEdge) error {
	if e.From == e.To {
		return nil
	}
	if err := t.exec(ctx, `INSERT INTO crawl_links(src, dst, kind) VALUES(?, ?, ?) ON CONFLICT DO NOTHING`, e.From, e.To, int(e.Kind)); err != nil {
		return fmt.Errorf("state: crawl: link %s -> %s: %w", e.From, e.To, err)
	}
	return nil
}

// Seeded implements [CrawlTx].
func (t pgCrawlTx) Seeded(ctx context.Context) error { return t.setMeta(ctx, "seeded", "1") }

// Finish implements [CrawlTx].
func (t pgCrawlTx) Finish(ctx context.Context, reason string) error {
	if err := t.flush(ctx); err != nil {
		return err
	}
	if reason != "" {
		if err := t.exec(ctx, `UPDATE crawl_urls SET state = 2, reason = ? WHERE state = 0`, reason); err != nil {
			return err
		}
	}
	start, err := t.meta(ctx, "start")
	if err != nil {
		return err
	}
	// Click depths: a breadth-first search in the database, one level per
	// statement, as the SQLite log does.
	if err := t.exec(ctx, `DELETE FROM crawl_clicks`); err != nil {
		return err
	}
	if err := t.exec(ctx, `INSERT INTO crawl_clicks(loc, depth) VALUES(?, 0)`, start); err != nil {
		return err
	}
	for d := 0; ; d++ {
		tag, err := t.tx.Exec(ctx, pgq(`INSERT INTO crawl_clicks(loc, depth)
			SELECT DISTINCT l.dst, ?::integer FROM crawl_clicks c JOIN crawl_links l ON l.src = c.loc
			WHERE c.depth = ? AND l.kind IN (1, 2, 3)
			ON CONFLICT DO NOTHING`), d+1, d)
		if err != nil {
			return fmt.Errorf("state: crawl: click depths: %w", err)
		}
		if tag.RowsAffected() == 0 {
			break
		}
	}
	return t.setMeta(ctx, "status", "finished")
}

// read checks that the store is open, for the read methods.
func (c pgCrawl) read() error {
	if err := c.s.lock(); err != nil {
		return err
	}
	c.s.mu.Unlock()
	return nil
}

// NextDepth implements [CrawlLog].
func (c pgCrawl) NextDepth(ctx context.Context) (int, bool, error) {
	if err := c.read(); err != nil {
		return 0, false, err
	}
	var d *int32
	if err := c.s.pool.QueryRow(ctx, pgq(`SELECT min(depth) FROM crawl_urls WHERE state = 0`)).Scan(&d); err != nil {
		return 0, false, err
	}
	if d == nil {
		return 0, false, nil
	}
	return int(*d), true, nil
}

// Pending implements [CrawlLog].
func (c pgCrawl) Pending(ctx context.Context, depth int, after string, n int) ([]CrawlURL, error) {
	if err := c.read(); err != nil {
		return nil, err
	}
	rows, err := c.s.pool.Query(ctx, pgq(`SELECT loc, depth, referrer, pathkey FROM crawl_urls WHERE state = 0 AND depth = ? AND loc > ? ORDER BY loc LIMIT ?`), depth, after, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []CrawlURL
	for rows.Next() {
		var u CrawlURL
		if err := rows.Scan(&u.Loc, &u.Depth, &u.Referrer, &u.PathKey); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

func (c pgCrawl) count(ctx context.Context, q string) (int, error) {
	if err := c.read(); err != nil {
		return 0, err
	}
	var n int
	err := c.s.pool.QueryRow(ctx, pgq(q)).Scan(&n)
	return n, err
}

// Finished implements [CrawlDone].
func (c pgCrawl) Finished(ctx context.Context) (bool, error) {
	if err := c.read(); err != nil {
		return false, err
	}
	var v string
	err := c.s.pool.QueryRow(ctx, pgq(`SELECT value FROM crawl_meta WHERE key = 'status'`)).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return v == "finished", err
}

// Fetched implements [CrawlLog].
func (c pgCrawl) Fetched(ctx context.Context) (int, error) {
	return c.count(ctx, `SELECT count(*) FROM crawl_urls WHERE fetched = 1`)
}

// Frontier implements [FrontierCounter].
func (c pgCrawl) Frontier(ctx context.Context) (int, error) {
	return c.count(ctx, `SELECT count(*) FROM crawl_urls WHERE state = 0`)
}

// Outcomes implements [CrawlLog].
func (c pgCrawl) Outcomes(ctx context.Context, after string, n int) ([]CrawlOutcome, error) {
	if err := c.read(); err != nil {
		return nil, err
	}
	rows, err := c.s.pool.Query(ctx, pgq(`SELECT loc, status, included, reason, depth, referrer, `+crawlTitle+`, `+crawlInlinks+`, `+crawlClicks+` FROM crawl_urls u WHERE loc > ? AND state IN (2, 3) ORDER BY loc LIMIT ?`), after, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]CrawlOutcome, 0, min(n, 1024))
	for rows.Next() {
		var o CrawlOutcome
		var inc int
		if err := rows.Scan(&o.Loc, &o.Status, &inc, &o.Reason, &o.Depth, &o.Referrer, &o.Title, &o.Inlinks, &o.Clicks); err != nil {
			return nil, err
		}
		o.Included = inc != 0
		out = append(out, o)
	}
	return out, rows.Err()
}

// Listed implements [CrawlLog].
func (c pgCrawl) Listed(ctx context.Context, after string, n int) ([]CrawlEntry, error) {
	if err := c.read(); err != nil {
		return nil, err
	}
	rows, err := c.s.pool.Query(ctx, pgq(`SELECT loc, entry, depth, `+crawlTitle+`, `+crawlInlinks+`, `+crawlClicks+` FROM crawl_urls u WHERE loc > ? AND state = 2 AND included = 1 ORDER BY loc LIMIT ?`), after, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]CrawlEntry, 0, min(n, 1024))
	for rows.Next() {
		var e CrawlEntry
		var b []byte
		if err := rows.Scan(&e.Loc, &b, &e.Depth, &e.Title, &e.Inlinks, &e.Clicks); err != nil {
			return nil, err
		}
		e.Entry = new(sitemap.URL)
		if err := json.Unmarshal(b, e.Entry); err != nil {
			return nil, fmt.Errorf("state: crawl: stored entry of %s: %w", e.Loc, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Entry implements [CrawlLog].
func (c pgCrawl) Entry(ctx context.Context, loc string) (*sitemap.URL, bool, error) {
	if err := c.read(); err != nil {
		return nil, false, err
	}
	var b []byte
	err := c.s.pool.QueryRow(ctx, pgq(`SELECT entry FROM crawl_urls WHERE loc = ? AND state = 2 AND included = 1`), loc).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var u sitemap.URL
	if err := json.Unmarshal(b, &u); err != nil {
		return nil, false, fmt.Errorf("state: crawl: stored entry of %s: %w", loc, err)
	}
	return &u, true, nil
}

// Seen implements [CrawlLog].
func (c pgCrawl) Seen(ctx context.Context, loc string) (bool, error) {
	if err := c.read(); err != nil {
		return false, err
	}
	var n int
	err := c.s.pool.QueryRow(ctx, pgq(`SELECT 1 FROM crawl_urls WHERE loc = ?`), loc).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// Reasons implements [CrawlLog] (in the database: a GROUP BY).
func (c pgCrawl) Reasons(ctx context.Context) (map[string]int, error) {
	if err := c.read(); err != nil {
		return nil, err
	}
	rows, err := c.s.pool.Query(ctx, pgq(`SELECT reason, count(*) FROM crawl_urls WHERE state IN (2, 3) GROUP BY reason`))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[string]int{}
	for rows.Next() {
		var r string
		var n int
		if err := rows.Scan(&r, &n); err != nil {
			return nil, err
		}
		m[r] = n
	}
	return m, rows.Err()
}

// Links implements [CrawlLog].
func (c pgCrawl) Links(ctx context.Context, after CrawlEdge, n int) ([]CrawlEdge, error) {
	if err := c.read(); err != nil {
		return nil, err
	}
	rows, err := c.s.pool.Query(ctx, pgq(`SELECT src, dst, kind FROM crawl_links WHERE (src, dst, kind) > (?, ?, ?) ORDER BY src, dst, kind LIMIT ?`),
		after.From, after.To, int(after.Kind), n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]CrawlEdge, 0, min(n, 1024))
	for rows.Next() {
		var e CrawlEdge
		var k int
		if err := rows.Scan(&e.From, &e.To, &k); err != nil {
			return nil, err
		}
		e.Kind = LinkKind(k)
		out = append(out, e)
	}
	return out, rows.Err()
}

// resume fills r from the running crawl's meta rows: its start time and
// whether its seeds are in; r is then a resumed run.
func (t pgCrawlTx) resume(ctx context.Context, r *CrawlRun) error {
	v, err := t.meta(ctx, "run_time")
	if err != nil {
		return err
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	r.Time = time.Unix(0, n).UTC()
	seeded, err := t.meta(ctx, "seeded")
	if err != nil {
		return err
	}
	r.Seeded, r.Resumed = seeded == "1", true
	return nil
}
