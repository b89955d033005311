package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/view"
)

// Options configure a [Handler]. The zero value serves NAME "sitemap" with
// pages of 50,000 entries, rechecking the source at most every 10 seconds.
type Options struct {
	// BaseURL is the absolute http(s) URL the handler's files are reachable
	// at, ending in "/" (https://www.example.com/ when mounted at the site's
	// root; not the URL of the index itself, which is refused): the index
	// lists BaseURL+"NAME-N.xml", and an entry whose loc is
	// not absolute is resolved against it ("/a" against its origin, "a"
	// against BaseURL itself). Empty: the URL of each request (its Host
	// header, "https" when the connection is TLS, the directory of its
	// path); set it behind a proxy.
	BaseURL string
	// Name is the base name of the files; "sitemap" when empty. A name
	// ending in .xml or .xml.gz is refused (the index is NAME.xml).
	Name string
	// PerPage is the most entries on a page, 1 to 50,000 (S-01); 0 means
	// 50,000. Pages also stay under 50 MiB uncompressed (S-02).
	PerPage int
	// MaxBytes is the most bytes of a page, uncompressed; 0 means
	// 52,428,800 (S-02). Mainly for tests.
	MaxBytes int64
	// Recheck is how long the pages are trusted before Source.Version is
	// asked again; 0 means 10 seconds, a negative value asks on every
	// request. A check that takes long stretches it: the pages are trusted
	// for at least 20 times the last check's duration, so the checks never
	// take more than a twentieth of the database's time (a count over 10^7
	// rows takes about a second, and a check every 10 seconds would slow
	// every page served meanwhile).
	Recheck time.Duration
	// CacheControl is the Cache-Control header of every sitemap answer;
	// "" means "public, max-age=300" ("-" sends none).
	CacheControl string
	// GzipIndex lists the pages in the index by their .xml.gz names.
	GzipIndex bool
	// XSL serves NAME.xsl (the default stylesheet) and names it in every
	// document, so a browser shows a table (what a browser that still runs
	// XSLT renders; see HTML for the others).
	XSL bool
	// HTML, when set, answers a browser navigating to a page or the index
	// (Accept prefers text/html, Sec-Fetch-Dest: document) with a readable
	// HTML view instead of the XML; crawlers always get XML. "?view=xml"
	// and "?view=html" choose explicitly. [HTMLView] is the module's.
	HTML Viewer
	// Robots serves robots.txt: RobotsTxt with a Sitemap: line for the
	// index added (only when the handler is at the site's root is this
	// the robots.txt crawlers read).
	Robots    bool
	RobotsTxt []byte
	// CacheDir, when set, is a directory where pages are kept once built,
	// one file per page and form (plain, gzip), so a page is read from
	// the source once per change and then sent from its file; the files of
	// a page that changed are removed at the next refresh. [Handler.Warm]
	// fills it ahead of requests. It needs BaseURL (a page names its own
	// URL). The directory should be the handler's own (it may hold about
	// the size of every page, uncompressed).
	CacheDir string
	// MaxBuilds is the most pages built at the same time; more wait. 0
	// means no limit.
	MaxBuilds int
	// Skipped, when set, is told about every entry the encoder refused as
	// a whole (its loc: empty, relative without BaseURL, not a URL, …):
	// it is left out of its page. It may be called from several
	// goroutines at once.
	Skipped func(loc string, err error)
	// Dropped, when set, is told about every field or extension block
	// the encoder refused and that was left out so the rest of the entry
	// could be served, as package generate drops them
	// (sitemap.EntryError.Drop: a changefreq written "Weekly", a priority
	// of 5, an image with a relative loc): what names the part dropped,
	// in the entry record's terms ("changefreq", "images[1]"). It may be
	// called from several goroutines at once.
	Dropped func(loc, what string, err error)
}

// Viewer renders the HTML view of one document the handler serves (see
// Options.HTML). It writes the whole page to w; the handler has set the
// Content-Type already.
type Viewer func(ctx context.Context, w io.Writer, doc Document) error

// Document is one document a Viewer renders: an index (Index set) or a
// page of entries (URLs set, streamed in order).
type Document struct {
	// Self is the URL of the XML form of the document.
	Self string
	// Index is the index's entries, for an index.
	Index []sitemap.IndexEntry
	// URLs streams a page's entries, for a page.
	URLs sitemap.Entries
	// Prev and Next are the URLs of the pages before and after a page in
	// the index (empty at the ends); Start is the number of entries before
	// it.
	Prev, Next string
	Start      int
}

// HTMLView is the Viewer of package view: the readable page of one
// sitemap or index that `sitemap html` writes, with links between pages.
func HTMLView(ctx context.Context, w io.Writer, d Document) error {
	// The link to the XML asks for it with ?view=xml: the plain URL answers
	// a browser following the link with this page again.
	self := d.Self
	if self != "" {
		self += "?view=xml"
	}
	o := view.Options{Self: self, Prev: d.Prev, Next: d.Next, Start: d.Start}
	if d.URLs == nil {
		return view.Index(ctx, w, view.IndexList(d.Index), o)
	}
	return view.URLSet(ctx, w, d.URLs, o)
}

// Handler serves the index and pages of one Source. Create it with
// [NewHandler]; it is safe for concurrent use.
type Handler struct {
	src   Source
	o     Options
	base  *url.URL
	lim   limits
	salt  string
	sem   chan struct{}
	stats Metrics

	cache *pageCache     // nil without Options.CacheDir
	bg    sync.WaitGroup // background refreshes

	mu   sync.Mutex // held by a refresh
	snap atomic.Pointer[snapshot]
	now  func() time.Time
}

// NewHandler returns the Handler of src. It reads nothing yet: the first
// request (or [Handler.Refresh]) computes the pages.
func NewHandler(src Source, o Options) (*Handler, error) {
	if src == nil {
		return nil, errors.New("serve: nil Source; give SQL, Seq, Entries or Crawl")
	}
	if o.Name == "" {
		o.Name = "sitemap"
	}
	if base, ext := splitSitemapExt(o.Name); ext != "" {
		return nil, fmt.Errorf("serve: Name %q: give it without %s, such as %q (the index is NAME.xml)", o.Name, ext, base)
	}
	if strings.ContainsAny(o.Name, "/?#%") {
		return nil, fmt.Errorf("serve: Name %q: use a plain file name without /, ?, # or %%", o.Name)
	}
	if o.PerPage < 0 || o.PerPage > sitemap.MaxURLs {
		return nil, fmt.Errorf("serve: PerPage %d: a sitemap holds 1 to %d URLs (S-01)", o.PerPage, sitemap.MaxURLs)
	}
	if o.PerPage == 0 {
		o.PerPage = sitemap.MaxURLs
	}
	if o.MaxBytes <= 0 || o.MaxBytes > sitemap.MaxBytes {
		o.MaxBytes = sitemap.MaxBytes
	}
	if o.MaxBytes <= 2*pageHeadroom {
		return nil, fmt.Errorf("serve: MaxBytes %d is too small for one entry", o.MaxBytes)
	}
	if o.Recheck == 0 {
		o.Recheck = 10 * time.Second
	}
	if o.CacheControl == "" {
		o.CacheControl = "public, max-age=300"
	}
	h := &Handler{src: src, o: o, now: time.Now,
		lim: limits{perPage: o.PerPage, maxBytes: o.MaxBytes - pageHeadroom}}
	if o.BaseURL != "" {
		u, err := url.Parse(o.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("serve: BaseURL %q: give an absolute http(s) URL such as https://www.example.com/", o.BaseURL)
		}
		if i := strings.LastIndexByte(u.Path, '/'); i >= 0 {
			if _, ext := splitSitemapExt(u.Path[i+1:]); ext != "" {
				// Taken as a directory, the index listed
				// …/sitemap.xml/sitemap-1.xml.
				d := *u
				d.Path, d.RawPath = u.Path[:i+1], ""
				return nil, fmt.Errorf("serve: BaseURL %q names a file; give the directory the handler's files are reachable at, %s", o.BaseURL, d.String())
			}
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
			u.RawPath = ""
		}
		h.base = u
	}
	if o.CacheDir != "" {
		if h.base == nil {
			return nil, errors.New("serve: CacheDir needs BaseURL: a cached page names the URLs it was built for")
		}
		c, err := newPageCache(o.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("serve: CacheDir: %w", err)
		}
		h.cache = c
	}
	if o.MaxBuilds > 0 {
		h.sem = make(chan struct{}, o.MaxBuilds)
	}
	h.salt = fmt.Sprintf("%s|%s|%v|%v|%d|%d", o.BaseURL, o.Name, o.XSL, o.GzipIndex, o.PerPage, o.MaxBytes)
	return h, nil
}

// Refresh makes sure the pages reflect the source: it asks Source.Version
// and recomputes the pages when it changed (or when there are none yet).
// A command calls it once before listening, so the first crawler does not
// wait for the first scan.
func (h *Handler) Refresh(ctx context.Context) error {
	_, err := h.refresh(ctx, true)
	return err
}

// current returns the pages, refreshing them when they are older than
// Options.Recheck.
//
// Once there are pages, a stale check does not hold requests up: the
// request that finds the pages stale starts the check (and the recount,
// when something changed) in the background and is answered from the
// pages it has, as are the requests that come while it runs. A check that
// fails is tried again after Recheck. With a negative Recheck every request
// checks, and waits.
func (h *Handler) current(ctx context.Context) (*snapshot, error) {
	s := h.snap.Load()
	if s == nil || h.o.Recheck < 0 {
		return h.refresh(ctx, false)
	}
	if h.now().Sub(s.checked) < s.trust {
		return s, nil
	}
	if h.mu.TryLock() {
		h.bg.Add(1)
		go func() {
			defer h.bg.Done()
			defer h.mu.Unlock()
			if _, err := h.refreshLocked(context.Background(), false); err != nil {
				h.stats.errors.Add(1)
			}
		}()
	}
	return s, nil
}

func (h *Handler) refresh(ctx context.Context, force bool) (*snapshot, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.refreshLocked(ctx, force)
}

// checkShare is how many times a change check's duration the pages are
// trusted after it at least (Options.Recheck).
const checkShare = 20

// refreshLocked is refresh with h.mu held.
func (h *Handler) refreshLocked(ctx context.Context, force bool) (*snapshot, error) {
	s := h.snap.Load()
	now := h.now()
	if s != nil && !force && h.o.Recheck > 0 && now.Sub(s.checked) < s.trust {
		return s, nil // refreshed while this one waited
	}
	began := time.Now()
	v, err := h.src.Version(ctx)
	trust := max(h.o.Recheck, checkShare*time.Since(began))
	if err != nil {
		if s != nil {
			// Keep answering from the pages there are; try again after
			// Recheck rather than at every request.
			ns := *s
			ns.checked = now
			h.snap.Store(&ns)
		}
		return nil, fmt.Errorf("serve: change check: %w", err)
	}
	if s != nil && (v == s.version || v == "" && s.version == "") {
		ns := *s
		ns.checked, ns.trust = now, trust
		h.snap.Store(&ns)
		return &ns, nil
	}
	start := time.Now()
	var pages []*page
	if s == nil {
		pages, err = build(ctx, h.src, h.lim)
	} else {
		pages, err = recount(ctx, h.src, s.pages, h.lim)
	}
	if err != nil {
		return nil, fmt.Errorf("serve: paging: %w", err)
	}
	h.stats.refreshes.Add(1)
	h.stats.refreshNanos.Add(int64(time.Since(start)))
	ns := newSnapshot(v, pages, h.salt, now)
	ns.trust = trust
	h.snap.Store(ns)
	if h.cache != nil {
		live := make(map[string]bool, len(pages))
		for _, p := range pages {
			live[p.etag] = true
		}
		h.cache.prune(live)
	}
	return ns, nil
}

// baseFor returns the URL the handler's files are reachable at for r.
func (h *Handler) baseFor(r *http.Request) *url.URL {
	if h.base != nil {
		return h.base
	}
	u := &url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path}
	if r.TLS != nil {
		u.Scheme = "https"
	}
	if i := strings.LastIndexByte(u.Path, '/'); i >= 0 {
		u.Path = u.Path[:i+1]
	} else {
		u.Path = "/"
	}
	return u
}

// splitSitemapExt splits a file name ending in .xml or .xml.gz (any case)
// into its base and that extension; ext is "" for any other name. (build
// has the same nine lines: the two packages share no helper package.)
func splitSitemapExt(name string) (base, ext string) {
	l := strings.ToLower(name)
	for _, e := range []string{".xml.gz", ".xml"} {
		if strings.HasSuffix(l, e) && len(l) > len(e) {
			return name[:len(name)-len(e)], name[len(name)-len(e):]
		}
	}
	return name, ""
}

// name parses the last segment of a request path: the index (id 0), a page
// (id > 0), gz for the .xml.gz form; ok is false for other names.
func (h *Handler) name(seg string) (id int, gz, ok bool) {
	rest, found := strings.CutPrefix(seg, h.o.Name)
	if !found {
		return 0, false, false
	}
	if r, cut := strings.CutSuffix(rest, ".gz"); cut {
		rest, gz = r, true
	}
	rest, found = strings.CutSuffix(rest, ".xml")
	if !found {
		return 0, false, false
	}
	if rest == "" {
		return 0, gz, true
	}
	num, found := strings.CutPrefix(rest, "-")
	if !found || num == "" || num[0] == '0' || len(num) > 9 {
		return 0, false, false
	}
	// Digits only: strconv.Atoi takes a sign, and "NAME-+1.xml" would be
	// page 1 under a second name.
	n := 0
	for i := 0; i < len(num); i++ {
		c := num[i]
		if c < '0' || c > '9' {
			return 0, false, false
		}
		n = n*10 + int(c-'0')
	}
	return n, gz, true
}

func (h *Handler) pageName(id int, gz bool) string {
	s := h.o.Name + "-" + strconv.Itoa(id) + ".xml"
	if gz {
		s += ".gz"
	}
	return s
}
