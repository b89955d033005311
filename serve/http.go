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
// I-08). Other methods get 405; without BaseURL, a Host not allowed gets
// 421.
//
// A document is sent as application/xml; charset=utf-8, gzip-encoded when
// the request accepts gzip (Vary: Accept-Encoding); a .xml.gz name is a
// gzip file (application/gzip, no Content-Encoding). Every answer is the
// built bytes of the page, with a strong ETag (the hash of those bytes,
// one per encoding) and a Last-Modified (when these bytes were first
// built; it moves forward whenever they change), and a matching
// If-None-Match (or, without one, If-Modified-Since) gets 304. When the
// pages cannot be built (the source fails at start), the answer is 503
// with no detail (the error is counted, and told to a Run's caller).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: use GET or HEAD", http.StatusMethodNotAllowed)
		return
	}
	st := h.siteFor(r)
	if st == nil {
		http.Error(w, "misdirected request: this server does not serve sitemaps for host "+strconv.Quote(r.Host), http.StatusMisdirectedRequest)
		return
	}
	seg := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	switch {
	case h.o.XSL && seg == h.o.Name+".xsl":
		h.static(w, r, typeXSL, xsl.Default())
		return
	case h.o.Robots && seg == "robots.txt":
		b, _, err := robots.AddSitemap(h.o.RobotsTxt, st.base.String()+h.o.Name+".xml")
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
	for attempt := 0; ; attempt++ {
		s, err := st.current(r.Context())
		if err != nil {
			h.stats.errors.Add(1)
			http.Error(w, "the sitemap cannot be built now; try again later", http.StatusServiceUnavailable)
			return
		}
		var p *page
		art := s.index
		if id > 0 {
			if p = s.byID[id]; p == nil || p.art == nil {
				http.NotFound(w, r)
				return
			}
			art = p.art
		} else if art == nil {
			// An index of no sitemap is invalid (I-08), and so would be a
			// urlset of no URL: there is no sitemap until there are entries.
			http.Error(w, "no sitemap yet: the source has no entries (an index must list at least one sitemap, I-08)", http.StatusNotFound)
			return
		}
		body, err := art.blob.open()
		if err != nil {
			if attempt < 3 {
				continue // replaced and dropped meanwhile: the newer one
			}
			// Gone (a cache file removed by hand): built again at the
			// next check, which comes now.
			art.gone.Store(true)
			st.gone.Store(true)
			h.push(Change{All: true})
			h.stats.errors.Add(1)
			http.Error(w, "the sitemap cannot be read now; try again later", http.StatusServiceUnavailable)
			return
		}
		defer body.Close()
		h.send(w, r, st, s, p, art, gz, body, start)
		return
	}
}

// send answers with art, whose gzip bytes body reads: the HTML view, the
// gzip file, or the XML (gzip-encoded when the client takes it). It
// answers 304 when the client has these bytes, headers only to HEAD, and
// 503 when the body cannot be read before anything is written; a failure
// after that aborts the response (http.ErrAbortHandler).
func (h *Handler) send(w http.ResponseWriter, r *http.Request, st *site, s *snapshot, p *page, art *artifact, gz bool, body io.Reader, start time.Time) {
	html := !gz && h.o.HTML != nil && wantsHTML(r)
	hd := w.Header()
	etag, doc, encoded := h.setContentHeaders(w, r, st, s, p, art, gz, html, body)
	hd.Set("ETag", etag)
	hd.Set("Last-Modified", art.modified.UTC().Format(http.TimeFormat))
	if h.o.CacheControl != "-" {
		hd.Set("Cache-Control", h.o.CacheControl)
	}
	hd.Set("X-Content-Type-Options", "nosniff")
	if notModified(r, etag, sitemap.Date{Time: art.modified, Precision: sitemap.PrecisionSecond}) {
		hd.Del("Content-Encoding")
		hd.Del("Content-Length")
		w.WriteHeader(http.StatusNotModified)
		h.stats.notModified.Add(1)
		h.stats.observe304(time.Since(start))
		return
	}
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	cw := &countWriter{w: w}
	err := h.writeBody(cw, r, doc, body, html, gz || encoded)
	h.stats.bytes.Add(cw.n)
	if err != nil {
		h.stats.errors.Add(1)
		if !cw.wrote {
			hd.Del("Content-Encoding")
			hd.Del("Content-Length")
			hd.Del("ETag")
			hd.Del("Last-Modified")
			http.Error(w, "the sitemap cannot be sent now; try again later", http.StatusServiceUnavailable)
			return
		}
		panic(http.ErrAbortHandler)
	}
	if p == nil {
		h.stats.indexes.Add(1)
	} else {
		h.stats.pages.Add(1)
	}
}

// setContentHeaders sets the Vary, Content-Type and (but for the HTML
// view, whose length is not known before it is written) Content-Length
// headers of the answer with art, and Content-Encoding when the XML goes
// gzip-encoded. It returns the ETag of what is sent (art's, marked for
// the form), the view's Document when html (made from body, with the
// neighbouring pages, which are part of its ETag), and whether the XML
// goes gzip-encoded (the client accepts gzip).
func (h *Handler) setContentHeaders(w http.ResponseWriter, r *http.Request, st *site, s *snapshot, p *page, art *artifact, gz, html bool, body io.Reader) (string, Document, bool) {
	hd := w.Header()
	vary := "Accept-Encoding"
	if h.o.HTML != nil && !gz {
		vary += ", Accept, Sec-Fetch-Dest"
	}
	hd.Set("Vary", vary)
	etag := art.etag
	var doc Document
	encoded := false
	switch {
	case html:
		hd.Set("Content-Type", typeHTML)
		doc = h.document(s, p, st.base, body)
		// The view also shows the neighbours: they are part of its ETag.
		etag = contentETag([]byte(fmt.Sprintf("%s|%s|%s|%d", art.etag, doc.Prev, doc.Next, doc.Start)))
		etag = etag[:len(etag)-1] + `-html"`
	case gz:
		hd.Set("Content-Type", typeGzip)
		hd.Set("Content-Length", strconv.FormatInt(art.blob.size(), 10))
		etag = etag[:len(etag)-1] + `-gz"`
	default:
		hd.Set("Content-Type", typeXML)
		if acceptsGzip(r) {
			encoded = true
			hd.Set("Content-Encoding", "gzip")
			hd.Set("Content-Length", strconv.FormatInt(art.blob.size(), 10))
			etag = etag[:len(etag)-1] + `-gzip"`
		} else {
			hd.Set("Content-Length", strconv.FormatInt(art.size, 10))
		}
	}
	return etag, doc, encoded
}

// writeBody writes the body of the answer to cw: the HTML view of doc
// when html, the gzip bytes of body as they are when asGzip, else those
// bytes unzipped. It returns the first error of reading body (a file
// gone, bytes not gzip) or of writing (the client gone).
func (h *Handler) writeBody(cw *countWriter, r *http.Request, doc Document, body io.Reader, html, asGzip bool) error {
	var err error
	switch {
	case html:
		err = h.o.HTML(r.Context(), cw, doc)
	case asGzip:
		_, err = io.Copy(cw, body)
	default:
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(body); err == nil {
			_, err = io.Copy(cw, zr)
		}
	}
	return err
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

// document is what a Viewer renders for the index (p nil) or page p of
// s: the entries of the built bytes (gz, their gzip form), so the view
// lists exactly what the XML does.
func (h *Handler) document(s *snapshot, p *page, base *url.URL, gz io.Reader) Document {
	if p == nil {
		return Document{Self: base.String() + h.o.Name + ".xml", Index: h.indexEntries(s, base)}
	}
	d := Document{Self: base.String() + h.pageName(p.id, false)}
	d.URLs = func(ctx context.Context, yield func(*sitemap.URL) error) error {
		return readBuilt(ctx, gz, yield)
	}
	var live []*page
	for _, q := range s.pages {
		if q.count() > 0 {
			live = append(live, q)
		}
	}
	for i, q := range live {
		if q != p {
			d.Start += q.count()
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

// readBuilt yields the entries of a built page, from its gzip bytes.
func readBuilt(ctx context.Context, gz io.Reader, yield func(*sitemap.URL) error) error {
	if gz == nil {
		return errors.New("serve: the page's bytes are not open")
	}
	dec := sitemap.NewDecoder(gz, sitemap.DecoderOptions{})
	for {
		it, err := dec.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if it.Kind == sitemap.ItemURL {
			if err := yield(&it.URL); err != nil {
				return err
			}
		}
	}
}

func (h *Handler) indexEntries(s *snapshot, base *url.URL) []sitemap.IndexEntry {
	out := make([]sitemap.IndexEntry, 0, len(s.pages))
	for _, p := range s.pages {
		if p.count() > 0 {
			out = append(out, sitemap.IndexEntry{Loc: base.String() + h.pageName(p.id, h.o.GzipIndex), LastMod: p.art.lastmod})
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

// absLoc resolves a loc that is not an absolute http(s) URL against base:
// "//host/a" takes its scheme when host is base's own, "/a" its origin,
// a path without a scheme is appended to it. A loc with another scheme
// (javascript:, mailto:), one naming another host with "//", and an
// empty loc (a NULL or an empty string in the source) stay as they are,
// for the encoder to refuse: none is a page of this site, least of all
// its home page.
func absLoc(base *url.URL, loc string) string {
	if loc == "" || hasScheme(loc, "https://") || hasScheme(loc, "http://") || base == nil {
		return loc
	}
	switch {
	case strings.HasPrefix(loc, "//"):
		host, _, _ := strings.Cut(loc[2:], "/")
		if !strings.EqualFold(host, base.Host) {
			return loc
		}
		return base.Scheme + ":" + loc
	case strings.HasPrefix(loc, "/"):
		return base.Scheme + "://" + base.Host + loc
	case hasOtherScheme(loc):
		return loc
	}
	return base.String() + loc
}

// hasOtherScheme reports whether loc starts with a URL scheme (RFC 3986
// §3.1: a letter, then letters, digits, +, - or ., then ":") before any
// "/", "?" or "#".
func hasOtherScheme(loc string) bool {
	for i := 0; i < len(loc); i++ {
		c := loc[i]
		switch {
		case c == ':':
			return i > 0
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return false
}

func hasScheme(s, scheme string) bool {
	return len(s) >= len(scheme) && strings.EqualFold(s[:len(scheme)], scheme)
}
