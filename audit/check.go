package audit

import (
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
)

// Severity is the rule's severity in the book ("error", "warning",
// "info").
func Severity(rule rules.ID) string {
	return rule.Severity().String()
}

// maxHops is how many redirects are followed to name a final target.
const maxHops = 10

// notPage are path extensions of files that are not pages: a HEAD tells
// what the audit needs of them.
var notPage = map[string]bool{
	".pdf": true, ".jpg": true, ".jpeg": true, ".png": true, ".gif": true, ".webp": true, ".svg": true, ".avif": true,
	".zip": true, ".gz": true, ".tar": true, ".mp4": true, ".webm": true, ".mp3": true, ".ogg": true, ".wav": true,
	".doc": true, ".docx": true, ".xls": true, ".xlsx": true, ".ppt": true, ".pptx": true, ".csv": true, ".json": true,
	".xml": true, ".txt": true, ".woff2": true, ".ico": true,
}

// check audits one URL. ok is false when ctx ended before the URL was
// decided (it stays to do).
func (a *Auditor) check(ctx context.Context, it todoItem) (state.AuditResult, bool) {
	e := it.AuditListed
	rec := Record{URL: e.Loc, Listed: !e.Extra, Source: e.Source, LastMod: e.LastMod}
	res := state.AuditResult{Loc: e.Loc, Key: e.Key}
	var cur seen
	a.verdict(ctx, e, &rec, &res, &cur)
	if ctx.Err() != nil {
		return res, false
	}
	if a.o.History && !e.Extra && rec.Status == http.StatusOK {
		row, h, fs := judge(e.Key, it.prev, cur, a.run.Time)
		res.History, rec.History, rec.ETag, rec.ContentHash = &row, h, cur.etag, cur.fingerprint
		rec.Findings = append(rec.Findings, fs...)
	}
	if len(rec.Findings) == 0 {
		rec.Findings = []Finding{}
	}
	rec.Class = classOf(rec.Findings)
	res.Status = rec.Status
	res.Data, _ = json.Marshal(&rec)
	return res, true
}

// classOf is the rule of the first error, else the first finding, else
// AUD-01.
func classOf(fs []Finding) rules.ID {
	for _, f := range fs {
		if f.Severity == rules.Error {
			return f.Rule
		}
	}
	if len(fs) > 0 {
		return fs[0].Rule
	}
	return rules.AUD01
}

// verdict classifies e into rec and res; cur gets what the history
// records of a URL that answers 200.
func (a *Auditor) verdict(ctx context.Context, e state.AuditListed, rec *Record, res *state.AuditResult, cur *seen) {
	if !e.Extra && !a.listingFindings(e, rec) {
		return
	}
	if !a.robotsAllow(ctx, e, rec) {
		return
	}
	resp, err := a.get(ctx, e.Loc, notPage[strings.ToLower(path.Ext(urlPath(e.Loc)))])
	if err != nil {
		if ctx.Err() == nil {
			rec.add(rules.AUD16, "%v", err)
		}
		return
	}
	defer resp.Close()
	rec.Status = resp.Status
	rec.ContentType = resp.ContentType
	if !a.statusFindings(ctx, e, resp, rec) {
		return
	}
	rec.LastModified = resp.LastModified
	*cur = seen{lastMod: e.LastMod, etag: resp.ETag, lastModified: resp.LastModified}
	if !e.Extra {
		a.lastmod(e, resp.Response, rec)
	}
	mt, _, _ := mime.ParseMediaType(resp.ContentType)
	if mt != "text/html" && mt != "application/xhtml+xml" && resp.ContentType != "" {
		if !e.Extra {
			a.fileFindings(resp, mt, rec)
		}
		return
	}
	if resp.Header == nil || resp.head {
		// A HEAD of a path that looked like a file answered HTML: read it.
		resp.Close()
		if resp, err = a.get(ctx, e.Loc, false); err != nil {
			if ctx.Err() == nil {
				rec.add(rules.AUD16, "%v", err)
			}
			return
		}
		defer resp.Close()
	}
	p, ok := a.readPage(ctx, e, resp, rec)
	if !ok {
		return
	}
	res.HTML = true
	cur.fingerprint = p.Fingerprint
	for _, alt := range p.Alternates {
		res.Alternates = append(res.Alternates, state.AuditAlternate{Hreflang: alt.Hreflang, Href: alt.Href})
	}
	rec.Alternates = len(p.Alternates)
	if e.Extra {
		return
	}
	a.pageFindings(ctx, e, &p, rec)
}

// listingFindings adds to rec what the sitemaps say of a listed URL e: a
// URL listed more than once (AUD-14), one outside the sitemap's scope
// (AUD-15, then not requested) and a lastmod in the future (AUD-12). It
// reports whether to go on and request the URL.
func (a *Auditor) listingFindings(e state.AuditListed, rec *Record) bool {
	if e.Copies > 1 {
		where := e.Source
		if e.DupSource != "" && e.DupSource != e.Source {
			// Sitemaps are read concurrently: which came first is
			// timing, so the two are named in order.
			x, y := min(e.Source, e.DupSource), max(e.Source, e.DupSource)
			where = x + " and in " + y
		}
		rec.add(rules.AUD14, "listed %d times: in %s; keep it in one sitemap", e.Copies, where)
	}
	if e.Scope != "" {
		rec.add(rules.AUD15, "%s %s; not requested", e.Source, e.Scope)
		return false
	}
	if e.LastMod != "" {
		if d, err := sitemap.ParseDate(e.LastMod); err == nil && d.Time.After(a.o.Now()) {
			rec.add(rules.AUD12, "lastmod %s is in the future (M-07)", e.LastMod)
		}
	}
	return true
}

// robotsAllow reports whether the site's robots.txt lets the audit
// request e. When it does not, rec says why: disallowed, or unreadable
// (AUD-09), or the site not answering at all (AUD-16). An error reading
// it is AUD-16 too, unless ctx is done (then nothing is added).
func (a *Auditor) robotsAllow(ctx context.Context, e state.AuditListed, rec *Record) bool {
	r, err := a.o.HTTP.Robots(ctx, e.Loc)
	if err != nil {
		if ctx.Err() == nil {
			rec.add(rules.AUD16, "%v", err)
		}
		return false
	}
	switch {
	case r.Disallows(a.agent, e.Loc):
		rec.add(rules.AUD09, "robots.txt disallows it for the user agent %q; not requested", a.agent)
		return false
	case r.Unreachable() && fetch.KindOf(r.Err) == fetch.KindNetwork:
		// No answer at all: the site is down or unreachable, which is
		// no robots.txt rule of the site's.
		rec.add(rules.AUD16, "the site did not answer: its robots.txt could not be requested (%v); not requested", r.Err)
		return false
	case r.Unreachable():
		why := "could not be read"
		if r.Err != nil {
			why += " (" + r.Err.Error() + ")"
		}
		rec.add(rules.AUD09, "robots.txt %s, which disallows everything (RFC 9309); not requested", why)
		return false
	}
	return true
}

// statusFindings adds to rec what resp's status says of e: a redirect
// (followed to name its target), 404 (AUD-03), 410 (AUD-04), another 4xx
// or a status that is not 200 (AUD-05), 5xx (AUD-06). It reports whether
// the status is 200, the one to read on.
func (a *Auditor) statusFindings(ctx context.Context, e state.AuditListed, resp response, rec *Record) bool {
	switch st := resp.Status; {
	case st >= 300 && st < 400:
		a.redirect(ctx, e, resp.Response, rec)
		return false
	case st == http.StatusNotFound:
		rec.add(rules.AUD03, "answers 404 Not Found; remove it or restore the page")
		return false
	case st == http.StatusGone:
		rec.add(rules.AUD04, "answers 410 Gone; remove it from the sitemap")
		return false
	case st >= 400 && st < 500:
		rec.add(rules.AUD05, "answers %d %s", st, http.StatusText(st))
		return false
	case st >= 500:
		rec.add(rules.AUD06, "answers %d %s", st, http.StatusText(st))
		return false
	case st != http.StatusOK:
		rec.add(rules.AUD05, "answers %d %s, not 200", st, http.StatusText(st))
		return false
	}
	return true
}

// fileFindings adds to rec the findings of a listed URL that answers 200
// with a file of media type mt, not an HTML page (AUD-10): also noindex
// (AUD-07) when its X-Robots-Tag says so.
func (a *Auditor) fileFindings(resp response, mt string, rec *Record) {
	// A file has no <meta>: only its X-Robots-Tag can say noindex.
	if p, _ := crawl.ReadPage(strings.NewReader(""), resp.Header, resp.FinalURL, a.agent, 1); p.NoindexHeader {
		rec.add(rules.AUD07, "noindex in the X-Robots-Tag header; remove it from the sitemap or drop the noindex")
	}
	rec.add(rules.AUD10, "answers 200 with %s, not an HTML page", mt)
}

// readPage reads the HTML page resp answers for e, rendered in a browser
// when Options.Render is set and Options.RenderMode asks for it (a listed
// URL only; the render's findings go to rec, and a render that fails
// leaves the page as read). It reports false, with nothing more to do,
// when ctx ended while it read or rendered, and when the body cannot be
// decoded (AUD-16). A page cut short for another reason is read as far
// as it goes.
func (a *Auditor) readPage(ctx context.Context, e state.AuditListed, resp response, rec *Record) (crawl.Page, bool) {
	body, _, err := resp.Decoded()
	if err != nil {
		rec.add(rules.AUD16, "%v", err)
		return crawl.Page{}, false
	}
	p, err := crawl.ReadPage(body, resp.Header, resp.FinalURL, a.agent, a.o.MaxBodyBytes)
	if err != nil && ctx.Err() != nil {
		return crawl.Page{}, false
	}
	if a.o.Render != nil && !e.Extra && (a.o.RenderMode != crawl.RenderAuto || p.AppShell()) {
		rp, facts, err := crawl.RenderPage(ctx, a.renderer(), p, resp.Header, resp.FinalURL, a.agent, a.o.MaxBodyBytes)
		if ctx.Err() != nil {
			return crawl.Page{}, false
		}
		if err == nil {
			p = rp
		}
		renderFindings(rec, &facts)
	}
	return p, true
}

// pageFindings adds to rec what the HTML page p of a listed URL e says:
// noindex in its <meta> or its X-Robots-Tag header (AUD-07), and a
// canonical other than the URL (AUD-08, with whether the sitemaps list
// it; an error of the audit's state asking that is AUD-16).
func (a *Auditor) pageFindings(ctx context.Context, e state.AuditListed, p *crawl.Page, rec *Record) {
	switch {
	case p.NoindexMeta && p.NoindexHeader:
		rec.add(rules.AUD07, "noindex in a <meta name=\"robots\"> and in the X-Robots-Tag header; remove it from the sitemap or drop the noindex")
	case p.NoindexMeta:
		rec.add(rules.AUD07, "noindex in a <meta name=\"robots\">; remove it from the sitemap or drop the noindex")
	case p.NoindexHeader:
		rec.add(rules.AUD07, "noindex in the X-Robots-Tag header; remove it from the sitemap or drop the noindex")
	}
	if p.Canonical != "" && p.Canonical != e.Key && p.Canonical != e.Loc {
		rec.Target = p.Canonical
		listed, err := a.log.IsListed(ctx, p.Canonical, p.Canonical)
		if err != nil {
			rec.add(rules.AUD16, "state: %v", err)
			return
		}
		rec.add(rules.AUD08, "its canonical is %s, %s", p.Canonical, listedWord(listed, "list the canonical instead"))
	}
}

func listedWord(listed bool, otherwise string) string {
	if listed {
		return "which is listed too: remove this URL"
	}
	return "which is not listed: " + otherwise
}

// lastmod compares the listed lastmod with the server's Last-Modified
// (AUD-11): a Last-Modified equal to the response's Date (a dynamic page
// stamped as it is served) or in the future says nothing.
func (a *Auditor) lastmod(e state.AuditListed, resp *fetch.Response, rec *Record) {
	if e.LastMod == "" || resp.LastModified == "" {
		return
	}
	d, err := sitemap.ParseDate(e.LastMod)
	if err != nil {
		return
	}
	lm, err := http.ParseTime(resp.LastModified)
	if err != nil || lm.After(a.o.Now()) {
		return
	}
	if dt, err := http.ParseTime(resp.Header.Get("Date")); err == nil && lm.Sub(dt).Abs() < 2*time.Second {
		return
	}
	stale := false
	if d.Precision <= sitemap.PrecisionDay {
		// A date alone: stale when the server's day (UTC) is later.
		stale = lm.UTC().Format(time.DateOnly) > d.Time.Format(time.DateOnly)
	} else {
		stale = lm.After(d.Time.Add(time.Second))
	}
	if stale {
		rec.add(rules.AUD11, "lastmod %s is older than the server's Last-Modified %s", e.LastMod, lm.UTC().Format(time.RFC3339))
	}
}

// redirect follows a redirect hop by hop, with HEAD requests (GET where
// the server refuses HEAD), to its final target and says whether that
// target is listed.
func (a *Auditor) redirect(ctx context.Context, e state.AuditListed, first *fetch.Response, rec *Record) {
	cur, st := e.Loc, first.Status
	loc := first.Header.Get("Location")
	seen := map[string]bool{e.Loc: true}
	hops := 0
	for {
		base, err := url.Parse(cur)
		if err != nil || loc == "" {
			rec.add(rules.AUD16, "answers %d without a Location to follow", st)
			return
		}
		next, err := a.norm.Resolve(base, loc)
		if err != nil {
			rec.add(rules.AUD16, "redirects to %q, which is no URL", loc)
			return
		}
		hops++
		cur = next
		if seen[cur] {
			rec.add(rules.AUD16, "redirect loop after %d hops (back to %s)", hops, cur)
			return
		}
		seen[cur] = true
		if hops >= maxHops {
			rec.add(rules.AUD16, "more than %d redirects from %d; stopped at %s", maxHops, first.Status, cur)
			return
		}
		// Only the status and Location of a hop count: HEAD tells them.
		resp, err := a.get(ctx, cur, true)
		if err != nil {
			if ctx.Err() == nil {
				rec.Target = cur
				rec.add(rules.AUD02, "redirects (%d) to %s, which fails: %v", first.Status, cur, err)
			}
			return
		}
		st, loc = resp.Status, resp.Header.Get("Location")
		resp.Close()
		if st < 300 || st >= 400 {
			break
		}
	}
	rec.Target = cur
	listed, err := a.log.IsListed(ctx, cur, cur)
	if err != nil {
		rec.add(rules.AUD16, "state: %v", err)
		return
	}
	chain := ""
	if hops > 1 {
		chain = " through " + strconv.Itoa(hops) + " redirects"
	}
	final := "answers " + strconv.Itoa(st)
	if st != http.StatusOK {
		final += " " + http.StatusText(st)
	}
	rec.add(rules.AUD02, "redirects (%d)%s to %s, which %s and is %s", first.Status, chain, cur, final, listedWord2(listed))
}

func listedWord2(listed bool) string {
	if listed {
		return "listed too: remove this URL"
	}
	return "not listed: list it instead"
}

func urlPath(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Path
	}
	return ""
}

// response is a fetch.Response and whether it answers a HEAD.
type response struct {
	*fetch.Response
	head bool
}

// get requests u once the rate allows: HEAD when head (GET when the
// server refuses HEAD), else GET; redirects not followed, any status
// returned, 429 and 503 retried after the rate limiter.
func (a *Auditor) get(ctx context.Context, u string, head bool) (response, error) {
	g := fetch.GetOptions{
		Accept:       "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
		MaxRedirects: fetch.NoRedirects,
		AnyStatus:    true,
		Retry:        fetch.RetryBusy,
		Attempts:     max(a.o.Retries, 0) + 1,
		Wait: func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-t.C:
			}
			return a.limiter.Wait(ctx)
		},
	}
	if err := a.limiter.Wait(ctx); err != nil {
		return response{}, err
	}
	if head {
		r, err := a.o.HTTP.Head(ctx, u, g)
		if err != nil {
			return response{}, err
		}
		if r.Status != http.StatusMethodNotAllowed && r.Status != http.StatusNotImplemented {
			return response{r, true}, nil
		}
		r.Close()
		if err := a.limiter.Wait(ctx); err != nil {
			return response{}, err
		}
	}
	r, err := a.o.HTTP.Get(ctx, u, g)
	if err != nil {
		var fe *fetch.Error
		if errors.As(err, &fe) {
			return response{}, errors.New(fe.Msg)
		}
		return response{}, err
	}
	return response{r, false}, nil
}
