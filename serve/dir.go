package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"strings"

	"github.com/klauspost/compress/gzip"
	sitemap "github.com/sitemapkit/sitemap"
)

// DirOptions configure [Dir].
type DirOptions struct {
	// CacheControl as in Options; "" means "public, max-age=300".
	CacheControl string
	// HTML answers browsers with an HTML view of a .xml or .xml.gz file,
	// as in Options.
	HTML Viewer
}

// dirTypes are the files a published directory serves, by suffix, with
// their Content-Type: what `sitemap generate` writes (sitemaps, gzip
// sitemaps, the stylesheet, robots.txt, an IndexNow key file) and the
// HTML and CSS of a visitor site map.
var dirTypes = []struct{ suffix, ctype string }{
	{".xml.gz", typeGzip},
	{".xml", typeXML},
	{".xsl", typeXSL},
	{".txt", typeText},
	{".html", typeHTML},
	{".css", "text/css; charset=utf-8"},
}

// Dir serves a published directory the way a web server should serve it:
// only the files a site publishes (names ending .xml, .xml.gz, .xsl, .txt,
// .html, .css; never a hidden file such as a temporary or lock file, a
// state database, or a directory listing), .xml as application/xml;
// charset=utf-8 (gzip-encoded when accepted), .xml.gz as a gzip file
// without Content-Encoding, with ETag and Last-Modified from the file, 304s,
// HEAD and ranges (for a file sent as it is). Paths cannot leave dir
// (symbolic links out of it included).
func Dir(dir string, o DirOptions) (http.Handler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	if o.CacheControl == "" {
		o.CacheControl = "public, max-age=300"
	}
	return &dirHandler{root: root, o: o}, nil
}

type dirHandler struct {
	root *os.Root
	o    DirOptions
}

func (d *dirHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: use GET or HEAD", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	ctype := ""
	for _, t := range dirTypes {
		if strings.HasSuffix(name, t.suffix) {
			ctype = t.ctype
			break
		}
	}
	if ctype == "" || name == "" || hidden(name) {
		http.NotFound(w, r)
		return
	}
	f, err := d.root.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", ctype)
	hd.Set("X-Content-Type-Options", "nosniff")
	if d.o.CacheControl != "-" {
		hd.Set("Cache-Control", d.o.CacheControl)
	}
	etag := fmt.Sprintf(`"%x-%x%s"`, fi.Size(), fi.ModTime().UnixNano(), fileIdentity(fi))
	isXML := ctype == typeXML || ctype == typeGzip
	if isXML {
		vary := "Accept-Encoding"
		if d.o.HTML != nil {
			vary += ", Accept, Sec-Fetch-Dest"
		}
		hd.Set("Vary", vary)
	}
	lastmod := sitemap.Date{Time: fi.ModTime(), Precision: sitemap.PrecisionSecond}
	switch {
	case isXML && d.o.HTML != nil && wantsHTML(r):
		etag = etag[:len(etag)-1] + `-html"`
		d.answer(w, r, etag, lastmod, typeHTML, func(out io.Writer) error {
			return d.view(r.Context(), out, f, r)
		})
	case ctype == typeXML && acceptsGzip(r):
		hd.Set("Content-Encoding", "gzip")
		etag = etag[:len(etag)-1] + `-gzip"`
		d.answer(w, r, etag, lastmod, ctype, func(out io.Writer) error {
			zw, _ := gzip.NewWriterLevel(out, gzip.BestSpeed)
			if _, err := io.Copy(zw, f); err != nil {
				return err
			}
			return zw.Close()
		})
	default:
		hd.Set("ETag", etag)
		http.ServeContent(w, r, "", fi.ModTime(), f)
	}
}

// answer sends a representation made on the fly: 304 when the validators
// match, headers only for HEAD, else body's output.
func (d *dirHandler) answer(w http.ResponseWriter, r *http.Request, etag string, lastmod sitemap.Date, ctype string, body func(io.Writer) error) {
	hd := w.Header()
	hd.Set("Content-Type", ctype)
	hd.Set("ETag", etag)
	hd.Set("Last-Modified", lastmod.Time.UTC().Format(http.TimeFormat))
	if notModified(r, etag, lastmod) {
		hd.Del("Content-Encoding")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	if err := body(w); err != nil {
		panic(http.ErrAbortHandler)
	}
}

// view renders the HTML view of the sitemap or index in f.
func (d *dirHandler) view(ctx context.Context, w io.Writer, f io.Reader, r *http.Request) error {
	self := "http://" + r.Host + r.URL.Path
	if r.TLS != nil {
		self = "https://" + r.Host + r.URL.Path
	}
	dec := sitemap.NewDecoder(f, sitemap.DecoderOptions{Name: self, Context: ctx})
	first, err := dec.Next()
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	doc := Document{Self: self}
	if err == nil && first.Kind == sitemap.ItemIndex {
		doc.Index = append(doc.Index, first.Index)
		for {
			it, err := dec.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			if it.Kind == sitemap.ItemIndex && len(doc.Index) < sitemap.MaxURLs {
				doc.Index = append(doc.Index, it.Index)
			}
		}
		return d.o.HTML(ctx, w, doc)
	}
	done := err != nil
	doc.URLs = func(ctx context.Context, yield func(*sitemap.URL) error) error {
		if done {
			return nil
		}
		if err := yield(&first.URL); err != nil {
			return err
		}
		for {
			it, err := dec.Next()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if it.Kind == sitemap.ItemURL {
				if err := yield(&it.URL); err != nil {
					return err
				}
			}
		}
	}
	return d.o.HTML(ctx, w, doc)
}

// hidden reports whether a segment of name starts with a dot.
func hidden(name string) bool {
	for seg := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
