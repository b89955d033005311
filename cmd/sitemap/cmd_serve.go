package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/serve"
	"github.com/sitemapkit/sitemap/state"
)

// serveOptions are the flags and argument of `sitemap serve`.
type serveOptions struct {
	Dir       string
	Addr      string
	DB        string
	Table     string
	Query     string
	Columns   string
	Key       string
	Updated   string
	State     string
	BaseURL   string
	Name      string
	PerPage   int
	Recheck   time.Duration
	XSL       bool
	HTML      bool
	Robots    bool
	RobotsTxt string
	GzipIndex bool
	Cache     string
	MaxBuilds int
	AccessLog bool
	CacheDir  string
	NoCache   bool
	NoWarm    bool

	ReadTimeout, WriteTimeout, ShutdownTimeout time.Duration
}

func newServeCmd(s *streams) *cobra.Command {
	o := &serveOptions{}
	c := &cobra.Command{
		Use:   "serve [flags] [DIR]",
		Short: "Serve sitemaps over HTTP from a published directory, a SQL database or a crawl state",
		Long: `Serve answers sitemap requests over HTTP, from one of:

  DIR                 a published directory (what 'sitemap generate --out DIR' wrote), served as a
                      site should: only .xml, .xml.gz, .xsl, .txt, .html and .css files, never a
                      hidden, temporary, lock or state file
  --db DSN --table T  a table of a SQLite file or a PostgreSQL database (DSN postgres://…);
                      a field --columns does not map is found by its column's name: loc in
                      loc, url, page_url, permalink, link or href; lastmod in lastmod,
                      last_modified, updated_at, updated, modified(_at), post_modified_gmt,
                      page_touched, changed, …; changefreq, priority, ext (or json)
  --db DSN --query Q  the rows of a SELECT, its columns found the same way (else its first
                      column the loc, its second the lastmod)
  --state FILE        the pages a finished crawl listed ('sitemap crawl --state FILE', or
                      its postgres://… database; a crawl that was stopped is refused until
                      it is run to its end)

From a database or a crawl state it serves NAME.xml (an index) and its pages NAME-1.xml,
NAME-2.xml, … of at most --per-page URLs and 50 MiB, cut by keyset on the loc (or --key):
adding a row changes only the page whose range holds it, and a page that outgrows the limit
splits, the new part under a new number. The index gives each page the newest lastmod of its
entries. The pages are counted once at start-up and again when the change check (the row
count and the newest --updated value, asked at most every --recheck) sees a change; an
unchanged site costs no scan, and a crawler re-reading it gets 304s. With --base-url, pages
are built once per change into a page cache (--cache-dir), ahead of requests unless
--no-warm, and then sent from their files.

Every sitemap has Content-Type application/xml; charset=utf-8, gzip when the client accepts
it (NAME-N.xml.gz is application/gzip, a gzip file without Content-Encoding), ETag and
Last-Modified with 304 on If-None-Match or If-Modified-Since, Cache-Control, and HEAD. A
browser navigating to a sitemap gets a readable HTML page (--html); crawlers always get
XML. Also: /healthz, and /metrics in the Prometheus text format (documents, bytes, 304s,
page build times).

An access log goes to standard error. SIGTERM or Ctrl-C stops accepting connections and
lets the pages in progress finish (up to --shutdown-timeout).

A value of a row that cannot be read (a lastmod that is no date, a priority that is no
number, an ext that is not a JSON object, an image the encoder refuses) is left out of its
entry, the row and its page served without it, and said once per row on standard error
with its rule (sitemap explain RULE); /metrics counts them.

Exit status: 0 after a clean shutdown; 2 when it could not start (bad flags, an unreadable
source, the address in use).`,
		Example: `  sitemap serve public/ --addr :8080
  sitemap crawl https://www.example.com/ --out public/ --state crawl.db
  sitemap serve --state crawl.db --base-url https://www.example.com/ --addr :8080`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Dir = args[0]
			}
			return runServe(c.Context(), o, s)
		},
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Addr, "addr", ":8080", "`HOST:PORT` to listen on")
	f.StringVar(&o.DB, "db", "", "database: a SQLite file, or a PostgreSQL `DSN` (postgres://user:pass@host/db)")
	f.StringVar(&o.Table, "table", "", "`TABLE` of --db whose rows are the entries")
	f.StringVar(&o.Query, "query", "", "`SELECT` of --db whose rows are the entries (instead of --table)")
	f.StringVar(&o.Columns, "columns", "", "`FIELD=COLUMN,...` mapping loc, lastmod, changefreq, priority and ext (a JSON column of images, videos, news, alternates); a field not mapped is found by its column's name (url, updated_at, …)")
	f.StringVar(&o.Key, "key", "", "unique `COLUMN` the pages are cut by (default: the loc column); give it an index")
	f.StringVar(&o.Updated, "updated", "", "`COLUMN` whose maximum is the change check with the row count (default: the lastmod column)")
	f.StringVar(&o.State, "state", "", "crawl state `FILE` or postgres://user:pass@host/db: serve the pages its last crawl listed")
	f.StringVar(&o.BaseURL, "base-url", "", "`URL` the sitemaps are reachable at (the index's locs; relative locs resolve against it); default: each request's Host")
	f.StringVar(&o.Name, "name", "sitemap", "base `NAME` of the index and pages")
	f.IntVar(&o.PerPage, "per-page", 50000, "most URLs per page (1 to 50,000)")
	f.DurationVar(&o.Recheck, "recheck", 10*time.Second, "how long the page boundaries are trusted before the change check runs again (at least 20 times the last check's duration)")
	f.BoolVar(&o.XSL, "xsl", true, "serve NAME.xsl and name it in every document (for browsers that still run XSLT)")
	f.BoolVar(&o.HTML, "html", true, "answer a browser navigating to a sitemap with a readable HTML page")
	f.BoolVar(&o.Robots, "robots", false, "serve /robots.txt with a Sitemap: line for the index")
	f.StringVar(&o.RobotsTxt, "robots-from", "", "robots.txt `FILE` to serve (with the Sitemap: line added) under --robots")
	f.BoolVar(&o.GzipIndex, "gzip-index", false, "list the pages in the index by their .xml.gz names")
	f.StringVar(&o.Cache, "cache-control", "public, max-age=300", "Cache-Control `VALUE` of every sitemap (\"-\" for none)")
	f.StringVar(&o.CacheDir, "cache-dir", "", "`DIR` where built pages are kept, one file per page (default: a temporary directory removed at exit); needs --base-url")
	f.BoolVar(&o.NoCache, "no-cache", false, "build every page from the source at every request")
	f.BoolVar(&o.NoWarm, "no-warm", false, "build pages into the cache only when asked for, not ahead")
	f.IntVar(&o.MaxBuilds, "max-builds", 4, "most pages built at once; more requests wait")
	f.BoolVar(&o.AccessLog, "access-log", true, "log every request on standard error")
	f.DurationVar(&o.ReadTimeout, "read-timeout", 10*time.Second, "time limit to read a request")
	f.DurationVar(&o.WriteTimeout, "write-timeout", 2*time.Minute, "time limit to send an answer")
	f.DurationVar(&o.ShutdownTimeout, "shutdown-timeout", 30*time.Second, "on SIGTERM, how long the answers in progress may take to finish")
	return c
}

// serveReady is what runServe prints once it listens; tests wait for it.
const serveReady = "sitemap serve: listening on "

func runServe(ctx context.Context, o *serveOptions, s *streams) error {
	sources := 0
	for _, set := range []bool{o.Dir != "", o.DB != "", o.State != ""} {
		if set {
			sources++
		}
	}
	if sources != 1 {
		return cannotRun("give one source: a directory, --db with --table or --query, or --state")
	}
	if (o.Table != "" || o.Query != "" || o.Columns != "" || o.Key != "" || o.Updated != "") && o.DB == "" {
		return cannotRun("--table, --query, --columns, --key and --updated need --db")
	}
	if o.Dir == "" {
		if err := o.checkPaging(); err != nil {
			return err
		}
	}
	var robotsTxt []byte
	if o.RobotsTxt != "" {
		b, err := os.ReadFile(o.RobotsTxt)
		if err != nil {
			return cannotRun("--robots-from: %v", err)
		}
		robotsTxt = b
	}
	var site http.Handler
	var h *serve.Handler
	var drops *serve.DropLog
	var what string
	if o.Dir != "" {
		if fi, err := os.Stat(o.Dir); err != nil || !fi.IsDir() {
			return cannotRun("%s is not a directory: give the directory 'sitemap generate --out' wrote", o.Dir)
		}
		dopt := serve.DirOptions{CacheControl: o.Cache}
		if o.HTML {
			dopt.HTML = serve.HTMLView
		}
		d, err := serve.Dir(o.Dir, dopt)
		if err != nil {
			return cannotRun("%v", err)
		}
		site, what = d, o.Dir
	} else {
		drops = serve.NewDropLog(s.Err, 0) // each bad value once per row, however often it is read
		drops.Prefix = "sitemap serve: "
		src, closeSrc, err := openServeSource(ctx, o, drops.Dropped)
		if err != nil {
			return cannotRun("%v", err)
		}
		defer closeSrc()
		if q, ok := src.(*serve.SQLSource); ok && q.Found() != "" {
			fmt.Fprintf(s.Err, "sitemap serve: columns %s\n", q.Found())
		}
		opt := serve.Options{BaseURL: o.BaseURL, Name: o.Name, PerPage: o.PerPage, Recheck: o.Recheck,
			CacheControl: o.Cache, GzipIndex: o.GzipIndex, XSL: o.XSL, Robots: o.Robots, RobotsTxt: robotsTxt,
			MaxBuilds: o.MaxBuilds}
		var skipMu sync.Mutex
		opt.Skipped = func(loc string, err error) {
			skipMu.Lock()
			defer skipMu.Unlock()
			msg := err.Error() // an *EntryError quotes the value it names
			if strings.IndexFunc(msg, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
				msg = strconv.QuoteToGraphic(msg) // still one line, whatever it holds
			}
			fmt.Fprintf(s.Err, "sitemap serve: entry left out of its page: %s\n", msg)
		}
		opt.Dropped = drops.EncoderDropped
		if o.HTML {
			opt.HTML = serve.HTMLView
		}
		if !o.NoCache && o.BaseURL != "" {
			if opt.CacheDir = o.CacheDir; opt.CacheDir == "" {
				tmp, err := os.MkdirTemp("", "sitemap-serve-")
				if err != nil {
					return cannotRun("page cache: %v (give --cache-dir or --no-cache)", err)
				}
				defer os.RemoveAll(tmp)
				opt.CacheDir = tmp
			}
		}
		if h, err = serve.NewHandler(src, opt); err != nil {
			return cannotRun("%v", err)
		}
		start := time.Now()
		if err := h.Refresh(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return cannotRun("%v", err)
		}
		what = fmt.Sprintf("%s counted in %s", plural(h.Pages(), "page"), time.Since(start).Round(time.Millisecond))
		site = h
	}
	var logw io.Writer
	if o.AccessLog {
		logw = s.Err
	}
	rl := serve.NewRequestLog(logw)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		if h != nil {
			h.WriteMetrics(w)
			drops.WriteMetrics(w)
		}
		rl.WriteMetrics(w)
	})
	mux.Handle("/", site)
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return cannotRun("--addr %s: %v", o.Addr, err)
	}
	srv := &http.Server{
		Handler:           rl.Wrap(mux),
		ReadHeaderTimeout: o.ReadTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	name := o.Name + ".xml"
	if o.Dir != "" {
		name = ""
	}
	fmt.Fprintf(s.Err, "%shttp://%s/%s (%s)\n", serveReady, ln.Addr(), name, what)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	warmed := make(chan struct{})
	defer func() { <-warmed }()
	wctx, stopWarm := context.WithCancel(ctx)
	defer stopWarm() // before waiting for it: a failed Serve returns with ctx still live
	if h != nil && !o.NoWarm {
		go func() { h.Warm(wctx); close(warmed) }()
	} else {
		close(warmed)
	}
	select {
	case err := <-done:
		return cannotRun("serve: %v", err)
	case <-ctx.Done():
	}
	fmt.Fprintf(s.Err, "sitemap serve: stopping: finishing the answers in progress (at most %s)\n", o.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), o.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return cannotRun("serve: answers still in progress after --shutdown-timeout %s were cut", o.ShutdownTimeout)
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return cannotRun("serve: %v", err)
	}
	return nil
}

// checkPaging checks the flags of a database or crawl state source that
// the library would refuse under its own option names (or, for
// --cache-dir without --base-url, not use).
func (o *serveOptions) checkPaging() error {
	if o.PerPage < 1 || o.PerPage > sitemap.MaxURLs {
		return cannotRun("--per-page %d: a sitemap holds 1 to 50,000 URLs (S-01)", o.PerPage)
	}
	if o.Name == "" || strings.ContainsAny(o.Name, "/?#%") {
		return cannotRun("--name %q: give a plain file name, without /, ?, # or %%", o.Name)
	}
	if o.BaseURL != "" {
		u, err := url.Parse(o.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return cannotRun("--base-url %q: give the absolute http(s) URL the sitemaps are reachable at, such as https://www.example.com/", o.BaseURL)
		}
	}
	if o.CacheDir != "" {
		switch {
		case o.BaseURL == "":
			return cannotRun("--cache-dir needs --base-url: a cached page names the URLs it was built for")
		case o.NoCache:
			return cannotRun("--cache-dir and --no-cache: give one")
		}
		if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
			return cannotRun("--cache-dir %s: %v", o.CacheDir, err)
		}
	}
	return nil
}

// openCrawlState opens the crawl state of --state: a file, or a
// PostgreSQL database (postgres://…), refusing one whose crawl has not
// finished or lists no page.
func openCrawlState(ctx context.Context, path string) (serve.Source, func(), error) {
	shown := state.Redact(path)
	var (
		st interface {
			Crawl() state.CrawlLog
			Close() error
		}
		version func(context.Context) (string, error) // nil: the listed pages counted
	)
	if state.IsPostgres(path) {
		pg, err := state.OpenPostgres(ctx, path, state.PostgresOptions{})
		if err != nil {
			return nil, nil, fmt.Errorf("--state %s: %w", shown, err)
		}
		st = pg
	} else {
		if _, err := os.Stat(path); err != nil {
			return nil, nil, fmt.Errorf("--state %s: %w (give the file 'sitemap crawl --state' wrote)", path, err)
		}
		f, err := state.OpenSQLite(ctx, path, state.SQLiteOptions{})
		if err != nil {
			return nil, nil, err
		}
		st, version = f, serve.FileVersion(path, path+"-wal")
	}
	fail := func(format string, args ...any) (serve.Source, func(), error) {
		st.Close()
		return nil, nil, fmt.Errorf(format, args...)
	}
	counts, err := st.Crawl().Reasons(ctx)
	if err != nil {
		return fail("--state %s: %w", shown, err)
	}
	left := 0
	for reason, n := range counts {
		if reason != "" {
			left += n
		}
	}
	pending := 0
	if fc, ok := st.Crawl().(state.FrontierCounter); ok {
		if pending, err = fc.Frontier(ctx); err != nil {
			return fail("--state %s: %w", shown, err)
		}
	}
	if counts[""]+left+pending == 0 {
		return fail("--state %s holds no crawl, so it lists no page: give the state of a 'sitemap crawl --state' run", shown)
	}
	// The crawl log holds one run: a stopped one has listed only the
	// pages it reached, and serving it would publish part of the site.
	finished := pending == 0
	if d, ok := st.Crawl().(state.CrawlDone); ok && finished {
		if finished, err = d.Finished(ctx); err != nil {
			return fail("--state %s: %w", shown, err)
		}
	}
	if !finished {
		return fail("--state %s: the crawl has not finished (%s still to fetch): serving it would publish only the pages it reached; run the same 'sitemap crawl' command again to finish it, then serve", shown, plural(pending, "URL"))
	}
	if counts[""] == 0 {
		return fail("--state %s: the crawl lists no page (%s left out; 'sitemap crawl --report' says why): nothing to serve", shown, plural(left, "URL"))
	}
	return serve.Crawl(st.Crawl(), version), func() { st.Close() }, nil
}

// openServeSource opens the database or crawl state of o; dropped is told
// the values of a row left out of its entry.
func openServeSource(ctx context.Context, o *serveOptions, dropped func(serve.Key, string, *sitemap.EntryError)) (serve.Source, func(), error) {
	if o.State != "" {
		return openCrawlState(ctx, o.State)
	}
	if o.Table == "" && o.Query == "" {
		return nil, nil, errors.New("--db needs --table or --query")
	}
	cols, err := serve.ParseColumns(o.Columns)
	if err != nil {
		return nil, nil, fmt.Errorf("--columns: %w", err)
	}
	driver, dsn := "sqlite", o.DB
	if strings.HasPrefix(o.DB, "postgres://") || strings.HasPrefix(o.DB, "postgresql://") {
		driver = "pgx"
	} else {
		if _, err := os.Stat(o.DB); err != nil {
			return nil, nil, fmt.Errorf("--db %s: %w (give a SQLite file or a postgres:// URL)", o.DB, err)
		}
		dsn = "file:" + o.DB + "?mode=ro"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("--db: %w", err)
	}
	src, err := serve.SQL(ctx, db, serve.Query{Table: o.Table, Query: o.Query, Columns: cols, Key: o.Key, Updated: o.Updated, Dropped: dropped})
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return src, func() { db.Close() }, nil
}
