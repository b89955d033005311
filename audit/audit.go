package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Options configure an audit. HTTP is required; every other zero field is
// a usable default.
type Options struct {
	// HTTP makes every request: sitemaps, robots.txt and the listed URLs
	// (its User-Agent, timeouts, body cap and Scope apply).
	HTTP *fetch.Client
	// Concurrency is how many listed URLs are requested at once
	// (default 4).
	Concurrency int
	// Rate is the most requests per second to the site (default 10;
	// negative: no limit).
	Rate float64
	// Retries is how many times a request answered 429 or 503 is tried
	// again (default 2; negative: none).
	Retries int
	// Sample, when positive, audits a uniform sample of that many URLs
	// of each sitemap instead of every URL: drawn at random, or with
	// History by a hash of each URL, so that every run audits the same
	// URLs (as long as the sitemaps list them).
	Sample int
	// History compares every audited URL that answers 200 with what
	// earlier runs of the same log saw (AUD-27 to AUD-31, Record.History,
	// and the site's SiteHistory with AUD-30) and records what this run
	// sees: the lastmod, the ETag and Last-Modified, and the main-content
	// fingerprint (crawl.Page.Fingerprint). It needs a log that outlives
	// the run (a state file or PostgreSQL); the first run only records.
	History bool
	// Site is where local sitemap files are served (input.Options.Base):
	// the base of their scope (AUD-15) and of an index's children.
	Site string
	// MaxDepth bounds how deep indexes are followed (default 5).
	MaxDepth int
	// MaxErrors abandons one sitemap after that many errors (0: the
	// decoder's default; negative: no cap).
	MaxErrors int
	// MaxBodyBytes is how much of one HTML page is read (default 10 MiB).
	MaxBodyBytes int64
	// AllowOffSite follows index children on another site (I-05).
	AllowOffSite bool
	// Stdin is read for the name "-".
	Stdin io.Reader

	// Crawl, when set, crawls the site from its homepage with these
	// options (HTTP, NoSitemaps and Concurrency are set by the audit) into
	// CrawlStore and CrawlLog, for the orphans and missing pages of
	// Records.
	Crawl      *crawl.Options
	CrawlStore state.Store
	CrawlLog   state.CrawlLog

	// Render, when set, renders every audited HTML page in a browser
	// (with RenderMode crawl.RenderAuto, those that look like an
	// application shell): noindex, canonical and hreflang are read from
	// the rendered page, and what rendering reveals is reported (AUD-19
	// to AUD-26). Pages the crawl (Crawl) finds are rendered by the crawl
	// when its own Options.Render is set; when that is Render itself, a
	// page the audit rendered is not rendered again: the crawl reads the
	// audit's rendering of it, kept meanwhile in a temporary directory
	// (one file a page, removed when Run returns).
	Render     crawl.Renderer
	RenderMode crawl.RenderMode

	// Now is the clock (default time.Now): a lastmod after it is in the
	// future (AUD-12).
	Now func() time.Time
	// OnDiagnostic receives the problems found reading the sitemaps.
	OnDiagnostic func(sitemap.Diagnostic)
	// Progress, when set, is called after every URL checked with the
	// number checked so far in this run.
	Progress func(checked int)
}

func (o Options) withDefaults() Options {
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.Rate == 0 {
		o.Rate = 10
	}
	if o.Retries == 0 {
		o.Retries = 2
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 5
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 10 << 20
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Finding is one problem of a URL, a [rules.Problem]: a rule ID of the
// AUD family, its severity (the book's for the rule) and a message for
// people; as JSON {"rule", "severity", "message"}.
type Finding = rules.Problem

// Record is one URL audited or found: what `sitemap audit --format jsonl`
// prints, one per line. Findings is empty (never null) for a clean page.
type Record struct {
	URL string `json:"url"`
	// Status is the HTTP status of the URL's own answer (the first hop of
	// a redirect); 0 when it was not requested.
	Status int `json:"status"`
	// Class is the rule ID of the record's first finding (the most severe),
	// AUD-01 for a clean page.
	Class    rules.ID  `json:"class"`
	Findings []Finding `json:"findings"`
	// Listed is false for a page the crawl found that no sitemap lists.
	Listed bool `json:"listed"`
	// Source is the sitemap that listed the URL (the first, when several
	// did); LastMod its lastmod there.
	Source  string `json:"source,omitempty"`
	LastMod string `json:"lastmod,omitempty"`
	// Target is a redirect's final URL or the canonical a page names.
	Target string `json:"target,omitempty"`
	// ContentType and LastModified are the server's headers.
	ContentType  string `json:"content_type,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	// Depth is the click depth from the homepage (crawl only; absent when
	// the crawl did not reach the URL); From the page that links to it.
	Depth *int   `json:"depth,omitempty"`
	From  string `json:"from,omitempty"`
	// Title and Inlinks are the page's <title> and how many pages of the
	// site link to it, as the crawl saw them (crawl only).
	Title   string `json:"title,omitempty"`
	Inlinks int    `json:"inlinks,omitempty"`
	// Alternates counts the hreflang alternates of the live page.
	Alternates int `json:"alternates,omitempty"`
	// ETag is the server's (with Options.History only).
	ETag string `json:"etag,omitempty"`
	// ContentHash is the page's main-content fingerprint and History how
	// it compares with earlier runs (with Options.History only).
	ContentHash string   `json:"content_hash,omitempty"`
	History     *History `json:"history,omitempty"`
}

// add appends a finding under rule, with the rule's severity.
func (r *Record) add(rule rules.ID, format string, args ...any) {
	r.Findings = append(r.Findings, rule.Problem(fmt.Sprintf(format, args...)))
}

// Errors reports whether the record has an error-class finding.
func (r *Record) Errors() bool {
	for _, f := range r.Findings {
		if f.Severity == rules.Error {
			return true
		}
	}
	return false
}

// Auditor audits one site's sitemaps. Make one with [New].
type Auditor struct {
	o       Options
	log     state.AuditLog
	start   string
	names   []string // local inputs; nil for a URL start
	run     state.AuditRun
	agent   string
	limiter *rate.Limiter
	norm    urlnorm.Normalizer
	// memo keeps the pages the audit renders for the crawl that renders
	// after it (nil when none does): each page is rendered once.
	memo *renderMemo

	checked int
	sum     Summary
}

// Summary is what a run did.
type Summary struct {
	Start string `json:"start"`
	// Resumed is set when the run continued an unfinished one.
	Resumed bool `json:"resumed"`
	// Listed is how many distinct URLs the sitemaps list; Sampled how many
	// of them are audited (Listed without a sample).
	Listed  int `json:"listed"`
	Sampled int `json:"sampled"`
	// Sample is Options.Sample (0: no sample).
	Sample int `json:"sample,omitempty"`
	// Checked is how many URLs were requested or classified in this run
	// (hreflang targets included).
	Checked int `json:"checked"`
	// Crawled is how many pages the crawl fetched (Options.Crawl).
	Crawled int           `json:"crawled,omitempty"`
	Elapsed time.Duration `json:"elapsed_ns"`
}

// New prepares an audit of start: an http(s) URL (a homepage, a
// robots.txt or a sitemap, as fetch.Walk takes) or local names (files,
// directories, "-"; several separated by nothing: pass them as names).
// log holds the run: an unfinished run of the same start is resumed.
func New(ctx context.Context, log state.AuditLog, names []string, o Options) (*Auditor, error) {
	if o.HTTP == nil {
		return nil, errors.New("audit: Options.HTTP is required")
	}
	if len(names) == 0 {
		return nil, errors.New("audit: nothing to audit")
	}
	o = o.withDefaults()
	a := &Auditor{o: o, log: log, agent: o.HTTP.RobotsToken(), memo: memoFor(o)}
	if len(names) == 1 && isHTTP(names[0]) {
		a.start = names[0]
	} else {
		for _, n := range names {
			if isHTTP(n) {
				return nil, fmt.Errorf("audit: %s: a URL is audited alone (one homepage, robots.txt or sitemap URL)", n)
			}
		}
		a.names = names
		a.start = strings.Join(names, " ")
		if o.Site != "" {
			a.start = o.Site + " " + a.start
		}
	}
	lim := rate.Limit(o.Rate)
	if o.Rate < 0 {
		lim = rate.Inf
	}
	a.limiter = rate.NewLimiter(lim, 1)
	run, err := log.Begin(ctx, a.start, o.Now())
	if err != nil {
		return nil, err
	}
	a.run = run
	a.sum = Summary{Start: a.start, Resumed: run.Resumed, Sample: o.Sample}
	return a, nil
}

// Resumed reports whether the run continues an unfinished one.
func (a *Auditor) Resumed() bool { return a.run.Resumed }

func isHTTP(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// Run lists the sitemaps' URLs (unless a resumed run had), checks every
// URL of the sample, reads the hreflang targets, and crawls the site when
// Options.Crawl is set. It returns an error only when it could not run
// (a start that cannot be read at all, the state, ctx); sitemaps that
// fail are diagnostics. Read the findings with [Auditor.Records].
func (a *Auditor) Run(ctx context.Context) (Summary, error) {
	t0 := time.Now()
	defer a.memo.close()
	if !a.run.Listed {
		if err := a.list(ctx); err != nil {
			return a.sum, err
		}
		if err := a.log.EndListing(ctx, a.o.Sample); err != nil {
			return a.sum, err
		}
	}
	var err error
	if a.sum.Listed, a.sum.Sampled, err = a.log.Count(ctx); err != nil {
		return a.sum, err
	}
	if err := a.checkAll(ctx); err != nil {
		return a.sum, err
	}
	if err := a.alternates(ctx); err != nil {
		return a.sum, err
	}
	if a.o.Crawl != nil {
		if err := a.crawl(ctx); err != nil {
			return a.sum, err
		}
	}
	if err := a.log.Finish(ctx); err != nil {
		return a.sum, err
	}
	a.sum.Checked = a.checked
	a.sum.Elapsed = time.Since(t0)
	return a.sum, nil
}

// alternates adds the hreflang targets of the audited pages that are not
// in the log yet, and checks them.
func (a *Auditor) alternates(ctx context.Context) error {
	after := ""
	for {
		locs, err := a.log.AltTargets(ctx, after, 512)
		if err != nil {
			return err
		}
		if len(locs) == 0 {
			break
		}
		extra := make([]state.AuditListed, len(locs))
		for i, l := range locs {
			extra[i] = state.AuditListed{Loc: l, Key: l, Extra: true}
		}
		if err := a.log.AddExtra(ctx, extra); err != nil {
			return err
		}
		after = locs[len(locs)-1]
	}
	return a.checkAll(ctx)
}

// todoItem is a URL to check and what the history had of it.
type todoItem struct {
	state.AuditListed
	prev *state.AuditHistory
}

// previous returns the history rows of the listed rows (by Key), nil
// where there is none or without Options.History.
func (a *Auditor) previous(ctx context.Context, rows []state.AuditListed) ([]*state.AuditHistory, error) {
	out := make([]*state.AuditHistory, len(rows))
	if !a.o.History {
		return out, nil
	}
	keys := make([]string, 0, len(rows))
	for _, r := range rows {
		if !r.Extra {
			keys = append(keys, r.Key)
		}
	}
	hs, err := a.log.History(ctx, keys)
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]*state.AuditHistory, len(hs))
	for i := range hs {
		byKey[hs[i].Key] = &hs[i]
	}
	for i, r := range rows {
		if !r.Extra {
			out[i] = byKey[r.Key]
		}
	}
	return out, nil
}

// feed sends the URLs the log has to do, with what the history had of
// them, until there are none or ctx ends.
func (a *Auditor) feed(ctx context.Context, todo chan<- todoItem) error {
	after := ""
	for {
		rows, err := a.log.Todo(ctx, after, 256)
		if err != nil || len(rows) == 0 {
			return err
		}
		prev, err := a.previous(ctx, rows)
		if err != nil {
			return err
		}
		for i, r := range rows {
			select {
			case todo <- todoItem{r, prev[i]}:
			case <-ctx.Done():
				return nil
			}
		}
		after = rows[len(rows)-1].Loc
	}
}

// checkAll checks every URL the log has to do: Concurrency workers, the
// results written by this goroutine in batches.
func (a *Auditor) checkAll(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	todo := make(chan todoItem, a.o.Concurrency*2)
	done := make(chan state.AuditResult, a.o.Concurrency*2)
	var feedErr error
	go func() {
		defer close(todo)
		feedErr = a.feed(ctx, todo)
	}()
	var wg sync.WaitGroup
	for range a.o.Concurrency {
		wg.Go(func() {
			for e := range todo {
				r, ok := a.check(ctx, e)
				if !ok {
					continue // ctx ended: the URL stays to do
				}
				select {
				case done <- r:
				case <-ctx.Done():
				}
			}
		})
	}
	go func() { wg.Wait(); close(done) }()
	var batch []state.AuditResult
	var werr error
	flush := func() {
		if len(batch) == 0 || werr != nil {
			return
		}
		if err := a.log.Record(context.WithoutCancel(ctx), batch); err != nil {
			werr = err
			cancel()
		}
		batch = batch[:0]
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case r, ok := <-done:
			if !ok {
				flush()
				if werr != nil {
					return werr
				}
				if feedErr != nil {
					return feedErr
				}
				return ctx.Err()
			}
			batch = append(batch, r)
			a.checked++
			if a.o.Progress != nil {
				a.o.Progress(a.checked)
			}
			if len(batch) >= 128 {
				flush()
			}
		case <-tick.C:
			flush()
		}
	}
}
