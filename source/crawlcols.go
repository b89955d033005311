package source

import (
	"net/url"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// unpublishable says why the current row of a crawler export is not a
// page to publish, as its authors meant it: a status other than 200
// (SRC-07), a page the crawler found not indexable (SRC-08), a canonical
// naming another URL (SRC-09); nil when it is one, or when the export
// has no such columns or leaves them empty. loc is the row's loc.
func (c *csvReader) unpublishable(loc string, line int) *Error {
	omit := func(f csvField, rule rules.ID, msg string) *Error {
		return &Error{File: c.o.Name, Line: line, Col: f.col, Rule: rule, Severity: sitemap.SeverityInfo,
			Message: "row left out: " + msg + "; --all-rows publishes every row"}
	}
	if v, f := c.field(c.cols[colStatus]); len(v) > 0 {
		if n, ok := statusCode(string(v)); !ok {
			return omit(f, rules.SRC07, "the export gives "+strconv.Quote(loc)+" status "+strconv.Quote(string(v))+", not 200")
		} else if n != 200 {
			return omit(f, rules.SRC07, "the export gives "+strconv.Quote(loc)+" status "+strconv.Itoa(n)+", not 200")
		}
	}
	if v, f := c.field(c.cols[colIndexability]); len(v) > 0 && notIndexable(string(v)) {
		return omit(f, rules.SRC08, "the export says "+strconv.Quote(loc)+" is not indexable ("+strconv.Quote(string(v))+")")
	}
	if v, f := c.field(c.cols[colCanonical]); len(v) > 0 {
		if canon := string(v); !sameURL(loc, canon) {
			return omit(f, rules.SRC09, "the canonical of "+strconv.Quote(loc)+" is "+strconv.Quote(canon)+"; list that URL")
		}
	}
	return nil
}

// statusCode reads a status value: its first number ("301", "301 Moved
// Permanently", "HTTP 404 Not Found"), or 200 for a bare "OK"; ok is
// false for a value without a number ("Blocked by robots.txt",
// "Connection Timeout"), which is no page answering 200 either.
func statusCode(v string) (n int, ok bool) {
	i := strings.IndexAny(v, "0123456789")
	if i < 0 {
		return 200, headerKey(v) == "ok"
	}
	j := i
	for j < len(v) && j-i < 4 && v[j] >= '0' && v[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(v[i:j])
	return n, err == nil
}

// notIndexable reports whether an indexability value says no:
// "Non-Indexable" (Screaming Frog), "Not Indexable" (Sitebulb), "No",
// "false" or "0" (Ahrefs and other yes/no columns), any case, spaces
// and dashes aside; a robots directive with noindex ("noindex, follow",
// a Meta Robots column mapped with --columns), or a crawler's reason
// for it (Screaming Frog's Indexability Status: "Canonicalised",
// "Blocked by Robots.txt", "Redirected", "Client Error", …).
func notIndexable(v string) bool {
	k := headerKey(v)
	switch k {
	case "nonindexable", "notindexable", "no", "false", "0", "n",
		"canonicalised", "canonicalized", "redirected", "clienterror", "servererror", "blocked":
		return true
	}
	return strings.Contains(k, "noindex") || strings.HasPrefix(k, "blockedby")
}

// sameURL reports whether canon, resolved against loc when it is
// relative, is loc: compared in their normal form (L-18), so a canonical
// spelled differently (an upper-case host, an escaped '~') is self.
func sameURL(loc, canon string) bool {
	if canon == loc {
		return true
	}
	if b, err := url.Parse(loc); err == nil && b.IsAbs() {
		if r, err := url.Parse(canon); err == nil {
			canon = b.ResolveReference(r).String()
		}
	}
	return urlnorm.Key(canon) == urlnorm.Key(loc)
}
