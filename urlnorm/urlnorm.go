// Package urlnorm is the one answer to "are these two URLs the same?":
// the normal form of a URL, the key under which two spellings of one
// page count as one ([Normalize], [Key]; generate, validate, fetch,
// indexnow, crawl and audit deduplicate under it), with the crawler's
// own additions as options ([Normalizer]), and the site a URL is on
// ([SiteOf], [SameSite]: scheme, host and port, compared after IDNA), as
// the I-05 rule, fetch's request scope, indexnow's host check and the
// crawler's scope compare it.
//
// The normal form is the syntax-based normalisation of RFC 3986 §6.2.2
// applied to an absolute http(s) URL, plus the scheme-based part of RFC
// 3986 §6.2.3 that has one right answer, so these spellings are one URL:
//
//	https://example.com/~user    https://example.com/%7euser    HTTPS://EXAMPLE.COM:443/%7Euser
//	https://example.com/b/c      https://example.com/a/../b/c   https://example.com/b/./c#top
//	https://example.com/caf%C3%A9  https://example.com/caf%c3%a9  https://example.com/café
//
// It imports nothing of this module, so every package, the root one
// included, can use it.
package urlnorm

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
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
	ChangedPort                         // default port (:443, :80), an empty ':' or a port's leading zeros removed
	ChangedPath                         // empty path written as "/"
	ChangedEncoded                      // characters percent-encoded as UTF-8 (L-07)
	ChangedFragment                     // fragment ("#…") removed
	ChangedEscapes                      // escapes of unreserved characters decoded, hex digits upper-cased (RFC 3986 §6.2.2.1–2)
	ChangedDots                         // dot segments ("/./", "/../") removed (RFC 3986 §6.2.2.3)
)

var changeNames = [...]string{
	"white space trimmed", "scheme lower-cased", "host lower-cased", "host in punycode",
	"default port removed", "empty path written as /", "percent-encoded", "fragment removed",
	"escapes normalised", "dot segments removed",
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

// Error is why a URL has no normal form.
type Error struct {
	URL    string // the URL as given
	Reason string // "has user info before the host", …
}

func (e *Error) Error() string { return strconv.Quote(e.URL) + " " + e.Reason }

// ErrNotHTTP is the Reason-less cause every *Error matches with
// errors.Is: the URL is not an absolute http(s) URL that can be
// normalised.
var ErrNotHTTP = errors.New("not an absolute http(s) URL with a host")

// Is makes errors.Is(err, ErrNotHTTP) true for every *Error.
func (e *Error) Is(target error) bool { return target == ErrNotHTTP }

// Normalize returns the URL s in its normal form, the spelling a sitemap
// should publish and the key under which two spellings of one page count
// as one (L-17):
//
//   - white space around s (space, TAB, CR, LF) is removed;
//   - the scheme and host are lower-cased; a host with non-ASCII
//     characters is converted to punycode (IDNA, as a browser looks it
//     up); an IPv6 literal's hex digits are lower-cased;
//   - the default port (:443 for https, :80 for http) and an empty port
//     ("host:/") are removed; another port is written without leading
//     zeros;
//   - an empty path becomes "/" (RFC 3986 §6.2.3);
//   - in the path and query, an escape of an unreserved character
//     (letters, digits, '-', '.', '_', '~') is decoded ("%7e" is "~"),
//     every other escape is written with upper-case hex digits ("%c3%a9"
//     is "%C3%A9"), every byte outside the URI character set is
//     percent-encoded as UTF-8 (a space as %20, "é" as %C3%A9), and a '%'
//     that starts no %XX escape is written %25 (RFC 3986 §6.2.2.1–2);
//   - dot segments of the path are removed ("/a/./b/../c" is "/a/c", RFC
//     3986 §5.2.4, §6.2.2.3): a browser removes them before it asks;
//   - the fragment ("#top") is removed: it never reaches the server.
//
// It does not change the case of the path or query, reorder or drop
// query parameters, drop an empty query ("/p?"), or remove a trailing
// dot of the host ("example.com." is another host): those may name
// another page ([Normalizer] does more, for a crawler).
//
// It returns the normal form, what was changed (0 when s was already
// normal), and nil. When s is already normal it returns s itself without
// allocating (the common case costs one pass over s). When s cannot be
// normalised — not an absolute http(s) URL, user info, a host no IDNA
// mapping accepts, a port outside 1–65535, a control character or a byte
// that is not UTF-8 — it returns "", 0 and an *[Error]. Normalize of its
// own result returns that result unchanged.
func Normalize(s string) (string, Changes, error) {
	if normalFast(s) {
		return s, 0, nil
	}
	return normalizeSlow(s, false)
}

// Key is the key under which the spellings of one URL count as one: the
// normal form of s ([Normalize]), or s itself when it has none (a
// relative or malformed URL is only itself). Like Normalize, it returns
// s without allocating when s is already normal.
func Key(s string) string {
	if normalFast(s) {
		return s
	}
	if n, _, err := normalizeSlow(s, false); err == nil {
		return n
	}
	return s
}

// Byte classes.
const (
	cURI        = 1 << iota // may appear literally in a path or query: unreserved, sub-delims, ':', '@', '/', '?'
	cHost                   // may appear in a host name: letters, digits, '-', '.', '_', '~'
	cUnreserved             // RFC 3986 unreserved: letters, digits, '-', '.', '_', '~'
	cHex                    // a hex digit
)

// class classifies every byte; it is built once and never changed.
var class = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		alnum := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
		if alnum || strings.IndexByte("-._~", b) >= 0 {
			t[c] |= cURI | cHost | cUnreserved
		}
		if strings.IndexByte("!$&'()*+,;=:@/?", b) >= 0 {
			t[c] |= cURI
		}
		if b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' {
			t[c] |= cHex
		}
	}
	return t
}()

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return class[c]&cHex != 0 }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// normalFast reports whether s is certainly normal: a lowercase http(s)
// scheme, a lowercase host of host-name bytes, an optional port without
// leading zeros that is not the default, a path starting with '/' without
// dot segments, every later byte in the URI set or an upper-case %XX
// escape of a byte that is not unreserved, and no '#'. It allocates
// nothing.
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
		if class[c]&cHost == 0 || isUpper(c) {
			break
		}
	}
	if i == h || i == len(s) {
		return false // no host, or no path ("/" is added)
	}
	if s[i] == ':' {
		p := i + 1
		n := 0
		for i++; i < len(s) && isDigit(s[i]); i++ {
			n = n*10 + int(s[i]-'0')
			if i-p >= 5 {
				return false
			}
		}
		if i == p || s[p] == '0' || n > 65535 || https && n == 443 || !https && n == 80 || i == len(s) {
			return false
		}
	}
	if s[i] != '/' {
		return false
	}
	path := i
	for ; i < len(s); i++ {
		// Eight bytes of the URI set at a time: the common case.
		if i+8 <= len(s) {
			w := s[i : i+8]
			if class[w[0]]&class[w[1]]&class[w[2]]&class[w[3]]&
				class[w[4]]&class[w[5]]&class[w[6]]&class[w[7]]&cURI != 0 {
				i += 7
				continue
			}
		}
		c := s[i]
		switch {
		case class[c]&cURI != 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			if isLowerHex(s[i+1]) || isLowerHex(s[i+2]) || class[unhex(s[i+1])<<4|unhex(s[i+2])]&cUnreserved != 0 {
				return false // an escape to normalise
			}
			i += 2
		default:
			return false // '#', a byte to encode, a stray '%'
		}
	}
	// Dot segments: each '.' of the path (a vectorised search; most paths
	// have one or none) after a '/'.
	p := s[path:]
	q := -1
	for j := strings.IndexByte(p, '.'); j >= 0; j = strings.IndexByte(p, '.') {
		if q < 0 {
			if q = strings.IndexByte(s[path:], '?'); q < 0 {
				q = len(s) - path
			}
			q += path // the end of the path in s
		}
		at := len(s) - len(p) + j
		if at >= q {
			break // in the query
		}
		if s[at-1] == '/' && dotSegment(s[at:]) {
			return false // "/./" or "/../" to remove
		}
		p = p[j+1:]
	}
	return true
}

// dotSegment reports whether p, which starts with '.' after a '/', is a
// segment "." or ".." (of a path without a fragment).
func dotSegment(p string) bool {
	if len(p) > 1 && p[1] == '.' {
		p = p[1:]
	}
	return len(p) == 1 || p[1] == '/' || p[1] == '?'
}

func isLowerHex(c byte) bool { return c >= 'a' && c <= 'f' }

// hasDotSegment reports whether the path p (starting with '/') has a
// segment "." or "..".
func hasDotSegment(p string) bool {
	for {
		i := strings.Index(p, "/.")
		if i < 0 {
			return false
		}
		p = p[i+2:]
		if p == "" || p[0] == '/' || p[0] == '.' && (len(p) == 1 || p[1] == '/') {
			return true
		}
	}
}

// normalizeSlow is Normalize without the fast path; lenient (the
// Normalizer's) percent-encodes bytes that are not UTF-8 instead of
// refusing them.
func normalizeSlow(s string, lenient bool) (string, Changes, error) {
	var ch Changes
	t := strings.Trim(s, " \t\r\n")
	if len(t) != len(s) {
		ch |= ChangedTrim
	}
	fail := func(why string) (string, Changes, error) {
		return "", 0, &Error{URL: s, Reason: why}
	}
	colon := strings.IndexByte(t, ':')
	if colon <= 0 {
		return fail("is not an absolute URL")
	}
	scheme := t[:colon]
	switch {
	case scheme == "https" || scheme == "http":
	case strings.EqualFold(scheme, "https"):
		scheme, ch = "https", ch|ChangedScheme
	case strings.EqualFold(scheme, "http"):
		scheme, ch = "http", ch|ChangedScheme
	default:
		return fail("is not an http or https URL")
	}
	rest, ok := strings.CutPrefix(t[colon+1:], "//")
	if !ok {
		return fail("has no //host after " + scheme + ":")
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	auth, tail := rest[:end], rest[end:]
	if strings.IndexByte(auth, '@') >= 0 {
		return fail("has user info before the host")
	}
	var b strings.Builder
	b.Grow(len(t) + 16)
	b.WriteString(scheme)
	b.WriteString("://")
	var pt string
	hasPort := false
	if strings.HasPrefix(auth, "[") {
		rb := strings.IndexByte(auth, ']')
		if rb < 0 {
			return fail("has an IPv6 host without its closing ']'")
		}
		a, err := netip.ParseAddr(auth[1:rb])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return fail("has a host in brackets that is not an IPv6 address")
		}
		host := "[" + strings.ToLower(auth[1:rb]) + "]"
		if host != auth[:rb+1] {
			ch |= ChangedHost
		}
		b.WriteString(host)
		if after := auth[rb+1:]; after != "" {
			if after[0] != ':' {
				return fail("has something other than :port after its IPv6 host")
			}
			pt, hasPort = after[1:], true
		}
	} else {
		host := auth
		if i := strings.LastIndexByte(auth, ':'); i >= 0 {
			host, pt, hasPort = auth[:i], auth[i+1:], true
		}
		if host == "" {
			return fail("has no host")
		}
		if !isASCII(host) {
			a := Host(host)
			if a == "" || !isASCII(a) {
				return fail("has a host IDNA cannot convert to punycode")
			}
			host, ch = a, ch|ChangedIDNA
		}
		for i := 0; i < len(host); i++ {
			c := host[i]
			if class[c]&cHost == 0 {
				return fail("has " + strconv.Quote(string(c)) + " in its host")
			}
			if isUpper(c) {
				host, ch = strings.ToLower(host), ch|ChangedHost
			}
		}
		b.WriteString(host)
	}
	if hasPort {
		n, ok := portNumber(pt)
		switch {
		case pt == "":
			ch |= ChangedPort // "host:" is "host"
		case !ok:
			return fail("has the port " + strconv.Quote(pt) + "; a port is a number 1–65535")
		case scheme == "https" && n == 443, scheme == "http" && n == 80:
			ch |= ChangedPort
		default:
			if pt[0] == '0' {
				ch |= ChangedPort
			}
			var num [5]byte
			b.WriteByte(':')
			b.Write(strconv.AppendInt(num[:0], int64(n), 10))
		}
	}
	if i := strings.IndexByte(tail, '#'); i >= 0 {
		tail, ch = tail[:i], ch|ChangedFragment
	}
	path, query, hasQuery := strings.Cut(tail, "?")
	if path == "" {
		ch |= ChangedPath
		b.WriteByte('/')
	} else if !strings.Contains(path, "/.") && !strings.Contains(path, "%2") {
		// No dot segment, written or escaped: the common case.
		if why := writeEscaped(&b, path, &ch, lenient); why != "" {
			return fail(why)
		}
	} else {
		var p strings.Builder
		if why := writeEscaped(&p, path, &ch, lenient); why != "" {
			return fail(why)
		}
		if ps := p.String(); hasDotSegment(ps) {
			b.WriteString(removeDotSegments(ps))
			ch |= ChangedDots
		} else {
			b.WriteString(ps)
		}
	}
	if hasQuery {
		b.WriteByte('?')
		if why := writeEscaped(&b, query, &ch, lenient); why != "" {
			return fail(why)
		}
	}
	return b.String(), ch, nil
}

const hexDigits = "0123456789ABCDEF"

// writeEscaped writes the path or query s to b with its percent-encoding
// normalised (see Normalize). It returns why s cannot be, or "".
func writeEscaped(b *strings.Builder, s string, ch *Changes, lenient bool) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case class[c]&cURI != 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
			if class[d]&cUnreserved != 0 {
				b.WriteByte(d)
				*ch |= ChangedEscapes
				continue
			}
			if isLowerHex(s[i-1]) || isLowerHex(s[i]) {
				*ch |= ChangedEscapes
			}
			b.Write([]byte{'%', hexDigits[d>>4], hexDigits[d&15]})
			continue
		case c < 0x20 || c == 0x7f:
			// Removed or encoded? No one answer.
			return "contains the control character " + strconv.QuoteRune(rune(c))
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n <= 1 && !lenient {
				// Which charset it was, no one knows.
				return "contains a byte that is not UTF-8"
			}
			for _, c := range []byte(s[i : i+n]) {
				b.Write([]byte{'%', hexDigits[c>>4], hexDigits[c&15]})
			}
			i += n - 1
			*ch |= ChangedEncoded
			continue
		default:
			b.Write([]byte{'%', hexDigits[c>>4], hexDigits[c&15]})
			*ch |= ChangedEncoded
			continue
		}
		b.WriteByte(c)
	}
	return ""
}

// removeDotSegments is RFC 3986 §5.2.4 on an escaped path that starts
// with '/'.
func removeDotSegments(p string) string {
	out := make([]byte, 0, len(p))
	for p != "" {
		switch {
		case strings.HasPrefix(p, "/./"):
			p = p[2:]
		case p == "/.":
			p = "/"
		case strings.HasPrefix(p, "/../"):
			p = p[3:]
			out = out[:lastSlash(out)]
		case p == "/..":
			p = "/"
			out = out[:lastSlash(out)]
		default:
			// Move the first segment, with its leading '/', to out.
			j := strings.IndexByte(p[1:], '/')
			if j < 0 {
				j = len(p)
			} else {
				j++
			}
			out = append(out, p[:j]...)
			p = p[j:]
		}
	}
	return string(out)
}

func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return 0
}

// portNumber parses a port of at most five digits, 1–65535.
func portNumber(p string) (int, bool) {
	if p == "" || len(p) > 5 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if !isDigit(p[i]) {
			return 0, false
		}
		n = n*10 + int(p[i]-'0')
	}
	return n, n >= 1 && n <= 65535
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
