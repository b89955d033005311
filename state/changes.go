package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ChangeLog is what an incremental fetch (`sitemap fetch --changes`,
// package diff's Changes) remembers of a site between runs: for every
// sitemap it read, the validators it answered with (ETag,
// Last-Modified), the <lastmod> its index gave it, whether it is an
// index, and its entries in the caller's encoding (opaque here, one
// value per sitemap: memory is bounded by the largest sitemap, never by
// the site). The next run asks only for what may have changed and says
// what did.
//
// A run is staged, then committed: [ChangeLog.Stage] records each
// sitemap read under the run's ID, in a transaction of its own, and
// [ChangeLog.Commit] makes the staged sitemaps the site's in one
// transaction. A run killed before its Commit leaves the recorded
// sitemaps as the last finished run left them; the next Begin forgets
// what it staged.
type ChangeLog interface {
	// Begin starts a run of site at now: it forgets what an unfinished
	// run of the site staged and returns the sitemaps as recorded, with
	// the counts of the runs before.
	Begin(ctx context.Context, site string, now time.Time) (ChangeRun, error)
	// Entries returns the recorded entries of sitemap u of the run's
	// site (found false when none are recorded).
	Entries(ctx context.Context, run ChangeRun, u string) (entries []byte, found bool, err error)
	// Staged returns the entries the run staged for u (found false when
	// it staged none, or staged it Kept).
	Staged(ctx context.Context, run ChangeRun, u string) (entries []byte, found bool, err error)
	// Stage records what the run read of one sitemap; with s.Kept, its
	// entries are the recorded ones (entries is ignored). Staging u again
	// replaces what was staged.
	Stage(ctx context.Context, run ChangeRun, s ChangeSitemap, entries []byte) error
	// Commit ends the run in one transaction: the staged sitemaps replace
	// the recorded ones of the same URL, the recorded sitemaps in gone
	// are forgotten, and the run is counted (full: as a full pass).
	Commit(ctx context.Context, run ChangeRun, gone []string, full bool) error
}

// ChangeRun is a run of a [ChangeLog], as Begin returns it.
type ChangeRun struct {
	// Site is the start the runs are kept under; ID the run's, Time
	// when it began.
	Site string
	ID   int64
	Time time.Time
	// Runs is how many runs of the site were committed before; LastFull
	// the number of the last one that was a full pass (0: none) and
	// FullTime its time.
	Runs, LastFull int
	FullTime       time.Time
	// Sitemaps are the site's sitemaps as recorded, by URL (without
	// their entries).
	Sitemaps map[string]ChangeSitemap
}

// ChangeSitemap is one sitemap of a site as a [ChangeLog] records it.
type ChangeSitemap struct {
	// URL is the sitemap's URL as requested (as its index lists it).
	URL string
	// Index is set for a sitemap index (its entries are not recorded).
	Index bool
	// ETag and LastModified are the validators of its last 200 or 304.
	ETag, LastModified string
	// IndexLastMod is the <lastmod> its index gave it ("" when none, or
	// when it is no index's child).
	IndexLastMod string
	// Kept says, to Stage, that its entries are the recorded ones (a
	// 304, or a sitemap skipped).
	Kept bool
}

// The change log's tables (changes_ prefix; sitemap_changes_ on
// PostgreSQL): one row per site with its counts, one per sitemap
// recorded (run 0) or staged by an unfinished run (run > 0), and its
// entries apart, under the run that read them (entries_run), so that a
// commit moves no entries and an update of a sitemap's validators does
// not rewrite them. A state file gets them at the first Begin;
// PostgreSQL with its own migration.
const changesSchema = `
CREATE TABLE IF NOT EXISTS {changes_sites} (
	site      TEXT{C} PRIMARY KEY,
	run       {sqlite:INTEGER}{pg:BIGINT} NOT NULL DEFAULT 0,
	runs      INTEGER NOT NULL DEFAULT 0,
	last_full INTEGER NOT NULL DEFAULT 0,
	full_time {sqlite:INTEGER}{pg:BIGINT} NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS {changes_sitemaps} (
	site          TEXT{C} NOT NULL,
	url           TEXT{C} NOT NULL,
	run           {sqlite:INTEGER}{pg:BIGINT} NOT NULL,
	is_index      INTEGER NOT NULL DEFAULT 0,
	etag          TEXT NOT NULL DEFAULT '',
	last_modified TEXT NOT NULL DEFAULT '',
	index_lastmod TEXT NOT NULL DEFAULT '',
	kept          INTEGER NOT NULL DEFAULT 0,
	entries_run   {sqlite:INTEGER}{pg:BIGINT} NOT NULL DEFAULT 0,
	PRIMARY KEY (site, url, run)
);
CREATE TABLE IF NOT EXISTS {changes_entries} (
	site    TEXT{C} NOT NULL,
	url     TEXT{C} NOT NULL,
	run     {sqlite:INTEGER}{pg:BIGINT} NOT NULL,
	entries {sqlite:BLOB}{pg:BYTEA},
	PRIMARY KEY (site, url, run)
)`

// Changes returns the change log kept in the same file or database as
// s, closed with it (on SQLite sharing its connection and mutex; safe for
// concurrent use).
func (s *DB) Changes() ChangeLog { return changeLog{s} }

type changeLog struct{ s *DB }

var _ ChangeLog = changeLog{}

func (c changeLog) update(ctx context.Context, f func(x sess) error) error {
	if err := c.s.lock(); err != nil {
		return err
	}
	defer c.s.mu.Unlock()
	return c.s.txLocked(ctx, f)
}

// Begin implements [ChangeLog]. It creates the tables of a state file
// when missing.
func (c changeLog) Begin(ctx context.Context, site string, now time.Time) (ChangeRun, error) {
	r := ChangeRun{Site: site, Time: now.UTC(), Sitemaps: map[string]ChangeSitemap{}}
	err := c.update(ctx, func(x sess) error {
		if !c.s.d.pg {
			if _, err := x.x.ExecContext(ctx, c.s.d.rewrite(changesSchema)); err != nil {
				return fmt.Errorf("create change tables: %w", err)
			}
		}
		var full int64
		err := x.row(ctx, `SELECT run, runs, last_full, full_time FROM {changes_sites} WHERE site = ?`, site).Scan(&r.ID, num(&r.Runs), num(&r.LastFull), &full)
		if errors.Is(err, sql.ErrNoRows) {
			_, err = x.exec(ctx, `INSERT INTO {changes_sites} (site) VALUES (?)`, site)
		}
		if err != nil {
			return err
		}
		if full != 0 {
			r.FullTime = fromNanos(full)
		}
		r.ID++
		if _, err := x.exec(ctx, `UPDATE {changes_sites} SET run = ? WHERE site = ?`, r.ID, site); err != nil {
			return err
		}
		if _, err := x.exec(ctx, `DELETE FROM {changes_sitemaps} WHERE site = ? AND run <> 0`, site); err != nil {
			return err
		}
		// The entries an unfinished run staged: those no recorded sitemap names.
		if _, err := x.exec(ctx, `DELETE FROM {changes_entries} WHERE site = ?1 AND run NOT IN
			(SELECT entries_run FROM {changes_sitemaps} WHERE site = ?1 AND run = 0)`, site); err != nil {
			return err
		}
		rows, err := x.query(ctx, `SELECT url, is_index, etag, last_modified, index_lastmod FROM {changes_sitemaps} WHERE site = ? AND run = 0`, site)
		return scanAll(rows, err, func(rows *sql.Rows) error {
			var m ChangeSitemap
			var index int
			if err := rows.Scan(&m.URL, num(&index), &m.ETag, &m.LastModified, &m.IndexLastMod); err != nil {
				return err
			}
			m.Index = index == 1
			r.Sitemaps[m.URL] = m
			return nil
		})
	})
	if err != nil {
		return ChangeRun{}, fmt.Errorf("state: changes: begin %s: %w", site, err)
	}
	return r, nil
}

func (c changeLog) entries(ctx context.Context, run ChangeRun, u string, id int64) ([]byte, bool, error) {
	var b []byte
	err := c.s.read(func(x sess) error {
		return x.row(ctx, `SELECT e.entries FROM {changes_sitemaps} m JOIN {changes_entries} e
			ON e.site = m.site AND e.url = m.url AND e.run = m.entries_run
			WHERE m.site = ? AND m.url = ? AND m.run = ?`, run.Site, u, id).Scan(&b)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("state: changes: entries of %s: %w", u, err)
	}
	return b, true, nil
}

// Entries implements [ChangeLog].
func (c changeLog) Entries(ctx context.Context, run ChangeRun, u string) ([]byte, bool, error) {
	return c.entries(ctx, run, u, 0)
}

// Staged implements [ChangeLog].
func (c changeLog) Staged(ctx context.Context, run ChangeRun, u string) ([]byte, bool, error) {
	return c.entries(ctx, run, u, run.ID)
}

// Stage implements [ChangeLog].
func (c changeLog) Stage(ctx context.Context, run ChangeRun, m ChangeSitemap, entries []byte) error {
	withEntries := !m.Kept && !m.Index
	err := c.update(ctx, func(x sess) error {
		for _, q := range []string{`DELETE FROM {changes_sitemaps} WHERE site = ? AND url = ? AND run = ?`,
			`DELETE FROM {changes_entries} WHERE site = ? AND url = ? AND run = ?`} {
			if _, err := x.exec(ctx, q, run.Site, m.URL, run.ID); err != nil {
				return err
			}
		}
		entriesRun := int64(0)
		if withEntries {
			entriesRun = run.ID
			if _, err := x.exec(ctx, `INSERT INTO {changes_entries} (site, url, run, entries) VALUES (?, ?, ?, ?)`, run.Site, m.URL, run.ID, entries); err != nil {
				return err
			}
		}
		_, err := x.exec(ctx, `INSERT INTO {changes_sitemaps} (site, url, run, is_index, etag, last_modified, index_lastmod, kept, entries_run)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, run.Site, m.URL, run.ID, flag(m.Index), m.ETag, m.LastModified, m.IndexLastMod, flag(m.Kept), entriesRun)
		return err
	})
	if err != nil {
		return fmt.Errorf("state: changes: stage %s: %w", m.URL, err)
	}
	return nil
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Commit implements [ChangeLog]. Every statement is a set operation on
// the site's rows: the transaction holds no entries in memory.
func (c changeLog) Commit(ctx context.Context, run ChangeRun, gone []string, full bool) error {
	err := c.update(ctx, func(x sess) error {
		var cur int64
		if err := x.row(ctx, `SELECT run FROM {changes_sites} WHERE site = ?`, run.Site).Scan(&cur); err != nil {
			return err
		}
		if cur != run.ID {
			return fmt.Errorf("another run (%d) began after this one (%d); this one's changes were not recorded", cur, run.ID)
		}
		stmts := []stmt{
			// A kept sitemap keeps its recorded row (its entries are not
			// copied): only its validators and index lastmod are updated.
			{`UPDATE {changes_sitemaps} SET
				etag = (SELECT s.etag FROM {changes_sitemaps} s WHERE s.site = {changes_sitemaps}.site AND s.url = {changes_sitemaps}.url AND s.run = ?1),
				last_modified = (SELECT s.last_modified FROM {changes_sitemaps} s WHERE s.site = {changes_sitemaps}.site AND s.url = {changes_sitemaps}.url AND s.run = ?1),
				index_lastmod = (SELECT s.index_lastmod FROM {changes_sitemaps} s WHERE s.site = {changes_sitemaps}.site AND s.url = {changes_sitemaps}.url AND s.run = ?1)
				WHERE site = ?2 AND run = 0 AND url IN (SELECT url FROM {changes_sitemaps} WHERE site = ?2 AND run = ?1 AND kept = 1)`, []any{run.ID, run.Site}},
			{`DELETE FROM {changes_sitemaps} WHERE site = ? AND run = ? AND kept = 1`, []any{run.Site, run.ID}},
			// The entries of the sitemaps read again, and of those gone.
			{`DELETE FROM {changes_entries} WHERE site = ?1 AND run <> ?2 AND url IN
				(SELECT url FROM {changes_sitemaps} WHERE site = ?1 AND run = ?2)`, []any{run.Site, run.ID}},
			{`DELETE FROM {changes_sitemaps} WHERE site = ?1 AND run = 0 AND url IN
				(SELECT url FROM {changes_sitemaps} WHERE site = ?1 AND run = ?2)`, []any{run.Site, run.ID}},
			{`UPDATE {changes_sitemaps} SET run = 0 WHERE site = ? AND run = ?`, []any{run.Site, run.ID}},
		}
		for _, u := range gone {
			stmts = append(stmts, stmt{`DELETE FROM {changes_sitemaps} WHERE site = ? AND url = ? AND run = 0`, []any{run.Site, u}},
				stmt{`DELETE FROM {changes_entries} WHERE site = ? AND url = ?`, []any{run.Site, u}})
		}
		if full {
			stmts = append(stmts, stmt{`UPDATE {changes_sites} SET runs = runs + 1, last_full = runs + 1, full_time = ? WHERE site = ?`, []any{nanos(run.Time), run.Site}})
		} else {
			stmts = append(stmts, stmt{`UPDATE {changes_sites} SET runs = runs + 1 WHERE site = ?`, []any{run.Site}})
		}
		_, err := c.s.d.batch(ctx, x, stmts)
		return err
	})
	if err != nil {
		return fmt.Errorf("state: changes: commit the run of %s: %w", run.Site, err)
	}
	return nil
}
