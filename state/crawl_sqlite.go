package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/source"
)

// The crawl log's tables live in the state file beside the Store's tables
// (crawl_ prefix). They hold, for one crawl run, every URL seen — the
// frontier (state 0) and the outcome of every URL decided (state 2) — and
// the sitemap entry of each listed page as JSON, so that a killed crawl
// resumes and the output can be read back sorted by SQL, not in memory.
//
// One row costs the URL, its referrer and, for listed pages, the entry's
// JSON: on disk, not in memory. The process keeps only SQLite's page cache
// (bounded) and the pages in flight.
const crawlSchema = `
CREATE TABLE IF NOT EXISTS crawl_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS crawl_urls (
	loc      TEXT PRIMARY KEY,
	depth    INTEGER NOT NULL,
	referrer TEXT NOT NULL DEFAULT '',
	state    INTEGER NOT NULL DEFAULT 0,
	status   INTEGER NOT NULL DEFAULT 0,
	included INTEGER NOT NULL DEFAULT 0,
	reason   TEXT NOT NULL DEFAULT '',
	pathkey  TEXT NOT NULL DEFAULT '',
	counted  INTEGER NOT NULL DEFAULT 0,
	fetched  INTEGER NOT NULL DEFAULT 0,
	entry    BLOB
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS crawl_pending ON crawl_urls(depth, loc) WHERE state = 0;
CREATE INDEX IF NOT EXISTS crawl_variants ON crawl_urls(pathkey, depth, loc) WHERE counted = 1;
CREATE TABLE IF NOT EXISTS crawl_links (
	src  TEXT NOT NULL,
	dst  TEXT NOT NULL,
	kind INTEGER NOT NULL,
	PRIMARY KEY (src, dst, kind)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS crawl_links_dst ON crawl_links(dst, src);
CREATE TABLE IF NOT EXISTS crawl_titles (loc TEXT PRIMARY KEY, title TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS crawl_clicks (loc TEXT PRIMARY KEY, depth INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS crawl_clicks_depth ON crawl_clicks(depth, loc);
`

// crawlClicks is the SQL of [CrawlOutcome.Clicks] for the row u.
const crawlClicks = `coalesce((SELECT depth FROM crawl_clicks WHERE loc = u.loc), -1)`

// crawlInlinks is the SQL of [CrawlOutcome.Inlinks] for the row u of
// crawl_urls.
const crawlInlinks = `(SELECT count(DISTINCT src) FROM crawl_links WHERE dst = u.loc AND kind IN (1, 2, 3))`

// crawlTitle is the SQL of the recorded title of the row u.
const crawlTitle = `coalesce((SELECT title FROM crawl_titles WHERE loc = u.loc), '')`

// Row states of crawl_urls.
const (
	crawlPending  = 0 // in the frontier
	crawlDecided  = 2 // fetched, or left out without a fetch
	crawlNofollow = 3 // seen only through nofollow links; a followed link makes it pending
)

// Crawl returns the crawl log kept in the same file as s. It shares the
// store's connection and mutex (so it is safe for concurrent use) and is
// closed with it; every transaction of the log first commits the store's
// open batch (see [CrawlLog.Update]).
func (s *SQLite) Crawl() CrawlLog { return sqliteCrawl{s} }

// sqliteCrawl is the [CrawlLog] of a [SQLite] store.
type sqliteCrawl struct{ s *SQLite }

// sqliteCrawlTx is the [CrawlTx] of sqliteCrawl.Update; the mutex is held.
type sqliteCrawlTx struct{ s *SQLite }

var (
	_ CrawlLog = sqliteCrawl{}
	_ CrawlTx  = sqliteCrawlTx{}
)

// stmt returns q prepared on the connection, once (the parse of an upsert
// costs more than running it). Caller holds the mutex.
func (s *SQLite) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	st, ok := s.stmts[q]
	if !ok {
		var err error
		if st, err = s.conn.PrepareContext(ctx, q); err != nil {
			return nil, err
		}
		s.stmts[q] = st
	}
	return st, nil
}

func (s *SQLite) exec(ctx context.Context, q string, args ...any) error {
	st, err := s.stmt(ctx, q)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx, args...)
	return err
}

func (s *SQLite) queryRow(ctx context.Context, q string, args ...any) (*sql.Row, error) {
	st, err := s.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryRowContext(ctx, args...), nil
}

// txLocked commits the store's open batch, then runs f in a transaction
// of its own. Caller holds the mutex.
func (s *SQLite) txLocked(ctx context.Context, f func() error) error {
	if err := s.flushLocked(ctx); err != nil {
		return err
	}
	if _, err := s.begin.ExecContext(ctx); err != nil {
		return fmt.Errorf("state: crawl: begin: %w", err)
	}
	if err := f(); err != nil {
		s.conn.ExecContext(context.Background(), "ROLLBACK")
		return err
	}
	if _, err := s.commit.ExecContext(ctx); err != nil {
		s.conn.ExecContext(context.Background(), "ROLLBACK")
		return fmt.Errorf("state: crawl: commit: %w", err)
	}
	return nil
}

func (s *SQLite) crawlMeta(ctx context.Context, key string) (string, error) {
	row, err := s.queryRow(ctx, `SELECT value FROM crawl_meta WHERE key = ?`, key)
	if err != nil {
		return "", err
	}
	var v string
	err = row.Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func (s *SQLite) setCrawlMeta(ctx context.Context, key, value string) error {
	return s.exec(ctx, `INSERT INTO crawl_meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
}

// Begin implements [CrawlLog]. It creates the crawl tables when missing.
func (c sqliteCrawl) Begin(ctx context.Context, start string, now time.Time) (CrawlRun, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return CrawlRun{}, err
	}
	defer s.mu.Unlock()
	if err := s.lockCrawl(); err != nil {
		return CrawlRun{}, err
	}
	var r CrawlRun
	err := s.txLocked(ctx, func() error {
		r = CrawlRun{Start: start}
		if _, err := s.conn.ExecContext(ctx, crawlSchema); err != nil {
			return fmt.Errorf("create crawl tables: %w", err)
		}
		status, err := s.crawlMeta(ctx, "status")
		if err != nil {
			return err
		}
		prevStart, err := s.crawlMeta(ctx, "start")
		if err != nil {
			return err
		}
		if status == "running" && prevStart == start {
			t, err := s.crawlMeta(ctx, "run_time")
			if err != nil {
				return err
			}
			n, _ := strconv.ParseInt(t, 10, 64)
			r.Time = time.Unix(0, n).UTC()
			seeded, err := s.crawlMeta(ctx, "seeded")
			if err != nil {
				return err
			}
			r.Seeded = seeded == "1"
			r.Resumed = true
			// Claims of the killed run are recounted when claimed again.
			return s.exec(ctx, `UPDATE crawl_urls SET counted = 0 WHERE state = 0 AND counted = 1`)
		}
		r.Time = now.UTC()
		if status == "running" && prevStart != "" {
			r.Discarded = prevStart
		}
		for _, t := range []string{"crawl_urls", "crawl_links", "crawl_titles", "crawl_clicks"} {
			if err := s.exec(ctx, `DELETE FROM `+t); err != nil {
				return err
			}
		}
		for _, kv := range [][2]string{{"status", "running"}, {"start", start}, {"run_time", strconv.FormatInt(r.Time.UnixNano(), 10)}, {"seeded", "0"}} {
			if err := s.setCrawlMeta(ctx, kv[0], kv[1]); err != nil {
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
func (c sqliteCrawl) Update(ctx context.Context, fn func(CrawlTx) error) error {
	s := c.s
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.txLocked(ctx, func() error { return fn(sqliteCrawlTx{s}) })
}

// Enqueue implements [CrawlTx].
func (t sqliteCrawlTx) Enqueue(ctx context.Context, l CrawlLink) error {
	st, reason := crawlPending, l.Reason
	switch {
	case l.Nofollow:
		st = crawlNofollow
	case l.Reason != "":
		st = crawlDecided
	}
	err := t.s.exec(ctx, `INSERT INTO crawl_urls(loc, depth, referrer, state, reason, pathkey) VALUES(?, ?, ?, ?, ?, ?)
		ON CONFLICT(loc) DO UPDATE SET
			state    = CASE WHEN state = 3 AND excluded.state = 0 THEN 0 ELSE state END,
			reason   = CASE WHEN state = 3 AND excluded.state = 0 THEN '' ELSE reason END,
			depth    = CASE WHEN state = 3 AND excluded.state = 0 THEN excluded.depth ELSE depth END,
			referrer = CASE WHEN state = 3 AND excluded.state = 0 THEN excluded.referrer
			                WHEN fetched = 0 AND depth = excluded.depth AND excluded.referrer < referrer THEN excluded.referrer
			                ELSE referrer END
		WHERE (state = 3 AND excluded.state = 0) OR (fetched = 0 AND depth = excluded.depth AND excluded.referrer < referrer)`,
		l.Loc, l.Depth, l.Referrer, st, reason, l.PathKey)
	if err != nil {
		return fmt.Errorf("state: crawl: enqueue %s: %w", l.Loc, err)
	}
	return nil
}

// Variants implements [CrawlTx].
func (t sqliteCrawlTx) Variants(ctx context.Context, key string, depth int, loc string) (int, error) {
	row, err := t.s.queryRow(ctx, `SELECT count(*) FROM crawl_urls WHERE counted = 1 AND pathkey = ? AND (depth < ? OR (depth = ? AND loc < ?))`, key, depth, depth, loc)
	if err != nil {
		return 0, err
	}
	var k int
	err = row.Scan(&k)
	return k, err
}

// Count implements [CrawlTx].
func (t sqliteCrawlTx) Count(ctx context.Context, loc string) error {
	return t.s.exec(ctx, `UPDATE crawl_urls SET counted = 1 WHERE loc = ?`, loc)
}

// Skip implements [CrawlTx].
func (t sqliteCrawlTx) Skip(ctx context.Context, loc, reason string) error {
	return t.s.exec(ctx, `UPDATE crawl_urls SET state = 2, reason = ? WHERE loc = ?`, reason, loc)
}

// Record implements [CrawlTx]. The entry is stored as its JSONL entry
// record (source.JSONLWriter's bytes, without the newline).
func (t sqliteCrawlTx) Record(ctx context.Context, r CrawlResult) error {
	var entry []byte
	inc := 0
	if r.Entry != nil {
		b := source.AppendJSONL(nil, r.Entry)
		entry, inc = b[:len(b)-1], 1
	}
	if err := t.s.exec(ctx, `UPDATE crawl_urls SET state = 2, fetched = 1, status = ?, included = ?, reason = ?, entry = ? WHERE loc = ?`,
		r.Status, inc, r.Reason, entry, r.Loc); err != nil {
		return err
	}
	if r.Title == "" {
		return t.s.exec(ctx, `DELETE FROM crawl_titles WHERE loc = ?`, r.Loc)
	}
	return t.s.exec(ctx, `INSERT INTO crawl_titles(loc, title) VALUES(?, ?) ON CONFLICT(loc) DO UPDATE SET title = excluded.title`, r.Loc, r.Title)
}

// Link implements [CrawlTx].
func (t sqliteCrawlTx) Link(ctx context.Context, e CrawlEdge) error {
	if e.From == e.To {
		return nil
	}
	if err := t.s.exec(ctx, `INSERT INTO crawl_links(src, dst, kind) VALUES(?, ?, ?) ON CONFLICT DO NOTHING`, e.From, e.To, int(e.Kind)); err != nil {
		return fmt.Errorf("state: crawl: link %s -> %s: %w", e.From, e.To, err)
	}
	return nil
}

// Links implements [CrawlLog].
func (c sqliteCrawl) Links(ctx context.Context, after CrawlEdge, n int) ([]CrawlEdge, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.conn.QueryContext(ctx, `SELECT src, dst, kind FROM crawl_links WHERE (src, dst, kind) > (?, ?, ?) ORDER BY src, dst, kind LIMIT ?`,
		after.From, after.To, int(after.Kind), n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]CrawlEdge, 0, min(n, 1024))
	for rows.Next() {
		var e CrawlEdge
		if err := rows.Scan(&e.From, &e.To, &e.Kind); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Seeded implements [CrawlTx].
func (t sqliteCrawlTx) Seeded(ctx context.Context) error {
	return t.s.setCrawlMeta(ctx, "seeded", "1")
}

// Finish implements [CrawlTx].
func (t sqliteCrawlTx) Finish(ctx context.Context, reason string) error {
	if reason != "" {
		if err := t.s.exec(ctx, `UPDATE crawl_urls SET state = 2, reason = ? WHERE state = 0`, reason); err != nil {
			return err
		}
	}
	if err := t.clicks(ctx); err != nil {
		return fmt.Errorf("state: crawl: click depths: %w", err)
	}
	return t.s.setCrawlMeta(ctx, "status", "finished")
}

// clicks computes every URL's click depth from the run's start URL, a
// breadth-first search over the links that count as inlinks, one level
// per statement: the search runs in the database, so memory does not grow
// with the site.
func (t sqliteCrawlTx) clicks(ctx context.Context) error {
	start, err := t.s.crawlMeta(ctx, "start")
	if err != nil {
		return err
	}
	if err := t.s.exec(ctx, `DELETE FROM crawl_clicks`); err != nil {
		return err
	}
	if err := t.s.exec(ctx, `INSERT INTO crawl_clicks(loc, depth) VALUES(?, 0)`, start); err != nil {
		return err
	}
	for d := 0; ; d++ {
		st, err := t.s.stmt(ctx, `INSERT INTO crawl_clicks(loc, depth)
			SELECT DISTINCT l.dst, ? FROM crawl_clicks c JOIN crawl_links l ON l.src = c.loc
			WHERE c.depth = ? AND l.kind IN (1, 2, 3)
			ON CONFLICT DO NOTHING`)
		if err != nil {
			return err
		}
		res, err := st.ExecContext(ctx, d+1, d)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
	}
}

// NextDepth implements [CrawlLog].
func (c sqliteCrawl) NextDepth(ctx context.Context) (int, bool, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return 0, false, err
	}
	defer s.mu.Unlock()
	var d *int
	if err := s.conn.QueryRowContext(ctx, `SELECT min(depth) FROM crawl_urls WHERE state = 0`).Scan(&d); err != nil {
		return 0, false, err
	}
	if d == nil {
		return 0, false, nil
	}
	return *d, true, nil
}

// Pending implements [CrawlLog].
func (c sqliteCrawl) Pending(ctx context.Context, depth int, after string, n int) ([]CrawlURL, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.conn.QueryContext(ctx, `SELECT loc, depth, referrer, pathkey FROM crawl_urls WHERE state = 0 AND depth = ? AND loc > ? ORDER BY loc LIMIT ?`, depth, after, n)
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

// Fetched implements [CrawlLog].
func (c sqliteCrawl) Fetched(ctx context.Context) (int, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	var n int
	err := s.conn.QueryRowContext(ctx, `SELECT count(*) FROM crawl_urls WHERE fetched = 1`).Scan(&n)
	return n, err
}

// Finished implements [CrawlDone].
func (c sqliteCrawl) Finished(ctx context.Context) (bool, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	v, err := s.crawlMeta(ctx, "status")
	return v == "finished", err
}

// Frontier implements [FrontierCounter].
func (c sqliteCrawl) Frontier(ctx context.Context) (int, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	var n int
	err := s.conn.QueryRowContext(ctx, `SELECT count(*) FROM crawl_urls WHERE state = 0`).Scan(&n)
	return n, err
}

// Outcomes implements [CrawlLog].
func (c sqliteCrawl) Outcomes(ctx context.Context, after string, n int) ([]CrawlOutcome, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.conn.QueryContext(ctx, `SELECT loc, status, included, reason, depth, referrer, `+crawlTitle+`, `+crawlInlinks+`, `+crawlClicks+` FROM crawl_urls u WHERE loc > ? AND state IN (2, 3) ORDER BY loc LIMIT ?`, after, n)
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
func (c sqliteCrawl) Listed(ctx context.Context, after string, n int) ([]CrawlEntry, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.conn.QueryContext(ctx, `SELECT loc, entry, depth, `+crawlTitle+`, `+crawlInlinks+`, `+crawlClicks+` FROM crawl_urls u WHERE loc > ? AND state = 2 AND included = 1 ORDER BY loc LIMIT ?`, after, n)
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
func (c sqliteCrawl) Entry(ctx context.Context, loc string) (*sitemap.URL, bool, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return nil, false, err
	}
	defer s.mu.Unlock()
	row, err := s.queryRow(ctx, `SELECT entry FROM crawl_urls WHERE loc = ? AND state = 2 AND included = 1`, loc)
	if err != nil {
		return nil, false, err
	}
	var b []byte
	err = row.Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
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
func (c sqliteCrawl) Seen(ctx context.Context, loc string) (bool, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	row, err := s.queryRow(ctx, `SELECT 1 FROM crawl_urls WHERE loc = ?`, loc)
	if err != nil {
		return false, err
	}
	var n int
	err = row.Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// reasonsPage is how many rows Reasons reads per query.
const reasonsPage = 4096

// Reasons implements [CrawlLog]. It walks the table in primary-key order a
// page at a time, releasing the mutex between pages: a GROUP BY would have
// SQLite build a sorter as large as the table in memory.
func (c sqliteCrawl) Reasons(ctx context.Context) (map[string]int, error) {
	m := make(map[string]int)
	after := ""
	for {
		n, last, err := c.reasonsPage(ctx, after, m)
		if err != nil {
			return nil, err
		}
		if n < reasonsPage {
			return m, nil
		}
		after = last
	}
}

func (c sqliteCrawl) reasonsPage(ctx context.Context, after string, m map[string]int) (int, string, error) {
	s := c.s
	if err := s.lock(); err != nil {
		return 0, "", err
	}
	defer s.mu.Unlock()
	rows, err := s.conn.QueryContext(ctx, `SELECT loc, reason FROM crawl_urls WHERE loc > ? AND state IN (2, 3) ORDER BY loc LIMIT ?`, after, reasonsPage)
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var reason string
		if err := rows.Scan(&after, &reason); err != nil {
			return 0, "", err
		}
		m[reason]++
		n++
	}
	return n, after, rows.Err()
}
