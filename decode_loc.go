package sitemap

import (
	"fmt"
	"strconv"

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
)

// This file holds the one rule every reader applies to the URL of an
// entry (a <loc>, a bare URL in <url>, an RSS or Atom link, a line of a
// text sitemap) before the entry leaves the decoder. An entry whose URL
// fails it is skipped with an error, so no command prints it in any
// format:
//
//   - a control character (check.Control: C0 including TAB, LF and CR,
//     DEL, C1, U+2028, U+2029): L-07. A character reference (&#10;) can put
//     one in a <loc>; printed raw it would forge a second line of `parse
//     --format txt` or `fetch` output, or steer a terminal;
//   - a reference dropped inside the value (XML-03, E-03): the URL read is
//     not the URL written (http://x&lol2;/ would read as http://x/, another
//     host);
//   - not an absolute http(s) URL, http:// or https:// and a host (L-01,
//     L-16; L-07 when user info stands where the host belongs:
//     https://@host/): nothing can fetch it, and the protocol
//     does not resolve relative URLs (L-02). Feeds are the exception
//     their relative links are resolved against xml:base or the
//     feed's URL, with a warning saying so.
//
// The other URL rules (percent-encoding, length, scope) stay the
// validator's: such an entry is still read.

// refuseLoc reports, with rule and message, why the URL v of an entry
// (the value of tag, at off) cannot be read, and returns true; false when
// it can. clean says v is printableASCII (no control character to look
// for). dropped says a reference inside v was dropped.
func (x *xmlReader) refuseLoc(v []byte, off int64, clean, dropped bool, tag string) bool {
	rule, msg := locProblem(v, clean)
	if rule == "" && dropped {
		rule, msg = x.dropRule, fmt.Sprintf("%q is not the URL written: its %s", shortText(v), x.dropName)
	}
	if rule == "" {
		return false
	}
	x.skip(rule, off, tag+" "+msg+"; entry skipped")
	return true
}

// locProblem is the rule and the message (after the tag's name) of what
// makes v no URL an entry can have, or "" (see the file comment).
func locProblem[T string | []byte](v T, clean bool) (rule rules.ID, msg string) {
	if !clean {
		if r, at := check.Control(v); at >= 0 {
			return rules.L07, fmt.Sprintf("%q contains the control character %s at byte %d, which a URL never holds raw; percent-encode it (%s) or remove it",
				shortText([]byte(v)), check.RuneName(r), at, percentEncodeRune(r))
		}
	}
	if absHTTP(v) {
		return "", ""
	}
	// Not http(s)://host: mostly L-01 or L-16, but user info where the
	// host belongs (https://@host/, https://:pw@host/) is L-07 for
	// check.URL, and the entry is skipped all the same, as a text
	// sitemap skips such a line (T-02).
	s := string(v)
	_, pr := check.URL(s)
	if pr == nil {
		pr = &check.Problem{Rule: rules.L01, Message: "is not an absolute http(s) URL", Fix: "sitemaps need https://host/…"}
	}
	return pr.Rule, strconv.Quote(shortText([]byte(s))) + " " + pr.Text()
}

// absHTTP reports whether v starts with http:// or https:// (any letter
// case) and a host: the cheap test that passes every usable URL.
func absHTTP[T string | []byte](v T) bool {
	n := httpSchemeLen(v)
	if n == 0 || len(v) == n {
		return false
	}
	switch v[n] {
	case '/', '?', '#', ':', '@':
		return false
	}
	return true
}

// httpSchemeLen is the length of the "http://" or "https://" (any letter
// case) that v starts with, or 0.
func httpSchemeLen[T string | []byte](v T) int {
	if len(v) < 7 || v[0]|0x20 != 'h' || v[1]|0x20 != 't' || v[2]|0x20 != 't' || v[3]|0x20 != 'p' {
		return 0
	}
	i := 4
	if v[i]|0x20 == 's' {
		i++
	}
	if len(v) < i+3 || v[i] != ':' || v[i+1] != '/' || v[i+2] != '/' {
		return 0
	}
	return i + 3
}

// percentEncodeRune is r's UTF-8 bytes as %XX escapes.
func percentEncodeRune(r rune) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for _, c := range []byte(string(r)) {
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}
