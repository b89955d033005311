// Package urlnorm puts page URLs into one canonical spelling so that a
// crawler fetches each page once and a sitemap lists it once (L-07, L-12):
//
//   - the scheme and host are lowercased, and an internationalised host is
//     converted to its ASCII (punycode) form;
//   - the default port (:80 for http, :443 for https) is removed;
//   - the fragment is removed;
//   - dot segments are removed (RFC 3986 §5.2.4) and an empty path becomes "/";
//   - percent-encoding is made consistent (RFC 3986 §6.2.2): escapes of
//     unreserved characters are decoded, the remaining escapes use uppercase
//     hex, and bytes that may not appear raw (space, non-ASCII, quotes, …)
//     are encoded as UTF-8 escapes; a "%" that starts no valid escape
//     becomes "%25";
//   - the query is kept, removed, or reduced to an allow-list of parameter
//     names ([Query]); parameter order is kept, an empty query is dropped.
//
// Only http and https URLs with a host are accepted.
package urlnorm

import (
	"errors"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// QueryMode says what [Normalizer] does with query strings.
type QueryMode uint8

// The query modes of --query keep|strip|allow=a,b.
const (
	QueryKeep  QueryMode = iota // keep every parameter
	QueryStrip                  // drop the query
	QueryAllow                  // keep only the parameters named in Allow
)

// Normalizer normalises URLs. The zero value keeps queries.
type Normalizer struct {
	Query QueryMode
	// Allow lists the parameter names kept under QueryAllow (exact,
	// case-sensitive names).
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

// ErrNotHTTP is returned for URLs that are not absolute http(s) URLs with
// a host.
var ErrNotHTTP = errors.New("not an absolute http(s) URL with a host")

// Normalize returns the canonical form of the absolute URL raw.
func (n Normalizer) Normalize(raw string) (string, error) {
	u, err := url.Parse(fixPercent(strings.TrimSpace(raw)))
	if err != nil {
		return "", err
	}
	return n.URL(u)
}

// Resolve resolves ref against base (an already parsed page or base URL)
// and normalises the result.
func (n Normalizer) Resolve(base *url.URL, ref string) (string, error) {
	r, err := url.Parse(fixPercent(strings.TrimSpace(ref)))
	if err != nil {
		return "", err
	}
	return n.URL(base.ResolveReference(r))
}

// URL returns the canonical form of u; u is not modified.
func (n Normalizer) URL(u *url.URL) (string, error) {
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" || u.Host == "" || u.Opaque != "" {
		return "", ErrNotHTTP
	}
	host := strings.ToLower(u.Hostname())
	host = strings.TrimRight(host, ".")
	if host == "" {
		return "", ErrNotHTTP
	}
	if !isASCII(host) {
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return "", err
		}
		host = a
	}
	if strings.Contains(host, ":") { // IPv6 literal
		host = "[" + host + "]"
	} else if !validHost(host) {
		return "", ErrNotHTTP
	}
	port := u.Port()
	if port == "80" && scheme == "http" || port == "443" && scheme == "https" {
		port = ""
	}
	var b strings.Builder
	b.Grow(len(u.Host) + len(u.RawPath) + len(u.Path) + len(u.RawQuery) + 16)
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(host)
	if port != "" {
		b.WriteByte(':')
		b.WriteString(port)
	}
	p := RemoveDotSegments(fixEscapes(u.EscapedPath(), false))
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	b.WriteString(p)
	if q := n.query(u.RawQuery); q != "" {
		b.WriteByte('?')
		b.WriteString(q)
	}
	return b.String(), nil
}

func (n Normalizer) query(raw string) string {
	if raw == "" || n.Query == QueryStrip {
		return ""
	}
	raw = fixEscapes(raw, true)
	if n.Query == QueryKeep {
		return raw
	}
	var kept []string
	for _, kv := range strings.Split(raw, "&") {
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

// RemoveDotSegments is RFC 3986 §5.2.4 on an escaped path.
func RemoveDotSegments(p string) string {
	if !strings.Contains(p, ".") {
		return p
	}
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	r := strings.Join(out, "/")
	if strings.HasPrefix(p, "/") && !strings.HasPrefix(r, "/") {
		r = "/" + r
	}
	return r
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
		if i+2 >= len(s) || !isHexByte(s[i+1]) || !isHexByte(s[i+2]) {
			b.WriteString("25")
		}
		s = s[i+1:]
	}
	b.WriteString(s)
	return b.String()
}

func isHexByte(c byte) bool { _, ok := unhex(c); return ok }

const hexDigits = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func unreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// raw reports whether c may appear unescaped in a path (or a query).
func raw(c byte, query bool) bool {
	if unreserved(c) {
		return true
	}
	switch c {
	case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':', '@', '/':
		return true
	case '?':
		return query
	}
	return false
}

// fixEscapes makes the percent-encoding of an escaped path or query
// consistent (see the package comment).
func fixEscapes(s string, query bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' || !raw(c, query) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 < len(s) {
				h, ok1 := unhex(s[i+1])
				l, ok2 := unhex(s[i+2])
				if ok1 && ok2 {
					d := h<<4 | l
					if unreserved(d) {
						b.WriteByte(d)
					} else {
						b.WriteByte('%')
						b.WriteByte(hexDigits[d>>4])
						b.WriteByte(hexDigits[d&15])
					}
					i += 2
					continue
				}
			}
			b.WriteString("%25")
			continue
		}
		if raw(c, query) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}

// validHost reports whether an ASCII host name holds only the characters
// of DNS names and IPv4 addresses.
func validHost(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
