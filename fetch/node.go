package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/robots"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Batch capacities: the slices never grow, so events may point into them.
const (
	batchURLs  = 512
	batchDiags = 64
	batchNodes = 8
)

// batch is a run of events from one worker, delivered in one channel send.
type batch struct {
	events []Event
	urls   []sitemap.URL
	diags  []sitemap.Diagnostic
	nodes  []Node
	after  []*job // children to queue once the events are delivered

	// The dedup's scratch (dedupSet.drop), empty between its calls.
	dedupKeys []string
	dedupNew  []bool
}

func (w *walker) newBatch() *batch {
	if b, ok := w.pool.Get().(*batch); ok {
		return b
	}
	return &batch{
		events: make([]Event, 0, batchURLs+batchDiags+batchNodes),
		// urls is made at the first URL: a Reader may hand out none.
		diags: make([]sitemap.Diagnostic, 0, batchDiags),
		nodes: make([]Node, 0, batchNodes),
	}
}

func (b *batch) reset() {
	clear(b.events)
	clear(b.urls)
	clear(b.diags)
	clear(b.nodes)
	b.events, b.urls, b.diags, b.nodes = b.events[:0], b.urls[:0], b.diags[:0], b.nodes[:0]
	b.after = nil
}

// emitter collects a worker's events into batches.
type emitter struct {
	w *walker
	b *batch
}

func (e *emitter) flush() {
	b := e.b
	if e.w.seen != nil && len(b.urls) > 0 {
		dups, err := e.w.seen.drop(b)
		e.w.dups.Add(dups)
		if err != nil {
			e.w.dedupErr.CompareAndSwap(nil, &err)
			e.w.cancel(errStopped)
		}
	}
	if len(b.events) == 0 && len(b.after) == 0 {
		b.reset() // every URL was a repeat: the batch is reused
		return
	}
	if n := len(b.after); n > 0 {
		e.w.mu.Lock()
		e.w.pending += n
		e.w.mu.Unlock()
	}
	e.w.out <- b
	e.b = e.w.newBatch()
}

func (e *emitter) url(id int, u *sitemap.URL, line int) {
	if len(e.b.urls) == cap(e.b.urls) {
		if e.b.urls != nil {
			e.flush()
		}
		if e.b.urls == nil {
			e.b.urls = make([]sitemap.URL, 0, batchURLs)
		}
	}
	e.b.urls = append(e.b.urls, *u)
	e.b.events = append(e.b.events, Event{Kind: EventURL, NodeID: id, URL: &e.b.urls[len(e.b.urls)-1], Line: line})
}

// diag reports a diagnostic of the walk's own about n (nil: the walk as
// a whole), through the Reader's Finding when there is one.
func (e *emitter) diag(n *Node, d sitemap.Diagnostic) {
	if r := e.w.opts.Reader; r != nil && n != nil {
		var ok bool
		if d, ok = r.Finding(n, d); !ok {
			return
		}
	}
	e.emit(n, d)
}

// emit reports a diagnostic as it is: the walk's, or one found in a
// document.
func (e *emitter) emit(n *Node, d sitemap.Diagnostic) {
	if len(e.b.diags) == cap(e.b.diags) {
		e.flush()
	}
	id := 0
	if n != nil {
		id = n.ID
		switch d.Severity {
		case sitemap.SeverityError:
			n.Errors++
		case sitemap.SeverityWarning:
			n.Warnings++
		}
		if d.URL == "" && d.File == "" {
			name := n.FinalURL
			if name == "" {
				name = n.URL
			}
			d = placed(name, d)
		}
	}
	e.b.diags = append(e.b.diags, d)
	e.b.events = append(e.b.events, Event{Kind: EventDiagnostic, NodeID: id, Diagnostic: &e.b.diags[len(e.b.diags)-1]})
}

func (e *emitter) node(k EventKind, n *Node) {
	if len(e.b.nodes) == cap(e.b.nodes) {
		e.flush()
	}
	e.b.nodes = append(e.b.nodes, *n)
	e.b.events = append(e.b.events, Event{Kind: k, NodeID: n.ID, Node: &e.b.nodes[len(e.b.nodes)-1]})
}

func (e *emitter) child(j *job) { e.b.after = append(e.b.after, j) }

// capHit reports a cap once, from a worker.
func (e *emitter) capHit(name string, n *Node, msg string) {
	if !e.w.capOnce(name) {
		return
	}
	e.b.events = append(e.b.events, Event{Kind: eventCap, cap: name})
	e.diag(n, sitemap.Diagnostic{Rule: rules.FetchCap, Severity: sitemap.SeverityWarning, Message: msg})
}

// placed places d in the document name: its URL field for an http(s)
// name, else its File field (a local document's path).
func placed(name string, d sitemap.Diagnostic) sitemap.Diagnostic {
	if name == "" || urlnorm.IsHTTP(name) {
		d.URL = name
	} else {
		d.File = name
	}
	return d
}

func errDiag(rule rules.ID, msg string) sitemap.Diagnostic {
	return sitemap.Diagnostic{Rule: rule, Severity: sitemap.SeverityError, Message: msg}
}

// opened is a sitemap or robots.txt being read: the response (counted,
// bounded by the idle and per-document timeouts, copied into the cache
// when it has validators) and its body decoded from Content-Encoding; or
// a document a Getter opened (resp nil, local set). finish must be called
// with whether the body was read to its end.
type opened struct {
	resp   *Response
	r      io.Reader
	note   string
	closer io.Closer
	items  Items        // a Getter's reader of entries that are not a sitemap
	local  *countReader // the body of a document a Getter opened
}

func (o *opened) finish(complete bool) {
	if o.resp == nil {
		_ = o.closer.Close()
		return
	}
	if complete {
		discard(o.r) // the rest of the wire bytes, so a cached copy is whole
	} else if o.resp.entry != nil {
		o.resp.entry.abort()
		o.resp.entry = nil
	}
	if o.closer != nil {
		_ = o.closer.Close()
	}
	_ = o.resp.Close()
}

// bytesRead is how many bytes of the document were read (as sent).
func (o *opened) bytesRead() int64 {
	if o.resp == nil {
		return o.local.n
	}
	return o.resp.BytesRead()
}

// transportErr is why the bytes stopped coming, when it was not the
// document's fault (a network failure, a deadline, the byte cap).
func (o *opened) transportErr() error {
	if o.resp == nil {
		return o.local.err
	}
	return o.resp.Err()
}

// countReader counts the bytes of a document a Getter opened against the
// walk's MaxBytes.
type countReader struct {
	r   io.Reader
	w   *walker
	n   int64
	err error // the byte cap, once reached
}

func (c *countReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if cerr := c.w.count(int64(n)); cerr != nil {
		c.err = cerr
		return n, cerr
	}
	return n, err
}

// openDoc opens a document through the Getter.
func (w *walker) openDoc(ctx context.Context, d *Doc, report func(sitemap.Diagnostic)) (*opened, error) {
	doc, err := w.opts.Getter.Open(ctx, d, report)
	if err != nil {
		return nil, err
	}
	cr := &countReader{r: doc.Body, w: w}
	return &opened{r: cr, closer: doc.Body, items: doc.Items, local: cr}, nil
}

// open fetches u (conditionally when cached) and returns it to read.
//
// index, when set, is the URL of the index that listed u: a redirect to
// another site than index's is refused before it is requested (I-05).
func (w *walker) open(ctx context.Context, u string, probe bool, onRetry func(string), index string) (*opened, error) {
	g := GetOptions{Cache: true, Count: w.count, OnRetry: onRetry, Timeout: w.opts.SitemapTimeout, Site: w.start}
	if probe {
		g.Retry = RetryRateLimited
	} else if w.opts.Revisit != nil {
		g.IfNoneMatch, g.IfModifiedSince = w.opts.Revisit.Validators(u)
	}
	if index != "" {
		g.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
			if !urlnorm.SameSite(index, req.URL.String()) {
				return errors.New("redirected to " + req.URL.Redacted() + ", another site than the index (I-05); not followed")
			}
			return nil
		}
	}
	resp, err := w.client.Get(ctx, u, g)
	if he := (*Error)(nil); err == nil || errors.As(err, &he) && he.Status > 0 {
		w.answered.Store(true)
	}
	if err != nil {
		return nil, err
	}
	o := &opened{resp: resp}
	r, note, err := resp.Decoded()
	if err != nil {
		o.finish(false)
		return nil, err
	}
	if c, ok := r.(io.Closer); ok {
		o.closer = c
	}
	o.r, o.note = r, note
	return o, nil
}

// formatName maps the decoder's format to the names Node.Format uses.
func isSitemapFormat(f string) bool {
	switch f {
	case "urlset", "sitemapindex", "text", "rss", "atom":
		return true
	}
	return false
}

// probeFailed notes a probe that failed for another reason than "not
// found" (network, 429, 5xx, 401/403, redirects), so FETCH-NONE can say that
// the site may well have sitemaps the walk could not reach.
func (w *walker) probeFailed(u string, err error) {
	if w.stopping() || KindOf(err) == KindNotFound {
		return
	}
	path := u
	if p, perr := url.Parse(u); perr == nil {
		path = p.Path
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.probeFails++
	if w.probeFail == "" {
		w.probeFail = path + ": " + err.Error()
	}
}

func (w *walker) nextProbe(j *job) *job {
	return &job{kind: NodeSitemap, url: j.probeNext[0], probeNext: j.probeNext[1:], parent: j.parent, depth: 1, probe: true}
}

// failed records why a node could not be read (unless the walk as a whole
// is stopping, which is not the sitemap's fault).
func (w *walker) failed(e *emitter, n *Node, ctx context.Context, err error) {
	if errors.Is(err, errBytesCap) || (w.stopping() && !errors.Is(context.Cause(w.ctx), errTimeCap)) {
		if errors.Is(err, errBytesCap) {
			e.capHit("bytes", n, "stopped after "+strconv.FormatInt(w.opts.MaxBytes, 10)+" bytes transferred (--max-bytes)")
		}
		n.Err = "not finished: the walk stopped"
		return
	}
	if w.stopping() {
		n.Err = "not finished: the walk's time ran out"
		return
	}
	n.Failed, n.Cause = true, err
	var he *Error
	var de *sitemap.DecodeError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) && !errors.As(err, &he):
		// The sitemap's own deadline; a try that timed out (--timeout)
		// is an *Error that says so.
		n.Err = "not read within " + w.opts.SitemapTimeout.String() + " (per-sitemap deadline)"
		e.diag(n, errDiag(rules.FetchHTTP, n.Err))
	case errors.As(err, &he):
		n.Status = he.Status
		n.Err = he.Msg
		rule := rules.FetchHTTP
		switch he.Kind {
		case KindBlocked:
			rule = rules.FetchBlocked
		case KindScope:
			rule = rules.FetchScope
		}
		e.diag(n, errDiag(rule, he.Msg))
	case errors.As(err, &de):
		// Already reported by the decoder, with its rule ID and position:
		// its message alone says why.
		n.Err = de.Diagnostic.Message
	case errors.Is(err, io.ErrUnexpectedEOF):
		n.Err = "the connection closed before the end of the body"
		e.diag(n, errDiag(rules.FetchHTTP, n.Err+" (entries before this point were kept)"))
	default:
		n.Err = err.Error()
		e.diag(n, errDiag(rules.FetchRead, "could not read to the end: "+err.Error()+" (entries before this point were kept)"))
	}
}

// reportSeen reports a sitemap that was read before: a loop when it is an
// ancestor of the listing document (or the document itself), a repeat
// otherwise. via is the listed URL when it redirected to u.
func (w *walker) reportSeen(e *emitter, j *job, u string, prev int, via string) {
	loop := u == j.parentKey
	for _, a := range j.ancestors {
		if a == u {
			loop = true
		}
	}
	lister := j.parentURL
	if lister == "" {
		lister = "the start"
	}
	what := j.url
	if j.loc != "" {
		what = j.loc
	}
	if via != "" {
		what = via + ", which redirects to " + u + ","
	}
	// The diagnostic goes on the listing node, which is the one whose
	// content is wrong, at the entry that lists u.
	ln := &Node{ID: j.parent, URL: j.parentURL, FinalURL: j.parentURL}
	at := func(d sitemap.Diagnostic) sitemap.Diagnostic {
		d.Line, d.Col = j.line, j.col
		return placed(j.parentURL, d)
	}
	if loop {
		name := u
		if j.doc != nil {
			name = j.url // a document's name, not its key
		}
		msg := lister + " lists " + what + " above it in the tree: a loop between " + lister + " and " + name + "; read once"
		if u == j.parentKey {
			msg = lister + " lists itself; read once"
			if via != "" {
				msg = lister + " lists " + via + ", which redirects back to it; read once"
			}
		}
		e.diag(ln, at(sitemap.Diagnostic{Rule: rules.FetchLoop, Severity: sitemap.SeverityWarning, Message: msg}))
		return
	}
	if via == "" {
		what += ","
	}
	first := w.listedBy(prev)
	e.diag(ln, at(sitemap.Diagnostic{Rule: rules.FetchDup, Severity: sitemap.SeverityInfo,
		Message: lister + " lists " + what + " already read (first listed by " + first + "); read once"}))
}

func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.ToLower(p.Host)
}

func (w *walker) runRobots(j *job, e *emitter) {
	n := &Node{ID: w.id(), Parent: j.parent, Kind: NodeRobots, URL: j.url, Format: "robots"}
	w.claim(j.url, n.ID, "")
	t0 := time.Now()
	e.node(EventNodeStart, n)
	ctx, cancel := context.WithTimeout(w.ctx, w.opts.SitemapTimeout)
	defer cancel()
	var found []string
	o, err := w.open(ctx, j.url, false, func(msg string) {
		e.diag(n, sitemap.Diagnostic{Rule: rules.FetchHTTP, Severity: sitemap.SeverityInfo, Message: msg})
	}, "")
	var he *Error
	switch {
	case err != nil && w.stopping():
		n.Err = "not finished: the walk stopped"
	case errors.As(err, &he) && he.Status >= 400 && he.Status < 500:
		// 4xx: no robots.txt, so no Sitemap lines; discovery goes on.
		n.Status, n.Err = he.Status, he.Msg
		e.diag(n, sitemap.Diagnostic{Rule: rules.FetchRobots, Severity: sitemap.SeverityInfo, Message: "no robots.txt (" + he.Msg + "); no Sitemap lines"})
	case he != nil && he.Kind == KindScope:
		n.Err = he.Msg
		e.diag(n, errDiag(rules.FetchScope, "robots.txt not read: "+he.Msg))
		w.mu.Lock()
		w.robotsNetErr = err // not requested: no answer, as for a network failure
		w.mu.Unlock()
	case err != nil:
		// 5xx or network: unreachable; discovery goes on.
		n.Err = err.Error()
		if he != nil {
			n.Status = he.Status
		}
		if KindOf(err) == KindNetwork {
			w.mu.Lock()
			w.robotsNetErr = err
			w.mu.Unlock()
		}
		e.diag(n, sitemap.Diagnostic{Rule: rules.FetchRobots, Severity: sitemap.SeverityWarning, Message: "robots.txt unreachable (" + err.Error() + "); going on without it"})
	default:
		found = readRobots(n, e, o)
	}
	n.Elapsed = time.Since(t0)
	e.node(EventNodeEnd, n)
	from := n.FinalURL
	if from == "" {
		from = n.URL
	}
	for i, s := range found {
		e.child(&job{kind: NodeSitemap, url: s, parent: n.ID, parentURL: from, depth: 1, seq: i + 1})
	}
	if w.stopping() {
		return
	}
	if w.opts.KnownPaths == KnownPathsAlways || (w.opts.KnownPaths == KnownPathsFallback && len(found) == 0) {
		probeKnownPaths(j, n, e)
	}
}

// readRobots reads the robots.txt o opened for n to its end, closes o
// (kept in the cache only if read whole), reports the file's warnings
// and returns its Sitemap lines, resolved against n.FinalURL. A body
// that breaks off is a warning on n and no Sitemap lines; a file
// without Sitemap lines returns none.
func readRobots(n *Node, e *emitter, o *opened) []string {
	var found []string
	n.Status = o.resp.Status
	n.FinalURL = o.resp.FinalURL
	f, rerr := robots.Parse(o.r)
	n.Bytes = o.resp.BytesRead()
	o.finish(rerr == nil)
	if rerr != nil {
		n.Err = rerr.Error()
		e.diag(n, sitemap.Diagnostic{Rule: rules.FetchRobots, Severity: sitemap.SeverityWarning, Message: "robots.txt could not be read to its end: " + rerr.Error()})
		return found
	}
	for _, wn := range f.Warnings() {
		wn.URL = n.FinalURL
		e.diag(n, wn)
	}
	base, _ := url.Parse(n.FinalURL)
	var warns []robots.Warning
	found, warns = f.Sitemaps(base)
	for _, wn := range warns {
		wn.URL = n.FinalURL
		e.diag(n, wn)
	}
	n.Sitemaps = len(found)
	return found
}

// probeKnownPaths queues the probes of j's origin: the general paths as
// one chain (each tried only if the one before is missing) and each
// news path on its own, all under j.probeParent, else under the
// robots.txt node n.
func probeKnownPaths(j *job, n *Node, e *emitter) {
	parent := j.probeParent
	if parent == 0 {
		parent = n.ID
	}
	general := make([]string, len(probePaths))
	for i, p := range probePaths {
		general[i] = j.origin + p
	}
	e.child(&job{kind: NodeSitemap, url: general[0], probeNext: general[1:], parent: parent, depth: 1, probe: true})
	for _, p := range newsPaths {
		e.child(&job{kind: NodeSitemap, url: j.origin + p, parent: parent, depth: 1, probe: true})
	}
}
