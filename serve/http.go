package serve

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/robots"
	"github.com/sitemapkit/sitemap/xsl"
)

// The Content-Types the handler sends.
const (
	typeXML  = "application/xml; charset=utf-8"
	typeGzip = "application/gzip"
	typeXSL  = "text/xsl; charset=utf-8"
	typeText = "text/plain; charset=utf-8"
	typeHTML = "text/html; charset=utf-8"
)

// ServeHTTP answers GET and HEAD for the handler's names (the last segment
// of the path, so the handler can be mounted under any prefix): the index,
// the pages, the stylesheet and robots.txt when enabled. Anything else is
// 404; a page number past the last page is 404 too, and so is the index
// while the source has no entries (an index of no sitemap is invalid,
// I-08). Other methods get 405.
//
// A document is sent as application/xml; charset=utf-8, gzip-encoded when
// the request accepts gzip (Vary: Accept-Encoding); a .xml.gz name is a
// gzip file (application/gzip, no Content-Encoding). Every answer has a
// strong ETag (one per encoding) and Last-Modified (the newest lastmod of
// the page, or of every page for the index; absent when no entry has one),
// and a matching If-None-Match (or, without one, If-Modified-Since) gets
// 304 without reading an entry. An error of the source before the first
// byte is a 503 with the error; after it, the connection is cut so the
// client sees a truncated response, never a short document that looks
// whole.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: use GET or HEAD", http.StatusMethodNotAllowed)
		return
	}
	seg := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	switch {
	case h.o.XSL && seg == h.o.Name+".xsl":
		h.static(w, r, typeXSL, xsl.Default())
		return
	case h.o.Robots && seg == "robots.txt":
		b, _, err := robots.AddSitemap(h.o.RobotsTxt, h.baseFor(r).String()+h.o.Name+".xml")
		if err != nil {
			http.Error(w, "robots.txt: "+err.Error(), http.StatusInternalServerError)
			return
		}
		h.static(w, r, typeText, b)
		return
	}
	id, gz, ok := h.name(seg)
	if !ok {
		http.NotFound(w, r)
		return
	}
	s, err := h.current(r.Context())
	if err != nil {
		h.stats.errors.Add(1)
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	if id == 0 && !s.listsPages() {
		// An index of no sitemap is invalid (I-08), and so would be a
		// urlset of no URL: there is no sitemap until there are entries.
		http.Error(w, "no sitemap yet: the source has no entries (an index must list at least one sitemap, I-08)", http.StatusNotFound)
		return
	}
	var p *page
	etag, lastmod := s.etag, s.lastmod
	if id > 0 {
		if p = s.byID[id]; p == nil || p.count == 0 {
			http.NotFound(w, r)
			return
		}
		etag, lastmod = p.etag, p.lastmod
	}
	base := h.baseFor(r)
	html := !gz && h.o.HTML != nil && wantsHTML(r)
	hd := w.Header()
	vary := "Accept-Encoding"
	if h.o.HTML != nil && !gz {
		vary += ", Accept, Sec-Fetch-Dest"
	}
	hd.Set("Vary", vary)
	encode := ""
	switch {
	case html:
		hd.Set("Content-Type", typeHTML)
		etag = etag[:len(etag)-1] + `-html"`
	case gz:
		hd.Set("Content-Type", typeGzip)
		etag = etag[:len(etag)-1] + `-gz"`
	default:
		hd.Set("Content-Type", typeXML)
		if acceptsGzip(r) {
			encode = "gzip"
			hd.Set("Content-Encoding", "gzip")
			etag = etag[:len(etag)-1] + `-gzip"`
		}
	}
	hd.Set("ETag", etag)
	if !lastmod.IsZero() {
		hd.Set("Last-Modified", lastmod.Time.UTC().Format(http.TimeFormat))
	}
	if h.o.CacheControl != "-" {
		hd.Set("Cache-Control", h.o.CacheControl)
	}
	hd.Set("X-Content-Type-Options", "nosniff")
	if notModified(r, etag, lastmod) {
		hd.Del("Content-Encoding")
		w.WriteHeader(http.StatusNotModified)
		h.stats.notModified.Add(1)
		h.stats.observe304(time.Since(start))
		return
	}
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	if p != nil && !html && h.serveCached(w, r, etag) {
		return
	}
	if !h.acquire(r.Context()) {
		return
	}
	defer h.release()
	cw := &countWriter{w: w}
	var cache *cacheWriter
	if p != nil && !html && h.cache != nil {
		if cache = h.cache.start(etag, p.etag); cache != nil {
			cw.w = io.MultiWriter(w, cache)
		}
	}
	var out io.Writer = cw
	var zw *gzip.Writer
	if gz || encode == "gzip" {
		zw, _ = gzip.NewWriterLevel(cw, gzip.BestSpeed)
		out = zw
	}
	switch {
	case html:
		err = h.o.HTML(r.Context(), out, h.document(s, p, base))
	case p == nil:
		err = h.writeIndex(out, s, base)
	default:
		// A compressed form is made from the cached plain page when there
		// is one.
		var plain *os.File
		if zw != nil && h.cache != nil {
			plain, _ = h.cache.open(p.etag)
		}
		if plain != nil {
			_, err = io.Copy(out, plain)
			plain.Close()
		} else {
			_, err = h.writePage(r.Context(), out, p, base)
		}
	}
	if err == nil && zw != nil {
		err = zw.Close()
	}
	h.stats.bytes.Add(cw.n)
	if cache != nil {
		if err == nil {
			cache.commit()
		} else {
			cache.abort()
		}
	}
	if err != nil {
		h.stats.errors.Add(1)
		if cw.n == 0 && !cw.wrote {
			hd.Del("Content-Encoding")
			hd.Del("ETag")
			hd.Del("Last-Modified")
			http.Error(w, "serve: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		panic(http.ErrAbortHandler)
	}
	if p == nil {
		h.stats.indexes.Add(1)
	} else {
		h.stats.pages.Add(1)
		h.stats.observeBuild(time.Since(start))
	}
}

// static answers with a small fixed body, with an ETag of its content.
func (h *Handler) static(w http.ResponseWriter, r *http.Request, ctype string, body []byte) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("ETag", contentETag(body))
	if h.o.CacheControl != "-" {
		w.Header().Set("Cache-Control", h.o.CacheControl)
	}
	http.ServeContent(w, r, "", time.Time{}, strings.NewReader(string(body)))
}

// document is what a Viewer renders for the index (p nil) or page p.
func (h *Handler) document(s *snapshot, p *page, base *url.URL) Document {
	if p == nil {
		return Document{Self: base.String() + h.o.Name + ".xml", Index: h.indexEntries(s, base)}
	}
	d := Document{Self: base.String() + h.pageName(p.id, false), URLs: func(ctx context.Context, yield func(*sitemap.URL) error) error {
		return h.pageEntries(ctx, p, base, yield)
	}}
	var live []*page
	for _, q := range s.pages {
		if q.count > 0 {
			live = append(live, q)
		}
	}
	for i, q := range live {
		if q != p {
			d.Start += q.count
			continue
		}
		if i > 0 {
			d.Prev = base.String() + h.pageName(live[i-1].id, false)
		}
		if i+1 < len(live) {
			d.Next = base.String() + h.pageName(live[i+1].id, false)
		}
		break
	}
	return d
}

func (h *Handler) indexEntries(s *snapshot, base *url.URL) []sitemap.IndexEntry {
	out := make([]sitemap.IndexEntry, 0, len(s.pages))
	for _, p := range s.pages {
		if p.count > 0 {
			out = append(out, sitemap.IndexEntry{Loc: base.String() + h.pageName(p.id, h.o.GzipIndex), LastMod: p.lastmod})
		}
	}
	return out
}

func (h *Handler) stylesheet() string {
	if h.o.XSL {
		return h.o.Name + ".xsl"
	}
	return ""
}

// writeIndex writes the index of s.
func (h *Handler) writeIndex(w io.Writer, s *snapshot, base *url.URL) error {
	enc := sitemap.NewEncoder(w, sitemap.EncoderOptions{Index: true, Stylesheet: h.stylesheet()})
	for _, x := range h.indexEntries(s, base) {
		if err := enc.EncodeIndexEntry(&x); err != nil {
			return err
		}
	}
	return enc.Close()
}

// pageEntries walks the entries of p with their locs made absolute,
// stopping after Options.PerPage of them.
func (h *Handler) pageEntries(ctx context.Context, p *page, base *url.URL, yield func(*sitemap.URL) error) error {
	n := 0
	err := h.src.Entries(ctx, p.after, p.upto, func(_ Key, u *sitemap.URL) error {
		if n >= h.o.PerPage {
			return errStop
		}
		n++
		u.Loc = absLoc(base, u.Loc)
		return yield(u)
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return err
}

// writePage streams page p through the encoder into w and returns the
// number of entries written. A field or extension block the encoder
// refuses is dropped (Options.Dropped is told), an entry it refuses as a
// whole left out (Options.Skipped is told); the page stops at the limits even when rows
// were added since the pages were counted (the next refresh splits it).
func (h *Handler) writePage(ctx context.Context, w io.Writer, p *page, base *url.URL) (int, error) {
	enc := sitemap.NewEncoder(w, sitemap.EncoderOptions{Extensions: p.ext, Stylesheet: h.stylesheet()})
	var dropped func(what string, err error)
	var loc string
	if h.o.Dropped != nil {
		dropped = func(what string, err error) { h.o.Dropped(loc, what, err) }
	}
	err := h.pageEntries(ctx, p, base, func(u *sitemap.URL) error {
		var ok bool
		loc = u.Loc
		err := keepEntry(u, func(u *sitemap.URL) (err error) {
			ok, err = enc.EncodeWithin(u, h.o.MaxBytes)
			return err
		}, dropped)
		var ee *sitemap.EntryError
		if errors.As(err, &ee) {
			h.stats.skipped.Add(1)
			if h.o.Skipped != nil {
				h.o.Skipped(u.Loc, err)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if !ok {
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return enc.Count(), err
	}
	return enc.Count(), enc.Close()
}

// absLoc resolves a loc that is not an absolute http(s) URL against base:
// "//host/a" takes its scheme, "/a" its origin, anything else is appended
// to it. An empty loc (a NULL or an empty string in the source) stays empty, for the
// encoder to refuse: it is no page, least of all the home page.
func absLoc(base *url.URL, loc string) string {
	if loc == "" || hasScheme(loc, "https://") || hasScheme(loc, "http://") || base == nil {
		return loc
	}
	switch {
	case strings.HasPrefix(loc, "//"):
		return base.Scheme + ":" + loc
	case strings.HasPrefix(loc, "/"):
		return base.Scheme + "://" + base.Host + loc
	}
	return base.String() + loc
}

func hasScheme(s, scheme string) bool {
	return len(s) >= len(scheme) && strings.EqualFold(s[:len(scheme)], scheme)
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w     io.Writer
	n     int64
	wrote bool
}

func (c *countWriter) Write(b []byte) (int, error) {
	c.wrote = true
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
