package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/serve"
	"github.com/sitemapkit/sitemap/state"
)

// serveOptions are the flags and argument of `sitemap serve`.
type serveOptions struct {
	Dir       string
	Addr      string
	AdminAddr string
	sqlFlags
	State     string
	BaseURL   string
	Hosts     []string
	Name      string
	PerPage   int
	Recheck   time.Duration
	XSL       bool
	HTML      bool
	Robots    bool
	RobotsTxt string
	GzipIndex bool
	Cache     string
	AccessLog bool
	CacheDir  string

	Feed           string
	InstallTrigger bool
	RemoveTrigger  bool

	IndexNowKeyFile     string
	IndexNowEndpoint    string
	IndexNowKeyLocation string
	IndexNowState       string
	IndexNowMaxPerDay   int64
	IndexNowCatchUp     bool

	perPageSet bool // --per-page was given (0 is then refused, not the default)

	// Deprecated flags, still accepted.
	updated         string
	maxBuilds       int
	noCache, noWarm bool

	ReadTimeout, WriteTimeout, ShutdownTimeout time.Duration
}

func newServeCmd(s *streams) *cobra.Command {
	o := &serveOptions{}
	c := withHelp("serve", &cobra.Command{
		Use:  "serve [flags] [DIR]",
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Dir = args[0]
			}
			o.perPageSet = c.Flags().Changed("per-page")
			return runServe(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Addr, "addr", ":8080", "`HOST:PORT` to listen on")
	f.StringVar(&o.AdminAddr, "admin-addr", "", "`HOST:PORT` for /metrics and /healthz (default: on --addr, to loopback clients only)")
	f.StringVar(&o.DB, "db", "", "database: a SQLite file, or a `URL` postgres://user:pass@host/db or mysql://user:pass@host:port/db")
	f.StringVar(&o.Table, "table", "", "`TABLE` of --db whose rows are the entries")
	f.StringVar(&o.Query, "query", "", "`SELECT` of --db whose rows are the entries (instead of --table)")
	f.StringVar(&o.Columns, "columns", "", "`FIELD=COLUMN,...` mapping loc, lastmod, changefreq, priority and ext (a JSON column of images, videos, news, alternates); a field not mapped is found by its column's name (url, updated_at, …)")
	f.StringVar(&o.Key, "key", "", "unique `COLUMN` the pages are cut by (default: the loc column); give it an index")
	o.registerPreset(f)
	f.StringVar(&o.State, "state", "", "crawl state `FILE` or postgres://user:pass@host/db: serve the pages its last crawl listed")
	f.StringVar(&o.BaseURL, "base-url", "", "`URL` the sitemaps are reachable at (the index's locs; relative locs resolve against it)")
	f.StringArrayVar(&o.Hosts, "host", nil, "without --base-url, a Host `NAME` requests may name (repeatable; default: localhost, 127.0.0.1 and [::1])")
	f.StringVar(&o.Name, "name", "sitemap", "base `NAME` of the index and pages")
	f.IntVar(&o.PerPage, "per-page", 0, "most URLs per page, 1 to 50,000 (default 1,000, more for over 20 million rows); a change rebuilds its page, so small pages follow a busy table fast")
	f.DurationVar(&o.Recheck, "recheck", 2*time.Second, "how often the source is checked for changes (stretched to 4 times a slow check's duration)")
	f.BoolVar(&o.XSL, "xsl", true, "serve NAME.xsl and name it in every document (for browsers that still run XSLT)")
	f.BoolVar(&o.HTML, "html", true, "answer a browser navigating to a sitemap with a readable HTML page")
	f.BoolVar(&o.Robots, "robots", false, "serve /robots.txt with a Sitemap: line for the index")
	f.StringVar(&o.RobotsTxt, "robots-from", "", "robots.txt `FILE` to serve (with the Sitemap: line added) under --robots")
	f.BoolVar(&o.GzipIndex, "gzip-index", false, "list the pages in the index by their .xml.gz names")
	f.StringVar(&o.Cache, "cache-control", "public, max-age=300", "Cache-Control `VALUE` of every sitemap (\"-\" for none)")
	f.StringVar(&o.Feed, "feed", "", "follow a PostgreSQL --table's commits instead of checking every page every --recheck: `logical` (logical decoding: needs wal_level=logical, a role with REPLICATION, and creates a publication) or notify (the triggers --install-trigger installs)")
	f.BoolVar(&o.InstallTrigger, "install-trigger", false, "install change triggers on --table (or the --preset's tables), then exit: PostgreSQL's for --feed notify; on SQLite and MySQL/MariaDB a change log (sitemap_changes, a row per write; MySQL needs the TRIGGER privilege), which serve then reads to rebuild only the pages a commit touched")
	f.BoolVar(&o.RemoveTrigger, "remove-trigger", false, "remove the triggers (and the change log) --install-trigger installed, then exit")
	f.StringVar(&o.IndexNowKeyFile, "indexnow-key-file", "", "submit every URL added or changed to IndexNow with the key of this key `FILE`, within seconds (needs --base-url and --indexnow-state)")
	f.StringVar(&o.IndexNowState, "indexnow-state", "", "state `FILE` (or postgres://…) recording what was submitted, shared with 'sitemap submit --state': each URL is sent once at each version")
	f.StringVar(&o.IndexNowEndpoint, "indexnow-endpoint", indexnow.DefaultEndpoint, "IndexNow `URL` to submit to")
	f.StringVar(&o.IndexNowKeyLocation, "indexnow-key-location", "", "`URL` of the key file when it is not https://HOST/KEY.txt (IN-05)")
	f.Int64Var(&o.IndexNowMaxPerDay, "indexnow-max-per-day", 0, "submit at most `N` URLs in 24 hours, counted in --indexnow-state (0: no limit)")
	f.BoolVar(&o.IndexNowCatchUp, "indexnow-catch-up", false, "at start, also submit every URL of the pages that --indexnow-state has not seen sent (what changed while serve was down; a ledger lookup per URL)")
	f.StringVar(&o.CacheDir, "cache-dir", "", "`DIR` where built pages are kept, gzipped, instead of in memory (about 12 bytes per URL)")
	f.BoolVar(&o.AccessLog, "access-log", true, "log every request on standard error")
	f.DurationVar(&o.ReadTimeout, "read-timeout", 10*time.Second, "time limit to read a request")
	f.DurationVar(&o.WriteTimeout, "write-timeout", 2*time.Minute, "time limit to send an answer")
	f.DurationVar(&o.ShutdownTimeout, "shutdown-timeout", 30*time.Second, "on SIGTERM, how long the answers in progress may take to finish")
	f.StringVar(&o.updated, "updated", "", "")
	f.IntVar(&o.maxBuilds, "max-builds", 0, "")
	f.BoolVar(&o.noCache, "no-cache", false, "")
	f.BoolVar(&o.noWarm, "no-warm", false, "")
	f.MarkDeprecated("updated", "changes are found by reading the pages (or a change feed), not by a column's maximum")
	f.MarkDeprecated("max-builds", "pages are built once per change, in the background, never per request")
	f.MarkDeprecated("no-cache", "pages are always built once per change and kept (see --cache-dir)")
	f.MarkDeprecated("no-warm", "pages are always built before the first request")
	return c
}

// serveReady is what runServe prints once it listens; tests wait for it.
const serveReady = "sitemap serve: listening on "

func runServe(ctx context.Context, o *serveOptions, s *streams) error {
	if err := o.check(); err != nil {
		return err
	}
	r := &serveRun{o: o, s: s, log: serve.NewLogger(s.Err, "sitemap serve: ")}
	if o.RobotsTxt != "" {
		b, err := os.ReadFile(o.RobotsTxt)
		if err != nil {
			return cannotRun("--robots-from: %v", err)
		}
		r.robotsTxt = b
	}
	defer r.close()
	var site http.Handler
	var what string
	var err error
	if o.Dir != "" {
		site, what, err = o.dirSite()
	} else {
		site, what, err = r.handler(ctx)
	}
	if err != nil || site == nil {
		return err
	}
	return r.serve(ctx, site, what)
}

// check refuses flags that do not go together, before anything opens.
func (o *serveOptions) check() error {
	sources := 0
	for _, set := range []bool{o.Dir != "", o.DB != "", o.State != ""} {
		if set {
			sources++
		}
	}
	if sources == 0 && o.Preset != "" {
		return o.sqlFlags.check() // --preset (--print-query too) needs --db: say that
	}
	if sources != 1 {
		return cannotRun("give one source: a directory, --db with --table or --query, or --state")
	}
	if (o.Table != "" || o.Query != "" || o.Columns != "" || o.Key != "") && o.DB == "" {
		return cannotRun("--table, --query, --columns and --key need --db")
	}
	if err := o.sqlFlags.check(); err != nil {
		return err
	}
	if o.Dir == "" {
		return o.checkPaging()
	}
	return nil
}

// dirSite is the handler of a published directory.
func (o *serveOptions) dirSite() (http.Handler, string, error) {
	if fi, err := os.Stat(o.Dir); err != nil || !fi.IsDir() {
		return nil, "", cannotRun("%s is not a directory: give the directory 'sitemap generate --out' wrote", o.Dir)
	}
	dopt := serve.DirOptions{CacheControl: o.Cache}
	if o.HTML {
		dopt.HTML = serve.HTMLView
	}
	d, err := serve.Dir(o.Dir, dopt)
	if err != nil {
		return nil, "", cannotRun("%v", err)
	}
	return d, o.Dir, nil
}

// serveRun is one run of `sitemap serve` from a database or crawl state:
// the handler, what its feed and IndexNow queue need, and what to close.
type serveRun struct {
	o         *serveOptions
	s         *streams
	robotsTxt []byte // of --robots-from
	h         *serve.Handler
	drops     *serve.DropLog
	feed      *serve.PostgresFeed // of --feed
	log       *serve.Logger
	catchUp   func()   // with --indexnow-catch-up, after the first build
	closers   []func() // run in reverse order by close
}

func (r *serveRun) close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// logf writes one line of the server's log on standard error.
func (r *serveRun) logf(format string, args ...any) { r.log.Printf(format, args...) }

// handler opens the source, builds every page once (with --base-url) and
// returns the handler that serves them; a nil handler after
// --install-trigger or --remove-trigger, which only say what they did.
func (r *serveRun) handler(ctx context.Context) (http.Handler, string, error) {
	o := r.o
	r.drops = serve.NewDropLog(r.s.Err, 0) // each bad value once per row, however often it is read
	r.drops.Prefix = "sitemap serve: "
	src, closeSrc, err := o.openSource(ctx, r.s.Out, r.drops.Dropped)
	if err != nil || src == nil { // nil after --print-query
		return nil, "", err
	}
	r.closers = append(r.closers, closeSrc)
	if o.InstallTrigger || o.RemoveTrigger {
		return nil, "", o.trigger(ctx, src, r.s)
	}
	if q, ok := src.(*serve.SQLSource); ok && q.Found() != "" {
		fmt.Fprintf(r.s.Err, "sitemap serve: columns %s\n", q.Found())
	}
	opt, err := r.options(ctx, &src)
	if err != nil {
		return nil, "", err
	}
	if r.h, err = serve.NewHandler(src, opt); err != nil {
		return nil, "", cannotRun("%v", err)
	}
	r.closers = append(r.closers, func() { r.h.Close() })
	start := time.Now()
	if err := r.h.Refresh(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, "", nil
		}
		return nil, "", cannotRun("%v", err)
	}
	if r.catchUp != nil && o.IndexNowCatchUp {
		r.catchUp()
	}
	if o.BaseURL != "" {
		return r.h, fmt.Sprintf("%s built in %s", plural.Of(r.h.Pages(), "page", "pages"), time.Since(start).Round(time.Millisecond)), nil
	}
	return r.h, "pages built at the first request of each host", nil
}

// options are the handler's options from the flags; src gets the change
// feed of --feed, and --indexnow-key-file its queue.
func (r *serveRun) options(ctx context.Context, src *serve.Source) (serve.Options, error) {
	o := r.o
	opt := serve.Options{BaseURL: o.BaseURL, Hosts: o.Hosts, Name: o.Name, PerPage: o.PerPage, Recheck: o.Recheck,
		CacheControl: o.Cache, GzipIndex: o.GzipIndex, XSL: o.XSL, Robots: o.Robots, RobotsTxt: r.robotsTxt,
		CacheDir: o.CacheDir}
	opt.Dropped = r.drops.EncoderDropped
	if o.HTML {
		opt.HTML = serve.HTMLView
	}
	fw, err := serve.Follow(ctx, *src, serve.FollowOptions{DSN: o.DB, Feed: o.Feed, Recheck: o.Recheck, Logf: r.logf})
	if err != nil {
		return opt, cannotRun("--db %s: %v", serve.RedactDSN(o.DB), err)
	}
	*src, r.feed = fw.Source, fw.Postgres
	fw.Log(&opt, r.logf, o.Recheck)
	if o.DB != "" && o.Feed == "" {
		r.logf("changes: %s", fw.How)
	}
	if o.IndexNowKeyFile != "" {
		if err := r.indexnow(ctx, &opt); err != nil {
			return opt, err
		}
	}
	return opt, nil
}

// indexnow starts the IndexNow queue of --indexnow-key-file: every
// change the handler tells is submitted; catchUp sends, once the first
// build is done, what the pages hold and the ledger has not seen.
func (r *serveRun) indexnow(ctx context.Context, opt *serve.Options) error {
	q, closeState, err := r.o.indexnowQueue(ctx, r.logf)
	if err != nil {
		return err
	}
	r.closers = append(r.closers, closeState)
	opt.Changed = q.Add
	r.closers = append(r.closers, q.Start(ctx))
	r.catchUp = func() {
		q.CatchUp(r.h.Entries(), func(sum indexnow.Summary, err error) {
			if err != nil {
				r.logf("indexnow: sending what the pages hold at start: %v", err)
				return
			}
			r.logf("indexnow: at start: %s", sum)
		})
	}
	return nil
}

// serve serves site until ctx is done (serve.ListenAndServe), saying
// where it listens and when it stops.
func (r *serveRun) serve(ctx context.Context, site http.Handler, what string) error {
	o, s := r.o, r.s
	so := serve.ServerOptions{Addr: o.Addr, AdminAddr: o.AdminAddr, Handler: r.h, Drops: r.drops,
		ReadTimeout: o.ReadTimeout, WriteTimeout: o.WriteTimeout, ShutdownTimeout: o.ShutdownTimeout}
	if r.feed != nil {
		so.Stop = r.feed.Down()
	}
	if o.AccessLog {
		so.AccessLog = s.Err
	}
	so.Listening = func(site, admin net.Addr) {
		if admin != nil {
			fmt.Fprintf(s.Err, "sitemap serve: /metrics and /healthz on http://%s/\n", admin)
		}
		name := o.Name + ".xml"
		if o.Dir != "" {
			name = ""
		}
		fmt.Fprintf(s.Err, "%shttp://%s/%s (%s)\n", serveReady, site, name, what)
	}
	so.Stopping = func() {
		fmt.Fprintf(s.Err, "sitemap serve: stopping: finishing the answers in progress (at most %s)\n", o.ShutdownTimeout)
	}
	err := serve.ListenAndServe(ctx, site, so)
	var le *serve.ListenError
	var se *serve.StopError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &le) && le.Admin:
		return cannotRun("--admin-addr %s: %v", o.AdminAddr, le.Err)
	case errors.As(err, &le):
		return cannotRun("--addr %s: %v", o.Addr, le.Err)
	case errors.As(err, &se):
		return cannotRun("--feed %s: %v", o.Feed, se.Err)
	case errors.Is(err, serve.ErrAnswersCut):
		return cannotRun("serve: answers still in progress after --shutdown-timeout %s were cut", o.ShutdownTimeout)
	}
	return cannotRun("serve: %v", err)
}

// checkPaging checks the flags of a database or crawl state source that
// the library would refuse under its own option names (or, for
// --cache-dir without --base-url, not use).
func (o *serveOptions) checkPaging() error {
	if o.PerPage < 0 || o.PerPage > sitemap.MaxURLs || o.PerPage == 0 && o.perPageSet {
		return cannotRun("--per-page %d: a sitemap holds 1 to 50,000 URLs (S-01)", o.PerPage)
	}
	if o.Name == "" || strings.ContainsAny(o.Name, "/?#% ") || strings.HasPrefix(o.Name, ".") {
		return cannotRun("--name %q: give a plain file name of letters, digits, '-', '_' and '.'", o.Name)
	}
	if o.BaseURL != "" {
		u, err := url.Parse(o.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return cannotRun("--base-url %q: give the absolute http(s) URL the sitemaps are reachable at, such as https://www.example.com/", o.BaseURL)
		}
	}
	switch {
	case o.Feed != "" && o.Feed != "logical" && o.Feed != "notify":
		return cannotRun("--feed %q: give logical or notify", o.Feed)
	case o.Feed != "" && (!state.IsPostgres(o.DB) || o.Table == ""):
		return cannotRun("--feed follows a PostgreSQL table: give --db postgres://… and --table")
	case (o.InstallTrigger || o.RemoveTrigger) && o.Table == "" && o.Preset == "":
		return cannotRun("--install-trigger and --remove-trigger put triggers on a table: give --db with --table or --preset")
	}
	if o.InstallTrigger && o.RemoveTrigger {
		return cannotRun("--install-trigger and --remove-trigger: give one")
	}
	if o.IndexNowKeyFile != "" {
		switch {
		case o.BaseURL == "":
			return cannotRun("--indexnow-key-file needs --base-url: the URLs submitted are on its host")
		case o.IndexNowState == "":
			return cannotRun("--indexnow-key-file needs --indexnow-state FILE, which records what was submitted, so each URL is sent once (also across restarts and 'sitemap submit' runs)")
		case o.IndexNowMaxPerDay < 0:
			return cannotRun("--indexnow-max-per-day %d: want 0 (no limit) or more", o.IndexNowMaxPerDay)
		}
	} else if o.IndexNowState != "" || o.IndexNowKeyLocation != "" || o.IndexNowMaxPerDay != 0 || o.IndexNowCatchUp {
		return cannotRun("--indexnow-state, --indexnow-key-location, --indexnow-max-per-day and --indexnow-catch-up are options of the IndexNow submission, which --indexnow-key-file turns on")
	}
	for _, x := range o.Hosts {
		if x == "" || strings.ContainsAny(x, "/?#@ ") {
			return cannotRun("--host %q: give a host name as requests send it, such as www.example.com or www.example.com:8080", x)
		}
	}
	if o.CacheDir != "" {
		if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
			return cannotRun("--cache-dir %s: %v", o.CacheDir, err)
		}
	}
	return nil
}

// openSource opens the database or crawl state of o; dropped is told the
// values of a row left out of its entry.
func (o *serveOptions) openSource(ctx context.Context, w io.Writer, dropped func(serve.Key, string, *sitemap.EntryError)) (serve.Source, func(), error) {
	if o.State != "" {
		src, closeState, err := serve.OpenCrawl(ctx, o.State)
		if err != nil {
			return nil, nil, cannotRun("--state %v", err)
		}
		return src, closeState, nil
	}
	src, closeSrc, err := o.sqlFlags.open(ctx, w, dropped)
	if err != nil || src == nil {
		return nil, nil, err
	}
	return src, closeSrc, nil
}

// trigger installs or removes the change triggers of --table or
// --preset, and says so.
func (o *serveOptions) trigger(ctx context.Context, src serve.Source, s *streams) error {
	sq, ok := src.(*serve.SQLSource)
	if !ok {
		return cannotRun("--install-trigger and --remove-trigger need --db with --table or --preset")
	}
	flag := "--install-trigger"
	if o.RemoveTrigger {
		flag = "--remove-trigger"
	}
	said, err := serve.SetTriggers(ctx, o.DB, sq, o.RemoveTrigger)
	if err != nil {
		return cannotRun("%s: %v", flag, err)
	}
	fmt.Fprintf(s.Err, "sitemap serve: %s\n", said)
	return nil
}

// indexnowQueue opens --indexnow-state and returns the queue that submits
// what the handler tells as changed.
func (o *serveOptions) indexnowQueue(ctx context.Context, logf func(string, ...any)) (*indexnow.Queue, func(), error) {
	key, err := keyFlag("--indexnow-key-file", o.IndexNowKeyFile)
	if err != nil {
		return nil, nil, err
	}
	st, err := state.Open(ctx, o.IndexNowState, state.Options{})
	if err != nil {
		return nil, nil, cannotRun("--indexnow-state %s: %v", state.Redact(o.IndexNowState), err)
	}
	c, err := httpClient("", 60*time.Second, fetch.Scope{})
	if err != nil {
		st.Close()
		return nil, nil, cannotRun("%v", err)
	}
	opts := indexnow.Options{Key: key, Host: indexnow.HostOf(o.BaseURL), KeyLocation: o.IndexNowKeyLocation, Endpoint: o.IndexNowEndpoint,
		Client: c, Ledger: st, MaxPerDay: o.IndexNowMaxPerDay,
		Submitter: "sitemap serve", LockWait: 10 * time.Minute, DedupMemory: 1 << 20}
	opts.Tell(func(line string) { logf("indexnow: %s", line) })
	q := indexnow.NewQueue(opts, 2*time.Second)
	q.Tell(func(line string) { logf("indexnow: %s", line) })
	return q, func() { st.Close() }, nil
}
