package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// qValue returns the quality the header value list (Accept, Accept-Encoding)
// gives name: the q of the most specific match, where prefix/* matches
// every name starting with prefix/ and * matches everything. A missing q is
// 1; no match is -1.
func qValue(list, name string) float64 {
	best, spec := -1.0, -1
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		tok, params, _ := strings.Cut(item, ";")
		tok = strings.ToLower(strings.TrimSpace(tok))
		s := -1
		switch {
		case tok == name:
			s = 2
		case strings.HasSuffix(tok, "/*") && strings.HasPrefix(name, tok[:len(tok)-1]):
			s = 1
		case tok == "*" || tok == "*/*":
			s = 0
		}
		if s < spec || s < 0 {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				q = f
			}
		}
		if s > spec || q > best {
			best, spec = q, s
		}
	}
	return best
}

// acceptsGzip reports whether the request's Accept-Encoding admits gzip
// (gzip or x-gzip, or * with a quality above 0).
func acceptsGzip(r *http.Request) bool {
	ae := r.Header.Get("Accept-Encoding")
	if ae == "" {
		return false
	}
	return qValue(ae, "gzip") > 0 || qValue(ae, "x-gzip") > 0
}

// wantsHTML reports whether r is a browser navigating to a document, which
// gets the HTML view: "?view=html", or an Accept that ranks text/html
// above application/xml from a request marked Sec-Fetch-Dest: document (as
// every current browser marks a navigation and no crawler does). "?view=xml"
// always gets XML.
func wantsHTML(r *http.Request) bool {
	switch r.URL.Query().Get("view") {
	case "html":
		return true
	case "xml":
		return false
	}
	if r.Header.Get("Sec-Fetch-Dest") != "document" {
		return false
	}
	accept := r.Header.Get("Accept")
	return qValue(accept, "text/html") > max(qValue(accept, "application/xml"), qValue(accept, "text/xml"))
}

// notModified reports whether r's validators match: If-None-Match when the
// request has one (weak comparison, "*" matches), else If-Modified-Since
// against lastmod at whole seconds (never when lastmod is absent).
func notModified(r *http.Request, etag string, lastmod sitemap.Date) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for tag := range strings.SplitSeq(inm, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == etag {
				return true
			}
		}
		return false
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || lastmod.IsZero() {
		return false
	}
	t, err := http.ParseTime(ims)
	if err != nil {
		return false
	}
	return !lastmod.Time.Truncate(time.Second).After(t)
}

// contentETag is a strong ETag of b.
func contentETag(b []byte) string {
	h := sha256.Sum256(b)
	return `"` + hex.EncodeToString(h[:12]) + `"`
}
