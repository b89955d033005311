package crawl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
)

// Renderer loads a page in a browser and returns its document once the
// page's scripts have settled, so that a crawl sees what a search engine
// that runs JavaScript sees (Options.Render). Package render's Chromium
// is one; a Go program may plug its own.
//
// Render is called from the crawl's workers, up to Options.Concurrency at
// once, only for a URL the crawl's own client has just fetched: a 200
// whose body is HTML, after robots.txt, scope, include/exclude and the
// caps allowed it. It must return promptly when ctx ends. An error means
// the page could not be rendered (the browser crashed, the page did not
// load in time): the crawl then reads the HTML the client fetched and
// reports the failure (RenderFacts.Error).
type Renderer interface {
	Render(ctx context.Context, pageURL string) (Rendered, error)
}

// Rendered is a page as a browser left it.
type Rendered struct {
	// HTML is the rendered document serialized (in a browser,
	// document.documentElement.outerHTML), read with the crawler's own
	// parser: links, title, meta robots, canonical and hreflang mean what
	// they mean in a raw page.
	HTML []byte
	// Navigations are the URLs the page's scripts moved to without a
	// click while it settled: history.pushState and replaceState (a
	// client-side router's redirect) and document navigations (location
	// set by script). They are followed as links. A link in an onclick
	// handler is not one: nothing is clicked.
	Navigations []string
	// ConsoleErrors are the page's console.error messages and uncaught
	// exceptions; FailedRequests the requests of the page to its own site
	// (or an allowed host) that failed or answered 4xx or 5xx, each "URL:
	// why". Requests the renderer blocked (images, fonts, media, other
	// hosts) are not failures.
	ConsoleErrors, FailedRequests []string
	// TimedOut is set when the page had not settled (network idle) within
	// the renderer's bound: HTML is the document as it was then.
	TimedOut bool
}

// RenderMode says which pages a crawl with a Renderer renders.
type RenderMode int

const (
	// RenderAll renders every HTML page.
	RenderAll RenderMode = iota
	// RenderAuto renders only pages whose raw HTML looks like the shell
	// of a JavaScript application (see LooksLikeAppShell), so a mostly
	// static site costs little.
	RenderAuto
)

// RenderFacts is what rendering revealed about one page: what differs
// from the HTML the server sent, and what went wrong in the browser
// (Outcome.Render; the audit's rules AUD-19 to AUD-26).
type RenderFacts struct {
	// JSLinks counts the links (anchors with href, and script
	// navigations) of the rendered page that its raw HTML does not have;
	// JSLink is the first of them.
	JSLinks int    `json:"js_links,omitempty"`
	JSLink  string `json:"js_link,omitempty"`
	// Noindex is "added" when the rendered page is noindex and the raw
	// one is not, "removed" for the reverse.
	Noindex string `json:"noindex,omitempty"`
	// CanonicalChanged: the rendered page's canonical differs from the
	// raw one's; RawCanonical and Canonical are both (resolved, "" for
	// none).
	CanonicalChanged bool   `json:"canonical_changed,omitempty"`
	RawCanonical     string `json:"raw_canonical,omitempty"`
	Canonical        string `json:"canonical,omitempty"`
	// RawTitle is the raw page's title when script changed it (the
	// rendered one is the Outcome's Title).
	TitleChanged bool   `json:"title_changed,omitempty"`
	RawTitle     string `json:"raw_title,omitempty"`
	// Soft404: the rendered page says it is not found (an error page
	// answered 200); Empty: the rendered body has no text and no link.
	Soft404 bool `json:"soft_404,omitempty"`
	Empty   bool `json:"empty,omitempty"`
	// ConsoleErrors and FailedRequests count Rendered's; the first of
	// each is kept.
	ConsoleErrors  int    `json:"console_errors,omitempty"`
	ConsoleError   string `json:"console_error,omitempty"`
	FailedRequests int    `json:"failed_requests,omitempty"`
	FailedRequest  string `json:"failed_request,omitempty"`
	TimedOut       bool   `json:"timed_out,omitempty"`
	Error          string `json:"error,omitempty"`
	rendered       bool
}

// RenderCounts counts, over the pages rendered in a run, what rendering
// revealed (Summary.Render): pages, not links or messages.
type RenderCounts struct {
	Rendered int `json:"rendered"`
	// Skipped counts the HTML pages RenderAuto did not render (not an app
	// shell).
	Skipped        int `json:"skipped,omitempty"`
	JSLinks        int `json:"js_links,omitempty"`
	Noindex        int `json:"noindex_changed,omitempty"`
	Canonical      int `json:"canonical_changed,omitempty"`
	Title          int `json:"title_changed,omitempty"`
	Soft404        int `json:"soft_404,omitempty"`
	Empty          int `json:"empty,omitempty"`
	ConsoleErrors  int `json:"console_errors,omitempty"`
	FailedRequests int `json:"failed_requests,omitempty"`
	TimedOut       int `json:"timed_out,omitempty"`
	Failed         int `json:"failed,omitempty"`
}

func (n *RenderCounts) add(f *RenderFacts) {
	if f == nil {
		return
	}
	if !f.rendered {
		n.Skipped++
		return
	}
	n.Rendered++
	count := func(c *int, b bool) {
		if b {
			*c++
		}
	}
	count(&n.JSLinks, f.JSLinks > 0)
	count(&n.Noindex, f.Noindex != "")
	count(&n.Canonical, f.CanonicalChanged)
	count(&n.Title, f.TitleChanged)
	count(&n.Soft404, f.Soft404)
	count(&n.Empty, f.Empty)
	count(&n.ConsoleErrors, f.ConsoleErrors > 0)
	count(&n.FailedRequests, f.FailedRequests > 0)
	count(&n.TimedOut, f.TimedOut)
	count(&n.Failed, f.Error != "")
}

// Reasons of pages that rendering shows are not pages to list.
const (
	ReasonSoft404 = "soft-404" // rendered, the page says "not found" (status 200)
	ReasonEmpty   = "empty"    // rendered, the page has no text and no link
)

// LooksLikeAppShell reports whether an HTML page looks like the shell of
// a JavaScript application, what Options.RenderAuto renders: at most 2
// links, at least one script, and a mount element (an element whose id
// is root, app, __next, __nuxt or ___gatsby, or that carries ng-app or
// data-reactroot) or under 200 bytes of text. body is read up to
// maxBytes (0: 10 MiB).
func LooksLikeAppShell(body []byte, maxBytes int64) bool {
	if maxBytes <= 0 {
		maxBytes = 10 << 20
	}
	p, _ := parseHTML(bytes.NewReader(body), "text/html; charset=utf-8", maxBytes, "")
	return p.appShell()
}

func (p *page) appShell() bool {
	return len(p.Links) <= 2 && p.Scripts > 0 && (p.Mount || p.TextLen < 200)
}

// notFoundPhrases are what an error page says, in its title or its first
// words, lowercased.
var notFoundPhrases = []string{"not found", "404", "page does not exist", "page doesn't exist", "no longer available", "nicht gefunden", "introuvable", "no encontrada", "non trovata"}

// soft404 reports whether a rendered page reads as an error page: its
// title or its first 256 bytes of text say "not found" (or 404), and it
// has under 2,048 bytes of text.
func (p *page) soft404() bool {
	if p.TextLen >= 2048 {
		return false
	}
	for _, s := range []string{strings.ToLower(p.Title), strings.ToLower(p.Lead)} {
		for _, ph := range notFoundPhrases {
			if strings.Contains(s, ph) {
				return true
			}
		}
	}
	return false
}

// render renders a fetched HTML page and builds res from the rendered
// document, comparing it with raw, the page the client fetched. When the
// renderer fails, res is built from raw and the failure noted.
func (c *Crawler) render(ctx context.Context, res *result, base *url.URL, header http.Header, raw *page) {
	f := &RenderFacts{}
	res.Render = f
	if c.o.RenderMode == RenderAuto && !raw.appShell() {
		c.build(res, base, header, raw)
		return
	}
	f.rendered = true
	r, err := c.o.Render.Render(ctx, base.String())
	if err != nil {
		f.Error = err.Error()
		c.build(res, base, header, raw)
		return
	}
	p, _ := parseHTML(bytes.NewReader(r.HTML), "text/html; charset=utf-8", c.o.MaxBodyBytes, strings.ToLower(c.agent))
	c.build(res, base, header, &p)
	_, xNofollow := xRobotsTag(header.Values("X-Robots-Tag"), c.agent)
	nofollow := (p.Nofollow || xNofollow) && !c.o.IgnoreNofollow
	for _, n := range r.Navigations {
		h, err := c.o.Query.Resolve(base, n)
		switch {
		case err != nil || h == res.Loc:
		case nofollow:
			res.Soft = append(res.Soft, h)
			res.edge(h, state.LinkNofollow)
		default:
			res.Follow = append(res.Follow, h)
			res.edge(h, state.LinkFollow)
		}
	}
	c.compare(f, base, header, raw, &p, r)
	if res.Entry != nil && (f.Soft404 || f.Empty) {
		res.Entry, res.Reason = nil, ReasonSoft404
		if f.Empty {
			res.Reason = ReasonEmpty
		}
	}
}

// compare fills f with what differs between raw, the page the server
// sent, and p, the page r rendered.
func (c *Crawler) compare(f *RenderFacts, base *url.URL, header http.Header, raw, p *page, r Rendered) {
	self, _ := c.o.Query.Resolve(base, "")
	seen := map[string]bool{self: true}
	for _, l := range raw.Links {
		if h, err := c.o.Query.Resolve(c.baseOf(base, raw), l.Href); err == nil {
			seen[h] = true
		}
	}
	rendered := make([]string, 0, len(p.Links)+len(r.Navigations))
	for _, l := range p.Links {
		rendered = append(rendered, l.Href)
	}
	for _, h := range append(rendered, r.Navigations...) {
		h, err := c.o.Query.Resolve(c.baseOf(base, p), h)
		if err != nil || seen[h] {
			continue
		}
		seen[h] = true // count each once
		if f.JSLinks++; f.JSLink == "" {
			f.JSLink = h
		}
	}
	xNoindex, _ := xRobotsTag(header.Values("X-Robots-Tag"), c.agent)
	switch {
	case p.Noindex && !raw.Noindex && !xNoindex:
		f.Noindex = "added"
	case raw.Noindex && !p.Noindex && !xNoindex:
		f.Noindex = "removed"
	}
	rc, pc := c.canonicalOf(base, raw, header), c.canonicalOf(base, p, header)
	if rc != pc {
		f.CanonicalChanged, f.RawCanonical, f.Canonical = true, rc, pc
	}
	if raw.Title != p.Title {
		f.TitleChanged, f.RawTitle = true, raw.Title
	}
	f.Soft404 = p.soft404()
	f.Empty = !f.Soft404 && p.TextLen == 0 && len(p.Links) == 0 && len(r.Navigations) == 0
	f.ConsoleErrors, f.FailedRequests, f.TimedOut = len(r.ConsoleErrors), len(r.FailedRequests), r.TimedOut
	if len(r.ConsoleErrors) > 0 {
		f.ConsoleError = clip(r.ConsoleErrors[0], 300)
	}
	if len(r.FailedRequests) > 0 {
		f.FailedRequest = clip(r.FailedRequests[0], 300)
	}
}

// RenderPage renders pageURL with r and reads the rendered document as
// ReadPage reads a page (header's X-Robots-Tag and Link still count),
// for other readers of live pages (package audit): raw is ReadPage's
// reading of the HTML the server sent, which the facts compare with.
// The error is the renderer's; the Page is then raw.
func RenderPage(ctx context.Context, r Renderer, raw Page, header http.Header, pageURL, agent string, maxBytes int64) (Page, RenderFacts, error) {
	f := RenderFacts{rendered: true}
	base, err := url.Parse(pageURL)
	if err != nil {
		return raw, f, err
	}
	rd, err := r.Render(ctx, pageURL)
	if err != nil {
		f.Error = err.Error()
		return raw, f, err
	}
	h := header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	p, _ := ReadPage(bytes.NewReader(rd.HTML), h, pageURL, agent, maxBytes)
	rawPage := raw.parsed
	if rawPage == nil {
		rawPage = &page{}
	}
	c := &Crawler{o: Options{}.withDefaults(), agent: agent}
	c.compare(&f, base, header, rawPage, p.parsed, rd)
	return p, f, nil
}

// baseOf is the base of a page's relative links: its <base>, else the
// page's URL.
func (c *Crawler) baseOf(base *url.URL, p *page) *url.URL {
	if p.Base != "" {
		if b, err := base.Parse(p.Base); err == nil {
			return b
		}
	}
	return base
}

// canonicalOf is a page's canonical, resolved ("" for none), as build
// reads it.
func (c *Crawler) canonicalOf(base *url.URL, p *page, header http.Header) string {
	raw := p.Canonical
	if raw == "" {
		raw = linkCanonical(header.Values("Link"))
	}
	if raw == "" {
		return ""
	}
	cu, err := c.o.Query.Resolve(c.baseOf(base, p), raw)
	if err != nil {
		return ""
	}
	return cu
}

// clip cuts s to at most n bytes at a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// encode is the facts as the crawl log keeps them (state.CrawlResult's
// Render); "" for none.
func (f *RenderFacts) encode() string {
	if f == nil {
		return ""
	}
	if !f.rendered {
		return "" // not rendered (RenderAuto): nothing to keep
	}
	b, _ := json.Marshal(f)
	return string(b)
}

// decodeFacts reads what encode wrote; nil for "" or a value it cannot
// read.
func decodeFacts(s string) *RenderFacts {
	if s == "" {
		return nil
	}
	f := new(RenderFacts)
	if json.Unmarshal([]byte(s), f) != nil {
		return nil
	}
	f.rendered = true
	return f
}

// write adds the rendering lines of Summary.WriteText: the pages
// rendered, then each finding with its count of pages and its rule.
func (n *RenderCounts) write(b *strings.Builder) {
	fmt.Fprintf(b, "rendered %s in a browser", plural.Of(n.Rendered, "page", "pages"))
	if n.Skipped > 0 {
		fmt.Fprintf(b, " (%s read raw: not an application shell)", plural.Of(n.Skipped, "page", "pages"))
	}
	b.WriteString("\n")
	for _, l := range []struct {
		n    int
		what string
		rule rules.ID
	}{
		{n.JSLinks, "links only after rendering", rules.AUD19},
		{n.Noindex, "noindex changed by script", rules.AUD20},
		{n.Canonical, "canonical changed by script", rules.AUD21},
		{n.Title, "title changed by script", rules.AUD22},
		{n.Soft404, "error page with 200 (soft 404)", rules.AUD23},
		{n.Empty, "empty after rendering", rules.AUD23},
		{n.ConsoleErrors, "console errors", rules.AUD24},
		{n.FailedRequests, "failed requests", rules.AUD25},
		{n.TimedOut, "not settled in time", rules.AUD26},
		{n.Failed, "not rendered (read raw)", rules.AUD26},
	} {
		if l.n > 0 {
			fmt.Fprintf(b, "  %-32s %d (%s)\n", l.what, l.n, l.rule)
		}
	}
}
