package urlnorm

import (
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// IsHTTP reports whether s starts with http:// or https:// (in any case).
func IsHTTP(s string) bool {
	if len(s) < 7 {
		return false
	}
	if strings.EqualFold(s[:7], "http://") {
		return true
	}
	return len(s) >= 8 && strings.EqualFold(s[:8], "https://")
}

// Host returns a host name as every comparison of hosts in this module
// makes it: lower case and, when it holds non-ASCII characters, in
// punycode (IDNA, as a browser looks it up; lower-cased only when IDNA
// refuses it). A trailing dot is kept: "example.com." is another host
// than "example.com", as for a browser, and a sitemap at
// https://example.com/ may list only URLs that start with
// https://example.com/ (L-09). It allocates only when h changes.
func Host(h string) string {
	if isASCII(h) {
		for i := 0; i < len(h); i++ {
			if isUpper(h[i]) {
				return strings.ToLower(h)
			}
		}
		return h
	}
	if a, err := idna.Lookup.ToASCII(h); err == nil {
		return a
	}
	return strings.ToLower(h)
}

// Site is where a URL is served, the site of I-05 and of fetch's
// same-site scope: its scheme, host and effective port. Two URLs are on
// the same site when their Sites are equal (==); the directory (I-06)
// and the path are not part of it. http://example.com and
// https://example.com, or example.com and www.example.com, are different
// sites.
type Site struct {
	Scheme string // "http" or "https"
	Host   string // as [Host] gives it; an IPv6 literal without brackets
	Port   int    // the port, or the scheme's default (80, 443) when absent
}

// SiteOf returns the site of the http(s) URL u; false when u is not an
// http(s) URL with a host and a numeric port.
func SiteOf(u *url.URL) (Site, bool) {
	var s Site
	switch {
	case strings.EqualFold(u.Scheme, "https"):
		s.Scheme, s.Port = "https", 443
	case strings.EqualFold(u.Scheme, "http"):
		s.Scheme, s.Port = "http", 80
	default:
		return Site{}, false
	}
	h := u.Hostname()
	if h == "" {
		return Site{}, false
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil {
			return Site{}, false
		}
		s.Port = n
	}
	s.Host = Host(h)
	return s, true
}

// ParseSite is [SiteOf] of the URL raw; false when raw does not parse.
func ParseSite(raw string) (Site, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return Site{}, false
	}
	return SiteOf(u)
}

// String is scheme://host:port, the port always written ("https://example.com:443").
func (s Site) String() string {
	return s.Scheme + "://" + s.HostPort(false)
}

// HostPort is host:port ("example.com:443"); with def true the scheme's
// default port is left out ("example.com", "example.com:8080"). An IPv6
// literal is in brackets.
func (s Site) HostPort(def bool) string {
	h := s.Host
	if strings.IndexByte(h, ':') >= 0 {
		h = "[" + h + "]"
	}
	if def && (s.Scheme == "https" && s.Port == 443 || s.Scheme == "http" && s.Port == 80) {
		return h
	}
	return h + ":" + strconv.Itoa(s.Port)
}

// Display is the site as a person reads it: the default port left out
// (https://www.example.com, http://127.0.0.1:8080).
func (s Site) Display() string {
	return s.Scheme + "://" + s.HostPort(true)
}

// Origin is the site of the URL raw as scheme://host:port (see
// [Site.String]); "" when raw is not an http(s) URL with a host.
func Origin(raw string) string {
	s, ok := ParseSite(raw)
	if !ok {
		return ""
	}
	return s.String()
}

// Display is the site of the URL raw as a person reads it (see
// [Site.Display]); "" when raw is not an http(s) URL with a host.
func Display(raw string) string {
	s, ok := ParseSite(raw)
	if !ok {
		return ""
	}
	return s.Display()
}

// OnHost reports whether the http(s) URL u is on host: a host name (or
// an IPv6 literal in brackets) with or without ":port", as an allow-list
// or an IndexNow submission names a host. The names compare as [Host]
// makes them (case, IDNA); when host has a port, it is compared with u's
// effective port, else any port matches.
func OnHost(u *url.URL, host string) bool {
	s, ok := SiteOf(u)
	if !ok {
		return false
	}
	h := &url.URL{Host: host}
	if Host(h.Hostname()) != s.Host || h.Hostname() == "" {
		return false
	}
	if p := h.Port(); p != "" {
		n, err := strconv.Atoi(p)
		return err == nil && n == s.Port
	}
	return true
}

// SameSite reports whether the http(s) URLs a and b are on the same site:
// the same scheme, host (after IDNA, in any case) and effective port
// (I-05). A URL that does not parse is on no site.
func SameSite(a, b string) bool {
	sa, ok := ParseSite(a)
	if !ok {
		return false
	}
	sb, ok := ParseSite(b)
	return ok && sa == sb
}
