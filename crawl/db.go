package crawl

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	sitemap "github.com/sitemapkit/sitemap"

	_ "modernc.org/sqlite" // the "sqlite" driver, as in package state
)

// The crawl's own tables live in the state file beside package state's
// tables (crawl_ prefix). They hold, for one crawl run, every URL seen —
// the frontier (state 0) and the outcome of every URL decided (state 2) —
// and the sitemap entry of each listed page, so that a killed crawl
// resumes and the output can be read back sorted by SQL, not in memory.
//
// One row costs the URL, its referrer and, for listed pages, the entry's
// JSON: on disk, not in memory. The process keeps only SQLite's page cache
// (bounded, 4 MiB) and the pages in flight.
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
`

// Row states.
const (
	statePending = 0 // in the frontier
	stateDone    = 2 // decided: fetched, or left out without a fetch
	stateSoft    = 3 // seen only through nofollow links; a followed link makes it pending
)

// db is the crawl's connection to the state file. Only the crawl's
// coordinator goroutine uses it.
type db struct {
	sql   *sql.DB
	conn  *sql.Conn
	stmts map[string]*sql.Stmt // prepared statements by query text
}

// ExecContext runs q as a statement prepared once on the connection (the
// parse of an upsert costs more than running it).
func (d *db) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	st, ok := d.stmts[q]
	if !ok {
		var err error
		if st, err = d.conn.PrepareContext(ctx, q); err != nil {
			return nil, err
		}
		d.stmts[q] = st
	}
	return st.ExecContext(ctx, args...)
}

func openDB(ctx context.Context, path string) (*db, error) {
	s, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	s.SetMaxOpenConns(1)
	conn, err := s.Conn(ctx)
	if err != nil {
		s.Close()
		return nil, err
	}
	d := &db{sql: s, conn: conn, stmts: map[string]*sql.Stmt{}}
	for _, q := range []string{"PRAGMA busy_timeout = 30000", "PRAGMA cache_size = -4096", crawlSchema} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			d.close()
			return nil, fmt.Errorf("crawl: state file %s: %w", path, err)
		}
	}
	return d, nil
}

func (d *db) close() error {
	for _, st := range d.stmts {
		st.Close()
	}
	err := d.conn.Close()
	if cerr := d.sql.Close(); err == nil {
		err = cerr
	}
	return err
}

func (d *db) meta(ctx context.Context, key string) (string, error) {
	var v string
	err := d.conn.QueryRowContext(ctx, `SELECT value FROM crawl_meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func (d *db) setMeta(ctx context.Context, ex execer, key, value string) error {
	_, err := ex.ExecContext(ctx, `INSERT INTO crawl_meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

// tx runs f in one write transaction.
func (d *db) tx(ctx context.Context, f func(ex execer) error) error {
	if _, err := d.conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("crawl: begin: %w", err)
	}
	if err := f(d); err != nil {
		d.conn.ExecContext(context.Background(), "ROLLBACK")
		return err
	}
	if _, err := d.conn.ExecContext(ctx, "COMMIT"); err != nil {
		d.conn.ExecContext(context.Background(), "ROLLBACK")
		return fmt.Errorf("crawl: commit: %w", err)
	}
	return nil
}

// run is what crawl_meta remembers about the current run.
type run struct {
	Start    string
	Time     time.Time // the run's time, for state.Stamp; kept on resume
	Resumed  bool
	Seeded   bool
	Finished bool
}

// begin starts a new run, or resumes the unfinished one of the same start
// URL.
func (d *db) begin(ctx context.Context, start string, now time.Time) (run, error) {
	var r run
	status, err := d.meta(ctx, "status")
	if err != nil {
		return r, err
	}
	prevStart, err := d.meta(ctx, "start")
	if err != nil {
		return r, err
	}
	r.Start = start
	if status == "running" && prevStart == start {
		t, err := d.meta(ctx, "run_time")
		if err != nil {
			return r, err
		}
		n, _ := strconv.ParseInt(t, 10, 64)
		r.Time = time.Unix(0, n).UTC()
		seeded, err := d.meta(ctx, "seeded")
		if err != nil {
			return r, err
		}
		r.Seeded = seeded == "1"
		r.Resumed = true
		// Claims of the killed run are recounted when claimed again
		// (see coordinator.claim).
		_, err = d.conn.ExecContext(ctx, `UPDATE crawl_urls SET counted = 0 WHERE state = 0 AND counted = 1`)
		return r, err
	}
	r.Time = now.UTC()
	err = d.tx(ctx, func(ex execer) error {
		if _, err := ex.ExecContext(ctx, `DELETE FROM crawl_urls`); err != nil {
			return err
		}
		for k, v := range map[string]string{"status": "running", "start": start, "run_time": strconv.FormatInt(r.Time.UnixNano(), 10), "seeded": "0"} {
			if err := d.setMeta(ctx, ex, k, v); err != nil {
				return err
			}
		}
		return nil
	})
	return r, err
}

// Outcome is one line of the crawl report: a URL seen and what became of
// it.
type Outcome struct {
	URL string `json:"url"`
	// Status is the HTTP status of the last response; 0 when the URL was
	// not fetched.
	Status   int  `json:"status,omitempty"`
	Included bool `json:"included"`
	// Reason says why the URL is not in the sitemap (see the package
	// documentation); empty when it is.
	Reason string `json:"reason,omitempty"`
	Depth  int    `json:"depth"`
	// From is the page that linked to the URL (the sitemap that listed it,
	// for a seed); empty for the start URL.
	From string `json:"from,omitempty"`
}

// pageSize is how many rows the sorted readers fetch per query.
const pageSize = 512

type row struct {
	Outcome
	entry []byte
}

// rowsAfter returns up to pageSize decided rows after loc, sorted by loc;
// onlyIncluded restricts them to listed pages.
func (d *db) rowsAfter(ctx context.Context, after string, onlyIncluded bool) ([]row, error) {
	q := `SELECT loc, status, included, reason, depth, referrer, entry FROM crawl_urls WHERE loc > ? AND state IN (2, 3) ORDER BY loc LIMIT ?`
	if onlyIncluded {
		q = `SELECT loc, status, included, reason, depth, referrer, entry FROM crawl_urls WHERE loc > ? AND state = 2 AND included = 1 ORDER BY loc LIMIT ?`
	}
	rows, err := d.conn.QueryContext(ctx, q, after, pageSize)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]row, 0, pageSize)
	for rows.Next() {
		var r row
		var inc int
		if err := rows.Scan(&r.URL, &r.Status, &inc, &r.Reason, &r.Depth, &r.From, &r.entry); err != nil {
			return nil, err
		}
		r.Included = inc != 0
		out = append(out, r)
	}
	return out, rows.Err()
}

// entryOf returns the stored entry of loc when loc is a listed page.
func (d *db) entryOf(ctx context.Context, loc string) (*sitemap.URL, bool, error) {
	var b []byte
	err := d.conn.QueryRowContext(ctx, `SELECT entry FROM crawl_urls WHERE loc = ? AND state = 2 AND included = 1`, loc).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var u sitemap.URL
	if err := json.Unmarshal(b, &u); err != nil {
		return nil, false, err
	}
	return &u, true, nil
}

// seen reports whether loc has a row at all.
func (d *db) seen(ctx context.Context, loc string) (bool, error) {
	var n int
	err := d.conn.QueryRowContext(ctx, `SELECT 1 FROM crawl_urls WHERE loc = ?`, loc).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// counts returns the number of URLs per reason ("" = listed). It walks
// the table in primary-key order a page at a time: a GROUP BY would have
// SQLite build a sorter as large as the table in memory.
func (d *db) counts(ctx context.Context) (map[string]int, error) {
	m := make(map[string]int)
	after := ""
	for {
		rows, err := d.conn.QueryContext(ctx, `SELECT loc, reason FROM crawl_urls WHERE loc > ? AND state IN (2, 3) ORDER BY loc LIMIT 4096`, after)
		if err != nil {
			return nil, err
		}
		n := 0
		for rows.Next() {
			var reason string
			if err := rows.Scan(&after, &reason); err != nil {
				rows.Close()
				return nil, err
			}
			m[reason]++
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if n < 4096 {
			return m, nil
		}
	}
}
