package check

import (
	"net/netip"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Changes says what [Normalize] changed in a URL, one bit per kind of
// change.
type Changes uint16

// The changes of [Normalize], in the order String lists them.
const (
	ChangedTrim     Changes = 1 << iota // white space around the URL removed
	ChangedScheme                       // scheme lower-cased
	ChangedHost                         // host lower-cased
	ChangedIDNA                         // host converted to punycode (L-07)
	ChangedPort                         // default port (:443, :80) or an empty ':' removed
	ChangedPath                         // empty path written as "/"
	ChangedEncoded                      // characters percent-encoded as UTF-8 (L-07)
	ChangedFragment                     // fragment ("#…") removed
)

var changeNames = [...]string{
	"white space trimmed", "scheme lower-cased", "host lower-cased", "host in punycode",
	"default port removed", "empty path written as /", "percent-encoded", "fragment removed",
}

// String lists the changes in words, comma-separated: "percent-encoded,
// fragment removed"; "" for none.
func (c Changes) String() string {
	var b strings.Builder
	for i, n := range changeNames {
		if c&(1<<i) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	return b.String()
}

// Normalize returns the URL s in its one normal spelling, the spelling a
// sitemap should publish and the key under which two spellings of one
// page count as one (L-17). It changes only what has one right answer:
//
//   - white space around s is removed (readers trim it, X-12);
//   - the scheme and host are lower-cased; a host with non-ASCII
//     characters is converted to punycode (IDNA, as a browser looks it
//     up); an IPv6 literal's hex digits are lower-cased;
//   - the default port (:443 for https, :80 for http) and an empty port
//     ("host:/") are removed; another port is kept as written;
//   - an empty path becomes "/" (RFC 3986 §6.2.3);
//   - every byte of the path and query outside the URI character set is
//     percent-encoded as UTF-8 (a space as %20, "é" as %C3%A9, '<' as
//     %3C), and a '%' that starts no %XX escape as %25; valid escapes
//     are kept as written, never encoded twice or decoded;
//   - the fragment ("#top") is removed: it never reaches the server.
//
// It does not resolve dot segments, change the case of escapes or of the
// path, reorder or drop query parameters, or remove a trailing dot of the
// host ("example.com." is another host): those may name another page.
//
// It returns the normal form, what was changed (0 when s was already
// normal), and nil; the result then passes [URL]. When s is already
// normal it returns s itself without allocating (the common case costs
// one pass over s). When s cannot be normalised — not an absolute http(s)
// URL, user info, a host no IDNA mapping accepts, a bad port, a control
// character or a byte that is not UTF-8 — it returns "", 0 and the
// problem [URL] reports for s. Normalize(Normalize(s)) is Normalize(s).
func Normalize(s string) (string, Changes, *Problem) {
	if normalFast(s) {
		return s, 0, nil
	}
	return normalizeSlow(s)
}

// normalFast reports whether s is certainly normal: a lowercase http(s)
// scheme, a lowercase host of host-name bytes, an optional port that is
// not the default, a path starting with '/', every later byte in the URI
// set or a valid %XX escape, and no '#'. It allocates nothing.
func normalFast(s string) bool {
	var i int
	https := false
	switch {
	case strings.HasPrefix(s, "https://"):
		i, https = 8, true
	case strings.HasPrefix(s, "http://"):
		i = 7
	default:
		return false
	}
	h := i
	for ; i < len(s); i++ {
		c := s[i]
		if Class[c]&cHost == 0 || isUpper(c) {
			break
		}
	}
	if i == h || i == len(s) {
		return false // no host, or no path ("/" is added)
	}
	if s[i] == ':' {
		p := i + 1
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
		port := s[p:i]
		if port == "" || len(port) > 5 || port[0] == '0' ||
			https && port == "443" || !https && port == "80" {
			return false
		}
		if n := portNumber(port, "http"); n < 1 || n > 65535 {
			return false
		}
		if i == len(s) {
			return false
		}
	}
	if s[i] != '/' {
		return false
	}
	for ; i < len(s); i++ {
		// Eight bytes of the URI set at a time: the common case.
		if i+8 <= len(s) {
			w := s[i : i+8]
			if Class[w[0]]&Class[w[1]]&Class[w[2]]&Class[w[3]]&
				Class[w[4]]&Class[w[5]]&Class[w[6]]&Class[w[7]]&cURI != 0 {
				i += 7
				continue
			}
		}
		c := s[i]
		switch {
		case Class[c]&cURI != 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return false // '#', a byte to encode, a stray '%'
		}
	}
	return true
}

// normalizeSlow is Normalize without the fast path.
func normalizeSlow(s string) (string, Changes, *Problem) {
	var ch Changes
	t := strings.Trim(s, " \t\r\n")
	if len(t) != len(s) {
		ch |= ChangedTrim
	}
	fail := func() (string, Changes, *Problem) {
		_, pr := URL(s)
		if pr.OK() {
			// URL accepts s but it cannot be normalised (cannot happen
			// for a URL that passes: kept as a guard).
			pr = problem("L-07", "cannot be normalised", "write it percent-encoded, with an ASCII host")
		}
		return "", 0, pr
	}
	colon := strings.IndexByte(t, ':')
	if colon <= 0 {
		return fail()
	}
	scheme := t[:colon]
	switch {
	case scheme == "https" || scheme == "http":
	case strings.EqualFold(scheme, "https"):
		scheme, ch = "https", ch|ChangedScheme
	case strings.EqualFold(scheme, "http"):
		scheme, ch = "http", ch|ChangedScheme
	default:
		return fail()
	}
	rest, ok := strings.CutPrefix(t[colon+1:], "//")
	if !ok {
		return fail()
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	auth, tail := rest[:end], rest[end:]
	if strings.IndexByte(auth, '@') >= 0 {
		return fail()
	}
	var b strings.Builder
	b.Grow(len(t) + 16)
	b.WriteString(scheme)
	b.WriteString("://")
	var host, pt string
	hasPort := false
	if strings.HasPrefix(auth, "[") {
		rb := strings.IndexByte(auth, ']')
		if rb < 0 {
			return fail()
		}
		a, err := netip.ParseAddr(auth[1:rb])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return fail()
		}
		host = "[" + strings.ToLower(auth[1:rb]) + "]"
		if host != auth[:rb+1] {
			ch |= ChangedHost
		}
		if after := auth[rb+1:]; after != "" {
			if after[0] != ':' {
				return fail()
			}
			pt, hasPort = after[1:], true
		}
	} else {
		host = auth
		if i := strings.LastIndexByte(auth, ':'); i >= 0 {
			host, pt, hasPort = auth[:i], auth[i+1:], true
		}
		if host == "" {
			return fail()
		}
		if !isASCII(host) {
			a, err := idna.Lookup.ToASCII(host)
			if err != nil || a == "" || !isASCII(a) {
				return fail()
			}
			host, ch = a, ch|ChangedIDNA
		}
		for i := 0; i < len(host); i++ {
			c := host[i]
			if Class[c]&cHost == 0 {
				return fail()
			}
			if isUpper(c) {
				host, ch = strings.ToLower(host), ch|ChangedHost
			}
		}
	}
	b.WriteString(host)
	switch {
	case !hasPort:
	case pt == "":
		ch |= ChangedPort // "host:" is "host"
	case !port(pt).OK():
		return fail()
	case scheme == "https" && portNumber(pt, scheme) == 443, scheme == "http" && portNumber(pt, scheme) == 80:
		ch |= ChangedPort
	default:
		b.WriteByte(':')
		b.WriteString(pt)
	}
	if i := strings.IndexByte(tail, '#'); i >= 0 {
		tail, ch = tail[:i], ch|ChangedFragment
	}
	if tail == "" || tail[0] != '/' {
		b.WriteByte('/')
		ch |= ChangedPath
	}
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(tail); i++ {
		c := tail[i]
		switch {
		case Class[c]&cURI != 0:
		case c == '%' && i+2 < len(tail) && isHex(tail[i+1]) && isHex(tail[i+2]):
		case c < 0x20 || c == 0x7f:
			return fail() // a control character: removed or encoded? no one answer
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(tail[i:])
			if r == utf8.RuneError && n <= 1 {
				return fail() // not UTF-8: which charset it was, no one knows
			}
			for _, c := range []byte(tail[i : i+n]) {
				b.WriteByte('%')
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			}
			i += n - 1
			ch |= ChangedEncoded
			continue
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			ch |= ChangedEncoded
			continue
		}
		b.WriteByte(c)
	}
	out := b.String()
	if _, pr := URL(out); !pr.OK() {
		return "", 0, pr
	}
	return out, ch, nil
}
