package validate

import (
	"errors"
	"net/url"
	"strconv"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// The value rules (URL syntax, length, scope, the extensions' fields) are
// package internal/check's, which the encoder (sitemap.EncoderOptions.Check)
// applies too: the validator and the generator give a value the same rule
// ID, message and fix. Only the severity is the validator's own (a loc of
// exactly 2,048 characters and an out-of-scope loc on a trusted host are
// warnings here, refusals in the encoder).

// problem reports what check found wrong with value, the content of tag:
// `<loc> "https://bücher.example/" has a host with non-ASCII characters;
// write the host in punycode: "https://xn--bcher-kva.example/"`.
func (c *Checker) problem(line, col int, sev sitemap.Severity, tag, value string, pr *check.Problem) {
	msg := tag + " "
	if value != "" {
		msg += strconv.Quote(short(value)) + " "
	}
	c.emit(line, col, pr.Rule, sev, "%s", msg+pr.Text())
}

// newScope parses the sitemap's (or index's) URL into its scope (L-15).
func newScope(raw string) (check.Scope, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return check.Scope{}, errors.New("scope URL " + strconv.Quote(raw) + " is not a valid URL")
	}
	sc, err := check.NewScope(u)
	if err != nil {
		return check.Scope{}, errors.New("scope URL " + strconv.Quote(raw) + " is not an absolute http(s) URL; give the URL the sitemap is served from")
	}
	return sc, nil
}

// checkLoc runs the loc rules: URL syntax (L-01, L-07, L-16), length (L-06)
// and the scope rules (L-09/L-15 for pages, I-05/I-06 for index children).
// It returns the URL's parts and true when the loc is a valid URL.
func (c *Checker) checkLoc(loc string, line, col int, index bool) (check.Parts, bool) {
	if loc == "" {
		// A missing or empty <loc> is the decoder's X-04.
		return check.Parts{}, false
	}
	const tag = "<loc>"
	p, pr := check.URL(loc)
	if pr != nil && pr.Rule == rules.X12 {
		// Readers trim a loc (the decoder has, with this warning): an
		// entry from elsewhere is checked as it will be read.
		c.problem(line, col, sitemap.SeverityWarning, tag, loc, pr)
		loc = pr.Suggest
		p, pr = check.URL(loc)
	}
	if !pr.OK() {
		c.problem(line, col, sitemap.SeverityError, tag, loc, pr)
	}
	if lp := check.Length(loc); !lp.OK() {
		sev := sitemap.SeverityError
		if check.AtXSDLimit(loc) {
			sev = sitemap.SeverityWarning // L-06: the XSD accepts exactly 2,048
		}
		c.problem(line, col, sev, tag, loc, lp)
	}
	if !pr.OK() {
		return p, false
	}
	if c.hasScope {
		k := check.Page
		if index {
			k = check.Child
		}
		if sp := c.scope.Check(p, k); !sp.OK() {
			sev := sitemap.SeverityError
			if c.o.CrossSubmit || c.trust[urlnorm.Host(p.Host)] {
				sev = sitemap.SeverityWarning // L-15, O-03, O-06
			}
			c.problem(line, col, sev, tag, loc, sp)
		}
	}
	return p, true
}

// extURL checks a URL-valued extension field (check.OtherURL): absolute
// http(s) under the field's rule, percent-encoded (L-07); maxLen adds
// L-06's limit (hreflang hrefs are page URLs). It returns the URL's parts
// and true when the value is a valid URL.
func (c *Checker) extURL(rule rules.ID, tag, v string, maxLen bool, line, col int) (check.Parts, bool) {
	p, pr := check.OtherURL(v, rule, maxLen)
	if !pr.OK() {
		c.problem(line, col, sitemap.SeverityError, tag, v, pr)
		return p, false
	}
	return p, true
}

// value reports pr, when it is a problem, as an error about tag's value.
func (c *Checker) value(line, col int, tag, v string, pr *check.Problem) {
	if !pr.OK() {
		c.problem(line, col, sitemap.SeverityError, tag, v, pr)
	}
}
