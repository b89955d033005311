package sitemap

import (
	"errors"
	"strconv"

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
)

// The URL checks of the encoder. The rules themselves (syntax, length,
// scope) are package internal/check's, which package validate applies
// too, so both say the same thing about the same URL; this file names the
// field and takes the fast path of check_fast.go for the common case.

// problemErr names field f and its value in a check's problem (a new one
// each time), which makes it the *EntryError the encoder returns; its
// Message says what to do too, as every EntryError's does.
func problemErr(f field, value string, p *check.Problem) *EntryError {
	p.Message, p.Fix = p.Text(), ""
	p.Field, p.Value = f.String(), value
	return p
}

// checkLoc checks a page URL: the <loc> of a url (kind check.Page) or of
// an index entry (check.Child). The common case takes the fast path of
// check_fast.go; everything else, and every error, comes from
// checkLocSlow.
func (o EncoderOptions) checkLoc(f field, s string, k check.Kind) error {
	_, err := o.checkLocPlain(f, s, k)
	return err
}

// checkLocPlain is checkLoc that also reports whether s took the fast path
// with nothing appendText would escape (fastURL's plain).
func (o EncoderOptions) checkLocPlain(f field, s string, k check.Kind) (plain bool, err error) {
	if p, plain, ok := fastURL(s); ok && len(s) >= MinLocLength && len(s) < MaxLocLength {
		if o.Scope == nil || o.inScopeFast(p) {
			return plain, nil
		}
		return false, o.checkScope(f, s, p, k)
	}
	return false, o.checkLocSlow(f, s, k)
}

// checkLocSlow is checkLoc without the fast path.
func (o EncoderOptions) checkLocSlow(f field, s string, k check.Kind) error {
	if s == "" {
		return entryErr(f, rules.X04, "", "is empty; every entry needs an absolute URL such as https://www.example.com/page")
	}
	p, pr := check.URL(s)
	if !pr.OK() {
		return problemErr(f, s, pr)
	}
	if pr := check.Length(s); !pr.OK() {
		return problemErr(f, s, pr)
	}
	if o.Scope != nil {
		return o.checkScope(f, s, p, k)
	}
	return nil
}

// checkOtherURL checks an optional URL field other than loc: it must be an
// absolute http(s) URL in RFC 3986 syntax (rule names the field's own
// rule, broken by a value that is not an absolute http(s) URL at all; see
// check.OtherURL). maxLen applies L-06 as well (for hreflang hrefs, which
// are page URLs).
func checkOtherURL(f field, s string, rule rules.ID, maxLen bool) error {
	if _, _, ok := fastURL(s); ok && (!maxLen || len(s) < MaxLocLength) {
		return nil
	}
	return checkOtherURLSlow(f, s, rule, maxLen)
}

// checkOtherURLSlow is checkOtherURL without the fast path.
func checkOtherURLSlow(f field, s string, rule rules.ID, maxLen bool) error {
	if _, pr := check.OtherURL(s, rule, maxLen); !pr.OK() {
		return problemErr(f, s, pr)
	}
	return nil
}

// checkURL checks that s is an absolute http(s) URL in RFC 3986 syntax
// whose every character is in the URI character set (check.URL: L-01,
// L-07, L-16).
func checkURL(f field, s string) (check.Parts, error) {
	p, pr := check.URL(s)
	if !pr.OK() {
		return p, problemErr(f, s, pr)
	}
	return p, nil
}

// checkScopeOption reports a plain error when o.Scope is set but cannot
// serve as a scope.
func (o EncoderOptions) checkScopeOption() error {
	if o.Scope == nil {
		return nil
	}
	if _, err := check.NewScope(o.Scope); err != nil {
		return errors.New("sitemap: EncoderOptions.Scope " + strconv.Quote(o.Scope.String()) + " is not an absolute http(s) URL")
	}
	return nil
}

// checkScope applies L-15 to a loc with the parts p (check.Scope.Check):
// L-09 for a page outside o.Scope, I-05 or I-06 for an index child.
func (o EncoderOptions) checkScope(f field, s string, p check.Parts, k check.Kind) error {
	sc, err := check.NewScope(o.Scope)
	if err != nil {
		return errors.New("sitemap: EncoderOptions.Scope " + strconv.Quote(o.Scope.String()) + " is not an absolute http(s) URL")
	}
	if pr := sc.Check(p, k); !pr.OK() {
		return problemErr(f, s, pr)
	}
	return nil
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
