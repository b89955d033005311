package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/version"
	"github.com/sitemapkit/sitemap/state"
)

// Listening starts the line [Run] writes once it listens, followed by
// the index's URL and, in parentheses, what was built.
const Listening = "sitemap serve: listening on "

// logPrefix starts every other line Run writes.
const logPrefix = "sitemap serve: "

// Run is `sitemap serve` as one call: it checks s ([Settings.Check]),
// opens its source (a directory, a database or a crawl state), listens
// on Addr and AdminAddr (so an address in use is said before the build),
// builds every page once (with BaseURL; else at each host's first request),
// follows the source's changes ([Follow]), submits them to IndexNow with
// IndexNow.KeyFile, and serves the sitemaps ([ListenAndServe]) until ctx
// is done. Its log goes to diag, a line each: the columns found, how
// changes are found, the [Listening] line, each request with AccessLog,
// and the stop. With InstallTrigger or RemoveTrigger it puts the
// triggers on (or removes them), says so and returns; a preset's query
// printed (package preset's Settings) goes to out.
//
// The error says what to do, naming the flag; ctx done before the first
// build is done is not an error.
func Run(ctx context.Context, s Settings, out, diag io.Writer) error {
	if err := s.Check(); err != nil {
		return err
	}
	r := &run{s: &s, diag: diag, log: NewLogger(diag, logPrefix)}
	if s.RobotsFrom != "" {
		b, err := os.ReadFile(s.RobotsFrom)
		if err != nil {
			return fmt.Errorf("--robots-from: %v", err)
		}
		r.robotsTxt = b
	}
	defer r.close()
	var site http.Handler
	var what string
	var err error
	if s.Dir != "" {
		site, what, err = s.dirSite()
	} else {
		site, what, err = r.handler(ctx, out)
	}
	if err != nil || site == nil {
		return err
	}
	return r.serve(ctx, site, what)
}

// dirSite is the handler of a published directory.
func (s *Settings) dirSite() (http.Handler, string, error) {
	if fi, err := os.Stat(s.Dir); err != nil || !fi.IsDir() {
		return nil, "", fmt.Errorf("%s is not a directory: give the directory 'sitemap generate --out' wrote", s.Dir)
	}
	dopt := DirOptions{CacheControl: s.CacheControl}
	if s.HTML {
		dopt.HTML = HTMLView
	}
	d, err := Dir(s.Dir, dopt)
	if err != nil {
		return nil, "", err
	}
	return d, s.Dir, nil
}

// run is one [Run] from a database or crawl state: the handler, what its
// feed and IndexNow queue need, and what to close.
type run struct {
	s         *Settings
	diag      io.Writer
	robotsTxt []byte // of RobotsFrom
	h         *Handler
	drops     *DropLog
	feed      *PostgresFeed // of Feed
	log       *Logger
	ln, aln   net.Listener // of Addr and AdminAddr, opened before the build
	catchUp   func()       // with IndexNow.CatchUp, after the first build
	closers   []func()     // run in reverse order by close
}

func (r *run) close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// logf writes one line of the server's log.
func (r *run) logf(format string, args ...any) { r.log.Printf(format, args...) }

// handler opens the source, builds every page once (with BaseURL) and
// returns the handler that serves them; a nil handler after
// InstallTrigger or RemoveTrigger, which only say what they did.
func (r *run) handler(ctx context.Context, out io.Writer) (http.Handler, string, error) {
	s := r.s
	r.drops = NewDropLog(r.diag, 0) // each bad value once per row, however often it is read
	r.drops.Prefix = logPrefix
	src, closeSrc, err := r.open(ctx, out)
	if err != nil || src == nil { // nil after a preset's query printed
		return nil, "", err
	}
	r.closers = append(r.closers, closeSrc)
	if s.InstallTrigger || s.RemoveTrigger {
		return nil, "", r.trigger(ctx, src)
	}
	// Listened on before the first build, which takes minutes at 10^8
	// rows: an address in use is said at once.
	if err := r.listen(); err != nil {
		return nil, "", err
	}
	if q, ok := src.(*SQLSource); ok && q.Found() != "" {
		fmt.Fprintf(r.diag, "%scolumns %s\n", logPrefix, q.Found())
	}
	opt, err := r.options(ctx, &src)
	if err != nil {
		return nil, "", err
	}
	if r.h, err = NewHandler(src, opt); err != nil {
		if ce := (*cacheDirError)(nil); errors.As(err, &ce) {
			return nil, "", fmt.Errorf("--cache-dir %v", ce.err)
		}
		return nil, "", err
	}
	r.closers = append(r.closers, func() { r.h.Close() })
	start := time.Now()
	if err := r.h.Refresh(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, "", nil
		}
		return nil, "", err
	}
	if r.catchUp != nil && s.IndexNow.CatchUp {
		r.catchUp()
	}
	if s.BaseURL != "" {
		return r.h, fmt.Sprintf("%s built in %s", plural.Of(r.h.Pages(), "page", "pages"), time.Since(start).Round(time.Millisecond)), nil
	}
	return r.h, "pages built at the first request of each host", nil
}

// open opens the crawl state or the database of the settings; a nil
// source when there is nothing to serve.
func (r *run) open(ctx context.Context, out io.Writer) (Source, func(), error) {
	if r.s.State != "" {
		src, closeState, err := OpenCrawl(ctx, r.s.State)
		if err != nil {
			return nil, nil, fmt.Errorf("--state %v", err)
		}
		return src, closeState, nil
	}
	src, closeSrc, err := r.s.DB.Open(ctx, out, r.drops)
	if err != nil || src == nil {
		return nil, nil, err
	}
	return src, closeSrc, nil
}

// trigger installs or removes the change triggers of the source's
// tables, and says so.
func (r *run) trigger(ctx context.Context, src Source) error {
	sq, ok := src.(*SQLSource)
	if !ok {
		return errors.New("--install-trigger and --remove-trigger need --db with --table or --preset")
	}
	flag := "--install-trigger"
	if r.s.RemoveTrigger {
		flag = "--remove-trigger"
	}
	said, err := SetTriggers(ctx, r.s.sql().DB, sq, r.s.RemoveTrigger)
	if err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	fmt.Fprintf(r.diag, "%s%s\n", logPrefix, said)
	return nil
}

// options are the handler's options from the settings; src gets the
// change feed of Feed, and IndexNow.KeyFile its queue.
func (r *run) options(ctx context.Context, src *Source) (Options, error) {
	s := r.s
	if s.Recheck == 0 {
		s.Recheck = defaultRecheck // said in the log as the handler uses it
	}
	opt := Options{BaseURL: s.BaseURL, Hosts: s.Hosts, Name: s.Name, PerPage: s.PerPage, Recheck: s.Recheck,
		CacheControl: s.CacheControl, GzipIndex: s.GzipIndex, XSL: s.XSL, Robots: s.Robots, RobotsTxt: r.robotsTxt,
		CacheDir: s.CacheDir}
	opt.Dropped = r.drops.EncoderDropped
	if s.HTML {
		opt.HTML = HTMLView
	}
	dsn := s.sql().DB
	fw, err := Follow(ctx, *src, FollowOptions{DSN: dsn, Feed: s.Feed, Recheck: s.Recheck, Logf: r.logf})
	if err != nil {
		return opt, fmt.Errorf("--db %s: %v", RedactDSN(dsn), err)
	}
	*src, r.feed = fw.Source, fw.Postgres
	fw.Log(&opt, r.logf, s.Recheck)
	if dsn != "" && s.Feed == "" {
		r.logf("changes: %s", fw.How)
	}
	if s.IndexNow.KeyFile != "" {
		if err := r.indexnow(ctx, &opt); err != nil {
			return opt, err
		}
	}
	return opt, nil
}

// indexnow starts the IndexNow queue of IndexNow.KeyFile: every change
// the handler tells is submitted; catchUp sends, once the first build is
// done, what the pages hold and the ledger has not seen.
func (r *run) indexnow(ctx context.Context, opt *Options) error {
	q, closeState, err := r.s.IndexNow.queue(ctx, r.s.BaseURL, r.logf)
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

// queue opens the ledger of s.State and returns the queue that submits
// what the handler tells as changed, for the URLs of baseURL's host.
func (s IndexNowSettings) queue(ctx context.Context, baseURL string, logf func(string, ...any)) (*indexnow.Queue, func(), error) {
	key, err := indexnow.LoadKeyFile("--indexnow-key-file", s.KeyFile)
	if err != nil {
		return nil, nil, err
	}
	st, err := state.Open(ctx, s.State, state.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("--indexnow-state %s: %v", state.Redact(s.State), err)
	}
	c := s.Client
	if c == nil {
		ua := version.UserAgent()
		if c, err = fetch.NewClient(fetch.ClientOptions{UserAgent: ua, Timeout: time.Minute, HeaderTimeout: time.Minute}); err != nil {
			st.Close()
			return nil, nil, err
		}
	}
	opts := indexnow.Options{Key: key, Host: indexnow.HostOf(baseURL), KeyLocation: s.KeyLocation, Endpoint: s.Endpoint,
		Client: c, Ledger: st, MaxPerDay: s.MaxPerDay,
		Submitter: "sitemap serve", LockWait: 10 * time.Minute, DedupMemory: 1 << 20}
	opts.Tell(func(line string) { logf("indexnow: %s", line) })
	q := indexnow.NewQueue(opts, 2*time.Second)
	q.Tell(func(line string) { logf("indexnow: %s", line) })
	return q, func() { st.Close() }, nil
}

// listen opens the listeners of Addr and AdminAddr for serve.
func (r *run) listen() error {
	so := ServerOptions{Addr: r.s.Addr, AdminAddr: r.s.AdminAddr}
	ln, aln, err := so.Listen()
	if err != nil {
		return r.listenError(err)
	}
	r.ln, r.aln = ln, aln
	r.closers = append(r.closers, func() {
		ln.Close()
		if aln != nil {
			aln.Close()
		}
	})
	return nil
}

// listenError is err of a listener (a *ListenError) worded by its flag.
func (r *run) listenError(err error) error {
	var le *ListenError
	switch {
	case errors.As(err, &le) && le.Admin:
		return fmt.Errorf("--admin-addr %s: %v; give another HOST:PORT", r.s.AdminAddr, le.Err)
	case errors.As(err, &le):
		return fmt.Errorf("--addr %s: %v; give another HOST:PORT", r.s.Addr, le.Err)
	}
	return err
}

// serve serves site until ctx is done ([ListenAndServe]), saying where
// it listens and when it stops.
func (r *run) serve(ctx context.Context, site http.Handler, what string) error {
	s, diag := r.s, r.diag
	so := ServerOptions{Addr: s.Addr, AdminAddr: s.AdminAddr, Handler: r.h, Drops: r.drops,
		ReadTimeout: s.ReadTimeout, WriteTimeout: s.WriteTimeout, ShutdownTimeout: s.ShutdownTimeout,
		Listener: r.ln, AdminListener: r.aln}
	if r.feed != nil {
		so.Stop = r.feed.Down()
	}
	if s.AccessLog {
		so.AccessLog = diag
	}
	so.Listening = func(site, admin net.Addr) {
		if admin != nil {
			fmt.Fprintf(diag, "%s/metrics and /healthz on http://%s/\n", logPrefix, admin)
		}
		name := s.Name + ".xml"
		if s.Dir != "" {
			name = ""
		}
		fmt.Fprintf(diag, "%shttp://%s/%s (%s)\n", Listening, site, name, what)
	}
	so.Stopping = func() {
		fmt.Fprintf(diag, "%sstopping: finishing the answers in progress (at most %s)\n", logPrefix, s.ShutdownTimeout)
	}
	err := ListenAndServe(ctx, site, so)
	var se *StopError
	switch {
	case err == nil:
		return nil
	case errors.As(err, new(*ListenError)):
		return r.listenError(err)
	case errors.As(err, &se):
		return fmt.Errorf("--feed %s: %v", s.Feed, se.Err)
	case errors.Is(err, ErrAnswersCut):
		return fmt.Errorf("serve: answers still in progress after --shutdown-timeout %s were cut", s.ShutdownTimeout)
	}
	return fmt.Errorf("serve: %v", err)
}
