package crawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/ctrl"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/internal/urlfilter"
	"github.com/sitemapkit/sitemap/robots"
	"github.com/sitemapkit/sitemap/state"
)

// Reasons a URL is not listed (Outcome.Reason). "status:N" (N the HTTP
// status) and "error" (no response) are reported for fetch failures.
const (
	ReasonRedirect      = "redirect"                // a 3xx; its target is crawled instead
	ReasonNoindex       = "noindex"                 // meta robots or X-Robots-Tag noindex
	ReasonCanonical     = "canonical"               // rel=canonical names another URL; that one is crawled instead
	ReasonRobots        = "robots"                  // disallowed by robots.txt; never fetched
	ReasonNotHTML       = "not-html"                // a 200 that is not an HTML page
	ReasonError         = "error"                   // no HTTP response (network error, timeout)
	ReasonScope         = "scope"                   // another host, scheme, port or path prefix; not fetched
	ReasonExclude       = "exclude"                 // --include/--exclude keep it from the crawl
	ReasonListExclude   = "list-exclude"            // crawled, but --list-include/--list-exclude keep it out of the sitemap
	ReasonNofollow      = "nofollow"                // only reached through nofollow links; not fetched
	ReasonLongURL       = "trap:long-url"           // longer than MaxURLLength
	ReasonRepeating     = "trap:repeating-segments" // /a/b/a/b/a/b
	ReasonQueryVariants = "trap:query-variants"     // too many query variants of one path
	ReasonMaxDepth      = "limit:max-depth"         // beyond MaxDepth
	ReasonMaxPages      = "limit:max-pages"         // left in the frontier when MaxPages was reached
	ReasonMaxTime       = "limit:max-time"          // left in the frontier when MaxTime ran out
)

// Crawler crawls one site into a state store. Make one with New, Run it,
// then read the sitemap entries with Entries and the report with
// Outcomes.
type Crawler struct {
	o      Options
	agent  string // product token
	st     state.Store
	log    state.CrawlLog
	start  *url.URL
	origin string // scheme://host[:port] of the start URL
	prefix string // path prefix of the scope
	run    state.CrawlRun

	http    *fetch.Client
	limiter *rate.Limiter
	robots  *robots.Group

	pauseMu    sync.Mutex
	pauseUntil time.Time

	// deadline is when MaxTime runs out (zero: no limit); set before the
	// workers start.
	deadline time.Time

	sitemaps []string // seed sitemaps named by robots.txt

	// A worker of a shared crawl (NewWorker): the crawl log, the worker's
	// options, and the first error of the crawl log met by a request's
	// wait (the run stops with it).
	shared   state.SharedCrawlLog
	worker   WorkerOptions
	errMu    sync.Mutex
	err      error
	stopBeat func()
	left     bool
	pages    atomic.Int64 // pages fetched, for the heartbeat

	fetched  int // pages fetched, this run and the killed runs it resumes
	runPages int // pages fetched in this run

	// Options.Frontier is told at most once a frontierGap (a count of
	// the frontier reads all of it), the last time at lastFrontier.
	frontierGap  time.Duration
	lastFrontier time.Time
	warnings     []string
	// truncated counts the pages of this run read in part; firstTruncated
	// is the first of them written.
	truncated      int
	firstTruncated string
	// rendered counts what rendering revealed in this run (written by
	// the coordinator).
	rendered RenderCounts

	// answered is set by any HTTP response of this run (robots.txt or a
	// page); until then noAnswer holds the first request that got none
	// and why (Summary.Unreachable).
	answered   atomic.Bool
	noAnswerMu sync.Mutex
	noAnswer   string
}

// heard notes the outcome of one request of this run: err is nil when
// an HTTP response came (whatever its status).
func (c *Crawler) heard(u string, err error) {
	if err == nil {
		c.answered.Store(true)
		return
	}
	c.noAnswerMu.Lock()
	if c.noAnswer == "" {
		c.noAnswer = u + ": " + err.Error()
	}
	c.noAnswerMu.Unlock()
}

// Summary is what a Run did.
type Summary struct {
	Start string `json:"start"`
	// Resumed is set when the run continued a killed one (never for a
	// worker of a shared crawl, which joins the run whoever started it).
	Resumed bool `json:"resumed,omitempty"`
	// Fetched is the number of requests for pages made in this run;
	// for a worker of a shared crawl, the pages it fetched itself,
	// except in the Summary of the one that finished the crawl (and of
	// [Crawler.Finish]): the pages of the whole crawl, every worker's.
	Fetched int `json:"fetched"`
	// Listed is the number of pages that go into the sitemap; Reasons
	// counts every other URL seen by reason.
	Listed  int            `json:"listed"`
	Reasons map[string]int `json:"reasons"`
	// Limits names the limits that were reached (max-depth, max-pages,
	// max-time); never silent.
	Limits []string `json:"limits,omitempty"`
	// Finished is set, for a worker of a shared crawl (NewWorker), when
	// this worker finished the crawl: the crawl log is complete and its
	// caller publishes the sitemaps (then calls Leave). The other workers
	// end with it unset, their share done.
	Finished bool `json:"finished,omitempty"`
	// Warnings are problems that did not stop the crawl (robots.txt
	// unreadable, unreadable seed sitemaps).
	Warnings []string `json:"warnings,omitempty"`
	// Unreachable is set when no request of this run got an HTTP
	// response (the site is down, or the URL names no server: DNS,
	// connection refused, TLS): the first request and why. Nothing was
	// crawled because nothing answered, which is not a finding about the
	// site's pages.
	Unreachable string `json:"unreachable,omitempty"`
	// Render counts what rendering revealed on the pages of this run
	// (Options.Render); nil without a Renderer.
	Render  *RenderCounts `json:"render,omitempty"`
	Elapsed time.Duration `json:"elapsed_ns"`
}

// New prepares a crawl of start over a state store: st keeps the per-URL
// history (truthful lastmods, M-02) and log the crawl run (frontier,
// outcomes, entries); for a state file both are the same
// [state.SQLite], st and st.Crawl(). When log holds an unfinished crawl
// of the same start URL, Run resumes it; otherwise Run starts a new crawl
// and st's per-URL history (content hashes, lastmods) carries over.
//
// The Crawler does not close st; its caller does, after the last
// Entries or Outcomes.
func New(ctx context.Context, st state.Store, log state.CrawlLog, start string, o Options) (*Crawler, error) {
	o = o.withDefaults()
	c, err := newCrawler(st, log, start, o)
	if err != nil {
		return nil, err
	}
	c.run, err = log.Begin(ctx, c.start.String(), o.Now())
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Open returns a Crawler that reads the crawl of start that log holds,
// without starting or resuming it (it has no Run): Entries, Outcomes and
// Links read what the crawl found, as they would after its Run (for a
// shared crawl, [Crawler.Finish] first finishes it when its frontier is
// empty). o must be the crawl's options (the scope and query rules of
// Entries come from them).
func Open(st state.Store, log state.CrawlLog, start string, o Options) (*Crawler, error) {
	o = o.withDefaults()
	c, err := newCrawler(st, log, start, o)
	if err != nil {
		return nil, err
	}
	if sl, ok := log.(state.SharedCrawlLog); ok {
		c.shared = sl
	}
	return c, nil
}

// newCrawler is the Crawler of New, NewWorker and Open, before the crawl
// log is touched; o has its defaults.
func newCrawler(st state.Store, log state.CrawlLog, start string, o Options) (*Crawler, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	norm, err := o.Query.Normalize(start)
	if err != nil {
		return nil, fmt.Errorf("start URL %q: %v; give the homepage, e.g. https://www.example.com/", start, err)
	}
	su, _ := url.Parse(norm)
	c := &Crawler{o: o, start: su, st: st, log: log, http: o.HTTP, frontierGap: time.Second}
	if c.http == nil {
		if c.http, err = o.client(); err != nil {
			return nil, err
		}
	}
	c.agent = robots.ProductToken(c.http.UserAgent())
	c.origin = su.Scheme + "://" + su.Host
	c.prefix = su.EscapedPath()[:strings.LastIndexByte(su.EscapedPath(), '/')+1]
	return c, nil
}

// Resumed reports whether Run continues a killed crawl.
func (c *Crawler) Resumed() bool { return c.run.Resumed }

// Discarded is the start URL of the unfinished crawl of another start URL
// that New forgot to start this one (state.CrawlRun.Discarded), or "".
func (c *Crawler) Discarded() string { return c.run.Discarded }

// task is one URL handed to a worker.
type task struct {
	Loc      string
	Depth    int
	Referrer string
}

// result is what a worker found at one URL.
type result struct {
	task
	Status   int
	Reason   string
	Entry    *sitemap.URL // a listed page, before its lastmod is stamped
	Follow   []string     // links to crawl (normalised)
	Soft     []string     // nofollow links (normalised)
	Redirect string       // a redirect's or canonical's target (normalised)
	Title    string       // the page's <title>
	// Edges are the page's links (From is Loc), for the link graph:
	// anchors, the redirect or canonical target, hreflang alternates.
	Edges []state.CrawlEdge
	// Unfetched: max-time ran out before the request could be made; the
	// URL stays in the frontier.
	Unfetched bool
	// Truncated: the page was read in part (MaxBodyBytes, or a token over
	// the tokenizer's buffer); its links past that were not seen.
	Truncated bool
	// Render: what rendering revealed (Options.Render), nil when off.
	Render *RenderFacts
}

// Run crawls until the frontier is empty or a limit is reached. It
// returns ctx's error when ctx ends first; the state file then holds what
// was done, and the next Run with the same start URL continues.
//
// A worker's Run that fails stops its heartbeat: its leases run out
// (another worker takes its URLs within its lease time) even should
// [Crawler.Leave], which gives them back at once, not be called.
func (c *Crawler) Run(ctx context.Context) (Summary, error) {
	sum, err := c.runAll(ctx)
	if err != nil && c.shared != nil {
		c.stopHeartbeat()
	}
	return sum, err
}

func (c *Crawler) runAll(ctx context.Context) (Summary, error) {
	t0 := time.Now()
	sum := Summary{Start: c.start.String(), Resumed: c.run.Resumed}
	if err := c.readRobots(ctx); err != nil {
		return sum, err
	}
	if c.shared != nil {
		if err := c.seedShared(ctx); err != nil {
			return sum, err
		}
		return c.runShared(ctx, t0, sum)
	}
	if !c.run.Seeded {
		if err := c.seed(ctx); err != nil {
			return sum, err
		}
	}
	var err error
	if c.fetched, err = c.log.Fetched(ctx); err != nil {
		return sum, err
	}
	limit, err := c.loop(ctx)
	if err != nil {
		return sum, err
	}
	if err := c.finish(ctx, limit); err != nil {
		return sum, err
	}
	return c.summarize(ctx, t0, sum, limit)
}

// summarize completes sum from the crawl log's counts.
func (c *Crawler) summarize(ctx context.Context, t0 time.Time, sum Summary, limit string) (Summary, error) {
	counts, err := c.log.Reasons(ctx)
	if err != nil {
		return sum, err
	}
	sum.Listed = counts[""]
	delete(counts, "")
	sum.Reasons = counts
	if limit != "" {
		sum.Limits = append(sum.Limits, limit)
	}
	if counts[ReasonMaxDepth] > 0 {
		sum.Limits = append(sum.Limits, "max-depth")
	}
	sort.Strings(sum.Limits)
	sum.Fetched = c.runPages
	if c.o.Render != nil {
		n := c.rendered
		sum.Render = &n
	}
	sum.Warnings = c.warnings
	if !c.answered.Load() {
		c.noAnswerMu.Lock()
		sum.Unreachable = c.noAnswer
		c.noAnswerMu.Unlock()
	}
	if c.truncated > 0 {
		what := "1 page was"
		if c.truncated > 1 {
			what = fmt.Sprintf("%d pages were", c.truncated)
		}
		sum.Warnings = append(sum.Warnings[:len(sum.Warnings):len(sum.Warnings)], fmt.Sprintf("%s read only in part (the first: %s): over %s, or a tag or text run over 1 MiB; the page is listed, and its links past that point were not followed", what, c.firstTruncated, progress.Bytes(c.o.MaxBodyBytes)))
	}
	sum.Elapsed = time.Since(t0)
	return sum, nil
}

// readRobots fetches robots.txt (RFC 9309): 2xx is parsed, 4xx allows
// everything, 5xx and network errors disallow everything (§2.3.1.3,
// §2.3.1.4). It also sets the rate from Crawl-delay.
func (c *Crawler) readRobots(ctx context.Context) error {
	limit := rate.Inf
	if c.o.Rate > 0 {
		limit = rate.Limit(c.o.Rate)
	}
	defer func() { c.limiter = rate.NewLimiter(limit, 1) }()
	if c.o.IgnoreRobots {
		return nil
	}
	robotsURL := c.origin + "/robots.txt"
	r, err := c.http.Robots(ctx, robotsURL)
	if err != nil {
		return err // ctx ended
	}
	if r.Status > 0 {
		c.heard(robotsURL, nil)
	} else if r.Err != nil {
		c.heard(robotsURL, r.Err)
	}
	f := r.File
	switch {
	case r.Unreachable():
		why := fmt.Sprintf("status %d", r.Status)
		if r.Err != nil {
			why = r.Err.Error()
		}
		c.warnings = append(c.warnings, fmt.Sprintf("%s: %s; treating the whole site as disallowed (RFC 9309 §2.3.1.4)", robotsURL, why))
		f = robots.ParseBytes([]byte("User-agent: *\nDisallow: /\n"))
	case f == nil:
		return nil // 4xx: no rules
	}
	g := f.Group(c.agent)
	c.robots = &g
	if !r.Unreachable() && !g.Allowed(c.start.String()) {
		group := "the group of every crawler (User-agent: *)"
		if g.Agent != "*" {
			group = fmt.Sprintf("its group for %q", g.Agent)
		}
		c.warnings = append(c.warnings, fmt.Sprintf("%s disallows the start URL %s in %s, so the crawl does not fetch it: crawl from a page it allows, or, on your own site, 'sitemap crawl --ignore robots' crawls and lists the pages anyway (--user-agent selects another group)", robotsURL, c.start, group))
	}
	if g.HasCrawlDelay && g.CrawlDelay > 0 {
		if d := rate.Every(g.CrawlDelay); d < limit {
			limit = d
		}
	}
	if !c.o.NoSitemaps && !c.run.Seeded {
		base, _ := url.Parse(robotsURL)
		sms, warns := f.Sitemaps(base)
		for _, w := range warns {
			c.warnings = append(c.warnings, fmt.Sprintf("%s:%d: %s %s", robotsURL, w.Line, w.Rule, w.Message))
		}
		c.sitemaps = sms
	}
	return nil
}

// seed enqueues the start URL and, unless NoSitemaps, every URL of the
// sitemaps robots.txt names, at depth 0, in one transaction.
func (c *Crawler) seed(ctx context.Context) error {
	return c.log.Update(ctx, func(tx state.CrawlTx) error {
		if err := c.enqueue(ctx, tx, c.start.String(), 0, "", false); err != nil {
			return err
		}
		for _, sm := range c.sitemaps {
			_, err := fetch.Walk(ctx, sm, fetch.Options{HTTP: c.http, NoDedup: true, KnownPaths: fetch.KnownPathsNever}, func(ev fetch.Event) error {
				switch {
				case ev.Kind == fetch.EventURL && ev.URL != nil:
					loc, err := c.o.Query.Normalize(ev.URL.Loc)
					if err != nil {
						return nil
					}
					from := ev.URL.Source
					if from == "" {
						from = sm
					}
					return c.enqueue(ctx, tx, loc, 0, from, false)
				case ev.Kind == fetch.EventDiagnostic && ev.Diagnostic != nil && ev.Diagnostic.Severity == sitemap.SeverityError:
					// Error, not String: the crawl prints this line as a
					// warning, and String would add a second severity.
					c.warnings = append(c.warnings, "seed sitemap: "+ctrl.Escape(ev.Diagnostic.Error()))
				}
				return nil
			})
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				c.warnings = append(c.warnings, fmt.Sprintf("seed sitemap %s: %v", sm, err))
			}
		}
		return tx.Seeded(ctx)
	})
}

// classify returns why loc is not crawled, or "" when it is.
func (c *Crawler) classify(loc string) string {
	if !strings.HasPrefix(loc, c.origin) || len(loc) == len(c.origin) || loc[len(c.origin)] != '/' || !strings.HasPrefix(loc[len(c.origin):], c.prefix) {
		return ReasonScope
	}
	if len(loc) > c.o.MaxURLLength {
		return ReasonLongURL
	}
	path := loc[len(c.origin):]
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	if repeats(path, c.o.MaxRepeats) {
		return ReasonRepeating
	}
	if !matches(loc, c.o.Include, c.o.Exclude) {
		return ReasonExclude
	}
	if c.robots != nil && !c.robots.Allowed(loc) {
		return ReasonRobots
	}
	return ""
}

// matches applies an include/exclude pair: the module's one rule
// (internal/urlfilter), which generate's --include/--exclude apply too.
func matches(s string, include, exclude []*regexp.Regexp) bool {
	return urlfilter.Filter{Include: include, Exclude: exclude}.Keep(s)
}

// repeats reports whether some run of path segments occurs n times in a
// row: /a/b/a/b/a/b for n = 3 (a crawl trap of relative links).
func repeats(path string, n int) bool {
	segs := strings.FieldsFunc(path, func(r rune) bool { return r == '/' })
	for p := 1; p*n <= len(segs); p++ {
		run := 0 // segments equal to the one p before
		for i := p; i < len(segs); i++ {
			if segs[i] == segs[i-p] {
				run++
				if run >= p*(n-1) {
					return true
				}
			} else {
				run = 0
			}
		}
	}
	return false
}

// pathKey is the URL without its query, for counting query variants; ""
// for a URL without a query.
func pathKey(loc string) string {
	if i := strings.IndexByte(loc, '?'); i >= 0 {
		return loc[:i]
	}
	return ""
}

// enqueue records a link to loc found at depth (from referrer). A URL
// that is not to be crawled is recorded as decided, with its reason. The
// first sighting wins, except that a followed link makes a nofollow-only
// URL pending, and that among links of the same depth the smallest
// referrer is kept, so the report does not depend on timing (the rules
// of [state.CrawlTx.Enqueue]).
func (c *Crawler) enqueue(ctx context.Context, tx state.CrawlTx, loc string, depth int, referrer string, soft bool) error {
	l := state.CrawlLink{Loc: loc, Depth: depth, Referrer: referrer, PathKey: pathKey(loc), Reason: c.classify(loc)}
	if l.Reason == "" && c.o.MaxDepth > 0 && depth > c.o.MaxDepth {
		l.Reason = ReasonMaxDepth
	}
	if l.Reason == "" && soft {
		l.Reason, l.Nofollow = ReasonNofollow, true
	}
	return tx.Enqueue(ctx, l)
}

// loop is the coordinator: it hands out the frontier level by level
// (breadth first, each level in URL order, so depths, caps and the set of
// pages fetched do not depend on timing), collects the workers' results
// and writes them. Only this goroutine writes the crawl log. It returns
// the name of the limit that stopped the crawl, if any.
func (c *Crawler) loop(ctx context.Context) (string, error) {
	n := c.o.Concurrency
	if c.o.MaxTime > 0 {
		c.deadline = time.Now().Add(c.o.MaxTime)
	}
	deadline := c.deadline
	pool := c.startFetchers(ctx, n, n)
	defer pool.stop()
	w := &levelWalk{level: -1}
	for {
		if !w.timeUp && !deadline.IsZero() && time.Now().After(deadline) {
			w.timeUp, w.limit = true, "max-time"
		}
		if err := c.handOut(ctx, w, pool.tasks, n); err != nil {
			return "", err
		}
		if w.inflight == 0 {
			limit, finished, err := c.nextLevel(ctx, w)
			if err != nil {
				return "", err
			}
			if finished {
				return limit, nil
			}
			continue
		}
		if err := c.awaitResult(ctx, w, pool.results, deadline); err != nil {
			return "", err
		}
	}
}

// levelWalk is where loop is in the frontier.
type levelWalk struct {
	queue     []task   // claimed, not handed out yet
	done      []result // fetched, not written yet
	inflight  int      // handed out, no result yet
	level     int      // the depth being handed out; -1 before the first
	cursor    string   // the last URL claimed of level ("" at its start)
	limit     string   // the limit that stopped the crawl
	exhausted bool     // a claim-time limit (max-pages) was reached: claim no more
	timeUp    bool     // max-time: hand out nothing more
}

// handOut hands tasks to the fetchers until n are in flight, claiming
// the next tasks of w's level when its queue is empty. It hands out
// nothing once the time is up, and claims nothing before the first level
// or after a claim-time limit (which it records in w); it stops early
// when the level has nothing more. An error of the crawl log is returned.
func (c *Crawler) handOut(ctx context.Context, w *levelWalk, tasks chan<- task, n int) error {
	for !w.timeUp && w.inflight < n {
		if len(w.queue) == 0 {
			if w.level < 0 || w.exhausted {
				break
			}
			var err error
			var lim string
			w.queue, w.cursor, lim, err = c.claim(ctx, w.level, w.cursor)
			if err != nil {
				return err
			}
			if lim != "" {
				w.exhausted, w.limit = true, lim
			}
			if len(w.queue) == 0 {
				break
			}
		}
		tasks <- w.queue[0]
		w.queue = w.queue[1:]
		w.inflight++
	}
	return nil
}

// nextLevel is loop's step when nothing is in flight: it writes the
// results held, then, unless a limit stopped the crawl, moves w to the
// shallowest pending depth. It reports the crawl finished, with the
// limit that stopped it, when a limit was reached (claimed tasks not
// handed out stay pending), and with "" when nothing is pending. An
// error of writing or of the crawl log is returned.
func (c *Crawler) nextLevel(ctx context.Context, w *levelWalk) (string, bool, error) {
	if err := c.write(ctx, w.done); err != nil {
		return "", false, err
	}
	w.done = w.done[:0]
	if w.timeUp || w.exhausted {
		// Claimed tasks not handed out stay pending and are
		// reported with the limit.
		return w.limit, true, nil
	}
	// Next level: the shallowest pending depth.
	d, ok, err := c.log.NextDepth(ctx)
	if err != nil {
		return "", false, err
	}
	if !ok {
		return "", true, nil
	}
	w.level, w.cursor = d, ""
	return "", false, nil
}

// awaitResult is loop's step while requests are in flight: it waits for
// a result and keeps it in w.done, written 64 at a time, or for the
// deadline (nothing taken: the next turn finds the time up). A request
// that could not start before max-time is not counted and ends the
// hand-out (max-time). It returns ctx's error when ctx is done, and an
// error of writing.
func (c *Crawler) awaitResult(ctx context.Context, w *levelWalk, results <-chan result, deadline time.Time) error {
	var timeout <-chan time.Time
	var timer *time.Timer
	if !deadline.IsZero() && !w.timeUp {
		timer = time.NewTimer(time.Until(deadline))
		timeout = timer.C
	}
	var r result
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timeout:
		return nil
	case r = <-results:
		if timer != nil {
			timer.Stop()
		}
		w.inflight--
		if r.Unfetched {
			// Claimed, but the request could not start before
			// max-time: no later one can either.
			c.fetched--
			w.timeUp, w.limit = true, "max-time"
			return nil
		}
		w.done = append(w.done, r)
		c.runPages++
		if c.o.Progress != nil {
			c.o.Progress(c.runPages)
		}
		if len(w.done) >= 64 {
			if err := c.write(ctx, w.done); err != nil {
				return err
			}
			w.done = w.done[:0]
			c.frontier(ctx)
		}
	}
	return nil
}

// fetcherPool is the fetchers of a coordinator (loop, loopShared): they
// fetch the tasks handed to them and send the results.
type fetcherPool struct {
	tasks   chan task
	results chan result
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// startFetchers starts n fetchers, with room for size tasks and size
// results waiting. Their requests end with ctx, or with stop.
func (c *Crawler) startFetchers(ctx context.Context, n, size int) *fetcherPool {
	p := &fetcherPool{tasks: make(chan task, size), results: make(chan result, size)}
	wctx, cancel := context.WithCancel(ctx)
	p.cancel = cancel
	for range n {
		p.wg.Go(func() {
			for t := range p.tasks {
				p.results <- c.fetch(wctx, t)
			}
		})
	}
	return p
}

// stop ends the fetchers: no more tasks, the requests in flight cut
// short and every result not taken yet discarded. It returns when every
// fetcher has ended; the pool cannot be used again.
func (p *fetcherPool) stop() {
	close(p.tasks)
	p.cancel()
	go func() {
		for range p.results {
		}
	}()
	p.wg.Wait()
	close(p.results)
}

// frontier tells Options.Frontier the pages done of those seen, when the
// crawl log can count its frontier (every page written so far is decided,
// so the pending ones are the frontier, in flight included), at most once
// a second.
func (c *Crawler) frontier(ctx context.Context) {
	fc, ok := c.log.(state.FrontierCounter)
	if c.o.Frontier == nil || !ok || time.Since(c.lastFrontier) < c.frontierGap {
		return
	}
	c.lastFrontier = time.Now()
	if n, err := fc.Frontier(ctx); err == nil {
		c.o.Frontier(c.runPages, c.runPages+n)
	}
}

// claim returns the next pending tasks of level after cursor, applying
// the caps decided at claim time (max-pages, query variants) in URL order.
func (c *Crawler) claim(ctx context.Context, level int, cursor string) ([]task, string, string, error) {
	cands, err := c.log.Pending(ctx, level, cursor, 64)
	if err != nil {
		return nil, cursor, "", err
	}
	var out []task
	limit := ""
	err = c.log.Update(ctx, func(tx state.CrawlTx) error {
		for _, x := range cands {
			if c.o.MaxPages > 0 && c.fetched >= c.o.MaxPages {
				limit = "max-pages"
				return nil
			}
			cursor = x.Loc
			if x.PathKey != "" && c.o.MaxQueryVariants > 0 {
				k, err := tx.Variants(ctx, x.PathKey, x.Depth, x.Loc)
				if err != nil {
					return err
				}
				if k >= c.o.MaxQueryVariants {
					if err := tx.Skip(ctx, x.Loc, ReasonQueryVariants); err != nil {
						return err
					}
					continue
				}
				if err := tx.Count(ctx, x.Loc); err != nil {
					return err
				}
			}
			c.fetched++
			out = append(out, task{Loc: x.Loc, Depth: x.Depth, Referrer: x.Referrer})
		}
		return nil
	})
	if err == nil && len(out) == 0 && len(cands) > 0 && limit == "" {
		// Every candidate was a trap: look further.
		return c.claim(ctx, level, cursor)
	}
	return out, cursor, limit, err
}

// write stamps the finished pages' entries in the state store (truthful
// lastmod), records the others, flushes the store, and then, in one
// transaction of the crawl log, marks them done and enqueues their links.
// A crash between the two leaves the pages pending: they are fetched again
// and stamped with the same result.
func (c *Crawler) write(ctx context.Context, done []result) error {
	if len(done) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err // results of requests cut short are not recorded
	}
	if pf, ok := c.st.(state.Prefetcher); ok {
		// One read of the store for the batch, not one per page.
		locs := make([]string, len(done))
		for i := range done {
			locs[i] = done[i].Loc
			if done[i].Entry != nil {
				locs[i] = done[i].Entry.Loc
			}
		}
		if err := pf.Prefetch(ctx, locs); err != nil {
			return err
		}
	}
	for i := range done {
		r := &done[i]
		if r.Depth == 0 && r.Loc == c.start.String() && r.Redirect != "" && c.classify(r.Redirect) == ReasonScope {
			how := "redirects to"
			if r.Reason == ReasonCanonical {
				how = "names as its canonical"
			}
			c.warnings = append(c.warnings, fmt.Sprintf("the start URL %s %s %s, outside the crawl's scope (scheme, host, port and path prefix of the start URL); start the crawl there instead", r.Loc, how, r.Redirect))
		}
		c.rendered.add(r.Render)
		if r.Truncated {
			if c.truncated++; c.firstTruncated == "" {
				c.firstTruncated = r.Loc
			}
		}
		if r.Entry != nil {
			if err := c.st.Stamp(ctx, r.Entry, c.run.Time); err != nil {
				return err
			}
			continue
		}
		if err := c.record(ctx, r.Loc, r.Status, r.Reason); err != nil {
			return err
		}
	}
	if err := c.st.Flush(ctx); err != nil {
		return err
	}
	if c.shared == nil {
		return c.writeLog(ctx, done)
	}
	// Workers writing links to the same URLs at once may deadlock in
	// the database, which then ends one of them: it is written again.
	var err error
	for try := range 10 {
		if err = c.writeLog(ctx, done); !errors.Is(err, state.ErrConflict) {
			return err
		}
		if err := sleep(ctx, time.Duration(try+1)*10*time.Millisecond); err != nil {
			return err
		}
	}
	return err
}

// writeLog is write's transaction of the crawl log: it marks the pages
// done and enqueues their links.
func (c *Crawler) writeLog(ctx context.Context, done []result) error {
	return c.log.Update(ctx, func(tx state.CrawlTx) error {
		var held map[string]bool
		if c.shared != nil {
			// Written only by the worker that holds the URL: one whose
			// lease ran out leaves it to the one that took it.
			locs := make([]string, len(done))
			for i := range done {
				locs[i] = done[i].Loc
			}
			var err error
			if held, err = tx.(state.LeaseTx).Holds(ctx, c.worker.ID, locs); err != nil {
				return err
			}
		}
		for i := range done {
			r := &done[i]
			if held != nil && !held[r.Loc] {
				continue
			}
			if err := tx.Record(ctx, state.CrawlResult{Loc: r.Loc, Status: r.Status, Title: r.Title, Reason: r.Reason, Entry: r.Entry, Render: r.Render.encode()}); err != nil {
				return err
			}
			for _, e := range r.Edges {
				if err := tx.Link(ctx, e); err != nil {
					return err
				}
			}
			if r.Redirect != "" {
				if err := c.enqueue(ctx, tx, r.Redirect, r.Depth+1, r.Loc, false); err != nil {
					return err
				}
			}
			for _, l := range r.Follow {
				if err := c.enqueue(ctx, tx, l, r.Depth+1, r.Loc, false); err != nil {
					return err
				}
			}
			for _, l := range r.Soft {
				if err := c.enqueue(ctx, tx, l, r.Depth+1, r.Loc, true); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// record keeps a fetched URL that is not listed in the state store, with
// its status and reason; its content history is kept.
func (c *Crawler) record(ctx context.Context, loc string, status int, reason string) error {
	prev, found, err := c.st.Lookup(ctx, loc)
	if err != nil {
		return err
	}
	r := prev
	if !found {
		r = state.Record{Loc: loc, FirstSeen: c.run.Time}
	}
	r.LastSeen, r.Status, r.Included, r.Reason = c.run.Time, status, false, reason
	return c.st.Put(ctx, r)
}

// finish reports what a limit left in the frontier and marks the run
// finished, so that the next Run starts a new crawl.
func (c *Crawler) finish(ctx context.Context, limit string) error {
	reason := ""
	if limit != "" {
		reason = "limit:" + limit
	}
	return c.log.Update(ctx, func(tx state.CrawlTx) error { return tx.Finish(ctx, reason) })
}

// Entries calls fn with the entry of every listed page, sorted by loc
// (read from the crawl log a page at a time, so memory does not grow with
// the site). hreflang alternates are kept only when they hold in both
// directions (H-04): an alternate that is a crawled page must be listed
// and must name this page back; one outside the crawl (another host or
// port, H-05) is kept unchecked when every page that links back names it
// too, so the group's pages list the same set (H-08). Every entry with alternates
// lists itself (H-03): under the codes the pages that link back give it
// (so the group's sets agree, H-08), else under its own self link or its
// <html lang>; an entry with nothing to call itself, or left with only
// itself, loses its alternates.
func (c *Crawler) Entries(ctx context.Context, fn func(*sitemap.URL) error) error {
	after := ""
	for {
		rows, err := c.log.Listed(ctx, after, pageSize)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := c.reciprocal(ctx, r.Entry); err != nil {
				return err
			}
			if err := fn(r.Entry); err != nil {
				return err
			}
		}
		if len(rows) < pageSize {
			return nil
		}
		after = rows[len(rows)-1].Loc
	}
}

// reciprocal leaves u only the alternates its group agrees on (H-08):
// those that link back, itself, and those outside the crawl that every
// page linking back names too, plus u under every code the group gives
// it (H-03). It filters u.Alternates in place; an entry with no other
// version, or none for itself, loses them all. No alternates: nothing to
// do. An error of the crawl log is returned, u.Alternates then partly
// filtered.
func (c *Crawler) reciprocal(ctx context.Context, u *sitemap.URL) error {
	if len(u.Alternates) == 0 {
		return nil
	}
	g, err := c.hreflangGroup(ctx, u)
	if err != nil {
		return err
	}
	others := g.keepShared(u.Loc)
	g.listSelf(u.Loc)
	if others == 0 || !g.hasSelf {
		u.Alternates = nil
		return nil
	}
	u.Alternates = g.kept
	return nil
}

// hreflangGroup is what reciprocal finds of an entry's hreflang group.
type hreflangGroup struct {
	kept      []sitemap.Alternate   // the alternates kept (in place of the entry's)
	outside   []bool                // kept[i] is outside the crawl, unchecked
	members   [][]sitemap.Alternate // the alternates of the pages that link back
	selfLangs []string              // what those pages call u
	hasSelf   bool
}

// hreflangGroup reads, from the crawl log, the pages u's alternates name:
// it keeps (in u.Alternates' array) u's own link, the links to listed
// pages that link back to u (noting their alternates and what they call
// u), and the links outside the crawl; a page crawled, or crawlable, but
// not listed is dropped. An error of the crawl log is returned.
func (c *Crawler) hreflangGroup(ctx context.Context, u *sitemap.URL) (*hreflangGroup, error) {
	g := &hreflangGroup{kept: u.Alternates[:0]}
	for _, a := range u.Alternates {
		if a.Href == u.Loc {
			g.kept = append(g.kept, a)
			g.outside = append(g.outside, false)
			g.hasSelf = true
			continue
		}
		other, listed, err := c.log.Entry(ctx, a.Href)
		if err != nil {
			return nil, err
		}
		if !listed {
			seen, err := c.log.Seen(ctx, a.Href)
			if err != nil {
				return nil, err
			}
			if seen && c.classify(a.Href) != ReasonScope {
				continue // crawled (or crawlable) but not listed: drop
			}
			g.kept = append(g.kept, a)
			g.outside = append(g.outside, true)
			continue
		}
		back := false
		for _, b := range other.Alternates {
			if b.Href == u.Loc {
				back = true
				if !slices.ContainsFunc(g.selfLangs, func(s string) bool { return strings.EqualFold(s, b.Hreflang) }) {
					g.selfLangs = append(g.selfLangs, b.Hreflang)
				}
			}
		}
		if back {
			g.kept = append(g.kept, a)
			g.outside = append(g.outside, false)
			g.members = append(g.members, other.Alternates)
		}
	}
	return g, nil
}

// keepShared drops from g.kept the alternates outside the crawl that some
// page linking back does not name (with the same code), and returns how
// many of those kept are not links to self. With no page linking
// back, every alternate outside is kept.
func (g *hreflangGroup) keepShared(self string) int {
	// H-08: every page of a group lists the same set. An alternate outside
	// the crawl is kept when every page that links back names it too, so
	// that each of them keeps it as well.
	others, n := 0, 0
	for i, a := range g.kept {
		if g.outside[i] {
			all := true
			for _, m := range g.members {
				if !slices.ContainsFunc(m, func(b sitemap.Alternate) bool {
					return b.Href == a.Href && strings.EqualFold(b.Hreflang, a.Hreflang)
				}) {
					all = false
					break
				}
			}
			if !all {
				continue
			}
		}
		if a.Href != self {
			others++
		}
		g.kept[n] = a
		n++
	}
	g.kept = g.kept[:n]
	return others
}

// listSelf adds to g.kept a link to self under every code the pages that
// link back call it, unless an alternate kept has that code (compared
// without case); an added link sets g.hasSelf.
func (g *hreflangGroup) listSelf(self string) {
	// H-03 and H-08: u lists itself under every code the group gives it,
	// unless the code is taken by another version.
	for _, lang := range g.selfLangs {
		free := true
		for _, a := range g.kept {
			if strings.EqualFold(a.Hreflang, lang) {
				free = false
				break
			}
		}
		if free {
			g.kept = append(g.kept, sitemap.Alternate{Hreflang: lang, Href: self})
			g.hasSelf = true
		}
	}
}

// Outcomes calls fn with every URL seen, sorted by URL: the report.
func (c *Crawler) Outcomes(ctx context.Context, fn func(Outcome) error) error {
	after := ""
	for {
		rows, err := c.log.Outcomes(ctx, after, pageSize)
		if err != nil {
			return err
		}
		for _, r := range rows {
			o := Outcome{URL: r.Loc, Status: r.Status, Included: r.Included, Reason: r.Reason, Depth: r.Depth, From: r.Referrer, Title: r.Title, Inlinks: r.Inlinks, Clicks: r.Clicks, Render: decodeFacts(r.Render)}
			if err := fn(o); err != nil {
				return err
			}
		}
		if len(rows) < pageSize {
			return nil
		}
		after = rows[len(rows)-1].Loc
	}
}

// Links calls fn with every link of the crawl's link graph (see
// [state.CrawlEdge]), sorted by From, then To, then Kind: the anchors,
// redirects, canonical and hreflang annotations of every page fetched,
// to pages of the site and beyond it. Read from the crawl log a page at a
// time, so memory does not grow with the site.
func (c *Crawler) Links(ctx context.Context, fn func(state.CrawlEdge) error) error {
	return EachLink(ctx, c.log, fn)
}

// EachLink is [Crawler.Links] over any crawl log, such as the one of a
// state file written by an earlier crawl.
func EachLink(ctx context.Context, log state.CrawlLog, fn func(state.CrawlEdge) error) error {
	var after state.CrawlEdge
	for {
		rows, err := log.Links(ctx, after, pageSize)
		if err != nil {
			return err
		}
		for _, e := range rows {
			if err := fn(e); err != nil {
				return err
			}
		}
		if len(rows) < pageSize {
			return nil
		}
		after = rows[len(rows)-1]
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// drain reads a little of a body we do not use, so the connection can be
// reused, and closes it.
func drain(b io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, b, 64<<10)
	_ = b.Close()
}

// Check reports the first option New would refuse, so that a program can
// refuse it before it opens a state. It checks ImageHosts: each must be a
// host name, with a port or not.
func (o Options) Check() error {
	for _, h := range o.ImageHosts {
		if err := checkImageHost(h); err != nil {
			return err
		}
	}
	return nil
}

// checkImageHost refuses an ImageHosts entry that is not a host name (with
// a port or not): a URL, a path or an empty name would match no image and
// list none without a word.
func checkImageHost(h string) error {
	if h == "" {
		return errors.New("image host \"\": give a host name, e.g. cdn.example.com")
	}
	u, err := url.Parse("http://" + h)
	if strings.Contains(h, "://") || err != nil || u.Host != h || u.User != nil || u.Hostname() == "" {
		if v, err := url.Parse(h); err == nil && v.Host != "" {
			return fmt.Errorf("image host %q: give the host name alone: %s", h, v.Host)
		}
		return fmt.Errorf("image host %q: give a host name alone, e.g. cdn.example.com, not a URL or a path", h)
	}
	return nil
}
