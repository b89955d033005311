package crawl

import (
	"io"
	"net/http"
	"net/url"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Page is what an HTML page and its headers say about indexing, read by
// the crawler's own parser for other readers of live pages (package
// audit): the same noindex, canonical and hreflang rules as a crawl.
type Page struct {
	// Canonical is the rel=canonical target (the <link>, else a Link
	// header), resolved against the page's base and in the crawler's
	// normal form; "" when there is none.
	Canonical string
	// NoindexMeta: a <meta name="robots"> (or one naming the agent) says
	// noindex (or none); NoindexHeader: an X-Robots-Tag header does.
	NoindexMeta, NoindexHeader bool
	// Alternates are the <link rel="alternate" hreflang> of the page,
	// resolved and in the crawler's normal form, the first of each code
	// with a valid code (H-06), in document order.
	Alternates []sitemap.Alternate
	// Lang is the lang attribute of <html>, as written.
	Lang string
	// Truncated: the body went over maxBytes; what follows was not read.
	Truncated bool
	// Fingerprint is the page's content fingerprint, the crawler's
	// content_hash ("html:" and 32 hex digits): its main content and
	// metadata, not its navigation, header, footer or sidebars (M-05), so
	// a footer that changes on every request leaves it as it is.
	Fingerprint string
	// parsed is the page as read, for RenderPage's comparison.
	parsed *page
}

// ReadPage reads an HTML page: body is its decoded body (Content-Encoding
// undone), header its response headers (Content-Type gives the charset,
// X-Robots-Tag and Link are read), pageURL the URL that answered (the base
// of relative links), agent the crawler's product token (its <meta name>
// and "agent:" X-Robots-Tag directives count too). At most maxBytes of the
// body are read (0: 10 MiB). The error is the body's read error; what was
// read before it is returned.
func ReadPage(body io.Reader, header http.Header, pageURL, agent string, maxBytes int64) (Page, error) {
	if maxBytes <= 0 {
		maxBytes = 10 << 20
	}
	var out Page
	agent = strings.ToLower(agent)
	p, err := parseHTML(body, header.Get("Content-Type"), maxBytes, agent)
	out.parsed = &p
	base, perr := url.Parse(pageURL)
	if perr != nil {
		return out, perr
	}
	if p.Base != "" {
		if b, err := base.Parse(p.Base); err == nil {
			base = b
		}
	}
	var n urlnorm.Normalizer
	out.NoindexMeta = p.Noindex
	out.NoindexHeader, _ = xRobotsTag(header.Values("X-Robots-Tag"), agent)
	out.Lang, out.Truncated, out.Fingerprint = p.Lang, p.Truncated, p.Hash
	raw := p.Canonical
	if raw == "" {
		raw = linkCanonical(header.Values("Link"))
	}
	if raw != "" {
		if cu, err := n.Resolve(base, raw); err == nil {
			out.Canonical = cu
		}
	}
	seen := map[string]bool{}
	for _, a := range p.Alternates {
		lang := strings.TrimSpace(a.Hreflang)
		href, err := n.Resolve(base, a.Href)
		if err != nil || !validHreflang(lang) || seen[strings.ToLower(lang)] {
			continue
		}
		seen[strings.ToLower(lang)] = true
		out.Alternates = append(out.Alternates, sitemap.Alternate{Hreflang: lang, Href: href})
	}
	return out, err
}

// AppShell reports whether the page looks like the shell of a JavaScript
// application (LooksLikeAppShell), what RenderAuto renders.
func (p Page) AppShell() bool { return p.parsed != nil && p.parsed.appShell() }
