package validate

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// encodingProblem returns why s is not a properly percent-encoded URI
// (L-07, RFC 3986), or "" when it is. libxml2's anyURI accepts all of these
// (a check the XSD cannot express), so this is one of the checks the validator adds on top of
// the XSD.
func encodingProblem(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "has a '%' that is not followed by two hex digits; write a literal % as %25"
			}
		case c >= utf8.RuneSelf:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return "contains the raw character " + quoteRune(r) + "; percent-encode it as UTF-8 (ü is %C3%BC)"
		case c == ' ':
			return "contains a space; write it as %20"
		case c < 0x20 || c == 0x7f:
			return "contains a control character; percent-encode it"
		case mustEscape(c):
			return "contains " + quoteRune(rune(c)) + ", which URLs must percent-encode (" + percent(c) + ")"
		}
	}
	return ""
}

// mustEscape marks the printable ASCII characters RFC 3986 never allows
// unescaped in a URI.
func mustEscape(c byte) bool {
	switch c {
	case '"', '<', '>', '\\', '^', '`', '{', '|', '}':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func percent(c byte) string {
	const hex = "0123456789ABCDEF"
	return string([]byte{'%', hex[c>>4], hex[c&15]})
}

func quoteRune(r rune) string {
	if r == '\'' {
		return `"'"`
	}
	return "'" + string(r) + "'"
}

// absoluteProblem returns the rule and reason when s is not an absolute
// http(s) URL (L-01, L-02, L-16), or "" rule when it is. It also returns
// the parsed URL when parsing worked.
func absoluteProblem(s string) (rule, why string, u *url.URL) {
	u, err := url.Parse(s)
	if err != nil {
		return "L-01", "is not a valid URL", nil
	}
	if u.Scheme == "" {
		return "L-01", "is not an absolute URL; sitemaps need https://…", u
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return "L-16", "has the scheme " + u.Scheme + ":, but sitemaps list only http(s) pages", u
	}
	if u.Host == "" || u.Hostname() == "" {
		return "L-01", "has no host; sitemaps need https://host/…", u
	}
	if u.Opaque != "" {
		return "L-01", "is not a hierarchical URL; sitemaps need https://host/…", u
	}
	return "", "", u
}

// normHost returns the host in the form the scope rule compares (L-15):
// lower case, IDNA/punycode-normalised.
func normHost(h string) string {
	h = strings.TrimSuffix(h, ".")
	if ldh(h) {
		// ASCII letters, digits, '-' and '.': IDNA leaves it as it is
		// (lower-cased), so skip the IDNA machinery on the common path.
		return strings.ToLower(h)
	}
	h = strings.ToLower(h)
	if a, err := idna.Lookup.ToASCII(h); err == nil {
		return a
	}
	return h
}

// ldh reports whether h holds only ASCII letters, digits, '-' and '.'.
func ldh(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i] | 0x20
		if !('a' <= c && c <= 'z' || '0' <= h[i] && h[i] <= '9' || h[i] == '-' || h[i] == '.') {
			return false
		}
	}
	return true
}

// effectivePort returns u's port, applying the default ports 80 and 443.
func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// scope is the parsed base of the scope rule (L-09, L-15).
type scope struct {
	scheme, host, port, dir string
	text                    string // scheme://host[:port]/dir, for messages
}

// newScope parses the sitemap's (or index's) URL into its scope: scheme,
// normalised host, effective port and directory (the path up to and
// including its last '/').
func newScope(raw string) (*scope, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if rule, why, _ := absoluteProblem(raw); rule != "" {
		return nil, &scopeError{raw: raw, why: why}
	}
	p := u.EscapedPath()
	dir := p[:strings.LastIndexByte(p, '/')+1]
	if dir == "" {
		dir = "/"
	}
	s := &scope{
		scheme: strings.ToLower(u.Scheme),
		host:   normHost(u.Hostname()),
		port:   effectivePort(u),
	}
	s.dir = dir
	s.text = s.scheme + "://" + u.Host + dir
	return s, nil
}

type scopeError struct{ raw, why string }

func (e *scopeError) Error() string { return "scope URL " + `"` + e.raw + `" ` + e.why }

// problem says how u falls outside s: "" when inside, else a reason. It
// also reports whether only the directory differs.
func (s *scope) problem(u *url.URL) (why string, dirOnly bool) {
	if strings.ToLower(u.Scheme) != s.scheme {
		return "has the scheme " + strings.ToLower(u.Scheme) + ", not " + s.scheme, false
	}
	if normHost(u.Hostname()) != s.host {
		return "is on the host " + u.Hostname() + ", not " + s.host, false
	}
	if effectivePort(u) != s.port {
		return "uses port " + effectivePort(u) + ", not " + s.port, false
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if !strings.HasPrefix(p, s.dir) {
		return "is not under the sitemap's directory " + s.dir, true
	}
	return "", false
}

// registrableDomain returns the eTLD+1 of host (V-06 uploader info), or
// the normalised host itself when it has none (an IP address, localhost).
func registrableDomain(host string) string {
	h := normHost(host)
	if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return d
	}
	return h
}
