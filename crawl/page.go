package crawl

import (
	"context"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// fetch requests one page and reads what the crawler needs from it. It
// waits for the rate limiter and for any backoff of the host first, and
// again before a retry of a 429 or 503, which pauses every request to the
// host for the Retry-After (or backoff).
func (c *Crawler) fetch(ctx context.Context, t task) result {
	res := result{task: t}
	wctx := ctx
	if !c.deadline.IsZero() {
		// Waiting for a token or a backoff ends at max-time: a request
		// that cannot start before it is not made (the URL stays in the
		// frontier and is reported as limit:max-time).
		var cancel context.CancelFunc
		wctx, cancel = context.WithDeadline(ctx, c.deadline)
		defer cancel()
	}
	waitFailed := func() result {
		if ctx.Err() == nil && !c.deadline.IsZero() {
			res.Unfetched = true
			return res
		}
		res.Reason = ReasonError
		return res
	}
	if err := c.wait(wctx); err != nil {
		return waitFailed()
	}
	var waitErr error
	resp, err := c.http.Get(ctx, t.Loc, fetch.GetOptions{
		Accept:       "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
		MaxRedirects: fetch.NoRedirects,
		AnyStatus:    true,
		Retry:        fetch.RetryBusy,
		Attempts:     c.o.attempts(),
		Wait: func(_ context.Context, d time.Duration) error {
			c.pause(wctx, d)
			waitErr = c.wait(wctx)
			return waitErr
		},
	})
	if err != nil {
		if waitErr != nil {
			return waitFailed()
		}
		if ctx.Err() == nil {
			c.heard(t.Loc, err)
		}
		res.Reason = ReasonError
		return res
	}
	c.heard(t.Loc, nil)
	defer drain(resp)
	c.read(ctx, &res, resp)
	res.compactEdges()
	return res
}

// wait blocks until the host's backoff is over and the rate allows a
// request (for a worker of a shared crawl: until the slot it reserved in
// the crawl log).
func (c *Crawler) wait(ctx context.Context) error {
	if c.shared != nil {
		return c.sharedWait(ctx)
	}
	for {
		c.pauseMu.Lock()
		d := time.Until(c.pauseUntil)
		c.pauseMu.Unlock()
		if d <= 0 {
			break
		}
		if err := sleep(ctx, d); err != nil {
			return err
		}
	}
	return c.limiter.Wait(ctx)
}

// pause stops every request to the host for d (of every worker, for a
// shared crawl).
func (c *Crawler) pause(ctx context.Context, d time.Duration) {
	if c.shared != nil {
		c.failed(c.shared.Pause(ctx, c.start.Host, d))
		return
	}
	c.pauseMu.Lock()
	if until := time.Now().Add(d); until.After(c.pauseUntil) {
		c.pauseUntil = until
	}
	c.pauseMu.Unlock()
}

// read fills res from a page's final response.
func (c *Crawler) read(ctx context.Context, res *result, resp *fetch.Response) {
	res.Status = resp.Status
	base, err := url.Parse(resp.FinalURL)
	if err != nil {
		res.Reason = ReasonError
		return
	}
	switch {
	case resp.Status >= 300 && resp.Status < 400:
		res.Reason = ReasonRedirect
		if loc := resp.Header.Get("Location"); loc != "" {
			if target, err := c.o.Query.Resolve(base, loc); err == nil && target != res.Loc {
				res.Redirect = target
				res.edge(target, state.LinkRedirect)
			}
		}
		return
	case resp.Status != http.StatusOK:
		res.Reason = "status:" + strconv.Itoa(resp.Status)
		return
	}
	ct := resp.ContentType
	if mt, _, err := mime.ParseMediaType(ct); ct != "" && (err != nil || mt != "text/html" && mt != "application/xhtml+xml") {
		res.Reason = ReasonNotHTML
		return
	}
	var body io.Reader = resp
	if resp.ContentEncoding != "" {
		// The client's decoding: gzip undone when the body is gzip; a
		// body labelled gzip that is not is read as it is.
		if body, _, err = resp.Decoded(); err != nil {
			res.Reason = ReasonError
			return
		}
	}
	p, err := parseHTML(body, ct, c.o.MaxBodyBytes, strings.ToLower(c.agent))
	if err != nil && ctx.Err() == nil && fetch.KindOf(resp.Err()) == fetch.KindTimeout {
		res.Reason = ReasonError // the body did not arrive in time
		return
	}
	if c.o.Render != nil {
		c.render(ctx, res, base, resp.Header, &p)
		return
	}
	c.build(res, base, resp.Header, &p)
}

// build turns a parsed 200 HTML page into the result: links to follow,
// the listing decision and the entry.
func (c *Crawler) build(res *result, base *url.URL, header http.Header, p *page) {
	if p.Base != "" {
		if b, err := base.Parse(p.Base); err == nil {
			base = b
		}
	}
	res.Title = p.Title
	res.Truncated = p.Truncated
	xNoindex, xNofollow := xRobotsTag(header.Values("X-Robots-Tag"), c.agent)
	noindex := (p.Noindex || xNoindex) && !c.o.IgnoreNoindex
	nofollow := (p.Nofollow || xNofollow) && !c.o.IgnoreNofollow

	c.addLinks(res, base, p.Links, nofollow)
	canonical := c.canonical(res, base, header, p.Canonical)
	switch {
	case noindex:
		res.Reason = ReasonNoindex
	case canonical != "" && canonical != res.Loc && !c.o.IgnoreCanonical:
		res.Reason = ReasonCanonical
		res.Redirect = canonical
	case !matches(res.Loc, c.o.ListInclude, c.o.ListExclude):
		res.Reason = ReasonListExclude
	}
	if res.Reason != "" {
		return
	}
	u := &sitemap.URL{Loc: res.Loc, ContentHash: p.Hash}
	if lm := header.Get("Last-Modified"); lm != "" {
		// A server's Last-Modified is the page's own date (M-05); one in
		// the future is not believed, nor one equal to the response's
		// Date: a dynamic page stamped with the time it was served, which
		// is the crawl time M-02 forbids (the fingerprint decides then).
		if t, err := http.ParseTime(lm); err == nil && !t.After(time.Now()) && !responseTime(t, header.Get("Date")) {
			u.LastMod = sitemap.DateOf(t.UTC())
		}
	}
	seen := make(map[string]bool) // the hreflang codes (lower case) and image URLs taken
	c.addAlternates(res, u, base, p, nofollow, seen)
	c.addImages(u, base, p.Images, seen)
	res.Entry = u
}

// addLinks resolves the page's links against base and adds them to res:
// to follow, or, when the page is nofollow or the link is (unless
// Options.IgnoreNofollow), to Soft; each also as an edge of the graph. A
// link that does not resolve to an http(s) URL (normalised as
// Options.Query says), or that points at the page itself, is left out.
func (c *Crawler) addLinks(res *result, base *url.URL, links []link, nofollow bool) {
	for _, l := range links {
		href, err := c.o.Query.Resolve(base, l.Href)
		if err != nil || href == res.Loc {
			continue
		}
		if nofollow || l.Nofollow && !c.o.IgnoreNofollow {
			res.Soft = append(res.Soft, href)
			res.edge(href, state.LinkNofollow)
		} else {
			res.Follow = append(res.Follow, href)
			res.edge(href, state.LinkFollow)
		}
	}
}

// canonical returns the page's canonical URL, resolved against base: the
// <link rel=canonical> given (raw), else the Link header's. It is also
// added to res as an edge of the graph. "" when there is none or it does
// not resolve.
func (c *Crawler) canonical(res *result, base *url.URL, header http.Header, raw string) string {
	canonical := ""
	if raw == "" {
		raw = linkCanonical(header.Values("Link"))
	}
	if raw != "" {
		if cu, err := c.o.Query.Resolve(base, raw); err == nil {
			canonical = cu
			res.edge(cu, state.LinkCanonical)
		}
	}
	return canonical
}

// addAlternates gives u the page's hreflang alternates, resolved against
// base: the first of each code (compared without case, recorded in seen),
// skipping invalid codes and links that do not resolve; each is an edge
// of the graph, and the other versions are followed unless the page is
// nofollow. When the page lists others but not itself, it is listed under
// its <html lang> (H-03), if that is a valid code not taken. No
// alternates: u has none.
func (c *Crawler) addAlternates(res *result, u *sitemap.URL, base *url.URL, p *page, nofollow bool, seen map[string]bool) {
	self := false
	for _, a := range p.Alternates {
		href, err := c.o.Query.Resolve(base, a.Href)
		lang := strings.TrimSpace(a.Hreflang)
		if err != nil || !validHreflang(lang) || seen[strings.ToLower(lang)] {
			continue
		}
		seen[strings.ToLower(lang)] = true
		u.Alternates = append(u.Alternates, sitemap.Alternate{Hreflang: lang, Href: href})
		res.edge(href, state.LinkAlternate)
		if href == res.Loc {
			self = true
		} else if !nofollow {
			// The other versions are pages of the site too (or of
			// another, which the frontier leaves out): Entries checks
			// that they link back (H-04), which needs them crawled.
			res.Follow = append(res.Follow, href)
		}
	}
	if len(u.Alternates) > 0 && !self && p.Lang != "" && validHreflang(p.Lang) && !seen[strings.ToLower(p.Lang)] {
		// H-03: every version lists itself. A page that does not says
		// what it is in <html lang>.
		u.Alternates = append(u.Alternates, sitemap.Alternate{Hreflang: p.Lang, Href: res.Loc})
	}
}

// addImages gives u the page's images, resolved against base, each once
// (recorded in seen), on the image hosts allowed (Options.ImageHosts),
// at most sitemap.MaxImagesPerURL; one that does not resolve is left
// out.
func (c *Crawler) addImages(u *sitemap.URL, base *url.URL, images []string, seen map[string]bool) {
	for _, src := range images {
		img, err := c.o.Query.Resolve(base, src)
		if err != nil || seen[img] || !c.imageHost(img) {
			continue
		}
		seen[img] = true
		u.Images = append(u.Images, sitemap.Image{Loc: img})
		if len(u.Images) == sitemap.MaxImagesPerURL {
			break
		}
	}
}

// responseTime reports whether a Last-Modified t is the response's own
// time: at most a second from its Date header (HTTP dates count whole
// seconds).
func responseTime(t time.Time, date string) bool {
	d, err := http.ParseTime(date)
	if err != nil {
		return false
	}
	diff := t.Sub(d)
	return diff > -2*time.Second && diff < 2*time.Second
}

// imageHost reports whether an image URL may be listed: on the site's
// host and allowed by its robots.txt, or on one of ImageHosts (IM-05: the
// image must not be blocked by robots.txt).
func (c *Crawler) imageHost(img string) bool {
	if strings.HasPrefix(img, c.origin+"/") {
		return c.robots == nil || c.robots.Allowed(img)
	}
	u, err := url.Parse(img)
	if err != nil {
		return false
	}
	for _, h := range c.o.ImageHosts {
		if urlnorm.OnHost(u, h) {
			return true
		}
	}
	return false
}

// validHreflang accepts x-default and language[-script][-region] codes
// (H-06): 2–3 letters, then subtags of 2–8 letters or digits.
func validHreflang(s string) bool {
	if strings.EqualFold(s, "x-default") {
		return true
	}
	parts := strings.Split(s, "-")
	for i, p := range parts {
		if len(p) < 2 || len(p) > 8 || i == 0 && len(p) > 3 {
			return false
		}
		for _, r := range p {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}

// linkCanonical returns the target of a `Link: <URL>; rel="canonical"`
// header, or "".
func linkCanonical(values []string) string {
	for _, v := range values {
		for v != "" {
			i := strings.IndexByte(v, '<')
			j := strings.IndexByte(v, '>')
			if i < 0 || j < i {
				break
			}
			target := v[i+1 : j]
			rest := v[j+1:]
			next := strings.IndexByte(rest, '<')
			params := rest
			if next >= 0 {
				params, v = rest[:next], rest[next:]
			} else {
				v = ""
			}
			for _, prm := range strings.Split(params, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(prm), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "rel") && hasToken(strings.Trim(strings.TrimSpace(val), `"`), "canonical") {
					return strings.TrimSpace(target)
				}
			}
		}
	}
	return ""
}

// edge adds a link of the page to the link graph (From is the page).
func (res *result) edge(to string, k state.LinkKind) {
	if to != res.Loc {
		res.Edges = append(res.Edges, state.CrawlEdge{From: res.Loc, To: to, Kind: k})
	}
}

// compactEdges sorts the page's links and keeps each (To, Kind) once: a
// page often links to the same URL from its menu and its text, and one
// may hold up to maxLinksPerPage links, so this is a sort, not a search
// per link.
func (res *result) compactEdges() {
	less := func(a, b state.CrawlEdge) int {
		if c := strings.Compare(a.To, b.To); c != 0 {
			return c
		}
		return int(a.Kind) - int(b.Kind)
	}
	slices.SortFunc(res.Edges, less)
	res.Edges = slices.CompactFunc(res.Edges, func(a, b state.CrawlEdge) bool { return less(a, b) == 0 })
}
