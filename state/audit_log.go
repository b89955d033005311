package state

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"
)

// The audit log's tables live beside the Store's and the crawl log's
// (audit_ prefix; sitemap_audit_ on PostgreSQL): one row per listed URL
// (and per extra URL read for its alternates) with its result as the
// caller's JSON, and one row per hreflang alternate a live page names.
// On disk, not in memory: the process keeps the database's page cache
// and the batches in flight. A state file gets them at the first Begin;
// PostgreSQL with schema version 6.
const auditSchema = `
CREATE TABLE IF NOT EXISTS {audit_meta} (key TEXT PRIMARY KEY, value TEXT NOT NULL){sqlite: WITHOUT ROWID};
CREATE TABLE IF NOT EXISTS {audit_urls} (
	loc        TEXT{C} PRIMARY KEY,
	key        TEXT{C} NOT NULL,
	source     TEXT{C} NOT NULL DEFAULT '',
	lastmod    TEXT NOT NULL DEFAULT '',
	rnd        {sqlite:INTEGER}{pg:BIGINT} NOT NULL DEFAULT 0,
	copies     INTEGER NOT NULL DEFAULT 1,
	dup_source TEXT NOT NULL DEFAULT '',
	scope      TEXT NOT NULL DEFAULT '',
	extra      INTEGER NOT NULL DEFAULT 0,
	sampled    INTEGER NOT NULL DEFAULT 0,
	done       INTEGER NOT NULL DEFAULT 0,
	status     INTEGER NOT NULL DEFAULT 0,
	html       INTEGER NOT NULL DEFAULT 0,
	data       {sqlite:BLOB}{pg:BYTEA}
){sqlite: WITHOUT ROWID};
CREATE INDEX IF NOT EXISTS {audit_key} ON {audit_urls} (key);
CREATE INDEX IF NOT EXISTS {audit_todo} ON {audit_urls} (loc) WHERE sampled = 1 AND done = 0;
CREATE INDEX IF NOT EXISTS {audit_sample} ON {audit_urls} (source, rnd) WHERE extra = 0;
CREATE TABLE IF NOT EXISTS {audit_alts} (
	from_loc TEXT{C} NOT NULL,
	to_loc   TEXT{C} NOT NULL,
	hreflang TEXT NOT NULL,
	PRIMARY KEY (from_loc, to_loc, hreflang)
){sqlite: WITHOUT ROWID};
CREATE INDEX IF NOT EXISTS {audit_alts_to} ON {audit_alts} (to_loc)`

// Audit returns the audit log kept in the same file or database as s,
// closed with it (on SQLite sharing its connection and mutex; safe for
// concurrent use).
func (s *DB) Audit() AuditLog { return auditLog{s} }

type auditLog struct{ s *DB }

var _ AuditLog = auditLog{}

// update runs f in one transaction with the mutex held.
func (a auditLog) update(ctx context.Context, f func(x sess) error) error {
	s := a.s
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.txLocked(ctx, f)
}

// Begin implements [AuditLog]. It creates the audit tables of a state
// file when missing.
func (a auditLog) Begin(ctx context.Context, start string, now time.Time) (AuditRun, error) {
	var r AuditRun
	err := a.update(ctx, func(x sess) error {
		r = AuditRun{Start: start}
		if !a.s.d.pg {
			if _, err := x.x.ExecContext(ctx, a.s.d.rewrite(auditSchema)); err != nil {
				return fmt.Errorf("create audit tables: %w", err)
			}
			if _, err := x.x.ExecContext(ctx, a.s.d.rewrite(auditHistorySchema)); err != nil {
				return fmt.Errorf("create the audit history table: %w", err)
			}
		}
		status, err := x.meta(ctx, "audit_meta", "status")
		if err != nil {
			return err
		}
		prev, err := x.meta(ctx, "audit_meta", "start")
		if err != nil {
			return err
		}
		if status == "running" && prev == start {
			t, err := x.meta(ctx, "audit_meta", "run_time")
			if err != nil {
				return err
			}
			n, _ := strconv.ParseInt(t, 10, 64)
			r.Time = time.Unix(0, n).UTC()
			r.Resumed = true
			listed, err := x.meta(ctx, "audit_meta", "listed")
			if err != nil {
				return err
			}
			if r.Listed = listed == "1"; r.Listed {
				return nil
			}
			// The listing is read again: its rows would count copies twice.
			_, err = x.exec(ctx, `DELETE FROM {audit_urls} WHERE extra = 0`)
			return err
		}
		r.Time = now.UTC()
		for _, q := range []string{`DELETE FROM {audit_urls}`, `DELETE FROM {audit_alts}`} {
			if _, err := x.exec(ctx, q); err != nil {
				return err
			}
		}
		for _, kv := range [][2]string{{"status", "running"}, {"start", start}, {"run_time", strconv.FormatInt(r.Time.UnixNano(), 10)}, {"listed", "0"}} {
			if err := x.setMeta(ctx, "audit_meta", kv[0], kv[1]); err != nil {
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
func (a auditLog) AddListed(ctx context.Context, entries []AuditListed) error {
	stmts := make([]stmt, len(entries))
	for i, e := range entries {
		stmts[i] = stmt{`INSERT INTO {audit_urls} (loc, key, source, lastmod, rnd, scope) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (loc) DO UPDATE SET
				dup_source = CASE WHEN {audit_urls}.dup_source = '' AND {audit_urls}.extra = 0 THEN excluded.source ELSE {audit_urls}.dup_source END,
				source = CASE WHEN {audit_urls}.extra = 1 THEN excluded.source ELSE {audit_urls}.source END,
				lastmod = CASE WHEN {audit_urls}.extra = 1 THEN excluded.lastmod ELSE {audit_urls}.lastmod END,
				scope = CASE WHEN {audit_urls}.extra = 1 THEN excluded.scope ELSE {audit_urls}.scope END,
				copies = CASE WHEN {audit_urls}.extra = 1 THEN 1 ELSE {audit_urls}.copies + 1 END,
				extra = 0`, []any{e.Loc, e.Key, e.Source, e.LastMod, e.Rand, e.Scope}}
	}
	return a.batch(ctx, stmts)
}

// batch runs stmts in one transaction, in one round trip where the
// engine can.
func (a auditLog) batch(ctx context.Context, stmts []stmt) error {
	if len(stmts) == 0 {
		return nil
	}
	return a.update(ctx, func(x sess) error {
		_, err := a.s.d.batch(ctx, x, stmts)
		return err
	})
}

// EndListing implements [AuditLog]. A sample is drawn one source at a
// time through the index on (source, rnd): no sort of the whole table,
// so memory stays bounded (a state file keeps SQLite's temporary storage
// in memory). The list of sources is held: one name per sitemap read.
func (a auditLog) EndListing(ctx context.Context, sample int) error {
	return a.update(ctx, func(x sess) error {
		if sample <= 0 {
			if _, err := x.exec(ctx, `UPDATE {audit_urls} SET sampled = 1 WHERE extra = 0`); err != nil {
				return err
			}
			return x.setMeta(ctx, "audit_meta", "listed", "1")
		}
		var sources []string
		rows, err := x.query(ctx, `SELECT DISTINCT source FROM {audit_urls} WHERE extra = 0 ORDER BY source`)
		err = scanAll(rows, err, func(rows *sql.Rows) error {
			var src string
			err := rows.Scan(&src)
			sources = append(sources, src)
			return err
		})
		if err != nil {
			return err
		}
		for _, src := range sources {
			if _, err := x.exec(ctx, `UPDATE {audit_urls} SET sampled = 1 WHERE loc IN
				(SELECT loc FROM {audit_urls} WHERE source = ? AND extra = 0 ORDER BY rnd LIMIT ?)`, src, sample); err != nil {
				return err
			}
		}
		return x.setMeta(ctx, "audit_meta", "listed", "1")
	})
}

// IsListed implements [AuditLog].
func (a auditLog) IsListed(ctx context.Context, loc, key string) (bool, error) {
	var ok bool
	err := a.s.read(func(x sess) error {
		return x.row(ctx, `SELECT EXISTS(SELECT 1 FROM {audit_urls} WHERE loc = ? AND extra = 0) OR EXISTS(SELECT 1 FROM {audit_urls} WHERE key = ? AND extra = 0)`, loc, key).Scan(&ok)
	})
	return ok, err
}

// auditListed are the columns of an AuditListed, scanned by scanListed.
const auditListed = `loc, key, source, lastmod, rnd, copies, dup_source, scope, extra`

func scanListed(rows *sql.Rows, e *AuditListed, more ...any) error {
	return rows.Scan(append([]any{&e.Loc, &e.Key, &e.Source, &e.LastMod, &e.Rand, &e.Copies, &e.DupSource, &e.Scope, &e.Extra}, more...)...)
}

// Todo implements [AuditLog].
func (a auditLog) Todo(ctx context.Context, after string, n int) ([]AuditListed, error) {
	var out []AuditListed
	err := a.s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT `+auditListed+` FROM {audit_urls} WHERE sampled = 1 AND done = 0 AND loc > ? ORDER BY loc LIMIT ?`, after, n)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var e AuditListed
			err := scanListed(rows, &e)
			out = append(out, e)
			return err
		})
	})
	return out, err
}

// AddExtra implements [AuditLog].
func (a auditLog) AddExtra(ctx context.Context, locs []AuditListed) error {
	stmts := make([]stmt, len(locs))
	for i, e := range locs {
		stmts[i] = stmt{`INSERT INTO {audit_urls} (loc, key, extra, sampled) VALUES (?, ?, 1, 1) ON CONFLICT (loc) DO NOTHING`, []any{e.Loc, e.Key}}
	}
	return a.batch(ctx, stmts)
}

// Record implements [AuditLog].
func (a auditLog) Record(ctx context.Context, results []AuditResult) error {
	var stmts []stmt
	for _, r := range results {
		html := 0
		if r.HTML {
			html = 1
		}
		stmts = append(stmts,
			stmt{`UPDATE {audit_urls} SET done = 1, status = ?, html = ?, data = ? WHERE loc = ?`, []any{r.Status, html, r.Data, r.Loc}},
			stmt{`DELETE FROM {audit_alts} WHERE from_loc = ?`, []any{r.Key}})
		for _, alt := range r.Alternates {
			stmts = append(stmts, stmt{`INSERT INTO {audit_alts} (from_loc, to_loc, hreflang) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, []any{r.Key, alt.Href, alt.Hreflang}})
		}
		if r.History != nil {
			stmts = append(stmts, historyStmt(r.History))
		}
	}
	return a.batch(ctx, stmts)
}

// AltTargets implements [AuditLog].
func (a auditLog) AltTargets(ctx context.Context, after string, n int) ([]string, error) {
	var out []string
	err := a.s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT DISTINCT to_loc FROM {audit_alts}
			WHERE to_loc > ? AND NOT EXISTS (SELECT 1 FROM {audit_urls} WHERE key = to_loc) ORDER BY to_loc LIMIT ?`, after, n)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var l string
			err := rows.Scan(&l)
			out = append(out, l)
			return err
		})
	})
	return out, err
}

// NotReciprocal implements [AuditLog].
func (a auditLog) NotReciprocal(ctx context.Context, from string) ([]AuditAlternate, error) {
	var out []AuditAlternate
	err := a.s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT x.hreflang, x.to_loc, u.status FROM {audit_alts} x JOIN {audit_urls} u ON u.key = x.to_loc
			WHERE x.from_loc = ? AND x.to_loc <> x.from_loc AND u.done = 1
			AND (u.html = 0 OR NOT EXISTS (SELECT 1 FROM {audit_alts} y WHERE y.from_loc = x.to_loc AND y.to_loc = x.from_loc))
			ORDER BY x.to_loc, x.hreflang`, from)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var alt AuditAlternate
			err := rows.Scan(&alt.Hreflang, &alt.Href, &alt.Status)
			out = append(out, alt)
			return err
		})
	})
	return out, err
}

// Results implements [AuditLog].
func (a auditLog) Results(ctx context.Context, afterKey, afterLoc string, n int) ([]AuditRow, error) {
	var out []AuditRow
	err := a.s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT `+auditListed+`, status, data FROM {audit_urls}
			WHERE done = 1 AND extra = 0 AND (key, loc) > (?, ?) ORDER BY key, loc LIMIT ?`, afterKey, afterLoc, n)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var r AuditRow
			err := scanListed(rows, &r.AuditListed, &r.Status, &r.Data)
			out = append(out, r)
			return err
		})
	})
	return out, err
}

// Count implements [AuditLog].
func (a auditLog) Count(ctx context.Context) (listed, sampled int, err error) {
	err = a.s.read(func(x sess) error {
		return x.row(ctx, `SELECT count(*), coalesce(sum(sampled), 0) FROM {audit_urls} WHERE extra = 0`).Scan(&listed, &sampled)
	})
	return listed, sampled, err
}

// Finish implements [AuditLog].
func (a auditLog) Finish(ctx context.Context) error {
	return a.update(ctx, func(x sess) error { return x.setMeta(ctx, "audit_meta", "status", "finished") })
}
