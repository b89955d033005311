package state

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// The audit log's tables live in the state file beside the Store's and
// the crawl log's (audit_ prefix): one row per listed URL (and per extra
// URL read for its alternates) with its result as the caller's JSON, and
// one row per hreflang alternate a live page names. On disk, not in
// memory: the process keeps SQLite's page cache and the batches in flight.
const auditSchema = `
CREATE TABLE IF NOT EXISTS audit_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS audit_urls (
	loc        TEXT PRIMARY KEY,
	key        TEXT NOT NULL,
	source     TEXT NOT NULL DEFAULT '',
	lastmod    TEXT NOT NULL DEFAULT '',
	rnd        INTEGER NOT NULL DEFAULT 0,
	copies     INTEGER NOT NULL DEFAULT 1,
	dup_source TEXT NOT NULL DEFAULT '',
	scope      TEXT NOT NULL DEFAULT '',
	extra      INTEGER NOT NULL DEFAULT 0,
	sampled    INTEGER NOT NULL DEFAULT 0,
	done       INTEGER NOT NULL DEFAULT 0,
	status     INTEGER NOT NULL DEFAULT 0,
	html       INTEGER NOT NULL DEFAULT 0,
	data       BLOB
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS audit_key ON audit_urls(key);
CREATE INDEX IF NOT EXISTS audit_todo ON audit_urls(loc) WHERE sampled = 1 AND done = 0;
CREATE INDEX IF NOT EXISTS audit_sample ON audit_urls(source, rnd) WHERE extra = 0;
CREATE TABLE IF NOT EXISTS audit_alts (
	from_loc TEXT NOT NULL,
	to_loc   TEXT NOT NULL,
	hreflang TEXT NOT NULL,
	PRIMARY KEY (from_loc, to_loc, hreflang)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS audit_alts_to ON audit_alts(to_loc);
`

// Audit returns the audit log kept in the same file as s, sharing its
// connection and mutex (safe for concurrent use) and closed with it.
func (s *SQLite) Audit() AuditLog { return sqliteAudit{s} }

type sqliteAudit struct{ s *SQLite }

var _ AuditLog = sqliteAudit{}

func (a sqliteAudit) meta(ctx context.Context, key string) (string, error) {
	var v string
	err := a.s.conn.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM audit_meta WHERE key = ?), '')`, key).Scan(&v)
	return v, err
}

func (a sqliteAudit) setMeta(ctx context.Context, key, value string) error {
	return a.s.exec(ctx, `INSERT INTO audit_meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
}

// update runs f in one transaction with the mutex held.
func (a sqliteAudit) update(ctx context.Context, f func() error) error {
	s := a.s
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.txLocked(ctx, f)
}

// Begin implements [AuditLog]. It creates the audit tables when missing.
func (a sqliteAudit) Begin(ctx context.Context, start string, now time.Time) (AuditRun, error) {
	s := a.s
	var r AuditRun
	err := a.update(ctx, func() error {
		r = AuditRun{Start: start}
		if _, err := s.conn.ExecContext(ctx, auditSchema); err != nil {
			return fmt.Errorf("create audit tables: %w", err)
		}
		status, err := a.meta(ctx, "status")
		if err != nil {
			return err
		}
		prev, err := a.meta(ctx, "start")
		if err != nil {
			return err
		}
		if status == "running" && prev == start {
			t, err := a.meta(ctx, "run_time")
			if err != nil {
				return err
			}
			n, _ := strconv.ParseInt(t, 10, 64)
			r.Time = time.Unix(0, n).UTC()
			r.Resumed = true
			listed, err := a.meta(ctx, "listed")
			if err != nil {
				return err
			}
			if r.Listed = listed == "1"; r.Listed {
				return nil
			}
			// The listing is read again: its rows would count copies twice.
			return s.exec(ctx, `DELETE FROM audit_urls WHERE extra = 0`)
		}
		r.Time = now.UTC()
		for _, q := range []string{`DELETE FROM audit_urls`, `DELETE FROM audit_alts`} {
			if err := s.exec(ctx, q); err != nil {
				return err
			}
		}
		for _, kv := range [][2]string{{"status", "running"}, {"start", start}, {"run_time", strconv.FormatInt(r.Time.UnixNano(), 10)}, {"listed", "0"}} {
			if err := a.setMeta(ctx, kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return AuditRun{}, fmt.Errorf("state: audit: begin %s: %w", start, err)
	}
	return r, nil
}

// AddListed implements [AuditLog].
func (a sqliteAudit) AddListed(ctx context.Context, entries []AuditListed) error {
	return a.update(ctx, func() error {
		for _, e := range entries {
			if err := a.s.exec(ctx, `INSERT INTO audit_urls(loc, key, source, lastmod, rnd, scope) VALUES(?, ?, ?, ?, ?, ?)
				ON CONFLICT(loc) DO UPDATE SET
					dup_source = CASE WHEN dup_source = '' AND extra = 0 THEN excluded.source ELSE dup_source END,
					source = CASE WHEN extra = 1 THEN excluded.source ELSE source END,
					lastmod = CASE WHEN extra = 1 THEN excluded.lastmod ELSE lastmod END,
					scope = CASE WHEN extra = 1 THEN excluded.scope ELSE scope END,
					copies = CASE WHEN extra = 1 THEN 1 ELSE copies + 1 END,
					extra = 0`,
				e.Loc, e.Key, e.Source, e.LastMod, e.Rand, e.Scope); err != nil {
				return err
			}
		}
		return nil
	})
}

// EndListing implements [AuditLog]. A sample is drawn one source at a
// time through the index on (source, rnd): no sort of the whole table,
// so memory stays bounded (the state keeps SQLite's temporary storage in
// memory). The list of sources is held: one name per sitemap read.
func (a sqliteAudit) EndListing(ctx context.Context, sample int) error {
	return a.update(ctx, func() error {
		if sample <= 0 {
			if err := a.s.exec(ctx, `UPDATE audit_urls SET sampled = 1 WHERE extra = 0`); err != nil {
				return err
			}
			return a.setMeta(ctx, "listed", "1")
		}
		rows, err := a.s.conn.QueryContext(ctx, `SELECT DISTINCT source FROM audit_urls WHERE extra = 0 ORDER BY source`)
		if err != nil {
			return err
		}
		var sources []string
		for rows.Next() {
			var src string
			if err := rows.Scan(&src); err != nil {
				rows.Close()
				return err
			}
			sources = append(sources, src)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, src := range sources {
			if err := a.s.exec(ctx, `UPDATE audit_urls SET sampled = 1 WHERE loc IN
				(SELECT loc FROM audit_urls WHERE source = ? AND extra = 0 ORDER BY rnd LIMIT ?)`, src, sample); err != nil {
				return err
			}
		}
		return a.setMeta(ctx, "listed", "1")
	})
}

// IsListed implements [AuditLog].
func (a sqliteAudit) IsListed(ctx context.Context, loc, key string) (bool, error) {
	s := a.s
	if err := s.lock(); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	row, err := s.queryRow(ctx, `SELECT EXISTS(SELECT 1 FROM audit_urls WHERE loc = ? AND extra = 0) OR EXISTS(SELECT 1 FROM audit_urls WHERE key = ? AND extra = 0)`, loc, key)
	if err != nil {
		return false, err
	}
	var ok bool
	err = row.Scan(&ok)
	return ok, err
}

// Todo implements [AuditLog].
func (a sqliteAudit) Todo(ctx context.Context, after string, n int) ([]AuditListed, error) {
	return a.listed(ctx, `SELECT loc, key, source, lastmod, rnd, copies, dup_source, scope, extra FROM audit_urls
		WHERE sampled = 1 AND done = 0 AND loc > ? ORDER BY loc LIMIT ?`, after, n)
}

func (a sqliteAudit) listed(ctx context.Context, q string, args ...any) ([]AuditListed, error) {
	s := a.s
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.conn.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AuditListed
	for rows.Next() {
		var e AuditListed
		if err := rows.Scan(&e.Loc, &e.Key, &e.Source, &e.LastMod, &e.Rand, &e.Copies, &e.DupSource, &e.Scope, &e.Extra); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// AddExtra implements [AuditLog].
func (a sqliteAudit) AddExtra(ctx context.Context, locs []AuditListed) error {
	return a.update(ctx, func() error {
		for _, e := range locs {
			if err := a.s.exec(ctx, `INSERT INTO audit_urls(loc, key, extra, sampled) VALUES(?, ?, 1, 1) ON CONFLICT(loc) DO NOTHING`, e.Loc, e.Key); err != nil {
				return err
			}
		}
		return nil
	})
}

// Record implements [AuditLog].
func (a sqliteAudit) Record(ctx context.Context, results []AuditResult) error {
	return a.update(ctx, func() error {
		for _, r := range results {
			if err := a.s.exec(ctx, `UPDATE audit_urls SET done = 1, status = ?, html = ?, data = ? WHERE loc = ?`, r.Status, r.HTML, r.Data, r.Loc); err != nil {
				return err
			}
			if err := a.s.exec(ctx, `DELETE FROM audit_alts WHERE from_loc = ?`, r.Key); err != nil {
				return err
			}
			for _, alt := range r.Alternates {
				if err := a.s.exec(ctx, `INSERT INTO audit_alts(from_loc, to_loc, hreflang) VALUES(?, ?, ?) ON CONFLICT DO NOTHING`, r.Key, alt.Href, alt.Hreflang); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// AltTargets implements [AuditLog].
func (a sqliteAudit) AltTargets(ctx context.Context, after string, n int) ([]string, error) {
	s := a.s
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.conn.QueryContext(ctx, `SELECT DISTINCT to_loc FROM audit_alts
		WHERE to_loc > ? AND NOT EXISTS (SELECT 1 FROM audit_urls WHERE key = to_loc) ORDER BY to_loc LIMIT ?`, after, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// NotReciprocal implements [AuditLog].
func (a sqliteAudit) NotReciprocal(ctx context.Context, from string) ([]AuditAlternate, error) {
	s := a.s
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.conn.QueryContext(ctx, `SELECT x.hreflang, x.to_loc, u.status FROM audit_alts x JOIN audit_urls u ON u.key = x.to_loc
		WHERE x.from_loc = ? AND x.to_loc <> x.from_loc AND u.done = 1
		AND (u.html = 0 OR NOT EXISTS (SELECT 1 FROM audit_alts y WHERE y.from_loc = x.to_loc AND y.to_loc = x.from_loc))
		ORDER BY x.to_loc, x.hreflang`, from)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AuditAlternate
	for rows.Next() {
		var alt AuditAlternate
		if err := rows.Scan(&alt.Hreflang, &alt.Href, &alt.Status); err != nil {
			return nil, err
		}
		out = append(out, alt)
	}
	return out, rows.Err()
}

// Results implements [AuditLog].
func (a sqliteAudit) Results(ctx context.Context, afterKey, afterLoc string, n int) ([]AuditRow, error) {
	s := a.s
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	rows, err := s.conn.QueryContext(ctx, `SELECT loc, key, source, lastmod, rnd, copies, dup_source, scope, extra, status, data FROM audit_urls
		WHERE done = 1 AND extra = 0 AND (key, loc) > (?, ?) ORDER BY key, loc LIMIT ?`, afterKey, afterLoc, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AuditRow
	for rows.Next() {
		var r AuditRow
		if err := rows.Scan(&r.Loc, &r.Key, &r.Source, &r.LastMod, &r.Rand, &r.Copies, &r.DupSource, &r.Scope, &r.Extra, &r.Status, &r.Data); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Count implements [AuditLog].
func (a sqliteAudit) Count(ctx context.Context) (listed, sampled int, err error) {
	s := a.s
	if err := s.lock(); err != nil {
		return 0, 0, err
	}
	defer s.mu.Unlock()
	err = s.conn.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(sampled), 0) FROM audit_urls WHERE extra = 0`).Scan(&listed, &sampled)
	return listed, sampled, err
}

// Finish implements [AuditLog].
func (a sqliteAudit) Finish(ctx context.Context) error {
	return a.update(ctx, func() error { return a.setMeta(ctx, "status", "finished") })
}
