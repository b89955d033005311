package fetch

import (
	"context"
	"io"
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

	req   string // the URL requested, without its fragment
	final string // the URL that answered, after redirects
	o     *opened

	// A probe's diagnostics wait in held until it proves to be a sitemap.
	sniffing bool
	held     []sitemap.Diagnostic

	children []*job // the sitemaps an index lists, queued at the end
	dups     int64  // URLs dropped as seen before
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
	n := &Node{Parent: j.parent, Kind: NodeSitemap, URL: j.url, Depth: j.depth, Probe: j.probe, Seq: j.seq}
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
	r.final = stripFragment(o.resp.FinalURL)
	n.FinalURL = r.final
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

// report takes a diagnostic of the decoder.
func (r *sitemapRead) report(d sitemap.Diagnostic) {
	if d.URL == "" && d.File == r.final {
		d.File = ""
	}
	if d.URL == "" && d.File == "" {
		d.URL = r.final
	}
	if d.Severity == sitemap.SeverityError && r.o.resp.Err() != nil {
		// The decoder's "cannot read further" after a transport failure
		// (idle timeout, deadline, cut connection, byte cap): failed()
		// reports the cause instead.
		return
	}
	if r.sniffing {
		r.held = append(r.held, d)
		return
	}
	r.e.diag(r.n, d)
}

// decode reads the body to its end (or its first failure), then ends the
// node and queues the children.
func (r *sitemapRead) decode() {
	w, n, o := r.w, r.n, r.o
	defer func() {
		w.entries.Add(int64(n.URLs))
		w.dups.Add(r.dups)
	}()
	dec := openDoc(o.r, docOptions{Name: r.final, MaxBytes: w.opts.MaxSitemapBytes, MaxErrors: w.opts.MaxErrors, Context: r.ctx, OnDiagnostic: r.report})
	it, err := dec.Next()
	if !r.first(dec, err) {
		return
	}
	if w.opts.Discover {
		// A probe that proved to be a sitemap: found, read no further.
		n.Bytes = o.resp.BytesRead()
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
			if o.resp.Err() != nil {
				err = o.resp.Err()
			}
			w.failed(r.e, n, r.ctx, err)
			break
		}
		r.item(&it)
		it, err = dec.Next()
	}
	n.Bytes = o.resp.BytesRead()
	o.finish(complete)
	r.end()
	for _, c := range r.children {
		r.e.child(c)
	}
}

// first handles what the first item says about the document: a probe
// that is no sitemap ends here (false); otherwise the node starts (a
// probe's held diagnostics with it) and the notes about how it was served
// are reported.
func (r *sitemapRead) first(dec *docReader, err error) bool {
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
			e.diag(n, d)
		}
	}
	n.Format = dec.Format()
	if o.note != "" {
		e.diag(n, sitemap.Diagnostic{Rule: rules.FetchHTTP, Severity: sitemap.SeverityWarning, Message: o.note})
	}
	if hit && strings.HasPrefix(strings.ToLower(o.resp.ContentType), "text/html") {
		e.diag(n, sitemap.Diagnostic{Rule: rules.FetchType, Severity: sitemap.SeverityInfo,
			Message: "served as " + o.resp.ContentType + "; a sitemap should be application/xml, text/xml, text/plain or gzip (read anyway)"})
	}
	if n.Format == "sitemapindex" && j.parentIsIndex {
		e.diag(n, sitemap.Diagnostic{Rule: rules.I07, Severity: sitemap.SeverityWarning,
			Message: "sitemap index listed by the index " + j.parentURL + "; indexes must not be nested (I-07); followed anyway"})
	}
	return true
}

// item hands out a URL entry (once, unless NoDedup) or notes a sitemap an
// index lists.
func (r *sitemapRead) item(it *docItem) {
	w, e, n := r.w, r.e, r.n
	switch it.Kind {
	case itemURL:
		n.URLs++
		if w.seen != nil {
			isNew, err := w.seen.add(it.URL.Loc)
			if err != nil {
				w.dedupErr.CompareAndSwap(nil, &err)
				w.cancel(errStopped)
				return
			}
			if !isNew {
				r.dups++
				return
			}
		}
		it.URL.Source = r.final
		e.url(n.ID, &it.URL)
	case itemIndex:
		n.Sitemaps++
		if sch := otherScheme(it.Index.Loc); sch != "" {
			// Not a relative URL to resolve, nor anything to request.
			e.diag(n, sitemap.Diagnostic{Rule: rules.L16, Severity: sitemap.SeverityError, Line: it.Line, Col: it.Col,
				Message: "index lists " + strconv.Quote(it.Index.Loc) + ", a " + sch + ": URL, not an http(s) URL; not followed"})
			return
		}
		loc, abs := resolve(r.final, it.Index.Loc)
		if loc == "" {
			return // the decoder reported the bad loc
		}
		if !abs {
			e.diag(n, sitemap.Diagnostic{Rule: rules.L01, Severity: sitemap.SeverityWarning,
				Message: "index lists the relative URL " + strconv.Quote(it.Index.Loc) + "; resolved to " + loc})
		}
		if n.Format == "sitemapindex" && !urlnorm.SameSite(r.final, loc) {
			// I-05: an index lists sitemaps of its own site only.
			off := sitemap.Diagnostic{Rule: rules.I05, Severity: sitemap.SeverityError, Line: it.Line, Col: it.Col,
				Message: check.OffSite(loc, r.final, w.client.OffSiteHint(loc, w.start, w.opts.AllowOffSite))}
			if w.opts.AllowOffSite {
				off.Severity = sitemap.SeverityWarning
			}
			e.diag(n, off)
			if !w.opts.AllowOffSite {
				return
			}
		}
		if r.j.depth+1 > w.opts.MaxDepth {
			e.capHit("depth", n, "not following "+loc+": deeper than "+strconv.Itoa(w.opts.MaxDepth)+" levels (--max-depth); further ones skipped silently")
			return
		}
		r.children = append(r.children, &job{kind: NodeSitemap, url: loc, parent: n.ID, parentURL: r.final,
			ancestors: append(slices.Clone(r.j.ancestors), r.final), depth: r.j.depth + 1,
			parentIsIndex: n.Format == "sitemapindex", seq: n.Sitemaps})
	}
}
