package fetch

import (
	"bytes"
	"context"
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

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/robots"
)

// DefaultMaxRedirects is how many redirects a request follows unless
// GetOptions.MaxRedirects says otherwise (RFC 9309 asks for at least
// five for robots.txt).
const DefaultMaxRedirects = 5

// NoRedirects, as GetOptions.MaxRedirects, returns a 3xx response as it
// is instead of following it.
const NoRedirects = -1

// DefaultAccept is the Accept header of a request that sets none: sitemap
// types first.
const DefaultAccept = "application/xml,text/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5"

// RetryPolicy says which failures a request tries again.
type RetryPolicy uint8

const (
	// RetryDefault retries on 429, every 5xx and network errors. As a
	// GetOptions value it means the Client's policy.
	RetryDefault RetryPolicy = iota
	// RetryBusy retries only on 429 and 503: the server asked the client
	// to slow down. Other 5xx and network errors are answers (a
	// crawler's choice).
	RetryBusy
	// RetryRateLimited retries only on 429, which is rate limiting rather
	// than an answer (a probe of a path that may not exist).
	RetryRateLimited
	// RetryNever makes one try.
	RetryNever
)

// ClientOptions configures [NewClient]. The zero value is usable: every
// zero field takes the default documented beside it.
type ClientOptions struct {
	// UserAgent is sent with every request (default DefaultUserAgent).
	UserAgent string

	// ConnectTimeout bounds a TCP (and TLS) connect (default 10s).
	ConnectTimeout time.Duration
	// HeaderTimeout bounds the wait for response headers (default 30s).
	HeaderTimeout time.Duration
	// IdleTimeout is the longest a body may send nothing (default 30s).
	IdleTimeout time.Duration
	// Timeout bounds one try of a document: the request and its whole
	// body (default 5m). The waits between tries are bounded by the
	// caller's context only.
	Timeout time.Duration
	// MaxBodyBytes bounds the wire bytes of one body: reading past it
	// fails with an *Error of KindTooLarge (0: no cap).
	MaxBodyBytes int64

	// Attempts is how many times a request is tried on the failures its
	// RetryPolicy retries (default 3).
	Attempts int
	// Retry is the policy of requests that set none (default
	// RetryDefault: 429, 5xx and network errors).
	Retry RetryPolicy
	// RetryBase is the first backoff delay, doubled at every attempt,
	// with ±50 % jitter (default 1s). A Retry-After header replaces it.
	RetryBase time.Duration
	// RetryMax is the longest wait between attempts (default 60s). A
	// Retry-After above it ends the retries, unless ClampRetryAfter.
	RetryMax time.Duration
	// ClampRetryAfter waits RetryMax and tries again when a Retry-After
	// asks for longer, instead of giving up.
	ClampRetryAfter bool

	// MaxConnsPerHost bounds the connections to one host, idle or busy
	// (0: no bound). MaxIdleConnsPerHost is how many idle connections
	// per host are kept for reuse (default 4).
	MaxConnsPerHost, MaxIdleConnsPerHost int

	// CacheDir, when set, stores the body and validators (ETag,
	// Last-Modified) of every 200 response read to its end that has
	// validators, for requests that set GetOptions.Cache; the next such
	// request is conditional and a 304 is answered from the stored body.
	CacheDir string

	// RobotsMaxBytes is how much of a robots.txt Robots reads (default
	// robots.DefaultMaxBytes, at least 500 KiB, RB-03).
	RobotsMaxBytes int

	// HTTPClient, when set, makes the requests instead of a client built
	// from the timeouts above (ConnectTimeout, HeaderTimeout,
	// MaxConnsPerHost and MaxIdleConnsPerHost are then its transport's
	// business). A copy is used: its transport, jar and timeout as they
	// are, and its CheckRedirect after the Client's own redirect policy.
	// Its transport should not decompress bodies.
	HTTPClient *http.Client

	// Scope says which URLs may be requested and which addresses
	// connected to (default: every http(s) URL, every address).
	Scope Scope
}

func (o ClientOptions) withDefaults() ClientOptions {
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 10 * time.Second
	}
	if o.HeaderTimeout <= 0 {
		o.HeaderTimeout = 30 * time.Second
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 30 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	if o.Attempts <= 0 {
		o.Attempts = 3
	}
	if o.RetryBase <= 0 {
		o.RetryBase = time.Second
	}
	if o.RetryMax <= 0 {
		o.RetryMax = time.Minute
	}
	if o.MaxIdleConnsPerHost <= 0 {
		o.MaxIdleConnsPerHost = 4
	}
	if o.RobotsMaxBytes <= 0 {
		o.RobotsMaxBytes = robots.DefaultMaxBytes
	}
	return o
}

// Client makes every HTTP request of the project: one User-Agent,
// timeouts, a body size cap, retries with backoff and jitter that honour
// Retry-After, conditional requests from a cache, a per-request redirect
// policy, no transparent decompression, and robots.txt cached per host.
// It is safe for concurrent use. Make one with [NewClient].
type Client struct {
	o     ClientOptions
	hc    *http.Client
	own   bool // hc was built here: CloseIdleConnections closes them
	cache *cache
	scope *scope // nil: everything allowed

	robotsMu sync.Mutex
	robots   map[string]*robotsEntry // scheme://host → robots.txt
}

// NewClient returns a Client configured by o. A CacheDir that cannot be
// created is an error, and so is a Scope.Allow entry that is no host, or
// Scope.NoPrivate with an HTTPClient (whose dials it cannot see).
func NewClient(o ClientOptions) (*Client, error) {
	o = o.withDefaults()
	sc, err := o.Scope.compile()
	if err != nil {
		return nil, err
	}
	if o.Scope.NoPrivate && o.HTTPClient != nil {
		return nil, errors.New("Scope.NoPrivate checks the addresses the Client's own transport dials; it cannot be used with ClientOptions.HTTPClient")
	}
	c := &Client{o: o, scope: sc, robots: map[string]*robotsEntry{}}
	if o.CacheDir != "" {
		if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
			return nil, fmt.Errorf("cache directory: %w", err)
		}
		c.cache = &cache{dir: o.CacheDir}
	}
	if o.HTTPClient != nil {
		hc := *o.HTTPClient
		prev := o.HTTPClient.CheckRedirect
		hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if err := checkRedirect(req, via); err != nil {
				return err
			}
			if prev != nil {
				return prev(req, via)
			}
			return nil
		}
		c.hc = &hc
		return c, nil
	}
	d := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	proxy := http.ProxyFromEnvironment
	if o.Scope.NoPrivate {
		d.Control = control
		proxy = nil
	}
	t := &http.Transport{
		Proxy:                 proxy,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ResponseHeaderTimeout: o.HeaderTimeout,
		DisableCompression:    true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   o.MaxIdleConnsPerHost,
		MaxConnsPerHost:       o.MaxConnsPerHost,
		ForceAttemptHTTP2:     true,
	}
	c.hc = &http.Client{Transport: t, CheckRedirect: checkRedirect}
	c.own = true
	return c, nil
}

// UserAgent is the User-Agent header the Client sends.
func (c *Client) UserAgent() string { return c.o.UserAgent }

// Refused returns why the Client's Scope refuses a request for u made on
// the site of site (as [GetOptions.Site]; "" means u's own), or nil when
// it allows it. Nothing is requested; the addresses a name resolves to
// are checked only when a request is made.
func (c *Client) Refused(u, site string) *ScopeError {
	pu, err := url.Parse(u)
	if err != nil {
		return nil // Get reports the bad URL
	}
	if site == "" {
		site = u
	}
	return c.scope.check(pu, site)
}

// OffSiteHint is the end of the I-05 message about an index's child u on
// another site than the index, read from the site of site: whether it is
// followed (allowOffSite) and what would let it through, --allow-host
// too when the Client's Scope refuses it.
func (c *Client) OffSiteHint(u, site string, allowOffSite bool) string {
	reason, private := "", false
	if se := c.Refused(u, site); se != nil {
		reason, private = se.Reason, strings.Contains(se.Reason, "no-private")
	}
	return check.OffSiteHint(u, allowOffSite, reason, private)
}

// CloseIdleConnections closes the idle connections of a Client built
// without ClientOptions.HTTPClient; the Client stays usable.
func (c *Client) CloseIdleConnections() {
	if c.own {
		c.hc.CloseIdleConnections()
	}
}

// GetOptions are the per-request choices of [Client.Get]. The zero value
// asks for a sitemap, follows up to DefaultMaxRedirects redirects, and
// retries as the Client does.
type GetOptions struct {
	// Accept is the Accept header (default DefaultAccept).
	Accept string
	// AcceptEncoding is the Accept-Encoding header (default "gzip"; the
	// body is returned as sent, never decompressed).
	AcceptEncoding string

	// MaxRedirects is how many redirects are followed (0:
	// DefaultMaxRedirects; NoRedirects: none, the 3xx response is
	// returned).
	MaxRedirects int
	// CheckRedirect, when set, is called before each redirect is followed,
	// with the request it would make and the requests so far, oldest
	// first; an error refuses the redirect and Get fails with an *Error of
	// KindRedirect whose message is the error's.
	CheckRedirect func(req *http.Request, via []*http.Request) error
	// Site is the URL whose site the request and its redirects must stay
	// on when the Client's Scope is SameSite (default: the URL asked for).
	Site string

	// Retry overrides the Client's RetryPolicy (RetryDefault: the
	// Client's).
	Retry RetryPolicy
	// Attempts overrides ClientOptions.Attempts (0: the Client's).
	Attempts int
	// Wait, when set, is how Get waits d before the next attempt (a
	// crawler pauses the host and waits for its rate limiter); its error
	// ends the request and is returned as it is. Default: a timer.
	Wait func(ctx context.Context, d time.Duration) error
	// OnRetry, when set, is told of every retry with a sentence for people.
	OnRetry func(msg string)

	// AnyStatus returns every final response, whatever its status, once
	// the retries are over, instead of an *Error for anything but 200.
	AnyStatus bool
	// Cache makes the request conditional on the Client's cache and
	// stores a 200's body read to its end (needs ClientOptions.CacheDir).
	Cache bool
	// IfNoneMatch and IfModifiedSince, when either is set, make the
	// request conditional on these validators (an ETag and a
	// Last-Modified an earlier response gave) instead of on the cache: a
	// 304 is then returned as a Response of Status 304 with an empty body
	// (Cached false), for a caller that keeps what it needs of the last
	// body itself (package diff's Changes keeps its entries).
	IfNoneMatch, IfModifiedSince string
	// Count, when set, is told of the wire bytes of the body as they are
	// read (not of a body answered from the cache); its error stops the
	// read and is returned by Read.
	Count func(n int64) error
	// Timeout overrides ClientOptions.Timeout for this request.
	Timeout time.Duration
}

// Response is a usable answer: 200 (or, with GetOptions.AnyStatus, any
// status), or 304 answered from the cache. Read it for the body's wire
// bytes (Content-Encoding is not undone) and Close it.
type Response struct {
	// Status is the HTTP status; 304 with Cached for a body from the
	// cache.
	Status int
	// URL is the URL requested and FinalURL the one that answered, after
	// redirects (for a cached body, the one that answered when stored).
	URL, FinalURL string
	// Header is the response's header (nil for a body from the cache).
	Header http.Header
	// The headers that say what the body is and its validators.
	ContentType, ContentEncoding, ETag, LastModified string
	// Cached: the body is the stored copy (the server answered 304).
	Cached bool
	// Retries is how many attempts failed before this one.
	Retries int

	body   *idleBody
	entry  *cacheEntry
	cancel context.CancelFunc // of the try's context
	closed bool
}

// Read reads the body's wire bytes, bounded by the idle timeout, the
// per-document timeout and MaxBodyBytes; their failures are *Errors.
func (r *Response) Read(p []byte) (int, error) { return r.body.Read(p) }

// Close ends the request. A body read to its end is stored in the cache
// (GetOptions.Cache).
func (r *Response) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.entry != nil {
		if r.body.eof && r.body.err == nil {
			r.entry.commit()
		} else {
			r.entry.abort()
		}
	}
	err := r.body.Close()
	r.cancel()
	return err
}

// Decoded returns the body with a Content-Encoding: gzip undone when the
// body really is gzip (magic bytes); a body labelled gzip that is not is
// returned as it is, with a note saying so, and so is a body in an
// encoding that was not asked for. Nothing else is undone: a .xml.gz
// file served without the header stays gzip (the decoders sniff it).
// Close the Response, not the reader, when done.
func (r *Response) Decoded() (body io.Reader, note string, err error) {
	d, note, err := contentDecode(r, r.ContentEncoding)
	if err != nil {
		return nil, "", &Error{Kind: KindStatus, URL: r.URL, Status: r.Status, Msg: "Content-Encoding " + r.ContentEncoding + ": " + err.Error(), Err: err}
	}
	return d, note, nil
}

// BytesRead is how many bytes of the body were read so far.
func (r *Response) BytesRead() int64 { return r.body.n }

// Err is the first failure of a Read other than io.EOF (transport, idle
// or per-document timeout, size cap, Count's error), or nil.
func (r *Response) Err() error { return r.body.err }

// policy is a request's redirect policy, carried in its context.
type policy struct {
	max   int
	check func(*http.Request, []*http.Request) error
	scope *scope // the Client's
	site  string // the anchor of a same-site scope
}

type policyKey struct{}

// refused wraps the error of a GetOptions.CheckRedirect.
type refused struct{ err error }

func (r *refused) Error() string { return r.err.Error() }
func (r *refused) Unwrap() error { return r.err }

var errTooManyRedirects = errors.New("too many redirects")

func checkRedirect(req *http.Request, via []*http.Request) error {
	p, _ := req.Context().Value(policyKey{}).(*policy)
	max := DefaultMaxRedirects
	if p != nil {
		if p.max < 0 {
			return http.ErrUseLastResponse
		}
		if p.max > 0 {
			max = p.max
		}
	}
	if len(via) > max {
		return &tooMany{max}
	}
	if s := strings.ToLower(req.URL.Scheme); s != "http" && s != "https" {
		return &refused{errors.New("redirected to " + req.URL.Redacted() + ", which is not an http(s) URL; not followed")}
	}
	if p != nil {
		if se := p.scope.check(req.URL, p.site); se != nil {
			se.Redirect = true
			return se
		}
	}
	if p != nil && p.check != nil {
		if err := p.check(req, via); err != nil {
			return &refused{err}
		}
	}
	return nil
}

type tooMany struct{ n int }

func (e *tooMany) Error() string { return "stopped after " + strconv.Itoa(e.n) + " redirects" }
func (e *tooMany) Unwrap() error { return errTooManyRedirects }

// Get fetches u, retrying what its RetryPolicy retries, and returns the
// response to read and close. Without GetOptions.AnyStatus anything but
// a 200 (or a 304 answered from the cache, or one to the validators of
// GetOptions.IfNoneMatch and IfModifiedSince) is an *Error: KindNotFound
// (404, 410), KindBlocked (401, 403), KindStatus (any other status, 429
// and 5xx once the retries are over), KindNetwork, KindRedirect,
// KindTimeout (the try's Timeout ran out before the headers) or
// KindBadURL. ctx bounds the whole exchange, retries and body included;
// ClientOptions.Timeout (or GetOptions.Timeout) bounds each try, its body
// included. When ctx ends, Get returns ctx's error.
func (c *Client) Get(ctx context.Context, u string, g GetOptions) (*Response, error) {
	var meta cacheMeta
	cached := false
	own := g.IfNoneMatch != "" || g.IfModifiedSince != ""
	switch {
	case own:
		meta, cached = cacheMeta{ETag: g.IfNoneMatch, LastModified: g.IfModifiedSince}, true
	case g.Cache:
		meta, cached = c.cache.lookup(u)
	}
	resp, retries, actx, cancel, err := c.do(ctx, u, g, meta, cached, nil)
	if err != nil {
		return nil, err
	}
	r := &Response{Status: resp.StatusCode, URL: u, FinalURL: resp.Request.URL.String(), Header: resp.Header,
		ContentType:     resp.Header.Get("Content-Type"),
		ContentEncoding: strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))),
		ETag:            resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"),
		Retries: retries, cancel: cancel}
	var raw io.ReadCloser = resp.Body
	count := g.Count
	switch {
	case resp.StatusCode == http.StatusNotModified && own:
		// The caller's validators: it keeps what the body held.
		drain(resp.Body)
		raw, count = http.NoBody, nil
	case resp.StatusCode == http.StatusNotModified && g.Cache:
		drain(resp.Body)
		fail := func(msg string, err error) (*Response, error) {
			cancel()
			return nil, &Error{Kind: KindStatus, URL: u, Status: 304, Msg: msg, Err: err}
		}
		if !cached {
			return fail("HTTP 304 Not Modified to an unconditional request", nil)
		}
		f, err := c.cache.open(u)
		if err != nil {
			return fail("HTTP 304 but the cached body is gone: "+err.Error(), err)
		}
		raw = f
		r.Cached, r.Header = true, nil
		r.FinalURL, r.ContentEncoding, r.ContentType = meta.FinalURL, meta.ContentEncoding, meta.ContentType
		r.ETag, r.LastModified = meta.ETag, meta.LastModified
		// Nothing is transferred: the body does not count.
		count = nil
	case resp.StatusCode == http.StatusOK && g.Cache && c.cache != nil:
		r.entry = c.cache.create(cacheMeta{URL: u, FinalURL: r.FinalURL, ETag: r.ETag, LastModified: r.LastModified, ContentType: r.ContentType, ContentEncoding: r.ContentEncoding})
		if r.entry != nil {
			raw = &teeBody{r: raw, e: r.entry}
		}
	}
	r.body = newIdleBody(raw, c.o.IdleTimeout, actx, cancel, count, c.o.MaxBodyBytes)
	return r, nil
}

// do makes the tries and returns the response to use, with the context
// of its try and that context's cancel.
func (c *Client) do(ctx context.Context, u string, g GetOptions, meta cacheMeta, cached bool, post *postBody) (*http.Response, int, context.Context, context.CancelFunc, error) {
	pol, attempts, timeout := c.tries(g)
	accept, enc := g.Accept, g.AcceptEncoding
	if accept == "" {
		accept = DefaultAccept
	}
	if enc == "" {
		enc = "gzip"
	}
	site := g.Site
	if site == "" {
		site = u
	}
	redirects := &policy{max: g.MaxRedirects, check: g.CheckRedirect, scope: c.scope, site: site}
	var lastErr *Error
	for attempt := 1; ; attempt++ {
		deadline := &Error{Kind: KindTimeout, URL: u, Msg: "not read within " + timeout.String() + " (per-document deadline)", Err: context.DeadlineExceeded}
		actx, cancel := context.WithTimeoutCause(ctx, timeout, deadline)
		req, err := c.newRequest(actx, redirects, u, site, accept, enc, post, meta, cached)
		if err != nil {
			cancel()
			return nil, 0, nil, nil, err
		}
		resp, err := c.hc.Do(req)
		var wait time.Duration
		told := false // a Retry-After says how long to wait
		retry := false
		if err != nil {
			timedOut := actx.Err() != nil
			cancel()
			if ctx.Err() != nil {
				return nil, 0, nil, nil, ctx.Err()
			}
			if timedOut {
				return nil, 0, nil, nil, deadline
			}
			lastErr = netError(u, err)
			retry = pol == RetryDefault && lastErr.Kind == KindNetwork
		} else {
			st := resp.StatusCode
			switch {
			case st == http.StatusOK || (st == http.StatusNotModified && (g.Cache || cached)):
				return resp, attempt - 1, actx, cancel, nil
			case st == http.StatusTooManyRequests, st == http.StatusServiceUnavailable && pol != RetryRateLimited, st >= 500 && pol == RetryDefault:
				retry = true
			}
			if g.AnyStatus && (!retry || attempt >= attempts) {
				return resp, attempt - 1, actx, cancel, nil
			}
			lastErr = statusError(u, resp, c.o.UserAgent)
			drain(resp.Body)
			cancel()
			if !retry {
				return nil, 0, nil, nil, lastErr
			}
			wait, told = retryAfter(resp.Header.Get("Retry-After"), time.Now())
		}
		if !retry || attempt >= attempts {
			if attempt > 1 {
				lastErr.Msg += fmt.Sprintf(" (gave up after %d attempts)", attempt)
			}
			return nil, 0, nil, nil, lastErr
		}
		if err := c.waitToRetry(ctx, g, lastErr, attempt, attempts, wait, told); err != nil {
			return nil, 0, nil, nil, err
		}
	}
}

// tries says how the calls of one document are made: the retry policy
// (g's, else the client's), the number of attempts (g's if above 0,
// else the client's; 1 under RetryNever) and the deadline of each
// attempt (g's if above 0, else the client's).
func (c *Client) tries(g GetOptions) (RetryPolicy, int, time.Duration) {
	pol := g.Retry
	if pol == RetryDefault {
		pol = c.o.Retry
	}
	attempts := c.o.Attempts
	if g.Attempts > 0 {
		attempts = g.Attempts
	}
	if pol == RetryNever {
		attempts = 1
	}
	timeout := c.o.Timeout
	if g.Timeout > 0 {
		timeout = g.Timeout
	}
	return pol, attempts, timeout
}

// newRequest makes the request of one attempt on actx: a GET, a HEAD or
// a POST of post's data, with the client's headers and, for a cached
// document, its validators. A URL that does not parse is a KindBadURL
// *Error, and one the client may not fetch is admit's *Error; the
// caller cancels actx on either.
func (c *Client) newRequest(actx context.Context, redirects *policy, u, site, accept, enc string, post *postBody, meta cacheMeta, cached bool) (*http.Request, error) {
	method, body := http.MethodGet, io.Reader(nil)
	switch {
	case post != nil && post.head:
		method = http.MethodHead
	case post != nil:
		method, body = http.MethodPost, bytes.NewReader(post.data)
	}
	req, err := http.NewRequestWithContext(context.WithValue(actx, policyKey{}, redirects), method, u, body)
	if err != nil {
		return nil, &Error{Kind: KindBadURL, URL: u, Msg: "bad URL: " + err.Error(), Err: err}
	}
	if e := c.admit(req.URL, u, site); e != nil {
		return nil, e
	}
	req.Header.Set("User-Agent", c.o.UserAgent)
	req.Header.Set("Accept-Encoding", enc)
	req.Header.Set("Accept", accept)
	if post != nil && !post.head {
		req.Header.Set("Content-Type", post.contentType)
	}
	if cached {
		if meta.ETag != "" {
			req.Header.Set("If-None-Match", meta.ETag)
		}
		if meta.LastModified != "" {
			req.Header.Set("If-Modified-Since", meta.LastModified)
		}
	}
	return req, nil
}

// waitToRetry waits before attempt+1 of attempts: wait if the server
// told it (Retry-After), else the client's backoff for attempt. A wait
// over RetryMax is clamped to it under ClampRetryAfter, else it returns
// lastErr, its Msg saying so, without waiting. g.OnRetry hears of the
// retry first; the error of g.Wait (sleep by default), such as ctx's
// on cancellation, is returned as it is.
func (c *Client) waitToRetry(ctx context.Context, g GetOptions, lastErr *Error, attempt, attempts int, wait time.Duration, told bool) error {
	if !told {
		wait = backoff(c.o.RetryBase, attempt)
	}
	if wait > c.o.RetryMax {
		if !c.o.ClampRetryAfter {
			lastErr.Msg += fmt.Sprintf(" (Retry-After %s is longer than the %s the client waits; not retried)", wait.Round(time.Second), c.o.RetryMax)
			return lastErr
		}
		wait = c.o.RetryMax
	}
	if g.OnRetry != nil {
		g.OnRetry(fmt.Sprintf("%s; retrying in %s (attempt %d of %d)", lastErr.Error(), wait.Round(time.Millisecond), attempt+1, attempts))
	}
	wf := g.Wait
	if wf == nil {
		wf = sleep
	}
	if err := wf(ctx, wait); err != nil {
		return err
	}
	return nil
}

// admit returns the *Error of a URL the Client does not request: not
// http(s) (KindBadURL), or refused by its Scope from site (KindScope).
// u is the URL as the caller gave it.
func (c *Client) admit(ru *url.URL, u, site string) *Error {
	if s := strings.ToLower(ru.Scheme); s != "http" && s != "https" {
		return &Error{Kind: KindBadURL, URL: u, Msg: ru.Redacted() + " is not an http(s) URL; only http:// and https:// are requested"}
	}
	if se := c.scope.check(ru, site); se != nil {
		return &Error{Kind: KindScope, URL: u, Msg: se.Error(), Err: se}
	}
	return nil
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
