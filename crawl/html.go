package crawl

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// page is what the crawler reads from one HTML document. URLs are as
// written (unresolved); the caller resolves them against Base (or the
// page URL when Base is empty).
type page struct {
	Base       string
	Links      []link
	Canonical  string
	Alternates []alternate
	Images     []string
	// Robots directives of <meta name="robots"> and of the <meta> naming
	// the crawler's product token.
	Noindex, Nofollow bool
	// Hash fingerprints what a reader sees: text outside script and style,
	// the title, and the targets of links, images, the canonical and the
	// alternates. It ignores markup changes and comments.
	Hash string
	// Truncated is true when the body went over the size cap: links after
	// the cap were not read.
	Truncated bool
}

type link struct {
	Href     string
	Nofollow bool
}

type alternate struct {
	Hreflang, Href string
}

// maxImagesPerPage bounds the image list of one page (IM-02 allows 1,000
// per <url>).
const maxImagesPerPage = 1000

// maxLinksPerPage bounds the links kept from one page.
const maxLinksPerPage = 100000

// parseHTML tokenizes an HTML body with golang.org/x/net/html's Tokenizer
// (no DOM is built). contentType is the Content-Type header: the charset
// comes from it, else from a <meta> in the first 1,024 bytes, else UTF-8
// (golang.org/x/net/html/charset). At most maxBytes bytes are read.
// agent is the lowercased product token whose <meta name> also counts.
func parseHTML(body io.Reader, contentType string, maxBytes int64, agent string) (page, error) {
	var p page
	lr := &io.LimitedReader{R: body, N: maxBytes + 1}
	r, err := charset.NewReader(lr, contentType)
	if err != nil {
		// Unknown charset label: read the bytes as they are.
		r = lr
	}
	h := sha256.New()
	z := html.NewTokenizer(r)
	z.SetMaxBuf(1 << 20) // one token (a long text run or tag) may not exceed 1 MiB
	skip := 0            // inside <script> or <style>
	seenImg := make(map[string]bool)
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if lr.N <= 0 {
				p.Truncated = true
			}
			if err := z.Err(); err != io.EOF && !p.Truncated && err != html.ErrBufferExceeded {
				return p, err
			}
			p.Hash = "html:" + hex.EncodeToString(h.Sum(nil)[:16])
			return p, nil
		case html.TextToken:
			if skip == 0 {
				writeText(h, z.Text())
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if (string(name) == "script" || string(name) == "style") && skip > 0 {
				skip--
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "script", "style":
				if tt == html.StartTagToken {
					skip++
				}
			case "a", "area":
				a := attrs(z, hasAttr)
				href, ok := a["href"]
				if ok && len(p.Links) < maxLinksPerPage {
					p.Links = append(p.Links, link{Href: href, Nofollow: hasToken(a["rel"], "nofollow")})
					io.WriteString(h, "\x00a:"+href)
				}
			case "link":
				a := attrs(z, hasAttr)
				rel := a["rel"]
				href := a["href"]
				switch {
				case hasToken(rel, "canonical") && p.Canonical == "":
					p.Canonical = href
					io.WriteString(h, "\x00c:"+href)
				case hasToken(rel, "alternate") && a["hreflang"] != "" && href != "":
					p.Alternates = append(p.Alternates, alternate{Hreflang: a["hreflang"], Href: href})
					io.WriteString(h, "\x00h:"+a["hreflang"]+"="+href)
				}
			case "img":
				a := attrs(z, hasAttr)
				if src := a["src"]; src != "" && !strings.HasPrefix(src, "data:") && !seenImg[src] && len(p.Images) < maxImagesPerPage {
					seenImg[src] = true
					p.Images = append(p.Images, src)
					io.WriteString(h, "\x00i:"+src)
				}
			case "meta":
				a := attrs(z, hasAttr)
				n := strings.ToLower(strings.TrimSpace(a["name"]))
				if n == "robots" || agent != "" && n == agent {
					noindex, nofollow := robotsDirectives(a["content"])
					p.Noindex = p.Noindex || noindex
					p.Nofollow = p.Nofollow || nofollow
				}
			case "base":
				a := attrs(z, hasAttr)
				if p.Base == "" {
					p.Base = a["href"]
				}
			}
		}
	}
}

// writeText adds text to the fingerprint with runs of white space
// collapsed, so that re-indented markup does not count as a change.
func writeText(h hash.Hash, t []byte) {
	f := bytes.Fields(t)
	for _, w := range f {
		h.Write(w)
		h.Write([]byte{' '})
	}
}

// attrs returns the attributes of the current tag (lowercased keys; the
// first of repeated attributes wins, as in browsers).
func attrs(z *html.Tokenizer, more bool) map[string]string {
	m := make(map[string]string, 4)
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if _, dup := m[string(k)]; !dup {
			m[string(k)] = strings.TrimSpace(string(v))
		}
	}
	return m
}

// hasToken reports whether the space-separated list s holds tok
// (ASCII case-insensitive), as rel="nofollow noopener" does.
func hasToken(s, tok string) bool {
	for _, f := range strings.Fields(s) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// robotsDirectives reads the directives of a meta robots content or of an
// X-Robots-Tag value without a user-agent prefix: "noindex", "nofollow",
// and "none" (both).
func robotsDirectives(s string) (noindex, nofollow bool) {
	for _, d := range strings.Split(s, ",") {
		switch strings.ToLower(strings.TrimSpace(d)) {
		case "noindex":
			noindex = true
		case "nofollow":
			nofollow = true
		case "none":
			noindex, nofollow = true, true
		}
	}
	return
}

// xRobotsTag applies the X-Robots-Tag header values: a value is either a
// list of directives for every crawler, or "agent: directives" for one
// (agent compared case-insensitively with the product token).
func xRobotsTag(values []string, agent string) (noindex, nofollow bool) {
	for _, v := range values {
		if i := strings.IndexByte(v, ':'); i >= 0 {
			name := strings.TrimSpace(v[:i])
			// "unavailable_after: date" is a directive, not an agent.
			if !strings.EqualFold(name, "unavailable_after") && !strings.ContainsAny(name, ", ") {
				if !strings.EqualFold(name, agent) {
					continue
				}
				v = v[i+1:]
			}
		}
		ni, nf := robotsDirectives(v)
		noindex = noindex || ni
		nofollow = nofollow || nf
	}
	return
}
