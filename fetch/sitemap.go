package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// sitemapRead is one sitemap being read by a worker: its job and node,
// the response, and what the decode loop gathers.
type sitemapRead struct {
	w   *walker
	j   *job
	e   *emitter
	n   *Node
	ctx context.Context // the sitemap's: SitemapTimeout
	t0  time.Time

	req   string // the URL requested, without its fragment (a Doc: its Key)
	final string // the URL that answered, after redirects (a Doc: its Name)
	base  string // the URL the document is served at ("" unknown)
	site  string // the site its children must be on (I-05; "" not known yet)
	o     *opened

	// A probe's diagnostics wait in held until it proves to be a sitemap.
	sniffing bool
	held     []sitemap.Diagnostic

	children []*job // the sitemaps an index lists, queued at the end
	kept     int    // children within MaxChildren
	skipped  int    // children past it
}

// runSitemap reads one sitemap job: claims its URL (so it is read once),
// fetches it within SitemapTimeout and PerHost, decodes it, hands out its
// URLs and queues the sitemaps it lists. A probe becomes a node only once
// its body proves to be a sitemap.
func (w *walker) runSitemap(j *job, e *emitter) {
	n, req, ok := w.claimSitemap(j, e)
	if !ok {
		return
	}
	if w.opts.Discover && !j.probe {
		// Named (by robots.txt, or the start itself): found, not read.
		e.node(EventNodeStart, n)
		e.node(EventNodeEnd, n)
		return
	}
	sem := w.hostSem(hostOf(req))
	select {
	case sem <- struct{}{}:
	case <-w.ctx.Done():
		return
	}
	defer func() { <-sem }()

	ctx, cancel := context.WithTimeout(w.ctx, w.opts.SitemapTimeout)
	defer cancel()
	r := &sitemapRead{w: w, j: j, e: e, n: n, ctx: ctx, t0: time.Now(), req: req, sniffing: j.probe}
	if !j.probe {
		e.node(EventNodeStart, n)
	}
	if !r.fetch() {
		return
	}
	r.decode()
}

// claimSitemap counts the job against MaxSitemaps and claims its URL; it
// returns the node to fill and the URL to request, or false when the job
// is over (a cap, a URL read before, a probe of a URL already known).
func (w *walker) claimSitemap(j *job, e *emitter) (*Node, string, bool) {
	w.mu.Lock()
	over := w.started >= w.opts.MaxSitemaps
	if !over {
		w.started++
	}
	w.mu.Unlock()
	if over {
		e.capHit("sitemaps", nil, "stopped requesting sitemaps after "+strconv.Itoa(w.opts.MaxSitemaps)+" (--max-sitemaps); "+j.url+" and later ones were not read")
		return nil, "", false
	}
	req := stripFragment(j.url)
	if j.doc != nil {
		req = j.doc.Key
		if req == "" {
			req = "\x00" + j.url // standard input: never the same document twice
		}
	}
	n := &Node{Parent: j.parent, Kind: NodeSitemap, URL: j.url, Depth: j.depth, Probe: j.probe, Seq: j.seq}
	if j.doc != nil {
		n.Served = j.doc.URL
	}
	if j.probe {
		// A probe claims its URL only once it proves to be a sitemap, so
		// a miss never hides a sitemap that robots.txt names.
		n.ID = -1 // assigned on a hit
		if w.isVisited(req) {
			w.probeOn(j, e)
			return nil, "", false
		}
		return n, req, true
	}
	n.ID = w.id()
	if prev, seen := w.claim(req, n.ID, j.parentURL); seen {
		w.reportSeen(e, j, req, prev, "")
		return nil, "", false
	}
	return n, req, true
}

// probeOn queues the next general probe after j, if any.
func (w *walker) probeOn(j *job, e *emitter) {
	if len(j.probeNext) > 0 {
		e.child(w.nextProbe(j))
	}
}

// end reports the node's end.
func (r *sitemapRead) end() {
	r.n.Elapsed = time.Since(r.t0)
	r.e.node(EventNodeEnd, r.n)
}

// fetch requests the sitemap; false when there is nothing to decode (a
// failure, already reported, or a redirect to a sitemap read before).
func (r *sitemapRead) fetch() bool {
	w, j, e, n := r.w, r.j, r.e, r.n
	if j.doc != nil {
		return r.open()
	}
	var onRetry func(string)
	if !j.probe {
		onRetry = func(msg string) {
			e.diag(n, sitemap.Diagnostic{Rule: rules.FetchHTTP, Severity: sitemap.SeverityInfo, Message: msg})
		}
	}
	index := ""
	if j.parentIsIndex && !w.opts.AllowOffSite {
		index = j.parentURL
	}
	o, err := w.open(r.ctx, r.req, j.probe, onRetry, index)
	if err != nil {
		if j.probe {
			w.probeFailed(r.req, err)
			if !w.stopping() {
				w.probeOn(j, e)
			}
			return false
		}
		w.failed(e, n, r.ctx, err)
		if j.parent == 0 && n.Failed {
			w.mu.Lock()
			w.startErr = err
			w.mu.Unlock()
		}
		r.end()
		return false
	}
	r.o = o
	n.Status, n.Cached = o.resp.Status, o.resp.Cached
	n.ETag, n.LastModified = o.resp.ETag, o.resp.LastModified
	r.final = stripFragment(o.resp.FinalURL)
	r.base, r.site = r.final, r.final
	n.FinalURL = r.final
	if o.resp.Status == http.StatusNotModified && !o.resp.Cached {
		// Options.Revisit's validators still hold: nothing to read.
		n.NotModified = true
		o.finish(false)
		if r.final != r.req {
			w.claim(r.final, n.ID, j.parentURL)
		}
		r.end()
		return false
	}
	if r.final == r.req {
		return true
	}
	if j.probe {
		if w.isVisited(r.final) {
			o.finish(false)
			w.probeOn(j, e)
			return false
		}
		return true
	}
	if prev, seen := w.claim(r.final, n.ID, j.parentURL); seen {
		o.finish(false)
		w.reportSeen(e, j, r.final, prev, r.req)
		n.Err = "redirects to " + r.final + ", already read"
		r.end()
		return false
	}
	return true
}

// open opens a document through the Getter; false when there is nothing
// to decode (a failure, reported).
func (r *sitemapRead) open() bool {
	w, j, e, n := r.w, r.j, r.e, r.n
	r.final, r.base, r.site = j.doc.Name, j.doc.URL, j.doc.URL
	n.FinalURL = r.final
	o, err := w.openDoc(r.ctx, j.doc, r.report)
	if err != nil {
		switch {
		case w.stopping():
			n.Err = "not finished: the walk stopped"
		case j.parent == 0:
			// A named input that cannot be read: the caller's to say
			// (Summary.StartErr), once.
			n.Failed, n.Err, n.Cause = true, err.Error(), err
			w.mu.Lock()
			if w.startErr == nil {
				w.startErr = err
			}
			w.mu.Unlock()
		default:
			n.Failed, n.Err, n.Cause = true, err.Error(), err
			e.diag(n, errDiag(rules.VAL01, err.Error()))
		}
		r.end()
		return false
	}
	r.o = o
	return true
}

// report takes a diagnostic of the decoder.
func (r *sitemapRead) report(d sitemap.Diagnostic) {
	if d.URL == "" && d.File == "" {
		d = placed(r.final, d)
	}
	if d.Severity == sitemap.SeverityError && r.o != nil && r.o.transportErr() != nil {
		// The decoder's "cannot read further" after a transport failure
		// (idle timeout, deadline, cut connection, byte cap): failed()
		// reports the cause instead.
		return
	}
	if r.sniffing {
		r.held = append(r.held, d)
		return
	}
	r.e.emit(r.n, d)
}

// decode reads the body to its end (or its first failure), then ends the
// node and queues the children.
func (r *sitemapRead) decode() {
	w, n, o := r.w, r.n, r.o
	defer func() {
		w.entries.Add(int64(n.URLs))
	}()
	var dec Items = o.items
	if dec == nil && w.opts.Reader != nil {
		dec = w.opts.Reader.Read(r.ctx, n, r.j.doc, r.base, o.r, r.report)
	}
	if dec == nil {
		dec = &decoded{d: sitemap.NewDecoder(o.r, sitemap.DecoderOptions{Name: r.final, BaseURL: r.base,
			MaxBytes: w.opts.MaxSitemapBytes, MaxErrors: w.opts.MaxErrors, Context: r.ctx, OnDiagnostic: r.report})}
	}
	it, err := dec.Next()
	if !r.first(dec, err) {
		return
	}
	if w.opts.Discover {
		// A probe that proved to be a sitemap: found, read no further.
		n.Bytes = o.bytesRead()
		o.finish(false)
		r.end()
		return
	}
	complete := false
	for {
		if err == io.EOF {
			complete = true
			break
		}
		if err != nil {
			if o.transportErr() != nil {
				err = o.transportErr()
			}
			w.failed(r.e, n, r.ctx, err)
			break
		}
		r.item(it)
		it, err = dec.Next()
	}
	n.Bytes = o.bytesRead()
	o.finish(complete)
	if r.skipped > 0 {
		r.e.diag(n, sitemap.Diagnostic{Rule: rules.VAL02, Severity: sitemap.SeverityWarning,
			Message: "the index lists " + strconv.Itoa(r.kept+r.skipped) + " sitemaps; only the first " + strconv.Itoa(r.kept) + " were read (raise --max-children)"})
	}
	r.end()
	for _, c := range r.children {
		r.e.child(c)
	}
}

// decoded is the sitemap decoder as Items: the entry is read into the
// one Item the walk hands on in place.
type decoded struct {
	d  *sitemap.Decoder
	it sitemap.Item
}

func (d *decoded) Next() (*sitemap.Item, error) {
	var err error
	d.it, err = d.d.Next()
	return &d.it, err
}

// Format names the decoder's format ("urlset", "sitemapindex", "text",
// "rss", "atom", "html", or "" when unknown).
func (d *decoded) Format() string {
	f := d.d.Format()
	if f == sitemap.FormatUnknown {
		return ""
	}
	return f.String()
}

// first handles what the first item says about the document: a probe
// that is no sitemap ends here (false); otherwise the node starts (a
// probe's held diagnostics with it) and the notes about how it was served
// are reported.
func (r *sitemapRead) first(dec Items, err error) bool {
	w, j, e, n, o := r.w, r.j, r.e, r.n, r.o
	hit := err == nil || (err == io.EOF && isSitemapFormat(dec.Format()))
	if j.probe {
		if !hit {
			o.finish(false)
			if !w.stopping() {
				w.probeOn(j, e)
			}
			return false
		}
		if !w.claimProbe(r.req, r.final, &n.ID) {
			// Read meanwhile through another path.
			o.finish(false)
			return false
		}
		e.node(EventNodeStart, n)
		r.sniffing = false
		for _, d := range r.held {
			e.emit(n, d)
		}
	}
	n.Format = dec.Format()
	if n.Format == "sitemapindex" && j.parentIsIndex {
		e.diag(n, sitemap.Diagnostic{Rule: rules.I07, Severity: sitemap.SeverityWarning,
			Message: "sitemap index listed by the index " + j.parentURL + "; indexes must not be nested (I-07); followed anyway"})
	}
	if o.resp == nil {
		return true // not served over HTTP: no notes about how
	}
	if o.note != "" {
		e.diag(n, sitemap.Diagnostic{Rule: rules.FetchHTTP, Severity: sitemap.SeverityWarning, Message: o.note})
	}
	if hit && strings.HasPrefix(strings.ToLower(o.resp.ContentType), "text/html") {
		e.diag(n, sitemap.Diagnostic{Rule: rules.FetchType, Severity: sitemap.SeverityInfo,
			Message: "served as " + o.resp.ContentType + "; a sitemap should be application/xml, text/xml, text/plain or gzip (read anyway)"})
	}
	return true
}

// item hands out a URL entry (once, unless NoDedup) or notes a sitemap an
// index lists.
func (r *sitemapRead) item(it *sitemap.Item) {
	e, n := r.e, r.n
	switch it.Kind {
	case sitemap.ItemURL:
		n.URLs++
		// A repeat is dropped when the batch is sent (dedupSet.drop).
		if it.URL.Source == "" || r.o.items == nil {
			it.URL.Source = r.final
		}
		e.url(n.ID, &it.URL, it.Line)
	case sitemap.ItemIndex:
		n.Sitemaps++
		r.child(it)
	}
}

// child queues the sitemap an index entry lists, or reports why not: the
// one rule for every walk, local or over HTTP (L-16, L-01, I-05, the
// depth cap, the Getter's mapping of a local index's children).
func (r *sitemapRead) child(it *sitemap.Item) {
	w, e, n := r.w, r.e, r.n
	line, col := it.LocPos()
	here := func(d sitemap.Diagnostic) {
		d.Line, d.Col = line, col
		e.diag(n, d)
	}
	if sch := otherScheme(it.Index.Loc); sch != "" {
		// Not a relative URL to resolve, nor anything to request.
		here(errDiag(rules.L16, "index lists "+strconv.Quote(it.Index.Loc)+", a "+sch+": URL, not an http(s) URL; not followed"))
		return
	}
	// The item's strings may be views of a reader's buffer (validate's
	// Reader reuses it): loc is kept beyond this entry (the child's job,
	// the site of an index whose URL is unknown), so it is copied.
	loc := strings.Clone(it.Index.Loc)
	if r.base != "" {
		var abs bool
		if loc, abs = resolve(r.base, it.Index.Loc); loc == "" {
			return // the decoder reported the bad loc
		}
		if !abs {
			e.diag(n, sitemap.Diagnostic{Rule: rules.L01, Severity: sitemap.SeverityWarning,
				Message: "index lists the relative URL " + strconv.Quote(it.Index.Loc) + "; resolved to " + loc})
		}
	}
	if !r.onSite(loc, here) {
		return
	}
	if r.j.depth+1 > w.opts.MaxDepth {
		e.capHit("depth", n, "not following "+loc+": deeper than "+strconv.Itoa(w.opts.MaxDepth)+" levels (--max-depth); further ones skipped silently")
		return
	}
	if limit := w.opts.MaxChildren; limit != 0 && r.kept >= max(limit, 0) {
		r.skipped++ // VAL-02 at the end says how many
		return
	}
	r.kept++
	if w.opts.Revisit != nil && r.j.doc == nil && w.opts.Revisit.Skip(r.final, loc, it.Index.LastMod) {
		return // as the caller recorded it
	}
	key := r.final // a loop is a child that is (or redirects to) what answered above
	if r.j.doc != nil {
		key = r.req
	}
	c := &job{kind: NodeSitemap, url: loc, parent: n.ID, parentURL: r.final, parentKey: key,
		ancestors: append(slices.Clone(r.j.ancestors), key), depth: r.j.depth + 1,
		parentIsIndex: n.Format == "sitemapindex", seq: n.Sitemaps, line: line, col: col}
	if r.j.doc != nil && r.j.doc.Ref != nil {
		// A local index: its Getter says which document loc stands for.
		d, err := w.opts.Getter.Child(r.j.doc, loc)
		if errors.Is(err, ErrSkip) {
			return
		}
		if err != nil {
			here(errDiag(rules.VAL01, "child sitemap "+strconv.Quote(loc)+" not read: "+err.Error()))
			return
		}
		if d.Ref != nil {
			c.url, c.doc, c.loc = d.Name, &d, loc
		} else if d.URL != "" {
			c.url = d.URL
		}
	}
	r.children = append(r.children, c)
}

// onSite applies I-05 to loc, a child the index lists: an index lists
// sitemaps of its own site only. A local index whose URL is unknown takes
// the site of its first child, so a second site among its children is
// found with or without --base. An off-site child is reported (an error,
// or with AllowOffSite a warning) and followed only with AllowOffSite.
func (r *sitemapRead) onSite(loc string, here func(sitemap.Diagnostic)) bool {
	w := r.w
	if r.n.Format != "sitemapindex" {
		return true
	}
	if r.site == "" {
		if r.j.doc == nil || r.j.doc.Ref == nil || r.j.doc.Key == "" {
			return true // standard input: its Getter says why nothing is read
		}
		r.site = loc
		return true
	}
	if urlnorm.SameSite(r.site, loc) {
		return true
	}
	anchor := w.start
	if !urlnorm.IsHTTP(anchor) {
		anchor = r.site
	}
	hint := w.client.OffSiteHint(loc, anchor, w.opts.AllowOffSite)
	msg := check.OffSite(loc, r.site, hint)
	if r.site != r.base {
		msg = check.OffSiteInferred(loc, r.site, hint)
	}
	off := errDiag(rules.I05, msg)
	if w.opts.AllowOffSite {
		off.Severity = sitemap.SeverityWarning
	}
	here(off)
	return w.opts.AllowOffSite
}
