package fetch

import (
	"fmt"
	"net/http"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// KnownPaths says when well-known sitemap paths (/sitemap.xml, …) are
// probed.
type KnownPaths uint8

const (
	// KnownPathsFallback probes only when robots.txt names no sitemap.
	KnownPathsFallback KnownPaths = iota
	// KnownPathsNever never probes.
	KnownPathsNever
	// KnownPathsAlways probes even when robots.txt names sitemaps.
	KnownPathsAlways
)

// String returns "fallback", "never" or "always".
func (k KnownPaths) String() string {
	switch k {
	case KnownPathsNever:
		return "never"
	case KnownPathsAlways:
		return "always"
	}
	return "fallback"
}

// ParseKnownPaths parses "never", "fallback" or "always".
func ParseKnownPaths(s string) (KnownPaths, error) {
	switch s {
	case "fallback", "":
		return KnownPathsFallback, nil
	case "never":
		return KnownPathsNever, nil
	case "always":
		return KnownPathsAlways, nil
	}
	return 0, fmt.Errorf("known paths %q: want never, fallback or always", s)
}

// DefaultUserAgent is sent when Options.UserAgent is empty.
const DefaultUserAgent = "sitemap-fetch/1.0 (+https://github.com/sitemapkit/sitemap)"

// Options configures [Walk]. The zero value is usable: every zero field
// takes the default documented beside it.
type Options struct {
	// UserAgent is sent with every request (default DefaultUserAgent).
	UserAgent string
	// HTTP, when set, makes every request of the walk (share one [Client]
	// between walks and other callers: one User-Agent, one connection
	// pool, one robots.txt cache). UserAgent, Client, ConnectTimeout,
	// HeaderTimeout, IdleTimeout, Attempts, RetryBase, RetryMax and
	// CacheDir are then the Client's business and ignored here;
	// SitemapTimeout still bounds each sitemap.
	HTTP *Client
	// Client, when set and HTTP is not, makes the requests instead of an
	// http.Client built from the timeouts below (kept for compatibility;
	// see ClientOptions.HTTPClient for how it is used: a copy, its
	// CheckRedirect after the walk's redirect limit). Walk still sends
	// Accept-Encoding: gzip and bounds every body with IdleTimeout and
	// SitemapTimeout. Its transport should not decompress (Walk sniffs).
	Client *http.Client

	// Concurrency is how many sitemaps are read at once (default 8).
	Concurrency int
	// PerHost is how many of them may be on one host (default 4).
	PerHost int

	// MaxDepth bounds how deep indexes are followed: a sitemap named by
	// robots.txt, a probe or the start URL is at depth 1 (default 5).
	MaxDepth int
	// MaxChildren bounds how many children of one index are followed
	// (0: no bound; negative: none); past it one VAL-02 warning on the
	// index says how many were not.
	MaxChildren int
	// MaxSitemaps bounds how many sitemaps are requested (default 10,000).
	MaxSitemaps int
	// MaxURLs stops the walk after that many URLs were handed out (0: no
	// cap).
	MaxURLs int64
	// MaxBytes stops the walk after that many bytes were transferred (0: no
	// cap).
	MaxBytes int64
	// MaxSitemapBytes bounds one sitemap's decompressed size (default: the
	// decoder's default, four times the protocol's 50 MiB).
	MaxSitemapBytes int64
	// MaxErrors abandons one sitemap after that many error diagnostics
	// (LIM-05; 0: the decoder's default, sitemap.DefaultDecodeMaxErrors;
	// negative: no cap).
	MaxErrors int
	// Timeout bounds the whole walk (0: none).
	Timeout time.Duration

	// ConnectTimeout bounds a TCP (and TLS) connect (default 10s).
	ConnectTimeout time.Duration
	// HeaderTimeout bounds the wait for response headers (default 30s).
	HeaderTimeout time.Duration
	// IdleTimeout is the longest a body may send nothing (default 30s).
	IdleTimeout time.Duration
	// SitemapTimeout bounds one sitemap, request and whole body (default
	// 5m).
	SitemapTimeout time.Duration

	// Attempts is how many times a request is tried on 429, 5xx and
	// network errors (default 3).
	Attempts int
	// RetryBase is the first backoff delay, doubled at every attempt, with
	// jitter (default 1s).
	RetryBase time.Duration
	// RetryMax is the longest wait between attempts; a Retry-After above it
	// ends the retries (default 60s).
	RetryMax time.Duration

	// KnownPaths says when well-known paths are probed (default fallback).
	KnownPaths KnownPaths
	// CacheDir, when set, stores each sitemap's body and validators and
	// makes requests conditional; a 304 reuses the stored body.
	CacheDir string
	// AllowOffSite follows the children of a sitemap index on another
	// scheme, host or port than the index, and their redirects there. By
	// default they are not requested: I-05 says an index lists sitemaps
	// of its own site only, and each one is an I-05 error diagnostic on
	// the index (with AllowOffSite, a warning). Sitemaps named by
	// robots.txt may be on any site (cross-submission) either way.
	AllowOffSite bool
	// NoDedup hands out every URL entry as listed, repeats included; memory
	// then does not grow with the number of URLs. Without it, a URL is
	// handed out once in any of its spellings: URLs compare in their
	// normal form (urlnorm.Key: %7e is ~, /a/../b is /b), and the
	// spelling handed out is the first one read, as listed.
	NoDedup bool
	// DedupMemory is the most memory, in bytes, URL deduplication holds
	// (default DefaultDedupMemory, 64 MiB: about 3 million URLs). Past it,
	// hashes are spilled to sorted runs in temporary files, so memory
	// stays flat however many URLs the site has. Below 1 MiB the spills come every few thousand
	// URLs and a large site takes many times longer.
	DedupMemory int64
	// Scope says which URLs the walk may request and which addresses it
	// may connect to (default: all); a same-site Scope is anchored at
	// start, so robots.txt Sitemap: lines, index children and redirects
	// on another site are refused (FETCH-SCOPE). With HTTP set, the
	// Client's Scope applies instead.
	Scope Scope
	// TempDir is where the dedup spill files are created (default
	// os.TempDir()), unlinked as soon as they are made (on Unix; elsewhere
	// removed when Walk returns).
	TempDir string
	// Getter, when set, reads the starts that are not http(s) URLs (files,
	// directories, standard input: input.NewGetter) and maps a local
	// index's children to documents. Everything else of the walk is the
	// same whatever reads the bytes.
	Getter Getter
	// Reader, when set, reads every sitemap (not robots.txt) in place of
	// the walk's decoder, and filters what the walk itself reports (see
	// [Reader]). A Getter's Items (JSONL records) are read as they are.
	Reader Reader
	// Discover finds the sitemaps start leads to and reads none of them:
	// each one robots.txt names, and each well-known path that answers
	// with a sitemap (its body read only as far as that takes), is a
	// NodeSitemap of Depth 1 with no URL events and no children. A
	// program that reads the sitemaps its own way (validate.Tree) starts
	// from their URLs (Node.FinalURL, or Node.URL when not requested).
	Discover bool
	// Revisit, when set, makes the walk incremental: sitemaps read over
	// HTTP are requested on the validators it keeps, and the children it
	// names are not requested at all (see [Revisit]; package diff's
	// Changes is its user).
	Revisit Revisit
}

// Revisit is what an incremental walk knows of the sitemaps it read
// before ([Options.Revisit]). Its methods are called by the walk's
// workers, several at once, and only for documents read over HTTP.
type Revisit interface {
	// Validators returns the ETag and Last-Modified that sitemap u
	// answered with last time; the request then carries If-None-Match
	// and If-Modified-Since. Both empty: u is requested in full. A
	// sitemap that answers 304 ends there: its node has Status 304 and
	// NotModified set, and it hands out no entries and queues no children.
	Validators(u string) (etag, lastModified string)
	// Skip reports whether the child loc that an index lists need not be
	// requested (its entries are as the caller recorded them): index is
	// the index's final URL, lastmod the <lastmod> it gives loc now (zero
	// when none). It is asked about every child the walk would queue,
	// after the site, depth and MaxChildren rules, once per listing.
	Skip(index, loc string, lastmod sitemap.Date) bool
}

// clientOptions is the configuration of the Client a Walk builds when
// Options.HTTP is not set.
func (o Options) clientOptions() ClientOptions {
	return ClientOptions{
		UserAgent: o.UserAgent, HTTPClient: o.Client,
		ConnectTimeout: o.ConnectTimeout, HeaderTimeout: o.HeaderTimeout, IdleTimeout: o.IdleTimeout,
		Timeout:  o.SitemapTimeout,
		Attempts: o.Attempts, RetryBase: o.RetryBase, RetryMax: o.RetryMax,
		MaxIdleConnsPerHost: o.PerHost, CacheDir: o.CacheDir, Scope: o.Scope,
	}
}

// withDefaults fills the walk's own defaults; the client's User-Agent,
// timeouts and retries are left zero here and take ClientOptions' defaults (one place).
func (o Options) withDefaults() Options {
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	if o.PerHost <= 0 {
		o.PerHost = 4
	}
	if o.PerHost > o.Concurrency {
		o.PerHost = o.Concurrency
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 5
	}
	if o.MaxSitemaps <= 0 {
		o.MaxSitemaps = 10000
	}
	if o.SitemapTimeout <= 0 {
		o.SitemapTimeout = 5 * time.Minute
	}
	return o
}
