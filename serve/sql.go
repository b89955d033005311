package serve

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// Dialect is the SQL spoken by a database: how parameters are written.
type Dialect string

// The dialects a SQL source speaks.
const (
	SQLite   Dialect = "sqlite"   // modernc.org/sqlite: ? parameters
	Postgres Dialect = "postgres" // PostgreSQL through pgx's database/sql driver: $1 parameters
	MySQL    Dialect = "mysql"    // MySQL and MariaDB through go-sql-driver/mysql: ? parameters, `name` identifiers
)

// DialectOf tells the dialect of db from its driver: modernc.org/sqlite,
// pgx (or lib/pq) and go-sql-driver/mysql are known; any other driver is
// an error saying to set Query.Dialect.
func DialectOf(db *sql.DB) (Dialect, error) {
	d := strings.ToLower(fmt.Sprintf("%T", db.Driver()))
	switch {
	case strings.Contains(d, "sqlite"):
		return SQLite, nil
	case strings.Contains(d, "stdlib") || strings.Contains(d, "pgx") || strings.Contains(d, "pq"):
		return Postgres, nil
	case strings.Contains(d, "mysql"):
		return MySQL, nil
	}
	return "", fmt.Errorf("cannot tell the SQL dialect of driver %s: set Query.Dialect", d)
}

// Query says where a SQL source's entries are: a table (Table) or the
// result of a SELECT (Query), and which of its columns hold what.
type Query struct {
	// Table is the table (or view) to read, "name" or "schema.name".
	Table string
	// Query is a SELECT whose rows are the entries, used instead of Table.
	// It is wrapped as a subquery ("SELECT … FROM (Query) AS q WHERE key > …
	// ORDER BY key"), so a filter on its key column reaches the table's index.
	Query string
	// Columns names the columns. A field it leaves empty is found by the
	// column's name (see [Columns]); with Query, a loc no name matches is
	// the first column no other field took, and a lastmod no name matches
	// the second column when no field took it.
	Columns Columns
	// Key is the column the pages are cut by, unique and stable: the
	// Columns.Loc column when empty. Give it an index (a primary key or
	// unique index), or every page is a scan.
	Key string
	// Dialect of the database; found from db's driver when empty.
	Dialect Dialect
	// URL, when set, turns the loc column's value into the entry's loc:
	// a CMS's own URL rules (package preset: a MediaWiki title
	// percent-encoded as MediaWiki does and put into the article path).
	// It is called for every row read, from several goroutines at once;
	// what it returns is resolved against Options.BaseURL when relative.
	URL func(loc string) string
	// Dropped, when set, is told about every value of a row that could
	// not be read and was left out of its entry, the row itself served
	// without it: a lastmod that is no date (M-01), a priority that is no
	// number (P-01), an ext value that is not a JSON object of extension
	// fields (SRC-06), an image, video, news block or alternate of it
	// that does not fit the entry record (IM-01, V-01, N-01, H-05). key
	// and loc are the row's, as the table holds them; err's Field names
	// the part left out ("lastmod", "priority", "ext", "images[1]"),
	// Rule the rule it breaks, Value the value (cut to 200 bytes) and
	// Message why. It is told again each time the row is read (every
	// page build, every recount); it may be called from several
	// goroutines at once. Nothing of it reaches a response. A value the
	// encoder refuses (a priority of 5, a relative image loc) is told to
	// Options.Dropped instead.
	Dropped func(key Key, loc string, err *sitemap.EntryError)
	// Changes are the tables whose writes change a Query's rows, each
	// with its column holding the key of the row it changes: where
	// [InstallTriggers] puts the triggers whose change log [WatchChanges]
	// reads (the presets give theirs). For a Table it is that table and
	// Key when empty.
	Changes []ChangeTable
}

// Columns maps entry fields to column names; an empty name means the
// entries do not have that field, unless SQL finds a column for it by its
// name. Names are matched with case, '_', '-' and spaces ignored
// (updated_at, UpdatedAt and "Updated At" are one name), the first name
// of each list that a column has winning:
//
//	loc         loc, url, page_url, permalink, link, href
//	lastmod     lastmod, last_modified, updated_at, updated, modified_at,
//	            modified, last_updated, date_modified, date_updated,
//	            post_modified_gmt (WordPress), page_touched (MediaWiki),
//	            changed (Drupal), last_published_at (Wagtail)
//	changefreq  changefreq, change_frequency, sitemap_changefreq
//	priority    priority, sitemap_priority
//	ext         ext, extensions, json
//
// A column named in Columns is never taken for another field.
// [SQLSource.Found] says what was found.
type Columns struct {
	Loc        string // the page URL: absolute, or resolved against Options.BaseURL
	LastMod    string // a timestamp, a W3C Datetime string, SQLite's "YYYY-MM-DD HH:MM:SS", MediaWiki's YYYYMMDDHHMMSS (UTC), or Unix seconds
	ChangeFreq string // one of the seven values (C-01), in any case
	Priority   string // 0.0 to 1.0
	// Ext is a JSON column with any of the entry record's extension
	// fields: {"images": […], "videos": […], "news": {…}, "alternates": […]}.
	Ext string
}

// ParseColumns reads "loc=url,lastmod=updated_at,…" (the field names of
// the entry record: loc, lastmod, changefreq, priority, ext), each at
// most once.
func ParseColumns(s string) (Columns, error) {
	var c Columns
	seen := map[string]bool{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || v == "" {
			return c, fmt.Errorf("column mapping %q: write FIELD=COLUMN, e.g. loc=url,lastmod=updated_at", item)
		}
		field := k
		if field == "json" {
			field = "ext"
		}
		if seen[field] {
			return c, fmt.Errorf("column mapping %q: field %s is mapped twice; map each of loc, lastmod, changefreq, priority and ext once", item, field)
		}
		seen[field] = true
		switch k {
		case "loc":
			c.Loc = v
		case "lastmod":
			c.LastMod = v
		case "changefreq":
			c.ChangeFreq = v
		case "priority":
			c.Priority = v
		case "ext", "json":
			c.Ext = v
		default:
			return c, fmt.Errorf("column mapping %q: unknown field %q; use loc, lastmod, changefreq, priority or ext", item, k)
		}
	}
	return c, nil
}

// SQLSource is the Source of a table or query (see [SQL]).
type SQLSource struct {
	db    *sql.DB
	q     Query
	from  string // the FROM clause
	key   string // quoted key column
	sel   string // key, loc, lastmod, changefreq, priority, ext
	found string // the columns found by name or position (Found)
	param func(int) string

	// SQLite's data_version, read on a connection of its own (the value
	// moves when another connection commits), and the database file it
	// was opened on (a file moved into its place is another database),
	// under mu.
	mu      sync.Mutex
	conn    *sql.Conn
	connGen int
	path    string
	file    os.FileInfo
}

// SQL returns the Source of a table or query of db, paged by keyset on
// q.Key. It checks the columns now (a SELECT of no rows), so a wrong name
// is an error here, not on the first request.
func SQL(ctx context.Context, db *sql.DB, q Query) (*SQLSource, error) {
	if (q.Table == "") == (q.Query == "") {
		return nil, errors.New("give a table or a query, not both or neither")
	}
	if q.Dialect == "" {
		d, err := DialectOf(db)
		if err != nil {
			return nil, err
		}
		q.Dialect = d
	}
	s := &SQLSource{db: db, q: q}
	switch q.Dialect {
	case SQLite, MySQL:
		s.param = func(int) string { return "?" }
	case Postgres:
		s.param = func(i int) string { return "$" + strconv.Itoa(i) }
	default:
		return nil, fmt.Errorf("unknown dialect %q: use %q, %q or %q", q.Dialect, SQLite, Postgres, MySQL)
	}
	if q.Table != "" {
		parts := strings.Split(q.Table, ".")
		for i, p := range parts {
			parts[i] = quoteIdent(q.Dialect, p)
		}
		s.from = strings.Join(parts, ".")
	} else {
		s.from = "(" + strings.TrimRight(strings.TrimSpace(q.Query), ";") + ") AS q"
	}
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+s.from+" LIMIT 0")
	if err != nil {
		return nil, s.firstQueryError(ctx, err)
	}
	names, err := rows.Columns()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the columns of %s: %w", s.what(), err)
	}
	if err := s.resolveColumns(names); err != nil {
		return nil, err
	}
	c := &s.q.Columns
	if s.q.Key == "" {
		s.q.Key = c.Loc
	}
	col := func(n string) string {
		if n == "" {
			return "NULL"
		}
		return quoteIdent(s.q.Dialect, n)
	}
	s.key = quoteIdent(s.q.Dialect, s.q.Key)
	s.sel = strings.Join([]string{s.key, col(c.Loc), col(c.LastMod), col(c.ChangeFreq), col(c.Priority), col(c.Ext)}, ", ")
	return s, nil
}

// Columns returns the columns the source reads: Query.Columns with the
// fields SQL found by name or position filled in.
func (s *SQLSource) Columns() Columns { return s.q.Columns }

// KeyColumn is the column the pages are cut by: Query.Key, or the loc
// column when it is empty.
func (s *SQLSource) KeyColumn() string { return s.q.Key }

// Found says, for a person, which columns SQL found by their name or
// position rather than from Query.Columns ("found by name: loc=url,
// lastmod=updated_at"), and the other columns that had a field's name;
// "" when Query.Columns named them all.
func (s *SQLSource) Found() string { return s.found }

func (s *SQLSource) what() string {
	if s.q.Table != "" {
		return "table " + s.q.Table
	}
	return "the query"
}

// quoteIdent quotes a SQL identifier. SQLite takes "name" for a string
// when no column has that name (a column renamed or dropped while serving
// would be read as its own name, the same text in every row), so there it
// is `name`, which is only ever an identifier; MySQL takes "name" for a
// string unless ANSI_QUOTES is set, so there too.
func quoteIdent(d Dialect, s string) string {
	if d == SQLite || d == MySQL {
		return "`" + strings.ReplaceAll(s, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// Version implements [Source]. On SQLite it is the database's
// data_version, read on a connection the source keeps for it: it moves
// with every commit of any other connection or process, so a check reads
// the pages only after a commit. On PostgreSQL it is empty: a check reads
// every page (give the source a feed, package serve/pgfeed, to read only
// the pages a commit touched). On MySQL and MariaDB it is empty too: no
// value there moves exactly with a table's commits (information_schema's
// UPDATE_TIME is kept in memory, at whole seconds, and not for views or
// queries), so every page is read and compared at each check.
func (s *SQLSource) Version(ctx context.Context) (string, error) {
	if s.q.Dialect != SQLite {
		return "", nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil && s.file != nil {
		if fi, err := os.Stat(s.path); err == nil && !os.SameFile(fi, s.file) {
			// Another file was moved into the database's place (a
			// deploy's "build, then mv"): every connection still reads
			// the old one. Drop the idle ones, and this one.
			s.conn.Close()
			s.conn = nil
			s.db.SetMaxIdleConns(0)
			s.db.SetMaxIdleConns(2)
		}
	}
	if s.conn == nil {
		c, err := s.db.Conn(ctx)
		if err != nil {
			return "", err
		}
		s.conn = c
		s.connGen++
		s.file = nil
		var seq int
		var name, path string
		if c.QueryRowContext(ctx, "PRAGMA database_list").Scan(&seq, &name, &path) == nil && path != "" {
			if fi, err := os.Stat(path); err == nil {
				s.path, s.file = path, fi
			}
		}
	}
	var v int64
	if err := s.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		s.conn.Close()
		s.conn = nil
		return "", err
	}
	return "sqlite:" + strconv.Itoa(s.connGen) + ":" + strconv.FormatInt(v, 10), nil
}

// Close releases the connection Version keeps (SQLite); the source is
// not used afterwards. It does not close the *sql.DB.
func (s *SQLSource) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return nil
	}
	err := s.conn.Close()
	s.conn = nil
	return err
}

// Locate implements [Locator]: the database compares the keys with the
// page bounds, in the order of its ORDER BY (the key column's collation:
// a SQLite column declared COLLATE NOCASE compares as NOCASE). Keys may
// be given in their text form (what a change feed reports).
func (s *SQLSource) Locate(ctx context.Context, uppers []Key, keys []Key) ([]int, error) {
	out := make([]int, len(keys))
	if len(uppers) == 0 {
		return out, nil
	}
	switch s.q.Dialect {
	case Postgres:
		return s.locatePostgres(ctx, uppers, keys)
	case MySQL:
		return s.locateMySQL(ctx, uppers, keys)
	}
	// SQLite binds at most 32,766 values a statement: the bounds and
	// keys go in chunks, and a key's page is the sum of its counts.
	const chunk = 16_000
	for k := 0; k < len(keys); k += chunk {
		ks := keys[k:min(k+chunk, len(keys))]
		for u := 0; u < len(uppers); u += chunk {
			if err := s.locateSQLite(ctx, uppers[u:min(u+chunk, len(uppers))], ks, out[k:]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// locateSQLite adds to out[i] the number of uppers below keys[i], in one
// query: the bounds and keys sorted together (a key before a bound equal
// to it), each key counting the bounds before it. The column is a union
// whose first SELECT is the key column's (of no rows), so it sorts in the
// column's collation; the rest is one VALUES (SQLite allows at most 500
// SELECTs in a compound).
func (s *SQLSource) locateSQLite(ctx context.Context, uppers, keys []Key, out []int) error {
	var b strings.Builder
	b.WriteString("WITH v(k, j) AS (SELECT " + s.key + ", NULL FROM " + s.from + " WHERE 0 UNION ALL VALUES ")
	args := make([]any, 0, len(uppers)+len(keys))
	for i, u := range uppers {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, NULL)")
		args = append(args, u)
	}
	for j, k := range keys {
		b.WriteString(", (?, " + strconv.Itoa(j) + ")")
		args = append(args, k)
	}
	b.WriteString(") SELECT j, n FROM (SELECT j, sum(j IS NULL) OVER (ORDER BY k, j IS NULL ROWS UNBOUNDED PRECEDING) AS n FROM v) WHERE j IS NOT NULL")
	return s.addLocated(ctx, b.String(), args, out[:len(keys)])
}

// locatePostgres is Locate in one query: the keys and bounds are sent as
// text arrays and cast to the key column's type.
func (s *SQLSource) locatePostgres(ctx context.Context, uppers, keys []Key) ([]int, error) {
	if s.q.Table == "" {
		return nil, errNoLocator // a query's key column has no type to cast to
	}
	var typ string
	err := s.db.QueryRowContext(ctx, `SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2 AND NOT attisdropped`, s.from, s.q.Key).Scan(&typ)
	if err != nil {
		return nil, err
	}
	ut, kt := make([]string, len(uppers)), make([]string, len(keys))
	for i, u := range uppers {
		ut[i] = keyText(u)
	}
	for i, k := range keys {
		kt[i] = keyText(k)
	}
	q := "SELECT (SELECT count(*) FROM unnest($1::text[]::" + typ + "[]) AS u(b) WHERE u.b < c.k) FROM unnest($2::text[]::" + typ + "[]) WITH ORDINALITY AS c(k, i) ORDER BY c.i"
	rows, err := s.db.QueryContext(ctx, q, ut, kt)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]int, 0, len(keys))
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// keyText is the PostgreSQL text form of a key.
func keyText(k Key) string {
	switch x := k.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case []byte:
		return string(x)
	}
	return fmt.Sprint(k)
}

// rangeSQL returns the SELECT of cols over (after, upto] in key order and
// its arguments.
func (s *SQLSource) rangeSQL(cols string, after, upto Key) (string, []any) {
	q := "SELECT " + cols + " FROM " + s.from
	var args []any
	var where []string
	if after != nil {
		args = append(args, after)
		where = append(where, s.key+" > "+s.param(len(args)))
	}
	if upto != nil {
		args = append(args, upto)
		where = append(where, s.key+" <= "+s.param(len(args)))
	}
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	return q + " ORDER BY " + s.key, args
}

// Entries implements [Source]. A value of a row that cannot be read costs
// that value only (Query.Dropped is told), never the row or its page.
func (s *SQLSource) Entries(ctx context.Context, after, upto Key, fn func(Key, *sitemap.URL) error) error {
	q, args := s.rangeSQL(s.sel, after, upto)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var r sqlRow
	var u sitemap.URL
	for rows.Next() {
		if err := rows.Scan(r.dest()...); err != nil {
			return err
		}
		s.rowEntry(&r, &u)
		if b, ok := r.key.([]byte); ok && s.q.Dialect == MySQL {
			// go-sql-driver/mysql gives text and binary columns as
			// bytes: the key is kept as a string (the same bytes).
			r.key = string(b)
		}
		if err := fn(r.key, &u); err != nil {
			return err
		}
	}
	return rows.Err()
}

// text returns a column value as a string ("" for NULL).
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339)
	}
	return fmt.Sprint(v)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int64:
		return float64(x), true
	case string, []byte:
		f, err := strconv.ParseFloat(strings.TrimSpace(text(x)), 64)
		return f, err == nil
	}
	return 0, false
}

// sqliteTimes are the text forms SQLite's date functions write, and
// MediaWiki's timestamps (YYYYMMDDHHMMSS, UTC; its page_touched).
var sqliteTimes = []string{"2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "20060102150405"}

// dateOf turns a lastmod column value into a Date: a timestamp (at whole
// seconds, UTC), a W3C Datetime string kept as written, SQLite's
// "YYYY-MM-DD HH:MM:SS" (UTC), MediaWiki's YYYYMMDDHHMMSS (UTC), or Unix
// seconds. Anything else is absent.
func dateOf(v any) sitemap.Date {
	switch x := v.(type) {
	case time.Time:
		if x.IsZero() {
			return sitemap.Date{}
		}
		return sitemap.Date{Time: x.UTC().Truncate(time.Second), Precision: sitemap.PrecisionSecond}
	case int64:
		return sitemap.Date{Time: time.Unix(x, 0).UTC(), Precision: sitemap.PrecisionSecond}
	case float64:
		return sitemap.Date{Time: time.Unix(int64(x), 0).UTC(), Precision: sitemap.PrecisionSecond}
	case string, []byte:
		s := strings.TrimSpace(text(x))
		if s == "" {
			return sitemap.Date{}
		}
		if d, err := sitemap.ParseDate(s); err == nil {
			return d
		}
		for _, f := range sqliteTimes {
			if t, err := time.Parse(f, s); err == nil {
				return sitemap.Date{Time: t.UTC().Truncate(time.Second), Precision: sitemap.PrecisionSecond}
			}
		}
	}
	return sitemap.Date{}
}

// addLocated runs a locate query whose rows are (j, n): n bounds below
// key j, added to out[j].
func (s *SQLSource) addLocated(ctx context.Context, q string, args []any, out []int) error {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var j, n int
		if err := rows.Scan(&j, &n); err != nil {
			return err
		}
		if j < 0 || j >= len(out) {
			return fmt.Errorf("locating keys: row %d of %d", j, len(out))
		}
		out[j] += n
	}
	return rows.Err()
}
