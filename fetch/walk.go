package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Probed paths, the most likely first. The general ones are tried in order
// until one answers with a sitemap; each news path is tried on its own.
var (
	probePaths = []string{"/sitemap.xml", "/sitemap_index.xml", "/sitemap-index.xml", "/sitemap.xml.gz", "/wp-sitemap.xml", "/sitemap.txt"}
	newsPaths  = []string{"/news-sitemap.xml", "/sitemap_news.xml", "/sitemap-news.xml"}
)

// ProbePaths returns the well-known paths a walk probes, in order.
func ProbePaths() []string { return slices.Concat(probePaths, newsPaths) }

// Reasons the walk stops early (context causes).
var (
	errStopped = errors.New("walk stopped")
	errTimeCap = errors.New("time cap reached")
)

// Walk reads every sitemap start leads to and calls fn, from one goroutine
// and in order per sitemap, with every node, URL entry and diagnostic as it
// is read. start is a homepage (a URL whose path is empty or ends in "/"),
// a robots.txt URL, or a sitemap URL; with [Options.Getter], also a name
// the Getter reads (a file, a directory, "-").
//
// Walk returns an error only when it could not run (start is not an http(s)
// URL, nor a name the Getter reads), when ctx ends, or when fn returns one
// (Walk then stops and returns that error). Failed sitemaps, HTTP errors
// and caps are diagnostics, and the Summary counts them.
func Walk(ctx context.Context, start string, opts Options, fn func(Event) error) (Summary, error) {
	return WalkNames(ctx, []string{start}, opts, fn)
}

// WalkNames is [Walk] of several starts, read as one tree: every document
// once, every URL once (unless NoDedup), the caps over them all. The
// starts are queued in order (with Concurrency 1 they are read in order,
// each followed by its children); Summary.StartErr is the first named
// sitemap that could not be read.
func WalkNames(ctx context.Context, names []string, opts Options, fn func(Event) error) (Summary, error) {
	t0 := time.Now()
	o := opts.withDefaults()
	if len(names) == 0 {
		return Summary{}, errors.New("nothing to read: give a homepage, robots.txt or sitemap URL")
	}
	w := &walker{opts: o, fn: fn, names: names, visited: map[string]int{}, lister: map[int]string{}, hosts: map[string]chan struct{}{}}
	if err := w.starts(names); err != nil {
		return Summary{}, err
	}
	w.cond = sync.NewCond(&w.mu)
	w.client = o.HTTP
	if w.client == nil {
		c, err := NewClient(o.clientOptions())
		if err != nil {
			return Summary{}, err
		}
		w.client = c
		defer c.CloseIdleConnections()
	}
	if !o.NoDedup {
		w.seen = newDedupSet(o.DedupMemory, o.TempDir)
		defer w.seen.release()
	}
	w.sum.Problems = map[string]int{}
	var runCtx context.Context
	var cancelTime context.CancelFunc = func() {}
	runCtx = ctx
	if o.Timeout > 0 {
		runCtx, cancelTime = context.WithTimeoutCause(ctx, o.Timeout, errTimeCap)
	}
	defer cancelTime()
	runCtx, w.cancel = context.WithCancelCause(runCtx)
	defer w.cancel(nil)
	w.ctx = runCtx
	w.out = make(chan *batch, o.Concurrency*2)
	for _, n := range w.startNodes {
		w.deliver(Event{Kind: EventNodeStart, NodeID: n.ID, Node: n})
		w.deliver(Event{Kind: EventNodeEnd, NodeID: n.ID, Node: n})
	}
	w.pending = len(w.queue) + len(w.later)

	w.runWorkers(o.Concurrency)

	w.settle(ctx, runCtx, o)
	w.sum.Elapsed = time.Since(t0)
	w.mu.Lock()
	w.sum.StartErr = w.startErr
	w.mu.Unlock()
	if w.fnErr != nil {
		return w.sum, w.fnErr
	}
	if err := w.dedupErr.Load(); err != nil {
		return w.sum, *err
	}
	if err := ctx.Err(); err != nil {
		return w.sum, err
	}
	return w.sum, nil
}

// runWorkers starts concurrency workers and hands every batch they send
// to receive, in the order it comes, until all of them have ended (the
// queue is empty or the walk stopped); it returns then.
func (w *walker) runWorkers(concurrency int) {
	var wg sync.WaitGroup
	for range concurrency {
		wg.Go(w.worker)
	}
	go func() { wg.Wait(); close(w.out) }()
	for b := range w.out {
		w.receive(b)
	}
}

// settle ends a walk whose workers have ended: it adds the counters to
// the summary, reports the time cap if runCtx ran out of o.Timeout, makes
// the robots.txt's network error the start error if nothing of the site
// answered, and says that no sitemap was found if none was from starts
// that named none themselves, and the walk was neither cancelled (ctx),
// stopped by fn, capped nor unreached.
func (w *walker) settle(ctx, runCtx context.Context, o Options) {
	w.sum.Bytes = w.bytes.Load()
	w.sum.Duplicates = w.dups.Load()
	w.sum.Entries = w.entries.Load()
	cause := context.Cause(runCtx)
	if errors.Is(cause, errTimeCap) {
		w.capHit("time", "the walk took longer than "+o.Timeout.String()+"; sitemaps not read yet were skipped (--timeout)")
	}
	w.mu.Lock()
	unreached := w.robotsNetErr != nil && !w.answered.Load()
	if unreached && w.hits == 0 && !w.explicit {
		// Nothing of the site answered: it could not be reached, which
		// says nothing about its sitemaps.
		w.startErr = w.robotsNetErr
	}
	w.mu.Unlock()
	if w.fnErr == nil && ctx.Err() == nil && w.hits == 0 && !w.explicit && !unreached && !errors.Is(cause, errTimeCap) {
		w.noSitemap()
	}
}

// starts queues the jobs of names: an http(s) name by what it is
// (classify), any other through the Getter.
func (w *walker) starts(names []string) error {
	queue := &w.queue
	if w.opts.Concurrency == 1 {
		queue = &w.later // each start's tree before the next start
	}
	for i, name := range names {
		if !urlnorm.IsHTTP(strings.TrimSpace(name)) && w.opts.Getter != nil {
			docs, err := w.opts.Getter.Starts(name)
			if err != nil {
				return err
			}
			if w.start == "" {
				w.start = name
			}
			w.explicit = true
			for k := range docs {
				d := docs[k]
				if d.Ref == nil {
					*queue = append(*queue, &job{kind: NodeSitemap, url: d.URL, depth: 1})
					continue
				}
				*queue = append(*queue, &job{kind: NodeSitemap, url: d.Name, doc: &d, depth: 1})
			}
			continue
		}
		kind, su, err := classify(name)
		if err != nil {
			return err
		}
		if w.start == "" || i == 0 {
			w.start = su.String() // the anchor of a same-site Scope
		}
		origin := su.Scheme + "://" + su.Host
		switch kind {
		case NodeStart:
			w.nextID++
			n := &Node{ID: w.nextID, Kind: NodeStart, URL: name, FinalURL: name}
			w.startNodes = append(w.startNodes, n)
			*queue = append(*queue, &job{kind: NodeRobots, url: origin + "/robots.txt", parent: n.ID, origin: origin, probeParent: n.ID})
		case NodeRobots:
			*queue = append(*queue, &job{kind: NodeRobots, url: su.String(), origin: origin})
		default:
			w.explicit = true
			*queue = append(*queue, &job{kind: NodeSitemap, url: su.String(), depth: 1})
		}
	}
	return nil
}

// noSitemap reports FETCH-NONE: nothing of what the start leads to
// answered with a sitemap.
func (w *walker) noSitemap() {
	msg := "no sitemap found: robots.txt names none"
	if w.opts.KnownPaths == KnownPathsNever {
		msg += " and probing well-known paths is off"
	} else {
		msg += " and none of " + strings.Join(ProbePaths(), ", ") + " answered with a sitemap"
		w.mu.Lock()
		if w.probeFails == 1 {
			msg += "; a probe failed (" + w.probeFail + "), so the site may have sitemaps that could not be reached"
		} else if w.probeFails > 1 {
			msg += "; " + strconv.Itoa(w.probeFails) + " probes failed (first: " + w.probeFail + "), so the site may have sitemaps that could not be reached"
		}
		w.mu.Unlock()
	}
	d := sitemap.Diagnostic{Rule: rules.FetchNone, Severity: sitemap.SeverityError, Message: msg, URL: w.names[0]}
	w.deliver(Event{Kind: EventDiagnostic, Diagnostic: &d})
}

func classify(start string) (NodeKind, *url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(start))
	if err != nil || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) || u.Host == "" {
		msg := fmt.Sprintf("start URL %q is not an absolute http(s) URL; give a homepage (https://www.example.com/), a robots.txt or a sitemap URL", start)
		if !strings.Contains(start, "://") && !strings.HasPrefix(start, "/") && start != "" {
			msg += " (did you mean https://" + strings.TrimSpace(start) + "?)"
		}
		return 0, nil, errors.New(msg)
	}
	u.Fragment = ""
	switch {
	case u.Path == "" || strings.HasSuffix(u.Path, "/"):
		return NodeStart, u, nil
	case strings.EqualFold(u.Path, "/robots.txt"):
		return NodeRobots, u, nil
	}
	return NodeSitemap, u, nil
}

type job struct {
	kind          NodeKind
	url           string
	doc           *Doc   // a document the Getter opens (nil: url over HTTP)
	loc           string // a Doc's loc as its index lists it ("": url)
	parent        int
	parentURL     string   // the document that listed url
	parentKey     string   // the listing document's identity (its final URL, or Doc.Key)
	ancestors     []string // identities of the sitemaps above, root first
	depth         int
	parentIsIndex bool
	probe         bool
	probeNext     []string // general probes still to try after this one
	origin        string   // robots jobs: scheme://host for probes
	probeParent   int      // robots jobs: the node probes hang under
	seq           int      // position in the list that named url (Node.Seq)
	line, col     int      // where the listing index's entry is (0: unknown)
}

type walker struct {
	opts   Options
	client *Client
	start  string // the start URL: the anchor of a same-site Scope
	fn     func(Event) error
	ctx    context.Context
	cancel context.CancelCauseFunc
	out    chan *batch
	pool   sync.Pool
	bytes  atomic.Int64
	seen   *dedupSet // URL dedup, used by the workers (nil with NoDedup)
	dups   atomic.Int64
	// dedupErr is the first I/O error of the dedup spill file; it stops
	// the walk.
	dedupErr atomic.Pointer[error]
	entries  atomic.Int64

	names      []string // the starts as given
	startNodes []*Node  // the homepages started from, delivered first

	mu    sync.Mutex
	cond  *sync.Cond
	queue []*job
	// later holds the starts of a walk of Concurrency 1 not begun yet:
	// one begins when everything before it is done, so each start is
	// followed by its tree.
	later    []*job
	pending  int
	visited  map[string]int // requested and final URLs → node ID
	lister   map[int]string // node ID → the document that listed it (bounded by MaxSitemaps)
	hosts    map[string]chan struct{}
	nextID   int
	started  int // sitemaps requested (MaxSitemaps)
	capped   map[string]bool
	explicit bool  // the start URL was a sitemap
	startErr error // the start sitemap could not be fetched
	// probes that failed for another reason than "not found"
	probeFails int
	probeFail  string // the first of them
	// robotsNetErr is why robots.txt got no response at all (a network
	// failure, or the scope refused it); answered is set by any response
	// of the site. Unless robotsNetErr is set and answered is not, the
	// site was reached.
	robotsNetErr error
	answered     atomic.Bool

	// owned by the receiving goroutine
	sum   Summary
	fnErr error
	hits  int // sitemaps read (probe misses excluded)
}

func (w *walker) worker() {
	for {
		j := w.pop()
		if j == nil {
			return
		}
		e := &emitter{w: w, b: w.newBatch()}
		if w.ctx.Err() == nil {
			if j.kind == NodeRobots {
				w.runRobots(j, e)
			} else {
				w.runSitemap(j, e)
			}
		}
		e.flush()
		w.done()
	}
}

func (w *walker) pop() *job {
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		switch {
		case len(w.queue) > 0:
			j := w.queue[0]
			w.queue[0] = nil
			w.queue = w.queue[1:]
			return j
		case len(w.later) > 0 && w.pending == len(w.later):
			j := w.later[0]
			w.later[0] = nil
			w.later = w.later[1:]
			return j
		case w.pending == 0:
			return nil
		}
		w.cond.Wait()
	}
}

func (w *walker) done() {
	w.mu.Lock()
	w.pending--
	if w.pending <= len(w.later) {
		w.cond.Broadcast()
	}
	w.mu.Unlock()
}

// push queues jobs that were already counted in pending.
func (w *walker) push(js []*job) {
	if len(js) == 0 {
		return
	}
	w.mu.Lock()
	if w.ctx.Err() != nil {
		w.pending -= len(js)
		if w.pending <= len(w.later) {
			w.cond.Broadcast()
		}
	} else {
		w.queue = append(w.queue, js...)
		w.cond.Broadcast()
	}
	w.mu.Unlock()
}

func (w *walker) id() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.nextID++
	return w.nextID
}

// claim records u as read by node id; it returns the earlier node when u
// was claimed before.
// by is the document that listed u ("" for the start, robots.txt and
// probes); messages about a later repeat name it.
func (w *walker) claim(u string, id int, by string) (int, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if prev, ok := w.visited[u]; ok {
		return prev, true
	}
	w.visited[u] = id
	if _, ok := w.lister[id]; !ok {
		w.lister[id] = by
	}
	return 0, false
}

// listedBy names the document that listed node id, for messages.
func (w *walker) listedBy(id int) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch by, ok := w.lister[id]; {
	case !ok:
		return "a probe of a well-known path"
	case by == "":
		return "the start"
	default:
		return by
	}
}

func (w *walker) isVisited(u string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.visited[u]
	return ok
}

// claimProbe claims a probe's URLs once it proved to be a sitemap and
// gives it its node ID; false when either URL was claimed meanwhile.
func (w *walker) claimProbe(req, final string, id *int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.visited[req]; ok {
		return false
	}
	if _, ok := w.visited[final]; ok {
		return false
	}
	w.nextID++
	*id = w.nextID
	w.visited[req], w.visited[final] = *id, *id
	return true
}

func (w *walker) hostSem(host string) chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	s, ok := w.hosts[host]
	if !ok {
		s = make(chan struct{}, w.opts.PerHost)
		w.hosts[host] = s
	}
	return s
}

// capHit reports a cap once. Called from workers and the receiver.
func (w *walker) capOnce(name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.capped == nil {
		w.capped = map[string]bool{}
	}
	if w.capped[name] {
		return false
	}
	w.capped[name] = true
	return true
}

// capHit, on the receiving goroutine, records and reports a cap.
func (w *walker) capHit(name, msg string) {
	if !w.capOnce(name) {
		return
	}
	w.sum.Capped = append(w.sum.Capped, name)
	d := sitemap.Diagnostic{Rule: rules.FetchCap, Severity: sitemap.SeverityWarning, Message: msg}
	w.deliver(Event{Kind: EventDiagnostic, Diagnostic: &d})
}

// receive handles one batch on the receiving goroutine: counts, dedup,
// caps, the callback; then queues the children the batch announced, so a
// child's events never come before its parent's start.
func (w *walker) receive(b *batch) {
	for i := range b.events {
		ev := &b.events[i]
		switch ev.Kind {
		case EventURL:
			if w.opts.MaxURLs > 0 && w.sum.URLs >= w.opts.MaxURLs {
				if w.fnErr == nil && w.ctx.Err() == nil {
					w.capHit("urls", "stopped after "+strconv.FormatInt(w.opts.MaxURLs, 10)+" URLs (--max-urls)")
					w.cancel(errStopped)
				}
				continue
			}
			w.sum.URLs++
		case EventNodeEnd:
			if ev.Node.Kind == NodeSitemap {
				w.hits++
				w.sum.Sitemaps++
				if ev.Node.Failed {
					w.sum.Failed++
				}
			}
		case eventCap:
			w.sum.Capped = append(w.sum.Capped, ev.cap)
			continue
		}
		w.deliver(*ev)
	}
	w.push(b.after)
	b.reset()
	w.pool.Put(b)
}

// deliver counts a diagnostic and calls fn unless the walk was stopped by
// fn.
func (w *walker) deliver(ev Event) {
	if ev.Kind == EventDiagnostic {
		d := ev.Diagnostic
		switch d.Severity {
		case sitemap.SeverityError:
			w.sum.Errors++
		case sitemap.SeverityWarning:
			w.sum.Warnings++
		default:
			w.sum.Infos++
		}
		w.sum.Problems[string(d.Rule)]++
	}
	if w.fnErr != nil {
		return
	}
	if err := w.fn(ev); err != nil {
		w.fnErr = err
		w.cancel(errStopped)
	}
}

// count adds n transferred bytes and stops the walk at MaxBytes.
func (w *walker) count(n int64) error {
	t := w.bytes.Add(n)
	if w.opts.MaxBytes > 0 && t > w.opts.MaxBytes {
		w.cancel(errStopped)
		return errBytesCap
	}
	return nil
}

var errBytesCap = errors.New("byte cap reached")

// stopping reports whether the walk as a whole is ending (cap, fn error,
// ctx), so in-flight failures are not the sitemap's fault.
func (w *walker) stopping() bool { return w.ctx.Err() != nil }

func stripFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

// otherScheme is the scheme of loc, in lower case, when loc has one and
// it is not http or https (file:///etc/passwd: "file"), or "". A host and
// port without a scheme (localhost:8080/a.xml) has none.
func otherScheme(loc string) string {
	u, err := url.Parse(loc)
	if err != nil || u.Scheme == "" {
		return ""
	}
	if o := u.Opaque; o != "" && o[0] >= '0' && o[0] <= '9' {
		return ""
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return s
	}
	return ""
}

// resolve makes a listed loc absolute against the document's URL.
func resolve(base, loc string) (string, bool) {
	u, err := url.Parse(loc)
	if err != nil {
		return "", false
	}
	if u.IsAbs() && u.Host != "" {
		return stripFragment(u.String()), true
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", false
	}
	r := b.ResolveReference(u)
	r.Fragment = ""
	return r.String(), false
}

// discard reads what is left of a body (bounded) so a cached copy is
// complete, and reports whether the end was reached.
func discard(r io.Reader) bool {
	n, err := io.Copy(io.Discard, io.LimitReader(r, 1<<20))
	return err == nil && n < 1<<20
}
