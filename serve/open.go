package serve

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/go-sql-driver/mysql"   // registers the "mysql" database/sql driver
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/state"
)

// OpenDB opens the database a [SQL] source reads: a postgres:// or
// postgresql:// URL through pgx's database/sql driver, a mysql:// URL
// (MySQL or MariaDB, see [MySQLConfig]) through go-sql-driver/mysql,
// anything else a SQLite file, which must exist, opened read-only. A
// SQLite file that is not there, a directory or a file that is not a
// SQLite database is an error naming it and saying what to give. Nothing connects yet: a server that cannot be reached is an
// error of the first query.
func OpenDB(dsn string) (*sql.DB, error) {
	if state.IsPostgres(dsn) {
		return sql.Open("pgx", dsn)
	}
	if IsMySQL(dsn) {
		c, err := MySQLConfig(dsn)
		if err != nil {
			return nil, err
		}
		conn, err := mysql.NewConnector(c)
		if err != nil {
			return nil, err
		}
		return sql.OpenDB(conn), nil
	}
	fi, err := os.Stat(dsn)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w (give a SQLite file, a postgres:// or a mysql:// URL)", dsn, err)
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory; give a SQLite file, a postgres:// or a mysql:// URL", dsn)
	case !state.IsSQLite(dsn):
		// SQLite would say "file is not a database (26)" at the
		// first query, or read an empty file as an empty database.
		return nil, fmt.Errorf("%s is not a SQLite database; give a SQLite file, a postgres:// or a mysql:// URL", dsn)
	}
	return sql.Open("sqlite", "file:"+dsn+"?mode=ro")
}

// DialectOfDSN is the dialect of the database dsn names, as [OpenDB]
// opens it, told from the name alone (nothing connects): PostgreSQL for
// a postgres:// or postgresql:// URL, MySQL for a mysql:// or
// mariadb:// URL, SQLite for anything else.
func DialectOfDSN(dsn string) Dialect {
	switch {
	case state.IsPostgres(dsn):
		return Postgres
	case IsMySQL(dsn):
		return MySQL
	}
	return SQLite
}

// IsMySQL reports whether dsn names a MySQL or MariaDB database: a
// mysql:// or mariadb:// URL.
func IsMySQL(dsn string) bool {
	return strings.HasPrefix(dsn, "mysql://") || strings.HasPrefix(dsn, "mariadb://")
}

// MySQLConfig reads a mysql://user:password@host:port/database URL (or
// mariadb://…; the port defaults to 3306, the user and password are
// URL-escaped: %40 for @) into go-sql-driver/mysql's configuration. The
// query parameter socket=/run/mysqld/mysqld.sock connects through a Unix
// socket instead of host:port; any other parameter is the driver's own
// (tls=true, charset=…) or a session variable. Times are read in UTC: the
// session's time_zone is '+00:00' (so TIMESTAMP columns come as UTC) and
// DATETIME values are taken as UTC, as WordPress's *_gmt and MediaWiki's
// timestamps are. Parameters are interpolated by the driver
// (interpolateParams), so the server plans each page's query with its
// key bounds. An error never holds the password.
func MySQLConfig(dsn string) (*mysql.Config, error) {
	u, err := url.Parse(dsn)
	if err != nil || !IsMySQL(dsn) || u.Opaque != "" {
		return nil, fmt.Errorf("%s is not a mysql://user:password@host:port/database URL", RedactDSN(dsn))
	}
	c := mysql.NewConfig()
	c.User = u.User.Username()
	c.Passwd, _ = u.User.Password()
	c.Net, c.Addr = "tcp", u.Host
	if u.Port() == "" && u.Host != "" {
		c.Addr = u.Host + ":3306"
	}
	c.DBName = strings.TrimPrefix(u.Path, "/")
	if c.DBName == "" || strings.Contains(c.DBName, "/") {
		return nil, fmt.Errorf("%s names no database: give mysql://user:password@host:port/database", RedactDSN(dsn))
	}
	c.ParseTime = true
	// Parameters are written into the statement by the driver, not sent
	// to a prepared statement: MariaDB pushes a page's key condition into
	// a query's UNION branches (a preset's) only when it holds values,
	// not placeholders (a page of the WordPress preset at 100,000 posts
	// took 2 to 5 s as a prepared statement, the cost of the whole query,
	// and 11 ms so).
	c.InterpolateParams = true
	c.Params = map[string]string{"time_zone": "'+00:00'"}
	for k, vs := range u.Query() {
		v := vs[len(vs)-1]
		if k == "socket" {
			c.Net, c.Addr = "unix", v
			continue
		}
		c.Params[k] = v
	}
	if c.Addr == "" {
		c.Addr = "127.0.0.1:3306"
	}
	// Params holding the driver's own options (tls, charset, …) are
	// parsed by it.
	parsed, err := mysql.ParseDSN(c.FormatDSN())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", RedactDSN(dsn), strings.ReplaceAll(err.Error(), c.Passwd, "…"))
	}
	return parsed, nil
}

// RedactDSN returns a database URL with its password replaced by "…"
// (postgres://, mysql://), or dsn as it is.
func RedactDSN(dsn string) string {
	if state.IsPostgres(dsn) {
		return state.Redact(dsn)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		if IsMySQL(dsn) {
			return "mysql://…" // unparsable: it may hold a password anywhere
		}
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "…")
		return strings.Replace(u.String(), "%E2%80%A6", "…", 1)
	}
	return dsn
}

// OpenCrawl opens the crawl state at path (a file, or a PostgreSQL
// database: postgres://…) as the [Crawl] source of the pages its crawl
// listed, with the exact change check of a file ([FileVersion]). It
// refuses a state that holds no crawl, one whose crawl has not finished
// (serving it would publish only the pages it reached), and one whose
// crawl listed no page. Every error begins with path (a PostgreSQL URL
// without its password). close closes the state.
func OpenCrawl(ctx context.Context, path string) (src Source, close func(), err error) {
	shown := state.Redact(path)
	st, err := state.OpenCrawlState(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	var version func(context.Context) (string, error) // nil: the listed pages counted
	if !state.IsPostgres(path) {
		version = FileVersion(path, path+"-wal")
	}
	if err := crawlServable(ctx, st.Crawl(), shown); err != nil {
		st.Close()
		return nil, nil, err
	}
	return Crawl(st.Crawl(), version), func() { st.Close() }, nil
}

// CrawlStateError is the error of [OpenCrawl] for a crawl state that
// cannot be served.
type CrawlStateError struct {
	Path string // the state (a PostgreSQL URL without its password)
	// NotFinished is set when the crawl has not finished: Pending URLs are
	// still to fetch (the same crawl run again finishes it). Otherwise
	// the state holds no crawl (Left 0), or its crawl listed no page and
	// left Left URLs out.
	NotFinished   bool
	Pending, Left int
}

func (e *CrawlStateError) Error() string {
	switch {
	case e.NotFinished:
		return fmt.Sprintf("%s: the crawl has not finished (%s still to fetch): serving it would publish only the pages it reached; run the same 'sitemap crawl' command again to finish it, then serve", e.Path, plural.Of(e.Pending, "URL", "URLs"))
	case e.Left == 0:
		return fmt.Sprintf("%s holds no crawl, so it lists no page: give the state of a 'sitemap crawl --state' run", e.Path)
	}
	return fmt.Sprintf("%s: the crawl lists no page (%s left out; 'sitemap crawl --report' says why): nothing to serve", e.Path, plural.Of(e.Left, "URL", "URLs"))
}

// crawlServable says why the crawl log cl cannot be served (nil when it
// can): no crawl, a crawl not finished, or no page listed.
func crawlServable(ctx context.Context, cl state.CrawlLog, shown string) error {
	counts, err := cl.Reasons(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", shown, err)
	}
	left := 0
	for reason, n := range counts {
		if reason != "" {
			left += n
		}
	}
	pending := 0
	if fc, ok := cl.(state.FrontierCounter); ok {
		if pending, err = fc.Frontier(ctx); err != nil {
			return fmt.Errorf("%s: %w", shown, err)
		}
	}
	if counts[""]+left+pending == 0 {
		return &CrawlStateError{Path: shown}
	}
	// The crawl log holds one run: a stopped one has listed only the
	// pages it reached, and serving it would publish part of the site.
	finished := pending == 0
	if d, ok := cl.(state.CrawlDone); ok && finished {
		if finished, err = d.Finished(ctx); err != nil {
			return fmt.Errorf("%s: %w", shown, err)
		}
	}
	if !finished {
		return &CrawlStateError{Path: shown, NotFinished: true, Pending: pending}
	}
	if counts[""] == 0 {
		return &CrawlStateError{Path: shown, Left: left}
	}
	return nil
}
