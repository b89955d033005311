package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
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
// pages of 1,000 entries, checking the source every 2 seconds.
type Options struct {
	// BaseURL is the absolute http(s) URL the handler's files are reachable
	// at, ending in "/" (https://www.example.com/ when mounted at the site's
	// root; not the URL of the index itself, which is refused): the index
	// lists BaseURL+"NAME-N.xml", and an entry whose loc is not absolute
	// is resolved against it ("/a" against its origin, "a" against BaseURL
	// itself). Empty: the URL of each request (its Host header, "https"
	// when the connection is TLS, the directory of its path), for the
	// hosts in Hosts only; the pages are then built once per host.
	BaseURL string
	// Hosts are the Host header values (a name, or name:port, matched as
	// given) a request may name when BaseURL is empty; a request naming
	// another is answered 421 Misdirected Request, so a client cannot make
	// the handler publish its locs under a host of its choosing (behind a
	// shared cache, for every client). Empty: localhost, 127.0.0.1 and
	// [::1], at the port the request came in on. Without BaseURL the
	// handler is taken to be at the root of each host.
	Hosts []string
	// Name is the base name of the files; "sitemap" when empty. A name
	// ending in .xml or .xml.gz is refused (the index is NAME.xml).
	Name string
	// PerPage is the most entries on a page, 1 to 50,000 (S-01); 0 means
	// DefaultPerPage (1,000), or more for a source of over 20 million
	// entries, chosen at the first build. Pages also stay under 50 MiB
	// uncompressed (S-02).
	PerPage int
	// MaxBytes is the most bytes of a page, uncompressed; 0 means
	// 52,428,800 (S-02). Mainly for tests.
	MaxBytes int64
	// Recheck is how often the source is checked for changes when it is
	// not a [Watcher]; 0 means 2 seconds, a negative value checks at every
	// request. A check that takes long stretches it: the pages are trusted
	// for at least 4 times the last check's duration, so checks never take
	// more than a fifth of the time. A check asks Source.Version and, when
	// it moved (or the source cannot tell), reads every page: about a
	// second per million entries on SQLite.
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
	// HTML view of the same built page; crawlers always get XML.
	// "?view=xml" and "?view=html" choose explicitly. [HTMLView] is the
	// module's.
	HTML Viewer
	// Robots serves robots.txt: RobotsTxt with a Sitemap: line for the
	// index added (only when the handler is at the site's root is this
	// the robots.txt crawlers read).
	Robots    bool
	RobotsTxt []byte
	// CacheDir, when set, is a directory where the built pages are kept,
	// gzipped, one file each, instead of in memory (about 12 bytes per
	// entry). The directory is the handler's own: what an earlier run
	// left there is removed at start.
	CacheDir string
	// Skipped, when set, is told about every entry the encoder refused as
	// a whole (its loc: empty, relative without BaseURL, not a URL, …):
	// it is left out of its page. It is told when the page is built anew,
	// not at every check; it may be called from several goroutines at
	// once.
	Skipped func(loc string, err error)
	// Dropped, when set, is told about every field or extension block
	// the encoder refused and that was left out so the rest of the entry
	// could be served, as package generate drops them
	// (sitemap.EntryError.Drop: a changefreq written "Weekly", a priority
	// of 5, an image with a relative loc): what names the part dropped,
	// in the entry record's terms ("changefreq", "images[1]"). Told as
	// Skipped is.
	Dropped func(loc, what string, err error)
	// Changed, when set, is told the entries each update after the first
	// build added or changed (a new loc, or any change of its <url>
	// element; never a removed entry): their loc and lastmod, once the
	// new pages are served, from the goroutine of the update: hand them
	// off (to an IndexNow submitter, say) rather than work on them. The
	// first build is not told: [Handler.Entries] reads what it built.
	Changed func(urls []sitemap.URL)
	// CheckError, when set, is told when a check of the source fails (a
	// table dropped or a column renamed, the database down): the pages
	// built before are served meanwhile. It is told once per failure that
	// differs from the one before, and with nil once a check succeeds
	// again.
	CheckError func(err error)
	// FeedError, when set, is told when a Watcher's feed fails; Run then
	// checks every page every Recheck and starts the feed again.
	FeedError func(err error)
}

// defaultRecheck is Options.Recheck when it is 0.
const defaultRecheck = 2 * time.Second

// DefaultPerPage is the entries of a page when Options.PerPage is 0, for
// a source of up to 20 million entries (larger ones get larger pages, so
// the index lists at most 20,000). A change rebuilds the page that holds
// it, at a cost that grows with the page (about 2 µs an entry on
// PostgreSQL: 2 ms for 1,000, 100 ms for 50,000), so small pages keep a
// busy table's pages current: at 100 changes a second spread over a
// table, pages of 1,000 cost a fifth of a core, pages of 50,000 several
// cores. WordPress serves 2,000 URLs a sitemap, Yoast 1,000.
const DefaultPerPage = 1000

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
	hosts map[string]bool // Options.Hosts, lower-cased
	lim   limits
	// autoPerPage: Options.PerPage was 0, so the first build may choose
	// larger pages for a large source (perPageFor).
	autoPerPage  bool
	autoMaxPages int // autoMaxPages; tests make it smaller
	store        blobStore
	stats        Metrics

	sitesMu sync.Mutex
	sites   map[string]*site // by base URL
	running atomic.Int32     // Run calls under way
	kick    chan struct{}    // a change is pending
	pendMu  sync.Mutex
	pending Change // the changes not yet read
	bg      sync.WaitGroup
	now     func() time.Time

	errMu   sync.Mutex
	lastErr error // of the last check, nil when it succeeded
}

// noteCheck records the outcome of a check and tells Options.CheckError
// of a change.
func (h *Handler) noteCheck(err error) {
	h.errMu.Lock()
	prev := h.lastErr
	h.lastErr = err
	h.errMu.Unlock()
	changed := (prev == nil) != (err == nil) || err != nil && prev.Error() != err.Error()
	if changed && h.o.CheckError != nil {
		h.o.CheckError(err)
	}
}

// Err is the error of the last check of the source, or nil when it
// succeeded (or none ran yet): a health check's answer. While it is not
// nil the pages served are those of the last check that succeeded.
func (h *Handler) Err() error {
	h.errMu.Lock()
	defer h.errMu.Unlock()
	return h.lastErr
}

// NewHandler returns the Handler of src. It reads nothing yet: the first
// request (or [Handler.Refresh], or [Handler.Run]) builds the pages.
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
	if !plainName(o.Name) {
		return nil, fmt.Errorf("serve: Name %q: use a plain file name of letters, digits, '-', '_' and '.' (it is written in URLs as it is)", o.Name)
	}
	if o.PerPage < 0 || o.PerPage > sitemap.MaxURLs {
		return nil, fmt.Errorf("serve: PerPage %d: a sitemap holds 1 to %d URLs (S-01)", o.PerPage, sitemap.MaxURLs)
	}
	auto := o.PerPage == 0
	if auto {
		o.PerPage = DefaultPerPage
	}
	if o.MaxBytes <= 0 || o.MaxBytes > sitemap.MaxBytes {
		o.MaxBytes = sitemap.MaxBytes
	}
	if o.MaxBytes <= 2*pageHeadroom {
		return nil, fmt.Errorf("serve: MaxBytes %d is too small for one entry", o.MaxBytes)
	}
	if o.Recheck == 0 {
		o.Recheck = defaultRecheck
	}
	if o.CacheControl == "" {
		o.CacheControl = "public, max-age=300"
	}
	h := &Handler{src: src, o: o, now: time.Now, sites: map[string]*site{}, kick: make(chan struct{}, 1),
		lim: limits{maxBytes: o.MaxBytes - pageHeadroom}, store: memStore{}, autoPerPage: auto, autoMaxPages: autoMaxPages}
	h.lim.perPage.Store(int64(o.PerPage))
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
		h.sites[u.String()] = &site{h: h, base: u}
	}
	if len(o.Hosts) > 0 {
		h.hosts = map[string]bool{}
		for _, x := range o.Hosts {
			if x == "" || strings.ContainsAny(x, "/?#@ ") {
				return nil, fmt.Errorf("serve: Hosts: %q is not a host name (give www.example.com or www.example.com:8080)", x)
			}
			h.hosts[strings.ToLower(x)] = true
		}
	}
	if o.CacheDir != "" {
		c, err := newDirStore(o.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("serve: CacheDir: %w", err)
		}
		h.store = c
	}
	return h, nil
}

// Close releases what the handler holds beyond memory: the lock on
// Options.CacheDir (its files stay until the next handler on it starts).
// The handler answers nothing afterwards that needs them.
func (h *Handler) Close() error {
	if d, ok := h.store.(*dirStore); ok {
		return d.close()
	}
	return nil
}

// Refresh brings the pages up to date now: it checks every page (of every
// host seen, without BaseURL) and rebuilds what changed. A command calls
// it once before listening, so the first crawler does not wait for the
// first build.
func (h *Handler) Refresh(ctx context.Context) error {
	for _, s := range h.allSites() {
		if _, err := s.update(ctx, true, true, nil); err != nil {
			return err
		}
	}
	return nil
}

func (h *Handler) allSites() []*site {
	h.sitesMu.Lock()
	defer h.sitesMu.Unlock()
	out := make([]*site, 0, len(h.sites))
	for _, s := range h.sites {
		out = append(out, s)
	}
	return out
}

// staleBound is how much older than its Recheck a snapshot may be before
// a request waits for its check rather than being answered from it (a
// handler without Run, after a quiet spell).
const staleBound = 3 * time.Second

// current returns the pages of s, built when there are none yet.
//
// While Run runs, it keeps them current and a request never waits.
// Without it, the request that finds the pages older than their trust
// starts a check in the background and is answered from the pages there
// are, unless they are older than that by more than a few seconds: then
// it waits for the check. With a negative Recheck every request checks,
// and waits.
func (s *site) current(ctx context.Context) (*snapshot, error) {
	h := s.h
	snap := s.snap.Load()
	// wait checks now; a check that fails leaves the pages there are.
	wait := func() (*snapshot, error) {
		ns, err := s.update(ctx, true, false, nil)
		if err != nil && snap != nil {
			h.stats.errors.Add(1)
			return snap, nil
		}
		return ns, err
	}
	if snap == nil || h.o.Recheck < 0 {
		return wait()
	}
	if h.running.Load() > 0 {
		return snap, nil
	}
	age := h.now().Sub(snap.checked)
	if age < snap.trust {
		return snap, nil
	}
	if age > snap.trust+staleBound {
		return wait()
	}
	if s.mu.TryLock() {
		s.mu.Unlock() // update takes it; a second check may start meanwhile, which finds the pages checked
		h.bg.Add(1)
		go func() {
			defer h.bg.Done()
			if _, err := s.update(context.Background(), true, false, nil); err != nil {
				h.stats.errors.Add(1)
			}
		}()
	}
	return snap, nil
}

// siteFor returns the site a request is for, or nil when its Host is not
// allowed.
func (h *Handler) siteFor(r *http.Request) *site {
	if h.base != nil {
		return h.sites[h.base.String()]
	}
	host := strings.ToLower(r.Host)
	if !h.allowedHost(host) {
		return nil
	}
	if h.hosts == nil {
		// A loopback name: at the port the request came in on, whatever
		// its Host says, so Host headers cannot multiply the pages built.
		if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			if _, port, err := net.SplitHostPort(a.String()); err == nil {
				name := host
				if hn, _, err := net.SplitHostPort(host); err == nil {
					name = hn
				}
				host = net.JoinHostPort(strings.Trim(name, "[]"), port)
			}
		}
	}
	// At the root: a handler mounted under a prefix is given BaseURL (a
	// base per request path would let paths multiply the pages built).
	u := &url.URL{Scheme: "http", Host: host, Path: "/"}
	if r.TLS != nil {
		u.Scheme = "https"
	}
	key := u.String()
	h.sitesMu.Lock()
	defer h.sitesMu.Unlock()
	s := h.sites[key]
	if s == nil {
		if len(h.sites) >= maxSites {
			return nil
		}
		s = &site{h: h, base: u}
		h.sites[key] = s
	}
	return s
}

// maxSites bounds the bases a handler without BaseURL builds pages for
// (each allowed host, with each scheme, and each loopback port).
const maxSites = 64

func (h *Handler) allowedHost(host string) bool {
	if h.hosts != nil {
		return h.hosts[host]
	}
	name := host
	if hn, _, err := net.SplitHostPort(host); err == nil {
		name = hn
	}
	name = strings.Trim(name, "[]")
	return name == "localhost" || name == "127.0.0.1" || name == "::1"
}

// Run keeps the pages current until ctx is done, and returns ctx's error:
// it builds them (when no request has), then follows the source's
// changes: a [Watcher]'s feed (each change read within about 100 ms, only
// the pages holding its keys), or a check every Options.Recheck. While it
// runs, requests never wait for a check. A feed that fails is told to
// Options.FeedError and started again after a second (then two, four, …
// up to a minute); meanwhile every page is checked every Recheck.
func (h *Handler) Run(ctx context.Context) error {
	h.running.Add(1)
	defer h.running.Add(-1)
	w, watching := h.src.(Watcher)
	feed := &feedRunner{w: w, down: make(chan error, 1)}
	defer feed.wg.Wait()
	if watching {
		feed.start(ctx, h.push)
	}
	live := watching
	tick := time.NewTimer(h.o.Recheck)
	defer tick.Stop()
	var retry <-chan time.Time
	backoff := time.Second
	for {
		h.buildUnbuilt(ctx)
		tick.Reset(h.nextCheck(live))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-feed.down:
			live = false
			if h.o.FeedError != nil {
				h.o.FeedError(err)
			}
			if time.Since(feed.started) > 10*time.Second {
				backoff = time.Second // it had been running: not a feed that cannot start
			}
			retry = time.After(backoff)
			backoff = min(2*backoff, time.Minute)
		case <-retry:
			retry, live = nil, true
			feed.start(ctx, h.push)
		case <-h.kick:
			if err := h.readPending(ctx); err != nil {
				return err
			}
		case <-tick.C:
			if live {
				continue
			}
			h.checkDue(ctx)
		}
	}
}

// feedRunner runs a Watcher's feed for Run, started again after it ends.
type feedRunner struct {
	w       Watcher
	down    chan error     // why the feed ended, unless ctx was done
	started time.Time      // when the feed last started
	wg      sync.WaitGroup // a feed cleans up (its publication) before Run returns
}

// start starts the feed in a goroutine that pushes its changes with push.
// When the feed ends while ctx is not done it sends why on f.down (an
// end without an error is "the feed ended"); when ctx is done it sends
// nothing. Run waits for it on f.wg before it returns.
func (f *feedRunner) start(ctx context.Context, push func(Change)) {
	f.started = time.Now()
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		err := f.w.Watch(ctx, push)
		if ctx.Err() == nil {
			if err == nil {
				err = errors.New("the feed ended")
			}
			f.down <- err
		}
	}()
}

// buildUnbuilt builds the pages of every site that has none yet (a host
// seen since, or a first build that failed). A failure is not counted
// here: update records it (Err, Options.CheckError), and the next turn
// of Run tries again.
func (h *Handler) buildUnbuilt(ctx context.Context) {
	for _, s := range h.allSites() {
		if s.snap.Load() == nil {
			s.update(ctx, true, false, nil)
		}
	}
}

// readPending reads the pages the changes pushed since the last time
// touched, on every site, after debounce (for the rest of a burst of
// commits). A site whose update fails is counted and read whole next
// time. It returns ctx's error when ctx is done during the wait, and
// nil otherwise.
func (h *Handler) readPending(ctx context.Context) error {
	// Let the rest of a burst of commits come.
	select {
	case <-time.After(debounce):
	case <-ctx.Done():
		return ctx.Err()
	}
	h.pendMu.Lock()
	c := h.pending
	h.pending = Change{}
	h.pendMu.Unlock()
	for _, s := range h.allSites() {
		if _, err := s.update(ctx, c.All, c.All, c.Keys); err != nil {
			h.stats.errors.Add(1)
			h.push(Change{All: true}) // read everything again next time
		}
	}
	return nil
}

// checkDue checks every site whose pages are due (their trust since the
// last check ended, or no pages yet); a failed check is counted, and the
// site keeps the pages it has.
func (h *Handler) checkDue(ctx context.Context) {
	for _, s := range h.allSites() {
		if snap := s.snap.Load(); snap != nil && h.now().Sub(snap.checked) < snap.trust {
			continue
		}
		if _, err := s.update(ctx, true, false, nil); err != nil {
			h.stats.errors.Add(1)
		}
	}
}

// nextCheck is how long Run waits for its next check: until the first
// site's pages are due (their trust from the last check's start ends;
// Recheck when no site has pages yet, or while a feed is live), at least
// 10 ms. Not a fixed tick: a tick a little less than Recheck after a
// check found it not due and left it to the next, so changes waited up
// to twice Recheck.
func (h *Handler) nextCheck(live bool) time.Duration {
	wait := max(h.o.Recheck, 10*time.Millisecond)
	if live {
		return wait // the feed reports the changes
	}
	now := h.now()
	for _, s := range h.allSites() {
		if snap := s.snap.Load(); snap != nil {
			wait = min(wait, snap.checked.Add(snap.trust).Sub(now))
		}
	}
	return max(wait, 10*time.Millisecond)
}

// debounce is how long Run waits after a change for the rest of its
// burst before it reads the pages the changes touched.
const debounce = 50 * time.Millisecond

// maxPending is the most keys kept pending; more are read as All.
const maxPending = 10000

// push records a change for Run to read.
func (h *Handler) push(c Change) {
	h.pendMu.Lock()
	switch {
	case h.pending.All:
	case c.All || len(h.pending.Keys)+len(c.Keys) > maxPending:
		h.pending = Change{All: true}
	default:
		h.pending.Keys = append(h.pending.Keys, c.Keys...)
	}
	h.pendMu.Unlock()
	select {
	case h.kick <- struct{}{}:
	default:
	}
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

// Entries returns the entries of the pages as last built, page after page,
// read from their bytes (what a crawler reading every page gets), for the
// site of Options.BaseURL: what a program that tells search engines of
// changes (Options.Changed) sends once at start. It reads the pages of
// the moment it is called; it fails without BaseURL or before the first
// build.
func (h *Handler) Entries() sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		if h.base == nil {
			return errors.New("serve: Entries needs Options.BaseURL")
		}
		snap := h.sites[h.base.String()].snap.Load()
		if snap == nil {
			return errors.New("serve: Entries before the pages were built: call Refresh first")
		}
		for _, p := range snap.pages {
			if p.art == nil {
				continue
			}
			r, err := p.art.blob.open()
			if err != nil {
				return fmt.Errorf("serve: page %d: %w", p.id, err)
			}
			err = readBuilt(ctx, r, yield)
			r.Close()
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// plainName reports whether name is written in a URL as it is: ASCII
// letters, digits, '-', '_' and '.', not starting with '.'.
func plainName(name string) bool {
	if name == "" || name[0] == '.' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// perPage is the most entries a page holds.
func (h *Handler) perPage() int { return int(h.lim.perPage.Load()) }
