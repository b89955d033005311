package sitemap

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/text/language"
)

// EntryError says why the encoder refused one entry. Nothing of the entry
// was written; the document stays valid and the caller may go on with the
// next entry.
//
// Its Error text names the field, quotes the value and says what to do,
// ending with the rule ID:
//
//	loc "/x" is not an absolute URL; sitemaps need https://… (L-01)
type EntryError struct {
	// Field is the JSON path of the offending field (the names of
	// the entry record, docs/CONVENTIONS.md): "loc", "lastmod", "images[2].loc",
	// "videos[0].duration", "news.publication.language",
	// "alternates[1].hreflang". Empty when the entry as a whole is refused.
	Field string
	// Rule is the ID of the rule the value breaks (package rules).
	Rule string
	// Value is the offending value as text ("" when the field is empty).
	Value string
	// Message says what is wrong and, where it can, how to fix it.
	Message string
	// Suggest is a corrected value when the encoder can tell one, for
	// example the percent-encoded form of a loc holding raw non-ASCII
	// characters or spaces (L-07); empty otherwise. The encoder never
	// applies it itself.
	Suggest string
}

// Error implements error. Values longer than 120 bytes are shortened
// with "…".
func (e *EntryError) Error() string {
	var b strings.Builder
	b.WriteString(e.Field)
	if e.Value != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		v := e.Value
		if len(v) > 120 {
			cut := 100
			for cut > 0 && !utf8.RuneStart(v[cut]) {
				cut--
			}
			v = v[:cut] + "…"
		}
		b.WriteString(strconv.Quote(v))
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(e.Message)
	if e.Rule != "" {
		b.WriteString(" (")
		b.WriteString(e.Rule)
		b.WriteByte(')')
	}
	return b.String()
}

// Diagnostic returns e as an error-severity [Diagnostic] with e's rule and
// message; the caller fills in File/URL/Line/Col.
func (e *EntryError) Diagnostic() Diagnostic {
	msg := e.Error()
	if e.Rule != "" {
		msg = strings.TrimSuffix(msg, " ("+e.Rule+")")
	}
	return Diagnostic{Rule: e.Rule, Severity: SeverityError, Message: msg}
}

// field names a (possibly nested) field without allocating until an error
// needs its text: name[i].sub[j].leaf, each part left out when absent
// (i < 0, sub "", j == 0, leaf "").
type field struct {
	name string
	i    int // index into name; -1 for none
	sub  string
	j    int // index into sub plus one; 0 for none
	leaf string
}

func (f field) String() string {
	s := f.name
	if f.i >= 0 {
		s += "[" + strconv.Itoa(f.i) + "]"
	}
	if f.sub != "" {
		s += "." + f.sub
		if f.j > 0 {
			s += "[" + strconv.Itoa(f.j-1) + "]"
		}
	}
	if f.leaf != "" {
		s += "." + f.leaf
	}
	return s
}

// with names a child of f.
func (f field) with(name string) field {
	if f.sub == "" {
		f.sub = name
	} else {
		f.leaf = name
	}
	return f
}

// at names element j of f's child list name.
func (f field) at(name string, j int) field {
	f.sub, f.j = name, j+1
	return f
}

func top(name string) field { return field{name: name, i: -1} }

func entryErr(f field, rule, value, msg string) *EntryError {
	return &EntryError{Field: f.String(), Rule: rule, Value: value, Message: msg}
}

// errNilURL is returned by Check for a nil *URL.
var errNilURL = errors.New("sitemap: nil *URL")

// Check runs every write-time check on u and returns the first problem as
// an *EntryError, or nil when u can be written. AppendURL and
// Encoder.Encode call it; call it yourself to vet entries without writing.
//
// What it checks, with the rule IDs (package rules, docs/RULES.md):
//
//   - loc: present; no surrounding white space; an absolute http or
//     https URL (L-01, L-02, L-16) with a host, an optional port 1–65535
//     and no user info; RFC 3986 syntax with every character outside the
//     URI set percent-encoded (L-07): raw non-ASCII, spaces, "<>\"{}|\\^`"
//     and a '%' not followed by two hex digits are refused, with the
//     percent-encoded (or, for a host, punycode) form in
//     EntryError.Suggest. The encoder never rewrites a URL, so valid
//     %XX escapes are never encoded twice. Fewer than 2,048 characters
//     (L-04, L-06) and at least 12 (L-05). In scope of o.Scope when set
//     (L-09, L-15).
//   - lastmod: day, minute or second precision (M-08 refuses year and
//     month precision, which the XSD rejects); year 0001–9999 (M-01).
//   - changefreq: one of the seven lowercase values (C-01).
//   - priority: 0.0–1.0, not NaN (P-01).
//   - every extension the entry uses is declared in o.Extensions (EX-05).
//   - images: at most 1,000 (IM-02), each with an absolute http(s) loc
//     (IM-01); the deprecated fields only when o.Legacy is set, since
//     they are written only then (IM-04).
//   - videos (V-01, V-03): thumbnail_loc, title (≤ 100 characters, the
//     XSD's limit), description (≤ 2,048 characters) and content_loc or
//     player_loc, both different from loc; duration 1–28,800; rating
//     0–5; view_count ≥ 0; dates like lastmod; at most 32 non-empty tags;
//     restriction and platform with relationship allow|deny and the XSD's
//     list patterns; uploader name ≤ 255 characters, info an http(s) URL;
//     deprecated fields only with o.Legacy (V-04).
//   - news (N-01..N-03): publication name, language (zh-cn, zh-tw or two
//     or three lowercase letters), publication_date and title; the 2010
//     XSD's optional tags only with o.Legacy (N-08, N-09).
//   - alternates (H-05, H-06, H-08): hreflang language[-Script][-REGION]
//     or x-default, no hreflang twice (case-insensitive), at most one
//     x-default, href an absolute http(s) URL under 2,048 characters.
//     Alternates may point to other hosts: no scope check.
//   - every text value (titles, names, descriptions, tags…): no character
//     XML 1.0 forbids (C0 controls other than TAB, LF and CR, U+FFFE,
//     U+FFFF) and valid UTF-8 (E-03, X-01). Such values are refused, not
//     repaired: the document would otherwise say something other than the
//     entry. Use strings.ToValidUTF8 first if lossy repair is acceptable.
//
// When o.Scope is set but is not an absolute http(s) URL, Check returns a
// plain error (not an *EntryError) for every entry.
func (o EncoderOptions) Check(u *URL) error {
	if u == nil {
		return errNilURL
	}
	if need := Extensions(u) &^ o.Extensions; need != 0 {
		return undeclared(need)
	}
	if err := o.checkLoc(top("loc"), u.Loc); err != nil {
		return err
	}
	if err := checkDate(top("lastmod"), "M-08", u.LastMod); err != nil {
		return err
	}
	if u.ChangeFreq != "" && !u.ChangeFreq.Valid() {
		msg := "is not one of always, hourly, daily, weekly, monthly, yearly, never"
		if ChangeFreq(strings.ToLower(string(u.ChangeFreq))).Valid() {
			msg += "; the XSD wants lowercase: " + strconv.Quote(strings.ToLower(string(u.ChangeFreq)))
		}
		return entryErr(top("changefreq"), "C-01", string(u.ChangeFreq), msg)
	}
	if u.Priority != nil {
		if p := *u.Priority; !(p >= 0 && p <= 1) {
			return entryErr(top("priority"), "P-01", strconv.FormatFloat(p, 'g', -1, 64),
				"is outside 0.0–1.0")
		}
	}
	if len(u.Alternates) > 0 {
		if err := checkAlternates(u.Alternates); err != nil {
			return err
		}
	}
	if len(u.Images) > MaxImagesPerURL {
		return entryErr(top("images"), "IM-02", "",
			"has "+strconv.Itoa(len(u.Images))+" images; a <url> may carry at most 1,000; split the images over several pages or drop some")
	}
	for i := range u.Images {
		if err := o.checkImage(field{name: "images", i: i}, &u.Images[i]); err != nil {
			return err
		}
	}
	for i := range u.Videos {
		if err := o.checkVideo(field{name: "videos", i: i}, u.Loc, &u.Videos[i]); err != nil {
			return err
		}
	}
	if u.News != nil {
		if err := o.checkNews(u.News); err != nil {
			return err
		}
	}
	return nil
}

// CheckIndexEntry runs the write-time checks on one <sitemap> of an index:
// loc as for a URL entry (X-04, L-01..L-07, L-16, in scope of o.Scope per
// I-05/I-06 when set) and lastmod (M-08, M-01).
func (o EncoderOptions) CheckIndexEntry(x *IndexEntry) error {
	if x == nil {
		return errors.New("sitemap: nil *IndexEntry")
	}
	if err := o.checkLoc(top("loc"), x.Loc); err != nil {
		return err
	}
	return checkDate(top("lastmod"), "I-04", x.LastMod)
}

func undeclared(need Ext) error {
	var name, ext, fld string
	switch {
	case need&ExtImage != 0:
		name, ext, fld = "image", "ExtImage", "images"
	case need&ExtVideo != 0:
		name, ext, fld = "video", "ExtVideo", "videos"
	case need&ExtNews != 0:
		name, ext, fld = "news", "ExtNews", "news"
	default:
		name, ext, fld = "xhtml", "ExtXHTML", "alternates"
	}
	return &EntryError{Field: fld, Rule: "EX-05",
		Message: "needs the " + name + " namespace, which this document does not declare; set EncoderOptions.Extensions |= " + ext}
}

// checkLoc checks a page URL: the <loc> of a url or of an index entry.
// The common case takes the fast path of check_fast.go; everything else,
// and every error, comes from checkLocSlow.
func (o EncoderOptions) checkLoc(f field, s string) error {
	if p, ok := fastURL(s); ok && len(s) >= MinLocLength && len(s) < MaxLocLength {
		if o.Scope == nil || o.inScopeFast(p) {
			return nil
		}
		return o.checkScope(f, s, p)
	}
	return o.checkLocSlow(f, s)
}

// checkLocSlow is checkLoc without the fast path.
func (o EncoderOptions) checkLocSlow(f field, s string) error {
	if s == "" {
		return entryErr(f, "X-04", "", "is empty; every entry needs an absolute URL such as https://www.example.com/page")
	}
	p, err := checkURL(f, s)
	if err != nil {
		return err
	}
	if len(s) >= MaxLocLength {
		return entryErr(f, "L-06", s, "is "+strconv.Itoa(len(s))+" characters long; L-04 allows fewer than 2,048 characters in a loc: shorten the URL or leave the page out")
	}
	if len(s) < MinLocLength {
		return entryErr(f, "L-05", s, "is shorter than 12 characters, the XSD's minimum for a loc")
	}
	if o.Scope != nil {
		return o.checkScope(f, s, p)
	}
	return nil
}

// checkOtherURL checks an optional URL field other than loc: it must be an
// absolute http(s) URL in RFC 3986 syntax. maxLen applies L-06 as well
// (for hreflang hrefs, which are page URLs).
func checkOtherURL(f field, s string, maxLen bool) error {
	if _, ok := fastURL(s); ok && (!maxLen || len(s) < MaxLocLength) {
		return nil
	}
	return checkOtherURLSlow(f, s, maxLen)
}

// checkOtherURLSlow is checkOtherURL without the fast path.
func checkOtherURLSlow(f field, s string, maxLen bool) error {
	if _, err := checkURL(f, s); err != nil {
		return err
	}
	if maxLen && len(s) >= MaxLocLength {
		return entryErr(f, "L-06", s, "is "+strconv.Itoa(len(s))+" characters long; L-04 allows page URLs fewer than 2,048 characters: shorten it")
	}
	return nil
}

// urlParts are the pieces of an accepted URL the scope check needs, as
// substrings of it (no allocation).
type urlParts struct {
	scheme string
	host   string // without brackets for an IPv6 literal
	port   string // "" when absent
	path   string // escaped path, "" when absent
}

// checkURL checks that s is an absolute http(s) URL in RFC 3986 syntax
// whose every character is in the URI character set (L-01, L-07, L-16).
// It is stricter than net/url.Parse, which accepts spaces in some places
// and raw non-ASCII everywhere: anything checkURL accepts, url.Parse parses
// to the same scheme, host and path.
func checkURL(f field, s string) (urlParts, error) {
	var p urlParts
	if strings.TrimSpace(s) != s {
		e := entryErr(f, "L-07", s, "has white space around it; trim it")
		e.Suggest = strings.TrimSpace(s)
		return p, e
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
		e := entryErr(f, "L-01", s, "is not an absolute URL; sitemaps need https://…")
		if strings.HasPrefix(s, "//") {
			e.Message = "has no scheme; sitemaps need https://… or http://…"
		}
		return p, e
	}
	p.scheme = s[:colon]
	if !strings.EqualFold(p.scheme, "https") && !strings.EqualFold(p.scheme, "http") {
		return p, entryErr(f, "L-16", s, "has the scheme "+strconv.Quote(p.scheme)+"; sitemaps list only http and https URLs")
	}
	rest := s[colon+1:]
	if !strings.HasPrefix(rest, "//") {
		return p, entryErr(f, "L-01", s, "has no //host after "+p.scheme+":; sitemaps need https://host/…")
	}
	rest = rest[2:]
	end := 0
	for end < len(rest) && rest[end] != '/' && rest[end] != '?' && rest[end] != '#' {
		end++
	}
	auth, tail := rest[:end], rest[end:]
	if strings.IndexByte(auth, '@') >= 0 {
		return p, entryErr(f, "L-07", s, "carries user info (user@ or user:password@) before the host; list the public URL without it")
	}
	host := auth
	if strings.HasPrefix(auth, "[") {
		rb := strings.IndexByte(auth, ']')
		if rb < 0 {
			return p, entryErr(f, "L-07", s, "has an IPv6 host without its closing ']'")
		}
		a, err := netip.ParseAddr(auth[1:rb])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return p, entryErr(f, "L-07", s, "has "+strconv.Quote(auth[:rb+1])+" in brackets, which is not an IPv6 address")
		}
		p.host = auth[1:rb]
		host = auth[rb+1:]
		if host != "" && host[0] != ':' {
			return p, entryErr(f, "L-07", s, "has "+strconv.Quote(host)+" after the IPv6 host; only :port may follow")
		}
		if host != "" {
			p.port = host[1:]
			if err := checkPort(f, s, p.port); err != nil {
				return p, err
			}
		}
	} else {
		if i := strings.LastIndexByte(auth, ':'); i >= 0 {
			host, p.port = auth[:i], auth[i+1:]
			if err := checkPort(f, s, p.port); err != nil {
				return p, err
			}
		}
		if host == "" {
			return p, entryErr(f, "L-01", s, "has no host; sitemaps need https://host/…")
		}
		for i := 0; i < len(host); i++ {
			c := host[i]
			if charClass[c]&cHost != 0 {
				continue
			}
			e := entryErr(f, "L-07", s, "")
			if c >= utf8.RuneSelf {
				e.Suggest = suggestURL(s)
				e.Message = "has a host with non-ASCII characters; write it in punycode"
				if e.Suggest != "" {
					e.Message += ": " + strconv.Quote(e.Suggest)
				}
			} else {
				e.Message = "has " + strconv.Quote(string(c)) + " in its host, which host names cannot contain"
			}
			return p, e
		}
		p.host = host
	}
	frag := false
	pathEnd := -1
	for i := 0; i < len(tail); i++ {
		c := tail[i]
		if charClass[c]&cURI != 0 {
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
		e := entryErr(f, "L-07", s, "")
		e.Suggest = suggestURL(s)
		off := len(s) - len(tail) + i
		switch {
		case c == '%':
			e.Message = "has a '%' not followed by two hex digits at byte " + strconv.Itoa(off) + "; write a literal % as %25"
		case c == ' ':
			e.Message = "contains a space at byte " + strconv.Itoa(off) + "; percent-encode it as %20"
		case c >= utf8.RuneSelf:
			r, _ := utf8.DecodeRuneInString(tail[i:])
			if r == utf8.RuneError {
				e.Message = "contains a byte that is not UTF-8 at byte " + strconv.Itoa(off) + "; URLs must be percent-encoded UTF-8"
			} else {
				e.Message = "contains the non-ASCII character " + strconv.QuoteRune(r) + " at byte " + strconv.Itoa(off) + "; URLs must be percent-encoded"
			}
		case c < 0x20 || c == 0x7f:
			e.Message = "contains the control character " + runeName(rune(c)) + " at byte " + strconv.Itoa(off) + "; percent-encode it or remove it"
		default:
			e.Message = "contains " + strconv.Quote(string(c)) + " at byte " + strconv.Itoa(off) + ", which must be percent-encoded in a URL"
		}
		if e.Suggest != "" {
			e.Message += "; percent-encoded: " + strconv.Quote(e.Suggest)
		}
		return p, e
	}
	if pathEnd < 0 {
		pathEnd = len(tail)
	}
	p.path = tail[:pathEnd]
	return p, nil
}

func checkPort(f field, s, port string) error {
	if port == "" {
		return entryErr(f, "L-07", s, "has a ':' after the host but no port number; remove the ':'")
	}
	n := 0
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) || i >= 5 {
			return entryErr(f, "L-07", s, "has the port "+strconv.Quote(port)+"; a port is a number 1–65535")
		}
		n = n*10 + int(port[i]-'0')
	}
	if n < 1 || n > 65535 {
		return entryErr(f, "L-07", s, "has the port "+port+"; a port is a number 1–65535")
	}
	return nil
}

// suggestURL returns s percent-encoded as L-07 wants it: the host in
// punycode, every byte outside the URI character set in the rest as %XX
// (a '%' that already starts a valid %XX escape is kept, so nothing is
// encoded twice; a second '#' becomes %23). It returns "" when the host
// cannot be converted.
func suggestURL(s string) string {
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
		a, err := idna.Lookup.ToASCII(h)
		if err != nil {
			return ""
		}
		host = a + port
	}
	b.WriteString(host)
	const hex = "0123456789ABCDEF"
	frag := false
	for i := 0; i < len(tail); i++ {
		c := tail[i]
		switch {
		case isURIChar(c):
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

// isURIChar reports whether c may appear literally in the path, query or
// fragment of a URI (RFC 3986 pchar plus '/' and '?'; '%' and '#' are
// handled by the caller).
func isURIChar(c byte) bool { return charClass[c]&cURI != 0 }

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// checkScopeOption reports a plain error when o.Scope is set but cannot
// serve as a scope.
func (o EncoderOptions) checkScopeOption() error {
	sc := o.Scope
	if sc == nil {
		return nil
	}
	if (sc.Scheme != "http" && sc.Scheme != "https") || sc.Host == "" || sc.Opaque != "" {
		return errors.New("sitemap: EncoderOptions.Scope " + strconv.Quote(sc.String()) + " is not an absolute http(s) URL")
	}
	return nil
}

// checkScope applies L-15: scheme (case-insensitive), host
// (case-insensitive, IDNA-normalised) and port (with the default ports 80
// and 443) must equal the scope URL's, and the path must start with the
// scope URL's directory (its path up to and including the last '/').
func (o EncoderOptions) checkScope(f field, s string, p urlParts) error {
	if err := o.checkScopeOption(); err != nil {
		return err
	}
	sc := o.Scope
	scHost := sc.Hostname()
	if !isASCII(scHost) {
		if a, err := idna.Lookup.ToASCII(scHost); err == nil {
			scHost = a
		}
	}
	dir := sc.EscapedPath()
	dir = dir[:strings.LastIndexByte(dir, '/')+1]
	if dir == "" {
		dir = "/"
	}
	path := p.path
	if path == "" {
		path = "/"
	}
	var why string
	switch {
	case !strings.EqualFold(p.scheme, sc.Scheme):
		why = "its scheme is " + p.scheme + ", not " + sc.Scheme
	case !strings.EqualFold(p.host, scHost):
		why = "its host is " + p.host + ", not " + scHost
	case portNumber(p.port, p.scheme) != portNumber(sc.Port(), sc.Scheme):
		why = "its port differs"
	case !strings.HasPrefix(path, dir):
		why = "it is not under " + dir
	default:
		return nil
	}
	prefix := strings.ToLower(sc.Scheme) + "://" + sc.Host + dir
	return entryErr(f, "L-09", s, "is outside the scope of "+sc.String()+": "+why+
		"; under L-15 a sitemap may list only URLs that start with "+prefix)
}

// portNumber returns the port as a number, or the scheme's default.
func portNumber(port, scheme string) int {
	if port == "" {
		if strings.EqualFold(scheme, "https") {
			return 443
		}
		return 80
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return -1
	}
	return n
}

// checkDate checks an optional date field: it must be writable in one of
// the forms M-08 allows.
func checkDate(f field, rule string, d Date) error {
	switch d.Precision {
	case PrecisionNone:
		return nil
	case PrecisionYear, PrecisionMonth:
		p := "year"
		if d.Precision == PrecisionMonth {
			p = "month"
		}
		return entryErr(f, "M-08", d.String(),
			"has only "+p+" precision, which the XSD rejects; give a full date YYYY-MM-DD or a date-time")
	case PrecisionDay, PrecisionMinute, PrecisionSecond:
	default:
		return entryErr(f, rule, "", "has an unknown precision "+strconv.Itoa(int(d.Precision)))
	}
	// Year 0001–9999 in the written zone, without the calendar arithmetic.
	if local, _ := localSeconds(d); local < minLocalSec || local > maxLocalSec {
		y := fieldsOf(d).year
		return entryErr(f, "M-01", "", "has the year "+strconv.Itoa(y)+"; W3C Datetime needs a four-digit year 0001–9999")
	}
	return nil
}

// The Unix seconds of 0001-01-01T00:00:00 and 9999-12-31T23:59:59.
const (
	minLocalSec = -62135596800
	maxLocalSec = 253402300799
)

// localSeconds returns the Unix seconds of d's wall clock in the zone the
// encoder writes (see fieldsOf), and that zone's offset.
func localSeconds(d Date) (local int64, off int) {
	_, off = d.Time.Zone()
	if d.Precision >= PrecisionMinute && (off%60 != 0 || off > 14*3600 || off < -14*3600) {
		off = 0
	}
	return d.Time.Unix() + int64(off), off
}

// dateFields are the calendar fields the encoder writes for a Date.
type dateFields struct {
	year, month, day, hour, min, sec, nsec int
	off                                    int // TZD offset in seconds
}

// fieldsOf returns the fields written for d: d.Time in its own zone,
// except that for minute and second precision a zone whose offset is not
// a whole number of minutes or lies beyond ±14:00 (which a TZD cannot
// express, D-03) is replaced by UTC, the same instant. One zone lookup and
// integer arithmetic (the civil-from-days algorithm), so the hot path
// stays cheap.
func fieldsOf(d Date) dateFields {
	local, off := localSeconds(d)
	days := local / 86400
	if local%86400 < 0 {
		days--
	}
	secs := int(local - days*86400)
	f := dateFields{hour: secs / 3600, min: secs / 60 % 60, sec: secs % 60, nsec: d.Time.Nanosecond(), off: off}
	// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant).
	z := days + 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	f.day = int(doy - (153*mp+2)/5 + 1)
	f.month = int(mp + 3)
	if mp >= 10 {
		f.month = int(mp - 9)
	}
	f.year = int(yoe + era*400)
	if f.month <= 2 {
		f.year++
	}
	return f
}

// checkTextField checks a free-text field (E-03, X-01); required fields
// must not be empty or white space only (readers trim values, X-12);
// maxRunes > 0 caps the length in characters.
func checkTextField(f field, rule, s string, required bool, maxRunes int) error {
	if s == "" {
		if required {
			return entryErr(f, rule, "", "is required")
		}
		return nil
	}
	if required && strings.Trim(s, " \t\r\n") == "" {
		// Readers trim text values, so this would read as empty.
		return entryErr(f, rule, s, "is required but holds only white space")
	}
	if bad, ok := checkText(s); !ok {
		rule := "E-03"
		if !bad.utf8 {
			rule = "X-01"
		}
		return entryErr(f, rule, s, "contains "+bad.describe())
	}
	if maxRunes > 0 && len(s) > maxRunes {
		if n := utf8.RuneCountInString(s); n > maxRunes {
			return entryErr(f, rule, s, "is "+strconv.Itoa(n)+" characters long; at most "+strconv.Itoa(maxRunes)+" are allowed")
		}
	}
	return nil
}

func (o EncoderOptions) checkImage(f field, im *Image) error {
	if im.Loc == "" {
		return entryErr(f.with("loc"), "IM-01", "", "is required: every image needs an absolute URL")
	}
	if err := checkOtherURL(f.with("loc"), im.Loc, false); err != nil {
		return err
	}
	if !o.Legacy {
		return nil // IM-04: the deprecated fields are not written
	}
	if err := checkTextField(f.with("caption"), "IM-01", im.Caption, false, 0); err != nil {
		return err
	}
	if err := checkTextField(f.with("geo_location"), "IM-01", im.GeoLocation, false, 0); err != nil {
		return err
	}
	if err := checkTextField(f.with("title"), "IM-01", im.Title, false, 0); err != nil {
		return err
	}
	if im.License != "" {
		return checkOtherURL(f.with("license"), im.License, false)
	}
	return nil
}

// Limits of the video extension (V-01) beyond limits.go.
const (
	maxVideoTitle    = 100 // the video XSD's maxLength for <video:title>
	maxVideoUploader = 255
	maxVideoCategory = 256 // the video XSD's maxLength for <video:category>
)

func (o EncoderOptions) checkVideo(f field, loc string, v *Video) error {
	if v.ThumbnailLoc == "" {
		return entryErr(f.with("thumbnail_loc"), "V-01", "", "is required")
	}
	if err := checkOtherURL(f.with("thumbnail_loc"), v.ThumbnailLoc, false); err != nil {
		return err
	}
	if err := checkTextField(f.with("title"), "V-01", v.Title, true, maxVideoTitle); err != nil {
		return err
	}
	if err := checkTextField(f.with("description"), "V-01", v.Description, true, MaxVideoDescription); err != nil {
		return err
	}
	if v.ContentLoc == "" && v.PlayerLoc == "" {
		return entryErr(f.with("content_loc"), "V-01", "", "or player_loc is required: a video needs the media file's URL or the player's")
	}
	for _, u := range [2]struct{ name, val string }{{"content_loc", v.ContentLoc}, {"player_loc", v.PlayerLoc}} {
		if u.val == "" {
			continue
		}
		if err := checkOtherURL(f.with(u.name), u.val, false); err != nil {
			return err
		}
		if u.val == loc {
			return entryErr(f.with(u.name), "V-01", u.val, "is the page's own loc; it must point to the media file or player, not the page")
		}
	}
	if v.Duration != nil && (*v.Duration < 1 || *v.Duration > MaxVideoDuration) {
		return entryErr(f.with("duration"), "V-01", strconv.Itoa(*v.Duration), "is outside 1–28800 seconds")
	}
	if err := checkDate(f.with("expiration_date"), "V-01", v.ExpirationDate); err != nil {
		return err
	}
	if v.Rating != nil {
		if r := *v.Rating; !(r >= 0 && r <= 5) {
			return entryErr(f.with("rating"), "V-01", strconv.FormatFloat(r, 'g', -1, 64), "is outside 0.0–5.0")
		}
	}
	if v.ViewCount != nil && *v.ViewCount < 0 {
		return entryErr(f.with("view_count"), "V-01", strconv.FormatInt(*v.ViewCount, 10), "is negative")
	}
	if err := checkDate(f.with("publication_date"), "V-01", v.PublicationDate); err != nil {
		return err
	}
	if len(v.Tags) > MaxVideoTags {
		return entryErr(f.with("tags"), "S-08", "", "has "+strconv.Itoa(len(v.Tags))+" tags; a video may carry at most 32")
	}
	for i, tag := range v.Tags {
		if err := checkTextField(f.at("tags", i), "V-01", tag, true, 0); err != nil {
			return err
		}
	}
	if r := v.Restriction; r != nil {
		if err := checkRelationship(f.with("restriction.relationship"), r.Relationship); err != nil {
			return err
		}
		if !validCountries(r.Countries) {
			return entryErr(f.with("restriction.countries"), "V-01", r.Countries,
				"is not a space-separated list of ISO 3166-1 alpha-2 codes in capitals, such as \"IE GB US\"")
		}
	}
	if u := v.Uploader; u != nil {
		if err := checkTextField(f.with("uploader.name"), "V-01", u.Name, true, maxVideoUploader); err != nil {
			return err
		}
		if u.Info != "" {
			if err := checkOtherURL(f.with("uploader.info"), u.Info, false); err != nil {
				return err
			}
		}
	}
	if p := v.Platform; p != nil {
		if err := checkRelationship(f.with("platform.relationship"), p.Relationship); err != nil {
			return err
		}
		if !validPlatforms(p.Platforms) {
			return entryErr(f.with("platform.platforms"), "V-01", p.Platforms,
				"is not a list of web, mobile and tv separated by single spaces")
		}
	}
	if !o.Legacy {
		return nil // V-04: the deprecated fields are not written
	}
	if err := checkTextField(f.with("category"), "V-02", v.Category, false, maxVideoCategory); err != nil {
		return err
	}
	if v.GalleryLoc != "" {
		if err := checkOtherURL(f.with("gallery_loc"), v.GalleryLoc, false); err != nil {
			return err
		}
	}
	for i := range v.Prices {
		pr := &v.Prices[i]
		pf := f.at("prices", i)
		if err := checkTextField(pf.with("value"), "V-02", pr.Value, false, 0); err != nil {
			return err
		}
		if pr.Currency != "" && !(len(pr.Currency) == 3 && isUpper(pr.Currency[0]) && isUpper(pr.Currency[1]) && isUpper(pr.Currency[2])) {
			return entryErr(pf.with("currency"), "V-02", pr.Currency, "is not an ISO 4217 code of three capital letters, such as EUR")
		}
		switch pr.Type {
		case "", "purchase", "PURCHASE", "rent", "RENT":
		default:
			return entryErr(pf.with("type"), "V-02", pr.Type, "is neither purchase nor rent")
		}
		switch pr.Resolution {
		case "", "sd", "SD", "hd", "HD":
		default:
			return entryErr(pf.with("resolution"), "V-02", pr.Resolution, "is neither sd nor hd")
		}
	}
	if v.PlayerAllowEmbed != "" || v.PlayerAutoplay != "" {
		if v.PlayerLoc == "" {
			return entryErr(f.with("player_allow_embed"), "V-02", v.PlayerAllowEmbed+v.PlayerAutoplay,
				"and player_autoplay are attributes of player_loc, which is empty")
		}
		if !validYesNo(v.PlayerAllowEmbed) && v.PlayerAllowEmbed != "" {
			return entryErr(f.with("player_allow_embed"), "V-02", v.PlayerAllowEmbed, "is neither yes nor no")
		}
		if err := checkTextField(f.with("player_autoplay"), "V-02", v.PlayerAutoplay, false, 0); err != nil {
			return err
		}
	}
	return nil
}

func checkRelationship(f field, r Relationship) error {
	if r != Allow && r != Deny {
		return entryErr(f, "V-01", string(r), "is neither allow nor deny")
	}
	return nil
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// validYesNo is the video XSD's tYesNo.
func validYesNo(s string) bool {
	switch s {
	case "yes", "Yes", "YES", "no", "No", "NO":
		return true
	}
	return false
}

// validCountries matches the video XSD's tCountryList,
// ([A-Z]{2}( +[A-Z]{2})*)?.
func validCountries(s string) bool {
	for i := 0; i < len(s); {
		if i > 0 {
			if s[i] != ' ' {
				return false
			}
			for i < len(s) && s[i] == ' ' {
				i++
			}
		}
		if i+2 > len(s) || !isUpper(s[i]) || !isUpper(s[i+1]) {
			return false
		}
		i += 2
	}
	return true
}

// validPlatforms matches the video XSD's tPlatformList,
// ((web|mobile|tv)( (web|mobile|tv))*)?.
func validPlatforms(s string) bool {
	if s == "" {
		return true
	}
	for {
		word, rest, more := strings.Cut(s, " ")
		switch word {
		case "web", "mobile", "tv":
		default:
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

func (o EncoderOptions) checkNews(n *News) error {
	f := top("news")
	if err := checkTextField(f.with("publication.name"), "N-01", n.Publication.Name, true, 0); err != nil {
		return err
	}
	if !validNewsLanguage(n.Publication.Language) {
		e := entryErr(f.with("publication.language"), "N-03", n.Publication.Language,
			"is not an ISO 639 code: use two or three lowercase letters, or zh-cn / zh-tw")
		if n.Publication.Language == "" {
			e.Rule, e.Message = "N-01", "is required (an ISO 639 code such as en, or zh-cn / zh-tw)"
		} else if l, _, _ := strings.Cut(strings.ToLower(n.Publication.Language), "-"); validNewsLanguage(l) {
			e.Suggest = l
			e.Message += "; for example " + strconv.Quote(l)
		}
		return e
	}
	if n.PublicationDate.IsZero() {
		return entryErr(f.with("publication_date"), "N-01", "", "is required: N-04 wants the article's original publication time")
	}
	if err := checkDate(f.with("publication_date"), "N-04", n.PublicationDate); err != nil {
		return err
	}
	if err := checkTextField(f.with("title"), "N-01", n.Title, true, 0); err != nil {
		return err
	}
	if !o.Legacy {
		return nil // N-09: the 2010 XSD's optional tags are not written
	}
	switch n.Access {
	case "", "Subscription", "Registration":
	default:
		return entryErr(f.with("access"), "N-08", n.Access, "is neither Subscription nor Registration")
	}
	if n.Genres != "" && !validGenres(n.Genres) {
		return entryErr(f.with("genres"), "N-08", n.Genres,
			"is not a comma-separated list of PressRelease, Satire, Blog, OpEd, Opinion, UserGenerated")
	}
	if err := checkTextField(f.with("keywords"), "N-08", n.Keywords, false, 0); err != nil {
		return err
	}
	if n.StockTickers != "" && !validTickers(n.StockTickers) {
		return entryErr(f.with("stock_tickers"), "N-08", n.StockTickers,
			"is not a comma-separated list of at most 5 EXCHANGE:SYMBOL tickers, such as \"NASDAQ:AMAT, BOM:500325\"")
	}
	return nil
}

// validNewsLanguage matches the news XSD's pattern zh-cn|zh-tw|([a-z]{2,3}).
func validNewsLanguage(s string) bool {
	if s == "zh-cn" || s == "zh-tw" {
		return true
	}
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLower(s[i]) {
			return false
		}
	}
	return true
}

// validGenres matches the news XSD's genres pattern: one of six names, then
// any number of ", *name".
func validGenres(s string) bool {
	for i := 0; ; i++ {
		if i > 0 {
			if !strings.HasPrefix(s, ",") {
				return false
			}
			s = strings.TrimLeft(s[1:], " ")
		}
		j := strings.IndexByte(s, ',')
		if j < 0 {
			j = len(s)
		}
		switch s[:j] {
		case "PressRelease", "Satire", "Blog", "OpEd", "Opinion", "UserGenerated":
		default:
			return false
		}
		s = s[j:]
		if s == "" {
			return true
		}
	}
}

// validTickers matches the news XSD's (\w+:\w+(, *\w+:\w+){0,4})?, where \w
// is any character but punctuation, separators and "other" (XSD regex).
func validTickers(s string) bool {
	word := func(s string) (rest string, ok bool) {
		n := 0
		for n < len(s) {
			r, size := utf8.DecodeRuneInString(s[n:])
			if unicode.IsPunct(r) || unicode.In(r, unicode.Z, unicode.C) || r == utf8.RuneError && size == 1 {
				break
			}
			n += size
		}
		return s[n:], n > 0
	}
	for i := 0; ; i++ {
		if i > 4 {
			return false
		}
		if i > 0 {
			if !strings.HasPrefix(s, ",") {
				return false
			}
			s = strings.TrimLeft(s[1:], " ")
		}
		var ok bool
		if s, ok = word(s); !ok || !strings.HasPrefix(s, ":") {
			return false
		}
		if s, ok = word(s[1:]); !ok {
			return false
		}
		if s == "" {
			return true
		}
	}
}

// checkAlternates checks the hreflang links of one <url> (H-05, H-06,
// H-08).
func checkAlternates(alts []Alternate) error {
	xdefault := -1
	for i := range alts {
		a := &alts[i]
		f := field{name: "alternates", i: i}
		if a.Hreflang == "" {
			return entryErr(f.with("hreflang"), "H-06", "", "is required: a language code such as en or en-GB, or x-default")
		}
		if !validHreflang(a.Hreflang) {
			return entryErr(f.with("hreflang"), "H-06", a.Hreflang,
				"is not language[-Script][-REGION] with known ISO codes (such as en, en-GB, zh-Hant-TW, es-419) or x-default; a region alone is not valid")
		}
		if strings.EqualFold(a.Hreflang, "x-default") {
			if xdefault >= 0 {
				return entryErr(f.with("hreflang"), "H-08", a.Hreflang,
					"appears twice (alternates["+strconv.Itoa(xdefault)+"] too); a <url> has at most one x-default")
			}
			xdefault = i
		}
		if a.Href == "" {
			return entryErr(f.with("href"), "H-05", "", "is required: the alternate page's absolute URL")
		}
		if err := checkOtherURL(f.with("href"), a.Href, true); err != nil {
			return err
		}
		for j := 0; j < i; j++ {
			if strings.EqualFold(alts[j].Hreflang, a.Hreflang) && !strings.EqualFold(a.Hreflang, "x-default") {
				return entryErr(f.with("hreflang"), "H-08", a.Hreflang,
					"repeats alternates["+strconv.Itoa(j)+"]; each hreflang may appear once per <url>")
			}
		}
	}
	return nil
}

// validHreflang accepts x-default and language[-Script][-REGION] (H-06):
// a 2–3 letter ISO 639 language, a 4-letter ISO 15924 script and a
// 2-letter ISO 3166-1 or 3-digit UN M.49 region (es-419), in any letter
// case, each a code golang.org/x/text/language knows (so a region alone,
// such as "GB", is refused: "gb" is no language).
func validHreflang(s string) bool {
	if strings.EqualFold(s, "x-default") {
		return true
	}
	part, rest, more := strings.Cut(s, "-")
	if !allAlpha(part) || len(part) < 2 || len(part) > 3 {
		return false
	}
	if _, err := language.ParseBase(part); err != nil {
		return false
	}
	if !more {
		return true
	}
	part, rest, more = strings.Cut(rest, "-")
	if len(part) == 4 && allAlpha(part) {
		if _, err := language.ParseScript(part); err != nil {
			return false
		}
		if !more {
			return true
		}
		part, _, more = strings.Cut(rest, "-")
	}
	if more || !(len(part) == 2 && allAlpha(part) || len(part) == 3 && allDigit(part)) {
		return false
	}
	_, err := language.ParseRegion(part)
	return err == nil
}

func allAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlpha(s[i]) {
			return false
		}
	}
	return true
}

func allDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
