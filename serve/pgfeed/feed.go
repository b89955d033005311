// Package pgfeed reports the committed changes of one PostgreSQL table, so
// that a sitemap server rebuilds only the pages those changes touch.
//
// Two feeds give the same [Change]s:
//
//   - [Watch] follows the table by logical decoding (the pgoutput plugin over
//     a replication connection, through github.com/jackc/pglogrepl). It needs
//     wal_level = logical, a role with the REPLICATION attribute, and a
//     publication of the table (created by the feed when [Options.Create]
//     allows it). Its replication slot is temporary: the server drops it when
//     the connection ends, however it ends, so no slot is left holding WAL.
//   - [WatchNotify] follows the table by LISTEN/NOTIFY, from statement-level
//     triggers installed once by [InstallTrigger]. It needs no server
//     setting or privilege beyond creating triggers on the table, and costs
//     the writers the capture of each statement's rows and a pg_notify.
//
// Both call fn first with Change{All: true} (anything committed before the
// feed started must be checked in full), then once per committed transaction
// that touched the table, in commit order, with the values of the key column
// of every row it inserted, updated or deleted. Where a feed cannot tell the
// rows (TRUNCATE, a change of the table's columns, an old key the server did
// not send, a reconnection) it says All instead of guessing. fn runs on
// Watch's goroutine; while it runs, the feed keeps reading, and the changes
// of the transactions committed meanwhile are merged into the next call (past
// 100,000 keys, into All), so a slow fn costs neither the server (WAL, the
// NOTIFY queue) nor memory.
//
// Keys are the PostgreSQL text form of the key column's values, as
// "SELECT key::text" gives them: for an integer key, its decimal digits. For
// date and time types the form depends on the DateStyle and TimeZone
// settings of the session that writes it (Watch's replication connection,
// or for WatchNotify the writer's). A row whose key is NULL makes its change
// All.
//
// PostgreSQL 12 or later.
package pgfeed

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Options says which table a feed follows and how.
type Options struct {
	// ConnString is the server's postgres:// URL (or key=value string). The
	// feed opens its own connections: one for queries and, for Watch, one
	// replication connection (replication=database).
	ConnString string
	// Table is the table to follow, "name" or "schema.name", each part
	// taken as written (case-sensitive, as a quoted identifier).
	Table string
	// Key is the column whose values identify rows: the sitemap's pages are
	// cut by it.
	Key string
	// Name names Watch's publication and, followed by "_" and the
	// connection's process ID, its replication slot (so several feeds may
	// follow one table at once). Lower-case letters, digits and _ only. When
	// empty: "sitemap_" and the table's name (with its schema when that is
	// not public; other characters made _ and a hash of the name added).
	// WatchNotify does not use it: its channel is named after the table by
	// InstallTrigger.
	Name string
	// Create lets Watch create the publication when it is missing (which
	// needs ownership of the table), and drop it again when it ends, unless
	// another feed of the same name still uses it. Without Create a missing
	// publication is an error naming the statement that creates it.
	Create bool
	// Logf, when set, receives what the feed wants a person to know: a key
	// column that is not in the table's replica identity, a reconnection, a
	// publication it could not drop. It is called from the feed's own
	// goroutines, never at the same time as itself.
	Logf func(format string, args ...any)
}

// Change is what one committed transaction (or several, merged while fn ran)
// did to the table.
type Change struct {
	// Keys are the key column's values (PostgreSQL text form) of every row
	// the transaction inserted, updated or deleted, each once; for an UPDATE
	// that changed the key, both the old and the new key. Empty when All.
	Keys []string
	// All says the feed cannot tell which rows changed: the feed's start,
	// TRUNCATE, a change of the table's columns, a row whose old key the
	// server did not send, a NULL key, a reconnection, too many keys. The
	// caller must check the whole table.
	All bool
}

// maxKeys is the most keys one Change carries: past it, it is All (a bulk
// load costs one full check, and memory stays bounded).
const maxKeys = 100_000

// checkEvery is how often a feed checks that its table (and its trigger or
// publication) is still there and has the same columns.
const checkEvery = 2 * time.Second

// tuning holds what the tests shorten.
type tuning struct {
	check   time.Duration // checkEvery
	status  time.Duration // statusEvery
	maxKeys int           // maxKeys
	slowLog time.Duration // slowSlot
}

// defaults is the tuning of Watch and WatchNotify.
func defaults() tuning {
	return tuning{check: checkEvery, status: statusEvery, maxKeys: maxKeys, slowLog: slowSlot}
}

// keyset is the keys of one transaction, or of several merged: each key once,
// in the order first seen, or All.
type keyset struct {
	all   bool
	keys  []string
	seen  map[string]struct{}
	limit int // the most keys; 0: maxKeys
}

func (s *keyset) add(k string) {
	if s.all {
		return
	}
	if _, ok := s.seen[k]; ok {
		return
	}
	if len(s.keys) >= cmp.Or(s.limit, maxKeys) {
		s.setAll()
		return
	}
	if s.seen == nil {
		s.seen = map[string]struct{}{}
	}
	s.seen[k] = struct{}{}
	s.keys = append(s.keys, k)
}

func (s *keyset) setAll() {
	s.all, s.keys, s.seen = true, nil, nil
}

// reset empties s, keeping its limit.
func (s *keyset) reset() { *s = keyset{limit: s.limit} }

func (s *keyset) merge(o *keyset) {
	if o.all {
		s.setAll()
		return
	}
	for _, k := range o.keys {
		s.add(k)
	}
}

// queue passes changes from the goroutine reading the server to the one
// calling fn, merging those that wait.
type queue struct {
	mu      sync.Mutex
	pending bool
	set     keyset
	ready   chan struct{} // one token while something is pending
}

func newQueue(limit int) *queue {
	return &queue{ready: make(chan struct{}, 1), set: keyset{limit: limit}}
}

func (q *queue) put(s *keyset) {
	q.mu.Lock()
	q.set.merge(s)
	q.pending = true
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

func (q *queue) putAll() { q.put(&keyset{all: true}) }

func (q *queue) take() (Change, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.pending {
		return Change{}, false
	}
	c := Change{All: q.set.all, Keys: q.set.keys}
	q.set.reset()
	q.pending = false
	return c, true
}

// run calls fn with what the workers put in q (which holds the first change
// already) until ctx is done (nil) or a worker fails (its error, after fn has
// had the changes committed before the failure). The workers get a context
// cancelled when run returns.
func run(ctx context.Context, q *queue, fn func(Change), workers ...func(context.Context) error) error {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, len(workers))
	for _, w := range workers {
		go func() { errc <- w(wctx) }()
	}
	var failed error
	for running := len(workers); running > 0; {
		select {
		case <-q.ready:
			if wctx.Err() != nil {
				continue // done, or failed: delivered below
			}
			if c, ok := q.take(); ok {
				fn(c)
			}
		case err := <-errc:
			running--
			if err != nil && failed == nil && ctx.Err() == nil {
				failed = err
			}
			cancel()
		}
	}
	if failed != nil {
		if c, ok := q.take(); ok {
			fn(c)
		}
	}
	return failed
}

// target is the followed table as the catalog names it.
type target struct {
	oid      uint32
	schema   string
	name     string
	kind     string // pg_class.relkind
	ident    string // pg_class.relreplident: d(efault), n(othing), f(ull), i(ndex)
	owner    string
	hasIdent bool     // the table has a replica identity (FULL, an index, or a primary key by default)
	keyInID  bool     // the key column is part of it
	columns  []column // the columns pgoutput sends, in order
}

// column is one published column of a table.
type column struct {
	name   string
	typ    uint32
	typmod int32
}

// quoted is the table's name to put in SQL.
func (t *target) quoted() string { return pgx.Identifier{t.schema, t.name}.Sanitize() }

// String is the table's name for people.
func (t *target) String() string {
	if t.schema == "public" {
		return t.name
	}
	return t.schema + "." + t.name
}

// quoteTable is Options.Table as SQL: each dotted part quoted.
func quoteTable(s string) string { return pgx.Identifier(strings.Split(s, ".")).Sanitize() }

// minVersion is the oldest PostgreSQL the feeds work with.
const minVersion = 120000

// resolve finds o.Table and o.Key in the catalog of the database c is
// connected to.
func resolve(ctx context.Context, c *pgx.Conn, o Options) (*target, error) {
	if o.Table == "" || o.Key == "" {
		return nil, fmt.Errorf("pgfeed: name the table and its key column (Options.Table, Options.Key)")
	}
	var version int
	if err := c.QueryRow(ctx, "SELECT current_setting('server_version_num')::int").Scan(&version); err != nil {
		return nil, fmt.Errorf("pgfeed: %w", err)
	}
	if version < minVersion {
		return nil, fmt.Errorf("pgfeed: PostgreSQL %d.%d is too old: the feeds need PostgreSQL 12 or later", version/10000, version%10000)
	}
	t := &target{}
	var oid *uint32
	err := c.QueryRow(ctx, `SELECT c.oid, n.nspname, c.relname, c.relkind::text, c.relreplident::text, pg_get_userbyid(c.relowner),
			c.relreplident = 'f' OR EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid
				AND ((c.relreplident = 'd' AND i.indisprimary) OR (c.relreplident = 'i' AND i.indisreplident)))
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.oid = to_regclass($1)`, quoteTable(o.Table)).Scan(&oid, &t.schema, &t.name, &t.kind, &t.ident, &t.owner, &t.hasIdent)
	if err == pgx.ErrNoRows {
		var db, path string
		c.QueryRow(ctx, "SELECT current_database(), current_setting('search_path')").Scan(&db, &path)
		return nil, fmt.Errorf("pgfeed: table %q not found in database %s (search_path %s): check the table's name (case matters; write schema.name for another schema)", o.Table, db, path)
	}
	if err != nil {
		return nil, fmt.Errorf("pgfeed: looking up table %q: %w", o.Table, err)
	}
	t.oid = *oid
	if t.kind != "r" && t.kind != "p" {
		return nil, fmt.Errorf("pgfeed: %s is not a table (pg_class.relkind %q): follow the table the sitemap's rows come from", t, t.kind)
	}
	cols, err := columnsOf(ctx, c, t.oid)
	if err != nil {
		return nil, err
	}
	t.columns = cols
	found := false
	var names []string
	for _, col := range cols {
		names = append(names, col.name)
		found = found || col.name == o.Key
	}
	if !found {
		var generated bool
		c.QueryRow(ctx, "SELECT attgenerated <> '' FROM pg_attribute WHERE attrelid = $1 AND attname = $2 AND NOT attisdropped", t.oid, o.Key).Scan(&generated)
		if generated {
			return nil, fmt.Errorf("pgfeed: key column %q of %s is a generated column, which the feeds do not see: use a stored column", o.Key, t)
		}
		return nil, fmt.Errorf("pgfeed: table %s has no column %q (the key); it has %s", t, o.Key, strings.Join(names, ", "))
	}
	err = c.QueryRow(ctx, `SELECT c.relreplident = 'f' OR EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid
			AND ((c.relreplident = 'd' AND i.indisprimary) OR (c.relreplident = 'i' AND i.indisreplident))
			AND a.attnum = ANY (i.indkey))
		FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
		WHERE c.oid = $1 AND a.attname = $2`, t.oid, o.Key).Scan(&t.keyInID)
	if err != nil {
		return nil, fmt.Errorf("pgfeed: reading the replica identity of %s: %w", t, err)
	}
	return t, nil
}

// columnsOf is the columns of table oid that pgoutput sends (not dropped, not
// generated), in order.
func columnsOf(ctx context.Context, c *pgx.Conn, oid uint32) ([]column, error) {
	rows, err := c.Query(ctx, `SELECT attname, atttypid, atttypmod FROM pg_attribute
		WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`, oid)
	if err != nil {
		return nil, fmt.Errorf("pgfeed: reading the columns of the table: %w", err)
	}
	var cols []column
	for rows.Next() {
		var col column
		if err := rows.Scan(&col.name, &col.typ, &col.typmod); err != nil {
			return nil, fmt.Errorf("pgfeed: reading the columns of the table: %w", err)
		}
		cols = append(cols, col)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pgfeed: reading the columns of the table: %w", err)
	}
	return cols, nil
}

// sameColumns reports whether a and b are the same columns in the same order.
func sameColumns(a, b []column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// stillThere checks, every so often, that the followed table still exists
// under its OID, and (for a feed that does not see the table's columns
// otherwise) whether its columns changed.
type stillThere struct {
	t    *target
	q    *queue
	cols []column // the columns at the last check; nil: not checked
	why  string   // what a missing table means for this feed
}

// check returns an error when the table is gone or renamed, and puts All in
// the queue when its columns changed since the last check.
func (s *stillThere) check(ctx context.Context, c *pgx.Conn) error {
	var oid *uint32
	err := c.QueryRow(ctx, "SELECT to_regclass($1)::oid", s.t.quoted()).Scan(&oid)
	if err != nil {
		return fmt.Errorf("pgfeed: checking table %s: %w", s.t, err)
	}
	if oid == nil || *oid != s.t.oid {
		return fmt.Errorf("pgfeed: table %s was dropped or renamed while the feed followed it (%s): start the feed again to follow the table now of that name", s.t, s.why)
	}
	if s.cols == nil {
		return nil
	}
	cols, err := columnsOf(ctx, c, s.t.oid)
	if err != nil {
		return err
	}
	if !sameColumns(cols, s.cols) {
		s.cols = cols
		s.q.putAll()
	}
	return nil
}

// objectName is prefix followed by s in lower-case letters, digits and _,
// at most 63 bytes (PostgreSQL's limit for names). When that changed s (a
// character replaced, the name cut), a hash of s is added, so two tables
// never share a name.
func objectName(prefix, s string, room int) string {
	var b strings.Builder
	changed := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
			changed = true
		}
	}
	name := prefix + b.String()
	max := 63 - room
	if changed || len(name) > max {
		h := fnv.New32a()
		h.Write([]byte(s))
		sum := fmt.Sprintf("_%08x", h.Sum32())
		if len(name) > max-len(sum) {
			name = name[:max-len(sum)]
		}
		name += sum
	}
	return name
}

// baseName is what a table's objects are named after: its name, with its
// schema when that is not public.
func (t *target) baseName() string {
	if t.schema == "public" {
		return t.name
	}
	return t.schema + "." + t.name
}

// appName is the application_name of the feeds' connections (unless the
// ConnString sets one): what pg_stat_activity shows of them.
const appName = "sitemap change feed"

// connect opens a query connection.
func connect(ctx context.Context, connString string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(connString)
	if err != nil {
		return nil, fmt.Errorf("pgfeed: %w", err)
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = appName
	}
	delete(cfg.RuntimeParams, "replication") // queries need a normal session
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgfeed: connecting to PostgreSQL: %w", err)
	}
	return c, nil
}

// logger is o.Logf, or nothing.
func logger(o Options) func(string, ...any) {
	if o.Logf != nil {
		return o.Logf
	}
	return func(string, ...any) {}
}
