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

// ChangeLog is the table the triggers of [InstallTriggers] write each
// changed row's key to, in the database of the table: sitemap_changes(seq,
// tbl, key), seq increasing, one row a key (an UPDATE writes the old key
// and, when it differs, the new one).
const ChangeLog = "sitemap_changes"

// ChangeLogRows is about how many rows the change log keeps: the
// triggers delete older ones (on SQLite at each write, on MySQL and
// MariaDB at every 1,000th). A reader further behind (a serve that was
// down meanwhile) finds its place gone and checks every page.
const ChangeLogRows = 100_000

// ChangeTable is a table whose writes change a source's entries, and its
// column holding the source's key of the entry a row is part of: for a
// table source, the table and its key column; for a query (a preset), each
// table it reads whose rows map to one entry by a column (WordPress's
// wp_posts by ID and wp_postmeta by post_id).
type ChangeTable struct {
	Table string // "name" (SQLite: "main.name" too); no other schema
	Key   string // the column whose value is the source's key
}

// ChangeTables are the tables [InstallTriggers] puts triggers on for s:
// Query.Changes, or for a table source the table and its key column; nil
// for a query without Changes.
func (s *SQLSource) ChangeTables() []ChangeTable {
	if len(s.q.Changes) > 0 {
		return s.q.Changes
	}
	if s.q.Table != "" {
		return []ChangeTable{{Table: s.q.Table, Key: s.q.Key}}
	}
	return nil
}

// changeDialect is what the change log says differently on SQLite and on
// MySQL/MariaDB; everything else is one code.
type changeDialect struct {
	d Dialect
}

// changeDialectOfDB is the change log's dialect of db's engine.
func changeDialectOfDB(db *sql.DB) (changeDialect, error) {
	d, err := DialectOf(db)
	if err != nil {
		return changeDialect{}, err
	}
	return changeDialectOf(d)
}

func changeDialectOf(d Dialect) (changeDialect, error) {
	if d != SQLite && d != MySQL {
		return changeDialect{}, fmt.Errorf("serve: the change log is for SQLite and MySQL/MariaDB; on PostgreSQL use its feed (serve/pgfeed, sitemap serve --feed)")
	}
	return changeDialect{d}, nil
}

// table is the table name of a ChangeTable ("main.pages" is "pages" on
// SQLite); a table of another schema or database is refused.
func (cd changeDialect) table(table string) (string, error) {
	t := table
	if cd.d == SQLite {
		t = strings.TrimPrefix(table, "main.")
	}
	if t == "" || strings.Contains(t, ".") || len("sitemap_"+t+"_insert") > 64 && cd.d == MySQL {
		return "", fmt.Errorf("serve: triggers on table %q: give a table of the database --db names, by its name alone (at most 50 characters on MySQL)", table)
	}
	return t, nil
}

func (cd changeDialect) q(s string) string { return quoteIdent(cd.d, s) }

// lit is s as a string literal (MySQL reads a backslash as an escape).
func (cd changeDialect) lit(s string) string {
	if cd.d == MySQL {
		s = strings.ReplaceAll(s, `\`, `\\`)
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// triggerNames are the names of the triggers of table t.
func triggerNames(t string) [3]string {
	return [3]string{"sitemap_" + t + "_insert", "sitemap_" + t + "_update", "sitemap_" + t + "_delete"}
}

// install returns the statements that create the log (when missing) and
// put the triggers on t, replacing any.
func (cd changeDialect) install(t, key string) []string {
	qt, qk, log := cd.q(t), cd.q(key), cd.q(ChangeLog)
	n := triggerNames(t)
	ins := func(k string) string {
		return "INSERT INTO " + log + " (tbl, `key`) VALUES (" + cd.lit(t) + ", " + k + "." + qk + "); "
	}
	stmts := []string{
		"DROP TRIGGER IF EXISTS " + cd.q(n[0]),
		"DROP TRIGGER IF EXISTS " + cd.q(n[1]),
		"DROP TRIGGER IF EXISTS " + cd.q(n[2]),
	}
	if cd.d == MySQL {
		// Only every 1,000th write prunes (a range of the primary key,
		// far below the rows being inserted), so writers seldom wait on
		// each other's deletes. LAST_INSERT_ID() is the log's seq inside
		// the trigger, and is given back to the statement after it: the
		// CMS's own insert id is unchanged. (seq + N, not
		// LAST_INSERT_ID() - N: an unsigned value below 0 is an error,
		// which would fail the CMS's write.)
		prune := "IF LAST_INSERT_ID() % 1000 = 0 THEN DELETE FROM " + log + " WHERE seq + " + strconv.Itoa(ChangeLogRows) + " <= LAST_INSERT_ID(); END IF; "
		each := " ON " + qt + " FOR EACH ROW BEGIN "
		return append([]string{"CREATE TABLE IF NOT EXISTS " + log + " (seq bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, tbl varchar(64) NOT NULL, `key` longblob) ENGINE=InnoDB"},
			append(stmts,
				"CREATE TRIGGER "+cd.q(n[0])+" AFTER INSERT"+each+ins("NEW")+prune+"END",
				"CREATE TRIGGER "+cd.q(n[1])+" AFTER UPDATE"+each+ins("OLD")+"IF NOT (NEW."+qk+" <=> OLD."+qk+") THEN "+ins("NEW")+"END IF; "+prune+"END",
				"CREATE TRIGGER "+cd.q(n[2])+" AFTER DELETE"+each+ins("OLD")+prune+"END")...)
	}
	// Each write keeps the log to its last ChangeLogRows rows (a lookup
	// of the rowid's maximum and a delete of at most one row in the
	// steady state), so that serve, which opens the database read-only,
	// never writes to it.
	prune := "DELETE FROM " + log + " WHERE seq <= (SELECT max(seq) FROM " + log + ") - " + strconv.Itoa(ChangeLogRows) + "; "
	return append([]string{"CREATE TABLE IF NOT EXISTS " + log + " (seq INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, key)"},
		append(stmts,
			"CREATE TRIGGER "+cd.q(n[0])+" AFTER INSERT ON "+qt+" BEGIN "+ins("NEW")+prune+"END",
			"CREATE TRIGGER "+cd.q(n[1])+" AFTER UPDATE ON "+qt+" BEGIN "+ins("OLD")+
				"INSERT INTO "+log+" (tbl, key) SELECT "+cd.lit(t)+", NEW."+qk+" WHERE NEW."+qk+" IS NOT OLD."+qk+"; "+prune+"END",
			"CREATE TRIGGER "+cd.q(n[2])+" AFTER DELETE ON "+qt+" BEGIN "+ins("OLD")+prune+"END")...)
}

// state is what is there of the log and of t's triggers: logs 0 or 1,
// trig 0 to 3, tables 0 (t dropped) or 1.
func (cd changeDialect) state(ctx context.Context, db queryer, t string) (logs, trig, tables int, err error) {
	n := triggerNames(t)
	q := "SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?), (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name IN (?, ?, ?)), (SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?)"
	if cd.d == MySQL {
		q = "SELECT (SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?), (SELECT count(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ? AND TRIGGER_NAME IN (?, ?, ?)), (SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?)"
	}
	err = db.QueryRowContext(ctx, q, ChangeLog, t, n[0], n[1], n[2], t).Scan(&logs, &trig, &tables)
	return logs, trig, tables, err
}

// others counts the triggers of any table that write to the log.
func (cd changeDialect) others(ctx context.Context, db queryer) (int, error) {
	q := "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sitemap\\_%' ESCAPE '\\' AND sql LIKE '%" + ChangeLog + "%'"
	if cd.d == MySQL {
		q = "SELECT count(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE 'sitemap\\_%' AND ACTION_STATEMENT LIKE '%" + ChangeLog + "%'"
	}
	var n int
	err := db.QueryRowContext(ctx, q).Scan(&n)
	return n, err
}

// version is a value that moves when the log may have new rows or a
// trigger went: SQLite's data_version (any commit of another
// connection); on MySQL the log's newest seq and the tables' trigger and
// table counts (a table dropped, or created again without its triggers),
// one indexed lookup and two information_schema counts.
func (cd changeDialect) version(ctx context.Context, c queryer, ts []string) (string, error) {
	if cd.d == SQLite {
		var v int64
		err := c.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v)
		return strconv.FormatInt(v, 10), err
	}
	var seq sql.NullInt64
	var trig int
	in := strings.Repeat(", ?", len(ts))[2:]
	args := make([]any, len(ts))
	for i, t := range ts {
		args[i] = t
	}
	var tables int
	err := c.QueryRowContext(ctx, "SELECT (SELECT max(seq) FROM "+cd.q(ChangeLog)+"), "+
		"(SELECT count(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE IN ("+in+") AND TRIGGER_NAME LIKE 'sitemap\\_%'), "+
		"(SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ("+in+"))", append(args, args...)...).Scan(&seq, &trig, &tables)
	return strconv.FormatInt(seq.Int64, 10) + "/" + strconv.Itoa(trig) + "/" + strconv.Itoa(tables), err
}

type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

type queryer interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// InstallTriggers creates the change log [ChangeLog] (when there is none)
// and AFTER INSERT, UPDATE and DELETE triggers on each table that append
// its key column's value of each row changed (an UPDATE: the old key,
// and the new one when it differs) to it. db is a SQLite or a MySQL or
// MariaDB database, opened with the right to change its schema: on
// MySQL the TRIGGER and CREATE privileges (TRIGGER on the tables, CREATE
// and INSERT, DELETE on the log for the writers' triggers). Installing
// again replaces the triggers (another key column). On SQLite it is one
// transaction; on MySQL each trigger is its own statement (DDL commits).
// A source watched with [WatchChanges] then reads only the pages holding
// those keys. Every write to a table then also writes a log row (a
// DELETE of every row, one log row each; on SQLite the fast truncate is
// off while a table has triggers; MySQL's TRUNCATE fires no trigger).
// [RemoveTriggers] undoes it.
func InstallTriggers(ctx context.Context, db *sql.DB, tables ...ChangeTable) error {
	cd, err := changeDialectOfDB(db)
	if err != nil {
		return err
	}
	return cd.inTx(ctx, db, func(x execer) error {
		for _, ct := range tables {
			if err := cd.installTable(ctx, x, ct); err != nil {
				return err
			}
		}
		return nil
	})
}

// inTx runs fn in a transaction (on MySQL each DDL statement commits by
// itself).
func (cd changeDialect) inTx(ctx context.Context, db interface {
	BeginTx(context.Context, *sql.TxOptions) (*sql.Tx, error)
}, fn func(execer) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func (cd changeDialect) installTable(ctx context.Context, x execer, ct ChangeTable) error {
	t, err := cd.table(ct.Table)
	if err != nil {
		return err
	}
	if ct.Key == "" {
		return fmt.Errorf("serve: triggers on table %s: give its key column", t)
	}
	for _, q := range cd.install(t, ct.Key) {
		if _, err := x.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("serve: installing the change triggers on table %s: %w%s", t, err, cd.privilegeHint(err))
		}
	}
	return nil
}

// privilegeHint says which privilege a MySQL error of denied access
// lacks.
func (cd changeDialect) privilegeHint(err error) string {
	if cd.d == MySQL && strings.Contains(err.Error(), "denied") {
		return " (the user needs the TRIGGER privilege on the table and CREATE, INSERT and DELETE on " + ChangeLog + ": GRANT TRIGGER, CREATE, INSERT, DELETE ON db.* TO user)"
	}
	return ""
}

// RemoveTriggers drops the triggers [InstallTriggers] put on the tables
// and those tables' rows of the change log; the log itself goes when no
// other table's triggers write to it. Nothing to remove is no error.
func RemoveTriggers(ctx context.Context, db *sql.DB, tables ...string) error {
	cd, err := changeDialectOfDB(db)
	if err != nil {
		return err
	}
	return cd.inTx(ctx, db, func(x execer) error {
		var ts []string
		for _, table := range tables {
			t, err := cd.table(table)
			if err != nil {
				return err
			}
			ts = append(ts, t)
			for _, n := range triggerNames(t) {
				if _, err := x.ExecContext(ctx, "DROP TRIGGER IF EXISTS "+cd.q(n)); err != nil {
					return fmt.Errorf("serve: removing the change triggers of table %s: %w%s", t, err, cd.privilegeHint(err))
				}
			}
		}
		others, err := cd.others(ctx, x.(queryer))
		if err != nil {
			return err
		}
		q := "DROP TABLE IF EXISTS " + cd.q(ChangeLog)
		if others > 0 {
			in := make([]string, len(ts))
			for i, t := range ts {
				in[i] = cd.lit(t)
			}
			q = "DELETE FROM " + cd.q(ChangeLog) + " WHERE tbl IN (" + strings.Join(in, ", ") + ")"
		} else if cd.d == MySQL {
			var logs int
			if err := x.(queryer).QueryRowContext(ctx, "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?", ChangeLog).Scan(&logs); err != nil || logs == 0 {
				return err // no log: no DROP, which needs a privilege the user may lack
			}
		}
		if _, err := x.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("serve: removing the change log: %w", err)
		}
		return nil
	})
}

// TriggersInstalled reports whether table has the triggers of
// [InstallTriggers] (false on a database that is not SQLite or MySQL).
func TriggersInstalled(ctx context.Context, db *sql.DB, table string) (bool, error) {
	d, err := DialectOf(db)
	if err != nil {
		return false, err
	}
	cd, err := changeDialectOf(d)
	if err != nil {
		return false, nil
	}
	t, err := cd.table(table)
	if err != nil {
		return false, nil
	}
	logs, n, _, err := cd.state(ctx, db, t)
	return logs == 1 && n == 3, err
}

// ChangeFeed is how [WatchChanges] follows the change log.
type ChangeFeed struct {
	// Poll is how often the database is asked whether the log moved
	// (SQLite's data_version; MySQL's newest log row): 250 ms when 0.
	Poll time.Duration
	// MaxKeys is the most keys of one poll read page by page: a poll
	// with more (a bulk load, a DELETE of every row) checks every page.
	// 1,000 when 0.
	MaxKeys int
	// Full, when set, checks every page that often too: what no trigger
	// sees (a TRUNCATE on MySQL; a preset's page made of other tables'
	// rows, such as a WordPress term archive or the children of a page
	// whose slug changed) is then served within Full.
	Full time.Duration
	// Logf, when set, is told when the triggers were found gone (the
	// table dropped) and put back.
	Logf func(format string, args ...any)
}

// WatchChanges gives src (a SQLite or MySQL/MariaDB table, or a query
// with Query.Changes, whose tables have the triggers of
// [InstallTriggers]) a [Watcher]: every f.Poll it asks, on a connection
// of its own, whether the change log moved (SQLite: the database's
// data_version, moved by any other connection's commit; MySQL: the log's
// newest seq, one lookup of its primary key), and then reads the log
// past the last row it read; the keys found are located to their pages
// (src's Locator) and only those pages are read again. Every page is
// checked instead at start, every f.Full, and when the log cannot say
// what changed: more than f.MaxKeys keys, the log's rows since the last
// read gone (pruned, the log dropped), or the triggers gone (the table
// dropped and created again: while the change log is there, they are put
// back first, so the check that follows sees every row; when the
// connection may not, the feed fails, and the handler checks every page
// each Options.Recheck and starts it again later). Without the log the
// feed fails: serve src without WatchChanges (every page read at each
// check).
func WatchChanges(src *SQLSource, f *ChangeFeed) Source {
	return Watched(src, func(ctx context.Context, fn func(Change)) error {
		return f.watch(ctx, src, fn)
	})
}

// errNoChangeLog is WatchChanges's error on a table without the triggers.
var errNoChangeLog = errors.New("no change log: install it with sitemap serve --install-trigger (or serve.InstallTriggers)")

func (f *ChangeFeed) watch(ctx context.Context, src *SQLSource, fn func(Change)) error {
	cd, err := changeDialectOf(src.q.Dialect)
	if err != nil {
		return err
	}
	w := &changeReader{f: f, cd: cd, tables: map[string]string{}}
	for _, ct := range src.ChangeTables() {
		t, err := cd.table(ct.Table)
		if err != nil {
			return err
		}
		w.tables[t] = ct.Key
		w.names = append(w.names, t)
	}
	if len(w.names) == 0 {
		return fmt.Errorf("serve: %s: give Query.Changes, the tables whose triggers log its keys", src.what())
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
	w.c = c
	if err := w.sync(ctx); err != nil {
		return err
	}
	fn(Change{All: true})
	ver := ""
	tick := time.NewTicker(poll)
	defer tick.Stop()
	var full <-chan time.Time
	if f.Full > 0 {
		t := time.NewTicker(f.Full)
		defer t.Stop()
		full = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-full:
			fn(Change{All: true})
			continue
		case <-tick.C:
		}
		v, err := cd.version(ctx, c, w.names)
		if err != nil {
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

// changeReader reads the tables' rows of the change log.
type changeReader struct {
	f       *ChangeFeed
	cd      changeDialect
	c       *sql.Conn
	tables  map[string]string // table → key column
	names   []string          // the tables, in order
	last    int64             // the newest seq read (0: none)
	lastKey string            // its key, as text: the row must still be there
}

// sync puts the triggers back on the tables that lost them (the change
// log is there: they were installed once; an error when they cannot be),
// and starts the log at its end.
func (w *changeReader) sync(ctx context.Context) error {
	for _, t := range w.names {
		logs, n, tables, err := w.cd.state(ctx, w.c, t)
		if err != nil {
			return err
		}
		if logs == 0 {
			return fmt.Errorf("serve: table %s: %w", t, errNoChangeLog)
		}
		if n == 3 || tables == 0 { // dropped: put back once it is created again
			continue
		}
		if err := w.reinstall(ctx, t); err != nil {
			// The handler checks every page at each Recheck meanwhile,
			// and starts the feed again, which tries again.
			return fmt.Errorf("serve: the change triggers of table %s are gone (the table dropped and created again?) and cannot be put back (%v): install them again: run this command once with --install-trigger added", t, err)
		}
		if w.f.Logf != nil {
			w.f.Logf("the change triggers of table %s were gone (the table dropped and created again?): put back; every page checked", t)
		}
	}
	return w.end(ctx)
}

func (w *changeReader) reinstall(ctx context.Context, t string) error {
	ct := ChangeTable{Table: t, Key: w.tables[t]}
	if w.cd.d != SQLite {
		return w.cd.inTx(ctx, w.c, func(x execer) error { return w.cd.installTable(ctx, x, ct) })
	}
	// BEGIN IMMEDIATE takes the write lock first, waiting for other
	// writers as long as the connection's busy_timeout: a deferred
	// transaction reads the schema before it writes, and fails at once
	// (SQLITE_BUSY) when another connection committed meanwhile, which
	// the writes to a table just created again make likely.
	if _, err := w.c.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	err := w.cd.installTable(ctx, w.c, ct)
	if err == nil {
		_, err = w.c.ExecContext(ctx, "COMMIT")
	}
	if err != nil {
		w.c.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
	}
	return err
}

// end moves past the log's newest row.
func (w *changeReader) end(ctx context.Context) error {
	var seq sql.NullInt64
	var key any
	err := w.c.QueryRowContext(ctx, "SELECT seq, `key` FROM "+w.cd.q(ChangeLog)+" ORDER BY seq DESC LIMIT 1").Scan(&seq, &key)
	if errors.Is(err, sql.ErrNoRows) {
		w.last, w.lastKey = 0, ""
		return nil
	}
	w.last, w.lastKey = seq.Int64, keyText(key)
	return err
}

// read returns the keys logged since the last read, or All.
func (w *changeReader) read(ctx context.Context) (Change, error) {
	all := Change{All: true}
	for _, t := range w.names {
		if _, n, _, err := w.cd.state(ctx, w.c, t); err != nil || n != 3 {
			if err == nil {
				err = w.sync(ctx)
			}
			return all, err
		}
	}
	log := w.cd.q(ChangeLog)
	if w.last > 0 {
		var key any
		err := w.c.QueryRowContext(ctx, "SELECT `key` FROM "+log+" WHERE seq = ?", w.last).Scan(&key)
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
	rows, err := w.c.QueryContext(ctx, "SELECT seq, tbl, `key` FROM "+log+" WHERE seq > ? ORDER BY seq LIMIT ?", w.last, maxKeys+1)
	if err != nil {
		return all, err
	}
	var ch Change
	var seq int64
	var tbl string
	n := 0
	for rows.Next() {
		var key any
		if err := rows.Scan(&seq, &tbl, &key); err != nil {
			rows.Close()
			return all, err
		}
		n++
		w.last, w.lastKey = seq, keyText(key)
		if _, ok := w.tables[tbl]; ok {
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

// ChangeLog reports whether s reads a SQLite or MySQL/MariaDB database
// whose change tables ([SQLSource.ChangeTables]) all have the triggers of
// [InstallTriggers] (a source to give [WatchChanges]); false for any
// other source.
func (s *SQLSource) ChangeLog(ctx context.Context) (bool, error) {
	ts := s.ChangeTables()
	if (s.q.Dialect != SQLite && s.q.Dialect != MySQL) || len(ts) == 0 {
		return false, nil
	}
	for _, ct := range ts {
		ok, err := TriggersInstalled(ctx, s.db, ct.Table)
		if !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// SQLite reports whether s reads a SQLite database.
func (s *SQLSource) SQLite() bool { return s.q.Dialect == SQLite }
