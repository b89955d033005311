package serve

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SQLiteChangeLog is the table the triggers of [InstallSQLiteTrigger]
// write each changed row's key to: sitemap_changes(seq INTEGER PRIMARY
// KEY AUTOINCREMENT, tbl TEXT, key), one row a key (an UPDATE writes the
// old key and, when it differs, the new one).
const SQLiteChangeLog = "sitemap_changes"

// SQLiteChangeLogRows is how many rows the change log keeps: the
// triggers delete older ones. A reader further behind (a serve that was
// down meanwhile) finds its place gone and checks every page.
const SQLiteChangeLogRows = 100_000

// sqliteTriggerNames are the names of the triggers of table t.
func sqliteTriggerNames(t string) [3]string {
	return [3]string{"sitemap_" + t + "_insert", "sitemap_" + t + "_update", "sitemap_" + t + "_delete"}
}

// sqliteTable is the table name of a SQLite --table ("main.pages" is
// "pages"); an attached database's table is refused.
func sqliteTable(table string) (string, error) {
	t := strings.TrimPrefix(table, "main.")
	if t == "" || strings.Contains(t, ".") {
		return "", fmt.Errorf("serve: triggers on table %q: give a table of the main database", table)
	}
	return t, nil
}

// InstallSQLiteTrigger creates the change log [SQLiteChangeLog] (when
// there is none) and AFTER INSERT, UPDATE and DELETE triggers on table
// that append the key column's value of each row changed (an UPDATE: the
// old key, and the new one when it differs) to it, in one transaction.
// Installing again replaces the triggers (another key column). A source
// watched with [WatchSQLite] then reads only the pages holding those
// keys. Every write to table then also writes the log (a DELETE of every
// row, one log row each: SQLite's fast truncate is off while a table has
// triggers). [RemoveSQLiteTrigger] undoes it.
func InstallSQLiteTrigger(ctx context.Context, db *sql.DB, table, key string) error {
	t, err := sqliteTable(table)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := installSQLiteTrigger(ctx, tx, t, key); err != nil {
		return err
	}
	return tx.Commit()
}

type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

func installSQLiteTrigger(ctx context.Context, tx execer, t, key string) error {
	qt, qk := quoteIdent(SQLite, t), quoteIdent(SQLite, key)
	lit := "'" + strings.ReplaceAll(t, "'", "''") + "'"
	n := sqliteTriggerNames(t)
	log := quoteIdent(SQLite, SQLiteChangeLog)
	// Each write keeps the log to its last SQLiteChangeLogRows rows (a
	// lookup of the rowid's maximum and a delete of at most one row in
	// the steady state), so that serve, which opens the database
	// read-only, never writes to it.
	prune := "DELETE FROM " + log + " WHERE seq <= (SELECT max(seq) FROM " + log + ") - " + strconv.Itoa(SQLiteChangeLogRows) + "; "
	stmts := []string{
		"CREATE TABLE IF NOT EXISTS " + log + " (seq INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, key)",
		"DROP TRIGGER IF EXISTS " + quoteIdent(SQLite, n[0]),
		"DROP TRIGGER IF EXISTS " + quoteIdent(SQLite, n[1]),
		"DROP TRIGGER IF EXISTS " + quoteIdent(SQLite, n[2]),
		"CREATE TRIGGER " + quoteIdent(SQLite, n[0]) + " AFTER INSERT ON " + qt + " BEGIN INSERT INTO " + log + " (tbl, key) VALUES (" + lit + ", NEW." + qk + "); " + prune + "END",
		"CREATE TRIGGER " + quoteIdent(SQLite, n[1]) + " AFTER UPDATE ON " + qt + " BEGIN INSERT INTO " + log + " (tbl, key) VALUES (" + lit + ", OLD." + qk + "); " +
			"INSERT INTO " + log + " (tbl, key) SELECT " + lit + ", NEW." + qk + " WHERE NEW." + qk + " IS NOT OLD." + qk + "; " + prune + "END",
		"CREATE TRIGGER " + quoteIdent(SQLite, n[2]) + " AFTER DELETE ON " + qt + " BEGIN INSERT INTO " + log + " (tbl, key) VALUES (" + lit + ", OLD." + qk + "); " + prune + "END",
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("serve: installing the change triggers on table %s: %w", t, err)
		}
	}
	return nil
}

// RemoveSQLiteTrigger drops the triggers [InstallSQLiteTrigger] put on
// table and that table's rows of the change log; the log itself goes
// when no other table's triggers write to it. Nothing to remove is no
// error.
func RemoveSQLiteTrigger(ctx context.Context, db *sql.DB, table string) error {
	t, err := sqliteTable(table)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, n := range sqliteTriggerNames(t) {
		if _, err := tx.ExecContext(ctx, "DROP TRIGGER IF EXISTS "+quoteIdent(SQLite, n)); err != nil {
			return fmt.Errorf("serve: removing the change triggers of table %s: %w", t, err)
		}
	}
	var others int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sitemap\\_%' ESCAPE '\\' AND sql LIKE '%"+SQLiteChangeLog+"%'").Scan(&others); err != nil {
		return err
	}
	log := quoteIdent(SQLite, SQLiteChangeLog)
	q := "DROP TABLE IF EXISTS " + log
	if others > 0 {
		q = "DELETE FROM " + log + " WHERE tbl = '" + strings.ReplaceAll(t, "'", "''") + "'"
	}
	if _, err := tx.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("serve: removing the change log: %w", err)
	}
	return tx.Commit()
}

// SQLiteTriggerInstalled reports whether table has the triggers of
// [InstallSQLiteTrigger].
func SQLiteTriggerInstalled(ctx context.Context, db *sql.DB, table string) (bool, error) {
	t, err := sqliteTable(table)
	if err != nil {
		return false, nil
	}
	n, err := sqliteTriggers(ctx, db, t)
	return n == 3, err
}

type queryer interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// sqliteTriggers counts the triggers of InstallSQLiteTrigger on t, and
// -1 when there is no change log.
func sqliteTriggers(ctx context.Context, db queryer, t string) (int, error) {
	n := sqliteTriggerNames(t)
	var logs, trig int
	err := db.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?), (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name IN (?, ?, ?))",
		SQLiteChangeLog, t, n[0], n[1], n[2]).Scan(&logs, &trig)
	if logs == 0 {
		trig = -1
	}
	return trig, err
}

// SQLiteFeed is how [WatchSQLite] follows a table's change log.
type SQLiteFeed struct {
	// Poll is how often data_version is read: 250 ms when 0.
	Poll time.Duration
	// MaxKeys is the most keys of one poll read page by page: a poll
	// with more (a bulk load, a DELETE of every row) checks every page.
	// 1,000 when 0.
	MaxKeys int
	// Logf, when set, is told when the triggers were found gone (the
	// table dropped) and put back.
	Logf func(format string, args ...any)
}

// WatchSQLite gives src (a SQLite table with the triggers of
// [InstallSQLiteTrigger]) a [Watcher]: every f.Poll it reads the
// database's data_version on a connection of its own, and when another
// connection committed, the change log past the last row it read; the
// keys found are located to their pages (src's Locator) and only those
// pages are read again. Every page is checked instead at start, and when
// the log cannot say what changed: more than f.MaxKeys keys, the log's
// rows since the last read gone (pruned by another serve, the log
// dropped), or the triggers gone (the table dropped and created again:
// while the change log is there, they are put back first, so the check
// that follows sees every row). Without the log the feed fails: serve src
// without WatchSQLite (every page read after each commit).
func WatchSQLite(src *SQLSource, f *SQLiteFeed) Source {
	return Watched(src, func(ctx context.Context, fn func(Change)) error {
		return f.watch(ctx, src, fn)
	})
}

// errNoChangeLog is WatchSQLite's error on a table without the triggers.
var errNoChangeLog = errors.New("no change log: install it with sitemap serve --install-trigger (or serve.InstallSQLiteTrigger)")

func (f *SQLiteFeed) watch(ctx context.Context, src *SQLSource, fn func(Change)) error {
	t, err := sqliteTable(src.q.Table)
	if err != nil {
		return err
	}
	poll := f.Poll
	if poll <= 0 {
		poll = 250 * time.Millisecond
	}
	c, err := src.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	w := &sqliteLog{f: f, c: c, t: t, key: src.q.Key}
	if err := w.sync(ctx); err != nil {
		return err
	}
	fn(Change{All: true})
	ver := int64(-1)
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		var v int64
		if err := c.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
			return err
		}
		if v == ver {
			continue
		}
		ver = v
		ch, err := w.read(ctx)
		if err != nil {
			return err
		}
		if ch.All || len(ch.Keys) > 0 {
			fn(ch)
		}
	}
}

// sqliteLog reads one table's rows of the change log.
type sqliteLog struct {
	f       *SQLiteFeed
	c       *sql.Conn
	t, key  string
	last    int64  // the newest seq read (0: none)
	lastKey string // its key, as text: the row must still be there
	told    bool   // that the triggers are gone and cannot be put back
}

// sync puts the triggers back when the table lost them (the change log is
// there: they were installed once), and starts the log at its end.
func (w *sqliteLog) sync(ctx context.Context) error {
	n, err := sqliteTriggers(ctx, w.c, w.t)
	if err != nil {
		return err
	}
	if n < 0 {
		return fmt.Errorf("serve: table %s: %w", w.t, errNoChangeLog)
	}
	if n != 3 {
		var tables int
		if err := w.c.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?", w.t).Scan(&tables); err != nil {
			return err
		}
		if tables == 0 {
			return w.end(ctx) // dropped: put back once it is created again
		}
		if err := w.reinstall(ctx); err != nil {
			if !w.told && w.f.Logf != nil {
				w.f.Logf("the change triggers of table %s are gone (the table dropped and created again?) and cannot be put back (%v): every page is read after each commit until they are installed again", w.t, err)
			}
			w.told = true
			return nil
		}
		w.told = false
		if w.f.Logf != nil {
			w.f.Logf("the change triggers of table %s were gone (the table dropped and created again?): put back; every page checked", w.t)
		}
	}
	return w.end(ctx)
}

func (w *sqliteLog) reinstall(ctx context.Context) error {
	tx, err := w.c.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := installSQLiteTrigger(ctx, tx, w.t, w.key); err != nil {
		return err
	}
	return tx.Commit()
}

// end moves past the log's newest row.
func (w *sqliteLog) end(ctx context.Context) error {
	var seq sql.NullInt64
	var key any
	err := w.c.QueryRowContext(ctx, "SELECT seq, key FROM "+SQLiteChangeLog+" ORDER BY seq DESC LIMIT 1").Scan(&seq, &key)
	if errors.Is(err, sql.ErrNoRows) {
		w.last, w.lastKey = 0, ""
		return nil
	}
	w.last, w.lastKey = seq.Int64, keyText(key)
	return err
}

// read returns the keys logged since the last read, or All.
func (w *sqliteLog) read(ctx context.Context) (Change, error) {
	all := Change{All: true}
	if n, err := sqliteTriggers(ctx, w.c, w.t); err != nil || n != 3 {
		if err == nil {
			err = w.sync(ctx)
		}
		return all, err
	}
	if w.last > 0 {
		var key any
		err := w.c.QueryRowContext(ctx, "SELECT key FROM "+SQLiteChangeLog+" WHERE seq = ?", w.last).Scan(&key)
		if errors.Is(err, sql.ErrNoRows) || err == nil && keyText(key) != w.lastKey {
			return all, w.end(ctx) // pruned past this serve, or a new log
		}
		if err != nil {
			return all, err
		}
	}
	maxKeys := w.f.MaxKeys
	if maxKeys <= 0 {
		maxKeys = 1000
	}
	rows, err := w.c.QueryContext(ctx, "SELECT seq, tbl, key FROM "+SQLiteChangeLog+" WHERE seq > ? ORDER BY seq LIMIT ?", w.last, maxKeys+1)
	if err != nil {
		return all, err
	}
	var ch Change
	var seq int64
	var tbl string
	var key any
	n := 0
	for rows.Next() {
		if err := rows.Scan(&seq, &tbl, &key); err != nil {
			rows.Close()
			return all, err
		}
		n++
		w.last, w.lastKey = seq, keyText(key)
		if tbl == w.t {
			ch.Keys = append(ch.Keys, key)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return all, err
	}
	if n > maxKeys {
		return all, w.end(ctx)
	}
	return ch, nil
}

// ChangeLog reports whether s is a SQLite table with the triggers of
// [InstallSQLiteTrigger] (a source to give [WatchSQLite]); false for any
// other source.
func (s *SQLSource) ChangeLog(ctx context.Context) (bool, error) {
	if s.q.Dialect != SQLite || s.q.Table == "" {
		return false, nil
	}
	return SQLiteTriggerInstalled(ctx, s.db, s.q.Table)
}

// SQLite reports whether s reads a SQLite database.
func (s *SQLSource) SQLite() bool { return s.q.Dialect == SQLite }
