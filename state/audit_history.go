package state

import (
	"context"
	"database/sql"
	"time"
)

// auditHistorySchema is the audit's history (package audit,
// Options.History): one row per URL, by its normal form, with what the
// last run that saw it found and when its current content was first seen.
// It is kept across runs (Begin does not forget it) and grows with the
// URLs, not with the runs. Idempotent: a state file runs it at every
// Begin, PostgreSQL as its migration 7.
const auditHistorySchema = `
CREATE TABLE IF NOT EXISTS {audit_history} (
	key           TEXT{C} PRIMARY KEY,
	lastmod       TEXT NOT NULL DEFAULT '',
	etag          TEXT NOT NULL DEFAULT '',
	last_modified TEXT NOT NULL DEFAULT '',
	fingerprint   TEXT NOT NULL DEFAULT '',
	seen          {sqlite:INTEGER}{pg:BIGINT} NOT NULL,
	runs          INTEGER NOT NULL DEFAULT 1,
	since         {sqlite:INTEGER}{pg:BIGINT} NOT NULL,
	prev_seen     {sqlite:INTEGER}{pg:BIGINT} NOT NULL DEFAULT 0
){sqlite: WITHOUT ROWID}`

// AuditHistory is what audits with history remember of one listed URL
// across runs: what the last run that saw it found, and when the page's
// current content was first seen. Times are the runs' times
// ([AuditRun].Time), UTC.
type AuditHistory struct {
	// Key is the URL's normal form.
	Key string
	// LastMod is the lastmod the sitemap claimed ("" when none).
	LastMod string
	// ETag and LastModified are the validators the server sent ("" when
	// none).
	ETag, LastModified string
	// Fingerprint is the page's main-content fingerprint (the crawler's
	// content_hash); "" when the URL was not read as an HTML page.
	Fingerprint string
	// Seen is the time of the last run that saw the URL; Runs how many
	// runs have.
	Seen time.Time
	Runs int
	// Since is the time of the first run that saw the current content
	// (Fingerprint); PrevSeen that of the last run that saw the content
	// before it, zero when no change of the content has been seen.
	Since, PrevSeen time.Time
}

// History implements [AuditLog].
func (a auditLog) History(ctx context.Context, keys []string) ([]AuditHistory, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	var out []AuditHistory
	err := a.s.read(func(x sess) error {
		rows, err := x.query(ctx, `SELECT key, lastmod, etag, last_modified, fingerprint, seen, runs, since, prev_seen FROM {audit_history}
			WHERE `+a.s.d.inList("key")+` ORDER BY key`, a.s.d.bindList(keys))
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var h AuditHistory
			var seen, since, prev int64
			err := rows.Scan(&h.Key, &h.LastMod, &h.ETag, &h.LastModified, &h.Fingerprint, &seen, &h.Runs, &since, &prev)
			h.Seen, h.Since, h.PrevSeen = unixTime(seen), unixTime(since), unixTime(prev)
			out = append(out, h)
			return err
		})
	})
	return out, err
}

// historyStmt is the upsert of one history row, run by Record in the
// transaction of the URL's result.
func historyStmt(h *AuditHistory) stmt {
	return stmt{`INSERT INTO {audit_history} (key, lastmod, etag, last_modified, fingerprint, seen, runs, since, prev_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET lastmod = excluded.lastmod, etag = excluded.etag, last_modified = excluded.last_modified,
			fingerprint = excluded.fingerprint, seen = excluded.seen, runs = excluded.runs, since = excluded.since, prev_seen = excluded.prev_seen`,
		[]any{h.Key, h.LastMod, h.ETag, h.LastModified, h.Fingerprint, unixNano(h.Seen), h.Runs, unixNano(h.Since), unixNano(h.PrevSeen)}}
}

// SharedLastMod implements [AuditLog]: one pass over the listed rows
// (the majority vote of Boyer and Moore, memory constant), then a count
// of the candidate.
func (a auditLog) SharedLastMod(ctx context.Context) (lastmod string, n, withLastMod int, err error) {
	err = a.s.read(func(x sess) error {
		cand, votes := "", 0
		rows, err := x.query(ctx, `SELECT lastmod FROM {audit_urls} WHERE extra = 0 AND lastmod <> ''`)
		err = scanAll(rows, err, func(rows *sql.Rows) error {
			var lm string
			if err := rows.Scan(&lm); err != nil {
				return err
			}
			withLastMod++
			switch {
			case votes == 0:
				cand, votes = lm, 1
			case lm == cand:
				votes++
			default:
				votes--
			}
			return nil
		})
		if err != nil || cand == "" {
			return err
		}
		if err := x.row(ctx, `SELECT count(*) FROM {audit_urls} WHERE extra = 0 AND lastmod = ?`, cand).Scan(&n); err != nil {
			return err
		}
		if 2*n > withLastMod {
			lastmod = cand
		} else {
			n = 0
		}
		return nil
	})
	return lastmod, n, withLastMod, err
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func unixTime(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}
