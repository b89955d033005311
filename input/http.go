package input

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// OffSiteRedirect is the error of a refused redirect of an index's child
// to another site (I-05); [Open]'s error wraps it in a *fetch.Error of
// KindRedirect.
type OffSiteRedirect struct {
	To string // the redirect's target, redacted
}

func (e *OffSiteRedirect) Error() string {
	return "redirected to " + e.To + ", another site than the index (I-05); not followed"
}

// get fetches the http(s) document d through c: the body of a 200 (a
// Content-Encoding gzip undone; a .gz file's own gzip is left to the
// decoder), or c's *fetch.Error. Up to 10 redirects are followed; those of
// an index's child stay on the index's site unless allowOffSite.
func get(ctx context.Context, c *fetch.Client, d *Doc, allowOffSite bool) (io.ReadCloser, error) {
	// A same-site scope of c keeps an index's children on the index's site.
	g := fetch.GetOptions{MaxRedirects: 10, Site: d.indexURL}
	if d.indexURL != "" && !allowOffSite {
		index := d.indexURL
		g.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
			if !urlnorm.SameSite(index, req.URL.String()) {
				return &OffSiteRedirect{To: req.URL.Redacted()}
			}
			return nil
		}
	}
	resp, err := c.Get(ctx, d.Name, g)
	if err != nil {
		return nil, err
	}
	body, _, err := resp.Decoded()
	if err != nil {
		resp.Close()
		return nil, err
	}
	if resp.FinalURL != "" && resp.FinalURL != d.URL {
		d.final = resp.FinalURL
	}
	return readCloser{&cutShort{r: body}, resp}, nil
}

// cutShort reads an HTTP body and turns its io.ErrUnexpectedEOF (the
// connection closed before the Content-Length the server announced, or
// before the last chunk) into an error that says so; it still wraps
// io.ErrUnexpectedEOF.
type cutShort struct {
	r io.Reader
	n int64
}

func (c *cutShort) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err == io.ErrUnexpectedEOF {
		err = &bodyCutShortError{read: c.n}
	}
	return n, err
}

// bodyCutShortError is a body that ended early.
type bodyCutShortError struct{ read int64 }

func (e *bodyCutShortError) Error() string {
	return fmt.Sprintf("the connection closed after %d bytes, before the end of the body (a server or network fault; try again)", e.read)
}

func (e *bodyCutShortError) Unwrap() error { return io.ErrUnexpectedEOF }

// readCloser reads one thing and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}
