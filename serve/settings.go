package serve

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
)

// Settings are a run of [Run] as a person gives it: the flags of
// `sitemap serve`, named alike. Exactly one of Dir, DB (with a DSN) and
// State is the source. Check refuses settings that do not go together;
// its errors name the flag and say what to give instead.
type Settings struct {
	// Dir is a directory `sitemap generate --out` wrote, served as it
	// is ([Dir]).
	Dir string
	// Addr is the HOST:PORT to listen on; AdminAddr, when set, the one
	// of /metrics and /healthz ([ServerOptions]).
	Addr, AdminAddr string
	// DB is a database source (--db and the flags that pick its rows):
	// an [SQLSettings], or package preset's Settings, which adds a CMS's
	// preset. Nil, or one without a DSN, for none.
	DB Database
	// State is a crawl state (a file or postgres:// URL) whose last
	// crawl's pages are served ([OpenCrawl]).
	State string
	// BaseURL, Hosts, Name, Recheck, GzipIndex, XSL, Robots and CacheDir
	// are those of [Options]; CacheControl is Options.CacheControl ("-"
	// for none), HTML serves [HTMLView] to browsers.
	BaseURL   string
	Hosts     []string
	Name      string
	Recheck   time.Duration
	XSL, HTML bool
	GzipIndex bool
	Robots    bool
	// RobotsFrom is a robots.txt file served under Robots, with the
	// Sitemap: line added (Options.RobotsTxt).
	RobotsFrom   string
	CacheControl string
	CacheDir     string
	// PerPage is Options.PerPage: 1 to 50,000, or 0 for the default
	// unless PerPageSet says a person gave 0.
	PerPage    int
	PerPageSet bool
	// AccessLog logs every request on the diagnostics writer.
	AccessLog bool
	// Feed follows a PostgreSQL table's commits: "logical" or "notify"
	// ([FollowOptions.Feed]); "" checks every Recheck.
	Feed string
	// InstallTrigger and RemoveTrigger put the change triggers on the
	// source's tables, or remove them ([SetTriggers]), instead of serving.
	InstallTrigger, RemoveTrigger bool
	// IndexNow submits what changes (IndexNow.KeyFile turns it on).
	IndexNow IndexNowSettings
	// ReadTimeout, WriteTimeout and ShutdownTimeout are those of
	// [ServerOptions].
	ReadTimeout, WriteTimeout, ShutdownTimeout time.Duration
}

// IndexNowSettings are the IndexNow submission of [Settings] (the
// --indexnow-* flags of `sitemap serve`): every URL added or changed is
// submitted within seconds, each version once (package indexnow's Queue).
type IndexNowSettings struct {
	// KeyFile is the key file (IN-03) whose key is sent; "" for no
	// submission.
	KeyFile string
	// State is the state file (or postgres:// URL) recording what was
	// submitted, shared with `sitemap submit --state`; required.
	State string
	// Endpoint, KeyLocation and MaxPerDay are those of indexnow.Options.
	Endpoint, KeyLocation string
	MaxPerDay             int64
	// CatchUp also submits, after the first build, every URL of the
	// pages the ledger has not seen sent.
	CatchUp bool
	// Client sends the batches (nil: a client with a 60-second timeout
	// and the program's User-Agent).
	Client *fetch.Client
}

// A Database is the database source of [Settings]: its DSN and the
// table or query its rows are read by ([SQLSettings]), checked and
// opened. Package preset's Settings is one that also knows the
// databases of CMSs.
type Database interface {
	// SQL returns the settings as given (SQLSettings.DB is the DSN).
	SQL() SQLSettings
	// Check refuses settings that do not go together.
	Check() error
	// Open opens the database and its source, drops (when not nil)
	// told every value of a row left out of its entry. It returns a nil
	// source, and writes to w, when there is nothing to serve (a
	// preset's query printed).
	Open(ctx context.Context, w io.Writer, drops *DropLog) (*SQLSource, func(), error)
}

// SQLSettings are a database source as a person gives it (the flags
// --db, --table, --query, --columns and --key of `sitemap serve` and
// `sitemap generate`): the [Query] of a table or of a SELECT.
type SQLSettings struct {
	// DB is the database: a SQLite file, or a postgres:// or mysql://
	// URL ([OpenDB]).
	DB string
	// Table or Query picks the rows; Key is Query.Key.
	Table, Query, Key string
	// Columns is the mapping as [ParseColumns] reads it.
	Columns string
	// Preset names a CMS's preset that gives the query instead (package
	// preset's Settings opens it; SQLSettings.Open refuses it).
	Preset string
}

// SQL returns s.
func (s SQLSettings) SQL() SQLSettings { return s }

// Check refuses a database with nothing to read (no table, query or
// preset) and a table given with a query.
func (s SQLSettings) Check() error {
	if s.Preset == "" && s.DB != "" && s.Table == "" && s.Query == "" {
		return errors.New("--db needs --table, --query or --preset")
	}
	if s.Table != "" && s.Query != "" {
		return errors.New("give --table or --query, not both (a --query reads the tables it names)")
	}
	return nil
}

// Open opens the database and the source of its table or query (an
// error naming --columns or --db when they are wrong); drops, when not
// nil, is told every value of a row left out of its entry. The function
// returned closes both. A preset is an error: package preset opens it.
func (s SQLSettings) Open(ctx context.Context, w io.Writer, drops *DropLog) (*SQLSource, func(), error) {
	if s.Preset != "" {
		return nil, nil, fmt.Errorf("--preset %s: open a CMS's database with package preset's Settings", s.Preset)
	}
	cols, err := ParseColumns(s.Columns)
	if err != nil {
		return nil, nil, fmt.Errorf("--columns: %v", err)
	}
	q := Query{Table: s.Table, Query: s.Query, Columns: cols, Key: s.Key}
	return OpenSQL(ctx, s.DB, drops, func(*sql.DB) (*Query, error) { return &q, nil })
}

// OpenSQL opens the database dsn names ([OpenDB]) and the [SQL] source
// of the Query that query returns for it, drops (when not nil) told every
// value of a row left out. A nil Query from query leaves nothing to
// open: the database is closed and the source is nil. An error of query
// closes the database and is returned as it is; a table the database
// does not have is said under --table. The function returned closes the
// source and the database.
func OpenSQL(ctx context.Context, dsn string, drops *DropLog, query func(*sql.DB) (*Query, error)) (*SQLSource, func(), error) {
	db, err := OpenDB(dsn)
	switch {
	case errors.As(err, new(*fs.PathError)):
		return nil, nil, fmt.Errorf("--db %v", err)
	case err != nil:
		return nil, nil, fmt.Errorf("--db: %v", err)
	}
	q, err := query(db)
	if err != nil || q == nil {
		db.Close()
		return nil, nil, err
	}
	if drops != nil {
		q.Dropped = drops.Dropped
	}
	src, err := SQL(ctx, db, *q)
	if errors.As(err, new(noTableError)) {
		err = fmt.Errorf("--table %s: %w", q.Table, err)
	}
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return src, func() { src.Close(); db.Close() }, nil
}

// sql returns the settings of s.DB, the zero value without one.
func (s *Settings) sql() SQLSettings {
	if s.DB == nil {
		return SQLSettings{}
	}
	return s.DB.SQL()
}

// Check refuses settings that do not go together, before anything
// opens, in an error naming the flags, and durations a command line
// cannot mean (a negative Recheck, ReadTimeout, WriteTimeout or
// ShutdownTimeout); with CacheDir it makes the directory.
func (s *Settings) Check() error {
	if err := s.checkDurations(); err != nil {
		return err
	}
	q := s.sql()
	sources := 0
	for _, set := range []bool{s.Dir != "", q.DB != "", s.State != ""} {
		if set {
			sources++
		}
	}
	if sources == 0 && q.Preset != "" && s.DB != nil {
		return s.DB.Check() // --preset (--print-query too) needs --db: say that
	}
	if sources != 1 {
		return errors.New("give one source: a directory, --db with --table or --query, or --state")
	}
	if (q.Table != "" || q.Query != "" || q.Columns != "" || q.Key != "") && q.DB == "" {
		return errors.New("--table, --query, --columns and --key need --db")
	}
	if s.DB != nil {
		if err := s.DB.Check(); err != nil {
			return err
		}
	}
	if s.Dir == "" {
		return s.checkPaging(q)
	}
	return nil
}

// checkDurations refuses the durations a command line cannot mean: a
// negative Recheck (the library reads it as "check at every request"; 0
// is the default, 2s), a negative ReadTimeout or WriteTimeout (0: no
// limit) or ShutdownTimeout (0: cut the answers in progress at once).
func (s *Settings) checkDurations() error {
	switch {
	case s.Recheck < 0:
		return fmt.Errorf("--recheck %s: give how often the source is checked for changes, such as 2s (0: the default, %s)", s.Recheck, defaultRecheck)
	case s.ReadTimeout < 0:
		return fmt.Errorf("--read-timeout %s: give a time limit such as 10s, or 0 for none", s.ReadTimeout)
	case s.WriteTimeout < 0:
		return fmt.Errorf("--write-timeout %s: give a time limit such as 2m, or 0 for none", s.WriteTimeout)
	case s.ShutdownTimeout < 0:
		return fmt.Errorf("--shutdown-timeout %s: give a time limit such as 30s, or 0 to cut the answers in progress at once", s.ShutdownTimeout)
	}
	return nil
}

// checkPaging checks the settings of a database or crawl state source
// that the library would refuse under its own option names (or, for
// CacheDir without BaseURL, not use).
func (s *Settings) checkPaging(q SQLSettings) error {
	if s.PerPage < 0 || s.PerPage > sitemap.MaxURLs || s.PerPage == 0 && s.PerPageSet {
		return fmt.Errorf("--per-page %d: a sitemap holds 1 to 50,000 URLs (S-01)", s.PerPage)
	}
	if s.Name == "" || strings.ContainsAny(s.Name, "/?#% ") || strings.HasPrefix(s.Name, ".") {
		return fmt.Errorf("--name %q: give a plain file name of letters, digits, '-', '_' and '.'", s.Name)
	}
	if s.BaseURL != "" {
		if _, err := baseDir(s.BaseURL); err != nil {
			return fmt.Errorf("--base-url %q: %v", s.BaseURL, err)
		}
	}
	if err := s.checkFeed(q); err != nil {
		return err
	}
	if err := s.IndexNow.check(s.BaseURL); err != nil {
		return err
	}
	for _, x := range s.Hosts {
		if x == "" || strings.ContainsAny(x, "/?#@ ") {
			return fmt.Errorf("--host %q: give a host name as requests send it, such as www.example.com or www.example.com:8080", x)
		}
	}
	if s.CacheDir != "" {
		// Said here, not at the first page kept: a file in the way,
		// a read-only file system.
		if err := store.CheckWritable(s.CacheDir); err != nil {
			return fmt.Errorf("--cache-dir %s: %v; give a directory you can write to", s.CacheDir, err)
		}
		if err := os.MkdirAll(s.CacheDir, 0o755); err != nil {
			return fmt.Errorf("--cache-dir %s: %v", s.CacheDir, err)
		}
	}
	return nil
}

// checkFeed checks Feed, InstallTrigger and RemoveTrigger against the
// database source q.
func (s *Settings) checkFeed(q SQLSettings) error {
	switch {
	case s.Feed != "" && s.Feed != "logical" && s.Feed != "notify":
		return fmt.Errorf("--feed %q: give logical or notify", s.Feed)
	case s.Feed != "" && (!state.IsPostgres(q.DB) || q.Table == ""):
		return errors.New("--feed follows a PostgreSQL table: give --db postgres://… and --table")
	case (s.InstallTrigger || s.RemoveTrigger) && q.Table == "" && q.Preset == "":
		return errors.New("--install-trigger and --remove-trigger put triggers on a table: give --db with --table or --preset")
	case s.InstallTrigger && s.RemoveTrigger:
		return errors.New("--install-trigger and --remove-trigger: give one")
	}
	return nil
}

// check refuses an IndexNow submission without what it needs (a base
// URL, its state), or its options without KeyFile.
func (s IndexNowSettings) check(baseURL string) error {
	if s.KeyFile == "" {
		if s.State != "" || s.KeyLocation != "" || s.MaxPerDay != 0 || s.CatchUp {
			return errors.New("--indexnow-state, --indexnow-key-location, --indexnow-max-per-day and --indexnow-catch-up are options of the IndexNow submission, which --indexnow-key-file turns on")
		}
		return nil
	}
	switch {
	case baseURL == "":
		return errors.New("--indexnow-key-file needs --base-url: the URLs submitted are on its host")
	case s.State == "":
		return errors.New("--indexnow-key-file needs --indexnow-state FILE, which records what was submitted, so each URL is sent once (also across restarts and 'sitemap submit' runs)")
	case s.MaxPerDay < 0:
		return fmt.Errorf("--indexnow-max-per-day %d: want 0 (no limit) or more", s.MaxPerDay)
	}
	return nil
}
