package urlnorm

import (
	"errors"
	"net/url"
	"strings"
)

// QueryMode says what a [Normalizer] does with query strings.
type QueryMode uint8

// The query modes of the crawler's --query keep|strip|allow=a,b.
const (
	QueryKeep  QueryMode = iota // keep every parameter
	QueryStrip                  // drop the query
	QueryAllow                  // keep only the parameters named in Allow
)

// Normalizer is the normal form of [Normalize] with what a crawler may
// decide on its own on top, for the links it follows (package crawl's
// frontier, package audit's redirects). Its methods:
//
//   - keep, drop or reduce the query to an allow-list of parameter
//     names (Query, Allow), parameter order kept; an empty query ("/p?")
//     is dropped;
//   - drop user info ("https://user@host/" is https://host/);
//   - drop trailing dots of the host ("example.com." is example.com);
//   - percent-encode bytes that are not UTF-8 rather than refuse the URL
//     (a page in another charset links so).
//
// The zero value keeps queries.
type Normalizer struct {
	Query QueryMode
	// Allow lists the parameter names kept under QueryAllow (exact,
	// case-sensitive names, compared decoded).
	Allow []string
}

// ParseQuery parses the value of a --query flag: "keep", "strip" or
// "allow=a,b".
func ParseQuery(s string) (Normalizer, error) {
	switch {
	case s == "keep" || s == "":
		return Normalizer{}, nil
	case s == "strip":
		return Normalizer{Query: QueryStrip}, nil
	case strings.HasPrefix(s, "allow="):
		var names []string
		for _, n := range strings.Split(s[len("allow="):], ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return Normalizer{}, errors.New(`"allow=" needs at least one parameter name, e.g. allow=page,id`)
		}
		return Normalizer{Query: QueryAllow, Allow: names}, nil
	}
	return Normalizer{}, errors.New(`want keep, strip or allow=NAME,NAME…; got "` + s + `"`)
}

// Normalize returns the normal form of the absolute URL raw, with n's
// additions; an error when raw is not an http(s) URL with a host, or
// cannot be normalised (see [Normalize]).
func (n Normalizer) Normalize(raw string) (string, error) {
	u, err := url.Parse(fixPercent(strings.TrimSpace(raw)))
	if err != nil {
		return "", err
	}
	return n.URL(u)
}

// Resolve resolves ref against base (an already parsed page or base URL)
// and normalises the result as Normalize does.
func (n Normalizer) Resolve(base *url.URL, ref string) (string, error) {
	r, err := url.Parse(fixPercent(strings.TrimSpace(ref)))
	if err != nil {
		return "", err
	}
	return n.URL(base.ResolveReference(r))
}

// URL returns the normal form of u with n's additions; u is not modified.
func (n Normalizer) URL(u *url.URL) (string, error) {
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" || u.Host == "" || u.Opaque != "" {
		return "", &Error{URL: u.Redacted(), Reason: "is not an absolute http(s) URL with a host"}
	}
	host := u.Hostname()
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]" // IPv6
	} else if host = strings.TrimRight(Host(host), "."); host == "" {
		return "", &Error{URL: u.Redacted(), Reason: "has no host"}
	}
	var b strings.Builder
	b.Grow(len(u.Host) + len(u.RawPath) + len(u.Path) + len(u.RawQuery) + 16)
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(host)
	if p := u.Port(); p != "" {
		b.WriteByte(':')
		b.WriteString(p)
	}
	b.WriteString(u.EscapedPath())
	if q := u.RawQuery; q != "" && n.Query != QueryStrip {
		b.WriteByte('?')
		b.WriteString(q)
	}
	s := b.String()
	if normalFast(s) && n.Query != QueryAllow {
		return s, nil
	}
	s, _, err := normalizeSlow(s, true)
	if err != nil {
		return "", err
	}
	if p, q, ok := strings.Cut(s, "?"); ok && q == "" {
		s = p // a query of white space, trimmed
	}
	if n.Query == QueryAllow {
		if p, q, ok := strings.Cut(s, "?"); ok {
			s = p
			if q = n.allowed(q); q != "" {
				s += "?" + q
			}
		}
	}
	return s, nil
}

// allowed is the query q (normal) with only the parameters of n.Allow.
func (n Normalizer) allowed(q string) string {
	var kept []string
	for _, kv := range strings.Split(q, "&") {
		name, _, _ := strings.Cut(kv, "=")
		if dec, err := url.QueryUnescape(name); err == nil {
			name = dec
		}
		for _, a := range n.Allow {
			if name == a {
				kept = append(kept, kv)
				break
			}
		}
	}
	return strings.Join(kept, "&")
}

// fixPercent turns every "%" that starts no valid escape into "%25", so
// that net/url accepts what browsers accept.
func fixPercent(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	var b strings.Builder
	for ; i >= 0; i = strings.IndexByte(s, '%') {
		b.WriteString(s[:i+1])
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			b.WriteString("25")
		}
		s = s[i+1:]
	}
	b.WriteString(s)
	return b.String()
}
