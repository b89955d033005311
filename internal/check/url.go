package check

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Parts are the pieces of a URL that [URL] accepted, as substrings of it
// (no allocation).
type Parts struct {
	Scheme string // as written ("https", "HTTP")
	Host   string // without brackets for an IPv6 literal; ASCII
	Port   string // "" when absent
	Path   string // escaped path, "" when absent
}

// Byte classes: the bits of Class. The URL checks use ClassURI and
// ClassHost; package sitemap's XML escapers use the next three, and its
// fast URL check ClassPlain, so that one table serves every hot loop of the
// module with a single lookup.
const (
	ClassURI   = 1 << iota // may appear literally in a path, query or fragment: RFC 3986 unreserved, sub-delims, ':', '@', '/', '?'
	ClassHost              // may appear in a host name: letters, digits, '-', '.', '_', '~'
	ClassText              // needs escaping in element content: & < > ' " CR
	ClassAttr              // needs escaping in an attribute value: ClassText plus TAB and LF
	ClassCtl               // a C0 control XML 1.0 forbids (all but TAB, LF, CR)
	ClassPlain             // ClassURI except '?', '&' and '\'': literal in a path, and written as is in XML

	cURI  = ClassURI
	cHost = ClassHost
)

// Class classifies every byte, one bit per class above. It is a constant
// (no mutable package state); TestClass here and TestCharClass in package
// sitemap check it against the definitions.
const Class = "\x10\x10\x10\x10\x10\x10\x10\x10\x10\x08\x08\x10\x10\x0c\x10\x10" +
	"\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10" +
	"\x00\x21\x0c\x00\x21\x00\x0d\x0d\x21\x21\x21\x21\x21\x23\x23\x21" +
	"\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x21\x21\x0c\x21\x0c\x01" +
	"\x21\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23" +
	"\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x00\x00\x00\x00\x23" +
	"\x00\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23" +
	"\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x23\x00\x00\x00\x23\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// MaxLength is the length a URL must stay below (L-04, L-06), in
// characters; MinLength is the XSD's minimum for a <loc> (L-05).
const (
	MaxLength = 2048
	MinLength = 12
)

// URL checks that s is an absolute http or https URL in RFC 3986 syntax
// whose every character is in the URI character set (L-01, L-07, L-16):
//
//   - no white space around it (X-12: a reader trims it, the validator
//     warns, the encoder refuses to write it);
//   - a scheme, "//" and a host (L-01);
//   - the scheme http or https in any letter case (L-16);
//   - no user info ("user@", "user:password@"): a sitemap lists public
//     URLs (L-07);
//   - a host made of letters, digits, '-', '.', '_' and '~', or an IPv6
//     literal in brackets; a host with non-ASCII characters must be written
//     in punycode (L-07, with the punycode form in Problem.Suggest);
//   - an optional port 1–65535 (L-07: port 0 cannot be connected to);
//   - every byte of the path, query and fragment in the URI set or a valid
//     %XX escape, with at most one '#' (L-07, with the percent-encoded form
//     in Problem.Suggest).
//
// It is stricter than net/url.Parse, which accepts spaces in some places
// and raw non-ASCII everywhere: anything URL accepts, url.Parse parses to
// the same scheme, host and path. The host is taken as written: a trailing
// dot ("www.example.com.") names another host than the one without it,
// for the scope rule as for a browser.
func URL(s string) (Parts, *Problem) {
	var p Parts
	if pr := Untrimmed(s); !pr.OK() {
		// The trimmed value is the corrected one only when it is a URL;
		// else the correction of what is wrong with it, if one can be told.
		if _, again := URL(pr.Suggest); !again.OK() {
			pr.Suggest = again.Suggest
		}
		return p, pr
	}
	colon := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			colon = i
			break
		}
		if isAlpha(c) || i > 0 && (isDigit(c) || c == '+' || c == '-') {
			continue
		}
		break
	}
	if colon <= 0 {
		if strings.HasPrefix(s, "//") {
			return p, problem(rules.L01, "has no scheme", "sitemaps need https://… or http://…")
		}
		return p, problem(rules.L01, "is not an absolute URL", "sitemaps need https://…")
	}
	p.Scheme = s[:colon]
	if !strings.EqualFold(p.Scheme, "https") && !strings.EqualFold(p.Scheme, "http") {
		return p, problem(rules.L16, "has the scheme "+strconv.Quote(p.Scheme), "sitemaps list only http and https URLs")
	}
	rest, ok := strings.CutPrefix(s[colon+1:], "//")
	if !ok {
		return p, problem(rules.L01, "has no //host after "+p.Scheme+":", "sitemaps need https://host/…")
	}
	end := 0
	for end < len(rest) && rest[end] != '/' && rest[end] != '?' && rest[end] != '#' {
		end++
	}
	auth, tail := rest[:end], rest[end:]
	if strings.IndexByte(auth, '@') >= 0 {
		return p, problem(rules.L07, "carries user info (user@ or user:password@) before the host", "list the public URL without it")
	}
	if strings.HasPrefix(auth, "[") {
		rb := strings.IndexByte(auth, ']')
		if rb < 0 {
			return p, problem(rules.L07, "has an IPv6 host without its closing ']'", "write it as [2001:db8::1]")
		}
		a, err := netip.ParseAddr(auth[1:rb])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return p, problem(rules.L07, "has "+strconv.Quote(auth[:rb+1])+" in brackets, which is not an IPv6 address", "brackets hold only an IPv6 address")
		}
		p.Host = auth[1:rb]
		after := auth[rb+1:]
		if after != "" && after[0] != ':' {
			return p, problem(rules.L07, "has "+strconv.Quote(after)+" after the IPv6 host", "only :port may follow it")
		}
		if after != "" {
			p.Port = after[1:]
			if pr := port(p.Port); !pr.OK() {
				return p, pr
			}
		}
	} else {
		host := auth
		if i := strings.LastIndexByte(auth, ':'); i >= 0 {
			host, p.Port = auth[:i], auth[i+1:]
		}
		if host == "" {
			// Before the port: "http://:0" is no absolute URL (L-01), as
			// the decoder's test for one (absHTTP) says.
			return p, problem(rules.L01, "has no host", "sitemaps need https://host/…")
		}
		if p.Port != "" || strings.IndexByte(auth, ':') >= 0 {
			if pr := port(p.Port); !pr.OK() {
				return p, pr
			}
		}
		for i := 0; i < len(host); i++ {
			c := host[i]
			if Class[c]&cHost != 0 {
				continue
			}
			if c >= utf8.RuneSelf {
				// A control character after the host (a tab in the
				// path) is what to fix first: punycode would not make
				// that URL right, and its suggestion would hide it.
				off := len(s) - len(tail)
				if j := strings.IndexFunc(tail, func(r rune) bool { return r < 0x20 || r == 0x7f }); j >= 0 {
					return p, pathProblem(s, off+j)
				}
				pr := problem(rules.L07, "has a host with non-ASCII characters", "write the host in punycode")
				if pr.Suggest = Suggest(s); pr.Suggest != "" {
					pr.Fix += ": " + strconv.Quote(pr.Suggest)
				}
				return p, pr
			}
			return p, problem(rules.L07, "has "+strconv.Quote(string(c))+" in its host", "a host name holds only letters, digits, '-' and '.'")
		}
		p.Host = host
	}
	frag := false
	pathEnd := -1
	for i := 0; i < len(tail); i++ {
		c := tail[i]
		if Class[c]&cURI != 0 {
			if c == '?' && pathEnd < 0 {
				pathEnd = i
			}
			continue
		}
		switch {
		case c == '%' && i+2 < len(tail) && isHex(tail[i+1]) && isHex(tail[i+2]):
			i += 2
			continue
		case c == '#' && !frag:
			frag = true
			if pathEnd < 0 {
				pathEnd = i
			}
			continue
		}
		return p, pathProblem(s, len(s)-len(tail)+i)
	}
	if pathEnd < 0 {
		pathEnd = len(tail)
	}
	p.Path = tail[:pathEnd]
	return p, nil
}

// Untrimmed checks for XML white space (space, TAB, CR, LF) around a
// value: readers trim it, so the value read is not the value
// written. The trimmed value is in Problem.Suggest.
func Untrimmed(s string) *Problem {
	if s == "" || !isXMLSpace(s[0]) && !isXMLSpace(s[len(s)-1]) {
		return nil
	}
	t := strings.Trim(s, " \t\r\n")
	if len(t) == len(s) {
		return nil
	}
	pr := problem(rules.X12, "has white space around it", "trim it")
	pr.Suggest = t
	return pr
}

// pathProblem describes the byte at s[off], which the path, query or
// fragment of a URL cannot hold as it is.
func pathProblem(s string, off int) *Problem {
	c := s[off]
	at := " at byte " + strconv.Itoa(off)
	pr := &Problem{Rule: rules.L07}
	switch {
	case c == '%':
		pr.Message, pr.Fix = "has a '%' not followed by two hex digits"+at, "write a literal % as %25"
	case c == '#':
		pr.Message, pr.Fix = "has a second '#'"+at+"; a URL has at most one fragment", "percent-encode it as %23"
	case c == ' ':
		pr.Message, pr.Fix = "contains a space"+at, "percent-encode it as %20"
	case c >= utf8.RuneSelf:
		r, size := utf8.DecodeRuneInString(s[off:])
		switch {
		case r == utf8.RuneError && size > 1:
			// The replacement character: what a reader leaves of a
			// byte that is not UTF-8. Its percent-encoding would
			// publish it, not the character that was lost.
			pr.Message, pr.Fix = "contains U+FFFD, the replacement character"+at+" (left where a byte was not UTF-8, X-01, or a character was lost before the sitemap was written)",
				"write the URL's real characters, percent-encoded as UTF-8"
			return pr
		case r == utf8.RuneError:
			pr.Message, pr.Fix = "contains a byte that is not UTF-8"+at, "percent-encode the URL's UTF-8 bytes"
		default:
			pr.Message, pr.Fix = "contains the non-ASCII character "+strconv.QuoteRune(r)+at, "percent-encode it as UTF-8 ("+percentRune(r)+")"
		}
	case c < 0x20 || c == 0x7f:
		pr.Message, pr.Fix = "contains the control character "+RuneName(rune(c))+at, "percent-encode it ("+percent(c)+") or remove it"
	default:
		pr.Message, pr.Fix = "contains "+strconv.Quote(string(c))+at+", which URLs must percent-encode", "write it as "+percent(c)
	}
	if pr.Suggest = Suggest(s); pr.Suggest != "" {
		pr.Fix += "; the whole URL percent-encoded: " + strconv.Quote(pr.Suggest)
	}
	return pr
}

// port checks the port of a URL: 1–65535 (L-07).
func port(port string) *Problem {
	if port == "" {
		return problem(rules.L07, "has a ':' after the host but no port number", "remove the ':'")
	}
	n := 0
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) || i >= 5 {
			return problem(rules.L07, "has the port "+strconv.Quote(port), "a port is a number 1–65535")
		}
		n = n*10 + int(port[i]-'0')
	}
	if n < 1 || n > 65535 {
		return problem(rules.L07, "has the port "+port, "a port is a number 1–65535; leave it out for the default port")
	}
	return nil
}

// Suggest returns s written as L-07 wants it: the host in punycode, every
// byte outside the URI character set in the rest as %XX (a '%' that
// already starts a valid %XX escape is kept, so nothing is encoded twice;
// a second '#' becomes %23). It returns "" when s has no "://" or its host
// cannot be converted.
func Suggest(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return ""
	}
	rest := s[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	host, tail := rest[:end], rest[end:]
	var b strings.Builder
	b.WriteString(s[:i+3])
	if !isASCII(host) {
		h, port := host, ""
		if j := strings.LastIndexByte(host, ':'); j >= 0 {
			h, port = host[:j], host[j:]
		}
		a := urlnorm.Host(h)
		if a == "" || !isASCII(a) {
			return "" // IDNA refuses it, or no host is left ("\u00ad", a soft hyphen, maps to nothing)
		}
		for k := 0; k < len(a); k++ {
			if Class[a[k]]&cHost == 0 {
				return "" // "\u212a&" maps to "k&": still no host name
			}
		}
		host = a + port
	}
	b.WriteString(host)
	const hex = "0123456789ABCDEF"
	frag := false
	for i := 0; i < len(tail); i++ {
		c := tail[i]
		switch {
		case Class[c]&cURI != 0:
		case c == '%' && i+2 < len(tail) && isHex(tail[i+1]) && isHex(tail[i+2]):
		case c == '#' && !frag:
			frag = true
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Length checks the length of a page URL (L-06): at least 12 characters
// (the XSD's minimum, L-05) and fewer than 2,048 (L-04). Length is counted
// in characters. A URL of exactly 2,048 characters breaks L-04 but passes
// the XSD: the encoder refuses it, the validator warns (see AtXSDLimit).
func Length(s string) *Problem {
	n := len(s)
	if n >= MinLength*utf8.UTFMax && n < MaxLength {
		return nil // enough bytes for 12 characters of any size, fewer than 2,048 bytes
	}
	n = utf8.RuneCountInString(s)
	switch {
	case n >= MaxLength:
		return problem(rules.L06, "is "+strconv.Itoa(n)+" characters long; a URL must be shorter than 2,048 characters (L-04)", "shorten it or leave the page out")
	case n < MinLength:
		return problem(rules.L06, "is "+strconv.Itoa(n)+" characters long; the XSD requires at least 12 (L-05)", "give the full absolute URL")
	}
	return nil
}

// AtXSDLimit reports whether s is exactly 2,048 characters long: too long
// for L-04 but accepted by the XSD (L-06 makes it a warning in a
// validator).
func AtXSDLimit(s string) bool {
	return len(s) >= MaxLength && utf8.RuneCountInString(s) == MaxLength
}

// OtherURL checks a URL-valued field other than a page's <loc> (image loc,
// video thumbnail, content and player locs, uploader info, hreflang href,
// image licence): URL's checks, where a value that is no absolute http(s)
// URL at all breaks the field's own rule (IM-01, V-01, H-05, …) and an
// encoding problem stays L-07. maxLen applies L-06's length limit too
// (for hreflang hrefs, which are page URLs).
func OtherURL(s string, rule rules.ID, maxLen bool) (Parts, *Problem) {
	p, pr := URL(s)
	if !pr.OK() {
		if pr.Rule == rules.L01 || pr.Rule == rules.L16 {
			pr.Rule = rule
		}
		return p, pr
	}
	if maxLen && len(s) >= MaxLength {
		return p, Length(s)
	}
	return p, nil
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
func isAlpha(c byte) bool    { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isHex(c byte) bool      { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
func isUpper(c byte) bool    { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool    { return c >= 'a' && c <= 'z' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func percent(c byte) string {
	const hex = "0123456789ABCDEF"
	return string([]byte{'%', hex[c>>4], hex[c&15]})
}

// percentRune is r's UTF-8 bytes as %XX escapes.
func percentRune(r rune) string {
	var b strings.Builder
	var buf [utf8.UTFMax]byte
	for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
		b.WriteString(percent(c))
	}
	return b.String()
}

// RuneName formats r as U+XXXX, e.g. "U+0008" (U+XXXXXX past the BMP).
func RuneName(r rune) string {
	const hex = "0123456789ABCDEF"
	b := []byte("U+")
	digits := 4
	if r > 0xFFFF {
		digits = 6
	}
	for i := digits - 1; i >= 0; i-- {
		b = append(b, hex[(r>>(4*uint(i)))&0xF])
	}
	return string(b)
}
