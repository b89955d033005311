package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/source"
)

// The crawl log's tables live beside the Store's (crawl_ prefix; on
// PostgreSQL sitemap_crawl_, text in byte order so that every ORDER BY
// loc is the byte order the interface promises). They hold, for one
// crawl run, every URL seen — the frontier (state 0) and the outcome of
// every URL decided (state 2) — and the sitemap entry of each listed page
// as JSON, so that a killed crawl resumes and the output can be read back
// sorted by SQL, not in memory.
//
// One row costs the URL, its referrer and, for listed pages, the entry's
// JSON: on disk, not in memory. The process keeps only the database's
// page cache (bounded) and the pages in flight.
const crawlSchema = `
CREATE TABLE IF NOT EXISTS {crawl_meta} (key TEXT PRIMARY KEY, value TEXT NOT NULL){sqlite: WITHOUT ROWID};
CREATE TABLE IF NOT EXISTS {crawl_urls} (
	loc      TEXT{C} PRIMARY KEY,
	depth    INTEGER NOT NULL,
	referrer TEXT{C} NOT NULL DEFAULT '',
	state    INTEGER NOT NULL DEFAULT 0,
	status   INTEGER NOT NULL DEFAULT 0,
	included INTEGER NOT NULL DEFAULT 0,
	reason   TEXT NOT NULL DEFAULT '',
	pathkey  TEXT{C} NOT NULL DEFAULT '',
	counted  INTEGER NOT NULL DEFAULT 0,
	fetched  INTEGER NOT NULL DEFAULT 0,
	entry    {sqlite:BLOB}{pg:BYTEA}
){sqlite: WITHOUT ROWID};
CREATE INDEX IF NOT EXISTS {crawl_pending} ON {crawl_urls} (depth, loc) WHERE state = 0;
CREATE INDEX IF NOT EXISTS {crawl_variants} ON {crawl_urls} (pathkey, depth, loc) WHERE counted = 1;
CREATE TABLE IF NOT EXISTS {crawl_links} (
	src  TEXT{C} NOT NULL,
	dst  TEXT{C} NOT NULL,
	kind INTEGER NOT NULL,
	PRIMARY KEY (src, dst, kind)
){sqlite: WITHOUT ROWID};
CREATE INDEX IF NOT EXISTS {crawl_links_dst} ON {crawl_links} (dst, src);
CREATE TABLE IF NOT EXISTS {crawl_titles} (loc TEXT{C} PRIMARY KEY, title TEXT NOT NULL){sqlite: WITHOUT ROWID};
CREATE TABLE IF NOT EXISTS {crawl_clicks} (loc TEXT{C} PRIMARY KEY, depth INTEGER NOT NULL){sqlite: WITHOUT ROWID};
CREATE TABLE IF NOT EXISTS {crawl_render} (loc TEXT{C} PRIMARY KEY, facts TEXT NOT NULL){sqlite: WITHOUT ROWID};
CREATE INDEX IF NOT EXISTS {crawl_clicks_depth} ON {crawl_clicks} (depth, loc)`

// crawlExtras is the SQL of the title, [CrawlOutcome.Inlinks] and
// [CrawlOutcome.Clicks] of the row u of crawl_urls.
const crawlExtras = `coalesce((SELECT title FROM {crawl_titles} WHERE loc = u.loc), ''),
	(SELECT count(DISTINCT src) FROM {crawl_links} WHERE dst = u.loc AND kind IN (1, 2, 3)),
	coalesce((SELECT depth FROM {crawl_clicks} WHERE loc = u.loc), -1)`

// Row states of crawl_urls.
const (
	crawlPending  = 0 // in the frontier
	crawlDecided  = 2 // fetched, or left out without a fetch
	crawlNofollow = 3 // seen only through nofollow links; a followed link makes it pending
)

// crawlTables are the tables of one run, emptied by a new one.
var crawlTables = []string{"crawl_urls", "crawl_links", "crawl_titles", "crawl_clicks", "crawl_render"}

// Crawl returns the crawl log kept in the same file or database as s,
// closed with it. Every transaction of the log first writes the store's
// buffer (see [CrawlLog.Update]). On SQLite it shares the store's
// connection and mutex (it is safe for concurrent use); one process
// crawls with a file at a time (Begin takes an flock). On PostgreSQL,
// Update holds the store's mutex and reads go straight to the pool; one
// crawl runs in a database at a time, by one process (Begin), or by any
// number of workers sharing it: the log is then a [SharedCrawlLog]
// (Join, Lease, …).
func (s *DB) Crawl() CrawlLog {
	if s.d.pg {
		return sharedLog{crawlLog{s}}
	}
	return crawlLog{s}
}

// crawlLog is the [CrawlLog] of a [DB].
type crawlLog struct{ s *DB }

// crawlTx is the [CrawlTx] of crawlLog.Update.
type crawlTx struct {
	sess
	q *enqueued
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
	_ CrawlLog        = crawlLog{}
	_ CrawlDone       = crawlLog{}
	_ FrontierCounter = crawlLog{}
	_ LeaseTx         = leaseTx{}
)

// tx runs f in a transaction of the log, the mutex held throughout.
func (c crawlLog) tx(ctx context.Context, f func(crawlTx) error) error {
	s := c.s
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.txLocked(ctx, func(x sess) error {
		t := crawlTx{x, &enqueued{locs: map[string]bool{}}}
		if err := f(t); err != nil {
			return err
		}
		return t.flush(ctx)
	})
}

// Begin implements [CrawlLog].
func (c crawlLog) Begin(ctx context.Context, start string, now time.Time) (CrawlRun, error) {
	if !c.s.d.pg {
		if err := c.s.lock(); err != nil {
			return CrawlRun{}, err
		}
		err := c.s.lockCrawl()
		c.s.mu.Unlock()
		if err != nil {
			return CrawlRun{}, err
		}
	}
	var r CrawlRun
	err := c.tx(ctx, func(t crawlTx) error {
		r = CrawlRun{Start: start}
		if c.s.d.pg {
			// One process does not crawl beside workers: it would
			// fetch what they hold.
			var live int
			if err := t.row(ctx, `SELECT count(*) FROM sitemap_crawl_workers WHERE seen + lease_ms * interval '1 millisecond' > now()`).Scan(&live); err != nil {
				return err
			}
			if live > 0 {
				return fmt.Errorf("%w: %s crawl in this database; join them as a worker, or wait for them to end", ErrCrawlBusy, plural.Of(live, "live worker", "live workers"))
			}
		} else if _, err := t.x.ExecContext(ctx, c.s.d.rewrite(crawlSchema)); err != nil {
			return fmt.Errorf("create crawl tables: %w", err)
		}
		status, prevStart, err := t.run(ctx)
		if err != nil {
			return err
		}
		if status == "running" && prevStart == start {
			if err := t.resume(ctx, &r); err != nil {
				return err
			}
			// Claims of the killed run are recounted when claimed again.
			_, err := t.exec(ctx, `UPDATE {crawl_urls} SET counted = 0 WHERE state = 0 AND counted = 1`)
			return err
		}
		if status == "running" && prevStart != "" {
			r.Discarded = prevStart
		}
		r.Time = now.UTC()
		return t.newRun(ctx, start, r.Time, crawlTables)
	})
	if err != nil {
		return CrawlRun{}, fmt.Errorf("state: crawl: begin %s: %w", start, err)
	}
	return r, nil
}

// run reads the status and start URL of the log's run.
func (t crawlTx) run(ctx context.Context) (status, start string, err error) {
	if status, err = t.meta(ctx, "crawl_meta", "status"); err == nil {
		start, err = t.meta(ctx, "crawl_meta", "start")
	}
	return status, start, err
}

// newRun empties tables and records a new run of start at tm.
func (t crawlTx) newRun(ctx context.Context, start string, tm time.Time, tables []string) error {
	for _, tb := range tables {
		if _, err := t.exec(ctx, `DELETE FROM {`+tb+`}`); err != nil {
			return err
		}
	}
	for _, kv := range [][2]string{{"status", "running"}, {"start", start}, {"run_time", strconv.FormatInt(tm.UnixNano(), 10)}, {"seeded", "0"}} {
		if err := t.setMeta(ctx, "crawl_meta", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// resume fills r from the running crawl's meta rows: its start time and
// whether its seeds are in; r is then a resumed run.
func (t crawlTx) resume(ctx context.Context, r *CrawlRun) error {
	v, err := t.meta(ctx, "crawl_meta", "run_time")
	if err != nil {
		return err
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	r.Time = time.Unix(0, n).UTC()
	seeded, err := t.meta(ctx, "crawl_meta", "seeded")
	if err != nil {
		return err
	}
	r.Seeded, r.Resumed = seeded == "1", true
	return nil
}

// Update implements [CrawlLog].
func (c crawlLog) Update(ctx context.Context, fn func(CrawlTx) error) error {
	return c.tx(ctx, func(t crawlTx) error { return fn(t) })
}

// Enqueue implements [CrawlTx]. The link is written when the
// transaction ends (or before a statement on its URL), with the others
// of the transaction in loc order.
func (t crawlTx) Enqueue(ctx context.Context, l CrawlLink) error {
	t.q.links = append(t.q.links, l)
	t.q.locs[l.Loc] = true
	return nil
}

// An enqueued link inserts the row when new; else it updates it when
// the link changes it (enqueueChange: a URL left out as nofollow
// followed after all, a lower referrer at the same depth). SQLite does
// both in one upsert. PostgreSQL takes two statements, INSERT … DO
// NOTHING then UPDATE, since its upsert locks the row even when it
// changes nothing: the UPDATE's WHERE is false for every other row,
// which is then not locked, so a link to a URL another worker holds
// does not wait for it.
const (
	enqueueInsert = `INSERT INTO {crawl_urls} (loc, depth, referrer, state, reason, pathkey) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (loc) DO `
	enqueueUpdate = `UPDATE {pg:sitemap_crawl_urls }SET
			state    = CASE WHEN state = 3 AND CAST(?4 AS INTEGER) = 0 THEN 0 ELSE state END,
			reason   = CASE WHEN state = 3 AND CAST(?4 AS INTEGER) = 0 THEN '' ELSE reason END,
			depth    = CASE WHEN state = 3 AND CAST(?4 AS INTEGER) = 0 THEN CAST(?2 AS INTEGER) ELSE depth END,
			referrer = CASE WHEN state = 3 AND CAST(?4 AS INTEGER) = 0 THEN CAST(?3 AS TEXT)
			                WHEN fetched = 0 AND depth = CAST(?2 AS INTEGER) AND CAST(?3 AS TEXT){C} < referrer THEN CAST(?3 AS TEXT)
			                ELSE referrer END
		WHERE {pg:loc = ?1 AND }((state = 3 AND CAST(?4 AS INTEGER) = 0) OR (fetched = 0 AND depth = CAST(?2 AS INTEGER) AND CAST(?3 AS TEXT){C} < referrer))`
)

// flush writes the enqueued links, sorted by loc (the links to one URL
// in the order they came: each applies to what the one before left).
func (t crawlTx) flush(ctx context.Context) error {
	if len(t.q.links) == 0 {
		return nil
	}
	ls := t.q.links
	slices.SortStableFunc(ls, func(a, b CrawlLink) int { return strings.Compare(a.Loc, b.Loc) })
	stmts := make([]stmt, 0, 2*len(ls))
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
		args := []any{l.Loc, l.Depth, l.Referrer, st, l.Reason, l.PathKey}
		if t.s.d.pg {
			stmts = append(stmts, stmt{enqueueInsert + `NOTHING`, args}, stmt{enqueueUpdate, args[:4]})
		} else {
			stmts = append(stmts, stmt{enqueueInsert + enqueueUpdate, args})
		}
	}
	t.q.links = ls[:0]
	clear(t.q.locs)
	if i, err := t.s.d.batch(ctx, t.sess, stmts); err != nil {
		return fmt.Errorf("state: crawl: enqueue %s: %w", stmts[i].args[0], err)
	}
	return nil
}

// flushFor writes the enqueued links first when one is to loc, before a
// statement on loc's row.
func (t crawlTx) flushFor(ctx context.Context, loc string) error {
	if !t.q.locs[loc] {
		return nil
	}
	return t.flush(ctx)
}

// Variants implements [CrawlTx].
func (t crawlTx) Variants(ctx context.Context, key string, depth int, loc string) (int, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	var k int
	err := t.row(ctx, `SELECT count(*) FROM {crawl_urls} WHERE counted = 1 AND pathkey = ? AND (depth < ? OR (depth = ? AND loc < ?))`, key, depth, depth, loc).Scan(&k)
	return k, err
}

// Count implements [CrawlTx].
func (t crawlTx) Count(ctx context.Context, loc string) error {
	return t.execFor(ctx, loc, `UPDATE {crawl_urls} SET counted = 1 WHERE loc = ?`, loc)
}

// Skip implements [CrawlTx].
func (t crawlTx) Skip(ctx context.Context, loc, reason string) error {
	return t.execFor(ctx, loc, `UPDATE {crawl_urls} SET state = 2, reason = ? WHERE loc = ?`, reason, loc)
}

// execFor runs q, a statement on loc's row, after the links to loc.
func (t crawlTx) execFor(ctx context.Context, loc, q string, args ...any) error {
	if err := t.flushFor(ctx, loc); err != nil {
		return err
	}
	_, err := t.exec(ctx, q, args...)
	return err
}

// Record implements [CrawlTx]. The entry is stored as its JSONL entry
// record (source.JSONLWriter's bytes, without the newline).
func (t crawlTx) Record(ctx context.Context, r CrawlResult) error {
	var entry []byte
	inc := 0
	if r.Entry != nil {
		b := source.AppendJSONL(nil, r.Entry)
		entry, inc = b[:len(b)-1], 1
	}
	if err := t.execFor(ctx, r.Loc, `UPDATE {crawl_urls} SET state = 2, fetched = 1, {pg:fetched_at = now(), }status = ?, included = ?, reason = ?, entry = ? WHERE loc = ?`,
		r.Status, inc, r.Reason, entry, r.Loc); err != nil {
		return err
	}
	if err := t.side(ctx, "crawl_titles", "title", r.Loc, r.Title); err != nil {
		return err
	}
	return t.side(ctx, "crawl_render", "facts", r.Loc, r.Render)
}

// side sets (or, for "", deletes) loc's value in a side table of
// crawl_urls: the title, the rendering facts.
func (t crawlTx) side(ctx context.Context, table, col, loc, v string) error {
	if v == "" {
		_, err := t.exec(ctx, `DELETE FROM {`+table+`} WHERE loc = ?`, loc)
		return err
	}
	_, err := t.exec(ctx, `INSERT INTO {`+table+`} (loc, `+col+`) VALUES (?, ?) ON CONFLICT (loc) DO UPDATE SET `+col+` = excluded.`+col, loc, v)
	return err
}

// Link implements [CrawlTx].
func (t crawlTx) Link(ctx context.Context, e CrawlEdge) error {
	if e.From == e.To {
		return nil
	}
	if _, err := t.exec(ctx, `INSERT INTO {crawl_links} (src, dst, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, e.From, e.To, int(e.Kind)); err != nil {
		return fmt.Errorf("state: crawl: link %s -> %s: %w", e.From, e.To, err)
	}
	return nil
}

// Seeded implements [CrawlTx].
func (t crawlTx) Seeded(ctx context.Context) error {
	return t.setMeta(ctx, "crawl_meta", "seeded", "1")
}

// Finish implements [CrawlTx].
func (t crawlTx) Finish(ctx context.Context, reason string) error {
	if err := t.flush(ctx); err != nil {
		return err
	}
	if reason != "" {
		if _, err := t.exec(ctx, `UPDATE {crawl_urls} SET state = 2, reason = ? WHERE state = 0`, reason); err != nil {
			return err
		}
	}
	if err := t.clicks(ctx); err != nil {
		return fmt.Errorf("state: crawl: click depths: %w", err)
	}
	return t.setMeta(ctx, "crawl_meta", "status", "finished")
}

// clicks computes every URL's click depth from the run's start URL, a
// breadth-first search over the links that count as inlinks, one level
// per statement: the search runs in the database, so memory does not grow
// with the site.
func (t crawlTx) clicks(ctx context.Context) error {
	start, err := t.meta(ctx, "crawl_meta", "start")
	if err != nil {
		return err
	}
	if _, err := t.exec(ctx, `DELETE FROM {crawl_clicks}`); err != nil {
		return err
	}
	if _, err := t.exec(ctx, `INSERT INTO {crawl_clicks} (loc, depth) VALUES (?, 0)`, start); err != nil {
		return err
	}
	for d := 0; ; d++ {
		n, err := t.exec(ctx, `INSERT INTO {crawl_clicks} (loc, depth)
			SELECT DISTINCT l.dst, CAST(? AS INTEGER) FROM {crawl_clicks} c JOIN {crawl_links} l ON l.src = c.loc
			WHERE c.depth = ? AND l.kind IN (1, 2, 3)
			ON CONFLICT DO NOTHING`, d+1, d)
		if err != nil || n == 0 {
			return err
		}
	}
}

// leaseTx is the [LeaseTx] of a [SharedCrawlLog]'s Update.
type leaseTx struct{ crawlTx }

// Held implements [LeaseTx].
func (t leaseTx) Held(ctx context.Context, loc, worker string) (bool, error) {
	held, err := t.Holds(ctx, worker, []string{loc})
	return held[loc], err
}

// Holds implements [LeaseTx]; the rows are locked in loc order.
func (t leaseTx) Holds(ctx context.Context, worker string, locs []string) (map[string]bool, error) {
	return holding(ctx, t.sess, worker, locs, ` FOR UPDATE`)
}

// holding is the set of locs pending and leased to worker; lock is the
// query's locking clause.
func holding(ctx context.Context, x sess, worker string, locs []string, lock string) (map[string]bool, error) {
	held := make(map[string]bool, len(locs))
	rows, err := x.query(ctx, `SELECT loc FROM {crawl_urls} WHERE `+x.s.d.inList("loc")+` AND state = 0 AND leased_by = ? ORDER BY loc`+lock, x.s.d.bindList(locs), worker)
	err = scanAll(rows, err, func(rows *sql.Rows) error {
		var l string
		err := rows.Scan(&l)
		held[l] = true
		return err
	})
	return held, err
}

// NextDepth implements [CrawlLog].
func (c crawlLog) NextDepth(ctx context.Context) (int, bool, error) {
	var d sql.NullInt64
	err := c.s.read(func(x sess) error {
		return x.row(ctx, `SELECT min(depth) FROM {crawl_urls} WHERE state = 0`).Scan(&d)
	})
	return int(d.Int64), d.Valid && err == nil, err
}

// Pending implements [CrawlLog].
func (c crawlLog) Pending(ctx context.Context, depth int, after string, n int) ([]CrawlURL, error) {
	var out []CrawlURL
	err := c.s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT loc, depth, referrer, pathkey FROM {crawl_urls} WHERE state = 0 AND depth = ? AND loc > ? ORDER BY loc LIMIT ?`, depth, after, n)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var u CrawlURL
			err := rows.Scan(&u.Loc, num(&u.Depth), &u.Referrer, &u.PathKey)
			out = append(out, u)
			return err
		})
	})
	return out, err
}

func (c crawlLog) count(ctx context.Context, q string) (int, error) {
	var n int
	err := c.s.read(func(x sess) error { return x.row(ctx, q).Scan(&n) })
	return n, err
}

// Fetched implements [CrawlLog].
func (c crawlLog) Fetched(ctx context.Context) (int, error) {
	return c.count(ctx, `SELECT count(*) FROM {crawl_urls} WHERE fetched = 1`)
}

// Frontier implements [FrontierCounter].
func (c crawlLog) Frontier(ctx context.Context) (int, error) {
	return c.count(ctx, `SELECT count(*) FROM {crawl_urls} WHERE state = 0`)
}

// Finished implements [CrawlDone].
func (c crawlLog) Finished(ctx context.Context) (bool, error) {
	var v string
	err := c.s.read(func(x sess) (err error) {
		v, err = x.meta(ctx, "crawl_meta", "status")
		return err
	})
	return v == "finished", err
}

// Outcomes implements [CrawlLog].
func (c crawlLog) Outcomes(ctx context.Context, after string, n int) ([]CrawlOutcome, error) {
	out := make([]CrawlOutcome, 0, min(n, 1024))
	err := c.s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT loc, status, included, reason, depth, referrer, `+crawlExtras+`,
			coalesce((SELECT facts FROM {crawl_render} WHERE loc = u.loc), '') FROM {crawl_urls} u WHERE loc > ? AND state IN (2, 3) ORDER BY loc LIMIT ?`, after, n)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var o CrawlOutcome
			err := rows.Scan(&o.Loc, num(&o.Status), &o.Included, &o.Reason, num(&o.Depth), &o.Referrer, &o.Title, num(&o.Inlinks), num(&o.Clicks), &o.Render)
			out = append(out, o)
			return err
		})
	})
	return out, err
}

// Listed implements [CrawlLog].
func (c crawlLog) Listed(ctx context.Context, after string, n int) ([]CrawlEntry, error) {
	out := make([]CrawlEntry, 0, min(n, 1024))
	err := c.s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT loc, entry, depth, `+crawlExtras+` FROM {crawl_urls} u WHERE loc > ? AND state = 2 AND included = 1 ORDER BY loc LIMIT ?`, after, n)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var e CrawlEntry
			var b []byte
			if err := rows.Scan(&e.Loc, &b, num(&e.Depth), &e.Title, num(&e.Inlinks), num(&e.Clicks)); err != nil {
				return err
			}
			e.Entry = new(sitemap.URL)
			if err := json.Unmarshal(b, e.Entry); err != nil {
				return fmt.Errorf("state: crawl: stored entry of %s: %w", e.Loc, err)
			}
			out = append(out, e)
			return nil
		})
	})
	return out, err
}

// Entry implements [CrawlLog].
func (c crawlLog) Entry(ctx context.Context, loc string) (*sitemap.URL, bool, error) {
	var b []byte
	err := c.s.read(func(x sess) error {
		return x.row(ctx, `SELECT entry FROM {crawl_urls} WHERE loc = ? AND state = 2 AND included = 1`, loc).Scan(&b)
	})
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
func (c crawlLog) Seen(ctx context.Context, loc string) (bool, error) {
	var n int
	err := c.s.read(func(x sess) error {
		return x.row(ctx, `SELECT 1 FROM {crawl_urls} WHERE loc = ?`, loc).Scan(&n)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// reasonsPage is how many rows Reasons reads per query.
const reasonsPage = 4096

// Reasons implements [CrawlLog]. On SQLite it walks the table in
// primary-key order a page at a time, releasing the mutex between pages:
// a GROUP BY would have SQLite build a sorter as large as the table in
// memory. PostgreSQL groups in one query (spilling to disk past its
// work_mem), instead of a round trip a page.
func (c crawlLog) Reasons(ctx context.Context) (map[string]int, error) {
	m := make(map[string]int)
	if c.s.d.pg {
		err := c.s.read(func(x sess) error {
			rows, err := x.query(ctx, `SELECT reason, count(*) FROM {crawl_urls} WHERE state IN (2, 3) GROUP BY reason`)
			return scanAll(rows, err, func(rows *sql.Rows) error {
				var r string
				var n int
				err := rows.Scan(&r, &n)
				m[r] = n
				return err
			})
		})
		return m, err
	}
	after := ""
	for {
		n := 0
		err := c.s.read(func(x sess) error {
			rows, err := x.query(ctx, `SELECT loc, reason FROM {crawl_urls} WHERE loc > ? AND state IN (2, 3) ORDER BY loc LIMIT ?`, after, reasonsPage)
			return scanAll(rows, err, func(rows *sql.Rows) error {
				var reason string
				err := rows.Scan(&after, &reason)
				m[reason]++
				n++
				return err
			})
		})
		if err != nil {
			return nil, err
		}
		if n < reasonsPage {
			return m, nil
		}
	}
}

// Links implements [CrawlLog].
func (c crawlLog) Links(ctx context.Context, after CrawlEdge, n int) ([]CrawlEdge, error) {
	out := make([]CrawlEdge, 0, min(n, 1024))
	err := c.s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT src, dst, kind FROM {crawl_links} WHERE (src, dst, kind) > (?, ?, ?) ORDER BY src, dst, kind LIMIT ?`,
			after.From, after.To, int(after.Kind), n)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var e CrawlEdge
			var k int
			err := rows.Scan(&e.From, &e.To, &k)
			e.Kind = LinkKind(k)
			out = append(out, e)
			return err
		})
	})
	return out, err
}
