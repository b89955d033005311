package crawl

import (
	"net/http"
	"regexp"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// DefaultUserAgent is sent when Options.UserAgent is empty. Its product
// token, "sitemap-crawl", is the name robots.txt groups are matched with.
const DefaultUserAgent = "sitemap-crawl/1.0 (+https://github.com/sitemapkit/sitemap)"

// Options configure a crawl. The zero value of every field is a usable
// default.
type Options struct {
	// UserAgent is sent with every request; its product token
	// (robots.ProductToken) selects the robots.txt group and the
	// <meta name="TOKEN"> and "TOKEN:" X-Robots-Tag directives.
	UserAgent string
	// HTTP, when set, makes every request of the crawl (pages, robots.txt,
	// seed sitemaps); its User-Agent is then the crawler's (UserAgent is
	// ignored), and so are its timeouts and its wait for a long
	// Retry-After (see fetch.ClientOptions: the crawler's own client
	// clamps it to MaxRetryAfter). Pages are requested without following
	// redirects, retried on 429 and 503 only (Retries), whatever the
	// Client's policy. Default: a client built from UserAgent,
	// Concurrency, Timeout, Retries and MaxRetryAfter.
	HTTP *fetch.Client
	// Client, when set and HTTP is not, sends the requests of the
	// crawler's client (kept for compatibility; it is used as
	// fetch.ClientOptions.HTTPClient says: a copy, whose CheckRedirect
	// runs after the crawler's, which follows no redirect of a page).
	Client *http.Client
	// Scope says which URLs the crawler's own client may request and
	// which addresses it may connect to (fetch.Scope; default: all). The
	// crawl itself stays on its start's site whatever it says. With HTTP
	// set, that Client's Scope applies instead.
	Scope fetch.Scope

	// Concurrency is how many requests may be in flight on the host at
	// once (default 4).
	Concurrency int
	// Rate is the most requests per second (a token bucket of
	// golang.org/x/time/rate with a burst of 1); default 10, negative for
	// no limit. A robots.txt Crawl-delay lowers it to one request per
	// delay.
	Rate float64
	// Timeout bounds one request, body included (default 30s).
	Timeout time.Duration
	// Retries is how many times a request answered 429 or 503 is tried
	// again, after Retry-After or an exponential backoff from 1s
	// (default 3; negative for none). While a backoff runs, no request
	// goes to the host.
	Retries int
	// MaxRetryAfter caps the wait a Retry-After may ask for (default 60s).
	MaxRetryAfter time.Duration

	// MaxDepth is the most links followed from a seed (0: no limit). A
	// URL beyond it is reported as "limit:max-depth".
	MaxDepth int
	// MaxPages is the most pages fetched (0: no limit); the rest of the
	// frontier is reported as "limit:max-pages".
	MaxPages int
	// MaxTime bounds the crawl's duration (0: no limit); the rest of the
	// frontier is reported as "limit:max-time". A request that would have
	// to wait for the rate limiter or a backoff past it is not made;
	// requests already under way finish (each within Timeout).
	MaxTime time.Duration
	// MaxBodyBytes is how much of one HTML page is read (default 10 MiB);
	// links after it are not seen (Summary.Warnings counts such pages).
	MaxBodyBytes int64
	// MaxURLLength: longer URLs are not crawled ("trap:long-url"); default
	// 2,047, the longest loc a sitemap may hold (L-04).
	MaxURLLength int
	// MaxQueryVariants is the most URLs fetched that differ from each
	// other only in their query ("trap:query-variants"); default 100,
	// negative for no limit.
	MaxQueryVariants int
	// MaxRepeats: a path in which a run of segments repeats this many times
	// in a row (/a/b/a/b/a/b) is a trap ("trap:repeating-segments");
	// default 3.
	MaxRepeats int

	// Query says what happens to query strings (keep, strip, allow-list).
	Query urlnorm.Normalizer
	// Include and Exclude decide what is crawled: a URL in scope is crawled
	// when it matches some Include pattern (or there is none) and no
	// Exclude pattern ("exclude"). Patterns are RE2 regular expressions
	// matched against the normalised URL (unanchored).
	Include, Exclude []*regexp.Regexp
	// ListInclude and ListExclude decide, the same way, which crawled pages
	// are listed ("list-exclude"); links of unlisted pages are followed.
	ListInclude, ListExclude []*regexp.Regexp
	// ImageHosts are hosts besides the site's whose images are listed (a
	// CDN, IM-05): a host, or host:port for that port only, compared as
	// urlnorm.OnHost compares them (case, IDNA).
	ImageHosts []string

	// NoSitemaps skips the sitemaps robots.txt names as seeds.
	NoSitemaps bool
	// The listing rules, each switchable: IgnoreRobots fetches and lists
	// disallowed URLs; IgnoreNoindex lists noindex pages; IgnoreCanonical
	// lists pages whose rel=canonical names another URL; IgnoreNofollow
	// follows nofollow links.
	IgnoreRobots, IgnoreNoindex, IgnoreCanonical, IgnoreNofollow bool

	// Render, when set, loads every HTML page the crawl fetches (a 200
	// with an HTML body; with RenderMode RenderAuto, only those that look
	// like an application shell) in a browser, and the links, title,
	// meta robots, canonical and hreflang are read from the rendered
	// document instead of the raw HTML; X-Robots-Tag, status and
	// redirects are the client's. Pages rendered as an error page (soft
	// 404) or empty are not listed ("soft-404", "empty"). What rendering
	// revealed is in Outcome.Render and Summary.Render. robots.txt,
	// scope, rate, caps, include/exclude and the state apply as without
	// it (the rate counts the client's requests, not the browser's).
	Render     Renderer
	RenderMode RenderMode

	// Now is the clock for the run's time (default time.Now). It never
	// becomes a lastmod directly: see package state's Decide.
	Now func() time.Time
	// Progress, when set, is called from the crawl's coordinator after
	// every page with the number of pages fetched so far in this run.
	Progress func(fetched int)
	// Frontier, when set, is called from the coordinator every 64 pages
	// with the pages fetched in this run and that count plus the pages
	// waiting in the frontier: done of seen so far, for a progress line's
	// total and ETA. Only a CrawlLog that can count its frontier
	// (state.FrontierCounter: the SQLite and PostgreSQL ones) reports
	// it. For a worker of a shared crawl (NewWorker), done is the
	// worker's own pages and seen adds the whole frontier. It is called
	// at most once a second (counting the frontier reads all of it).
	Frontier func(done, seen int)
}

// client builds the crawler's HTTP client when Options.HTTP is not set:
// one try per page bounded by Timeout, at most Concurrency connections to
// the host, 429 and 503 retried Retries times after Retry-After (clamped
// to MaxRetryAfter) or a backoff from 1s.
func (o Options) client() (*fetch.Client, error) {
	return fetch.NewClient(fetch.ClientOptions{
		UserAgent: o.UserAgent, HTTPClient: o.Client,
		Timeout: o.Timeout, HeaderTimeout: o.Timeout,
		Attempts: o.attempts(), Retry: fetch.RetryBusy, RetryMax: o.MaxRetryAfter, ClampRetryAfter: true,
		MaxConnsPerHost: o.Concurrency, MaxIdleConnsPerHost: o.Concurrency,
		Scope: o.Scope,
	})
}

// attempts is how many times a page is requested at most.
func (o Options) attempts() int { return max(o.Retries, 0) + 1 }

func (o Options) withDefaults() Options {
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.Rate == 0 {
		o.Rate = 10
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Retries == 0 {
		o.Retries = 3
	}
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = time.Minute
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 10 << 20
	}
	if o.MaxURLLength <= 0 {
		o.MaxURLLength = sitemap.MaxLocLength - 1
	}
	if o.MaxQueryVariants == 0 {
		o.MaxQueryVariants = 100
	}
	if o.MaxRepeats <= 1 {
		o.MaxRepeats = 3
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}
