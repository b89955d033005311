package robots

import (
	"bytes"

	"golang.org/x/text/encoding/unicode"

	"github.com/sitemapkit/sitemap/rules"
)

// DefaultMaxBytes is the parsing limit: RFC 9309 requires at least 500 KiB
// (RB-03) and Google ignores everything after 500 KiB (RB-04).
const DefaultMaxBytes = 512000

// maxLineBytes is the longest line Google's parser looks at (2083*8 bytes,
// robots.cc kMaxLineLen); the rest of a longer line is ignored.
const maxLineBytes = 2083 * 8

// Warning is one problem found in a robots.txt file, a [rules.Problem] of
// severity warning: Rule is an ID of the RB family (RB-01 … RB-13), Line
// is 1-based, or 0 when the problem concerns the whole file. The caller
// says where the file is (File or URL) when it reports one.
type Warning = rules.Problem

// warning is a Warning under rule at line.
func warning(line int, rule rules.ID, msg string) Warning {
	return Warning{Rule: rule, Severity: rules.Warning, Message: msg, Line: line}
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// utf16Kind reports whether b starts with a UTF-16 byte order mark.
func isUTF16(b []byte) bool {
	return len(b) >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))
}

// decode turns raw file bytes into the UTF-8 text the scanner reads. A UTF-16
// file (recognised by its BOM) is converted; otherwise b is returned as is.
func decode(b []byte) ([]byte, *Warning) {
	if !isUTF16(b) {
		return b, nil
	}
	out, err := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder().Bytes(b)
	if err != nil {
		// The decoder replaces bad sequences; an error here means no BOM, which
		// isUTF16 ruled out. Fall back to the bytes as they are.
		w := warning(0, rules.RB02, "could not decode UTF-16 file: "+err.Error())
		return b, &w
	}
	w := warning(0, rules.RB02, "file is UTF-16; robots.txt must be UTF-8 (converted)")
	return out, &w
}

// bomLen is the number of leading bytes that are a UTF-8 byte order mark or a
// prefix of one; Google skips them (RB-10, robots.cc ParseRobotsTxt).
func bomLen(b []byte) int {
	n := 0
	for n < len(b) && n < len(utf8BOM) && b[n] == utf8BOM[n] {
		n++
	}
	return n
}

// scanLines calls fn for every line of b, with the 1-based line number, the
// line content b[start:end] (without the line ending) and next, the offset
// just after the line ending. LF, CR and CRLF all end a line (RB-10, RB-12).
// A final line without a line ending is reported too, with next == len(b).
func scanLines(b []byte, fn func(num, start, end, next int)) {
	num := 0
	for i := 0; i < len(b); {
		num++
		j := i
		for j < len(b) && b[j] != '\n' && b[j] != '\r' {
			j++
		}
		next := j
		if next < len(b) {
			if b[next] == '\r' && next+1 < len(b) && b[next+1] == '\n' {
				next += 2
			} else {
				next++
			}
		}
		fn(num, i, j, next)
		i = next
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'
}

func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// stripComment drops everything from the first '#' (RB-10).
func stripComment(b []byte) []byte {
	if i := bytes.IndexByte(b, '#'); i >= 0 {
		return b[:i]
	}
	return b
}

// splitKeyValue splits one line (comment already removed) into key and value
// as Google's GetKeyAndValueFrom does (RB-10): at the first ':'; when there is
// no colon, at whitespace provided the line has exactly two tokens. ok is false
// for an empty line or a line without a separator.
func splitKeyValue(line []byte) (key, value []byte, colon, ok bool) {
	line = trimSpace(line)
	if len(line) == 0 {
		return nil, nil, false, false
	}
	sep := bytes.IndexByte(line, ':')
	colon = sep >= 0
	if sep < 0 {
		sep = bytes.IndexAny(line, " \t")
		if sep < 0 {
			return nil, nil, false, false
		}
		rest := trimSpace(line[sep:])
		if bytes.ContainsAny(rest, " \t") {
			return nil, nil, false, false
		}
	}
	key = trimSpace(line[:sep])
	if len(key) == 0 {
		return nil, nil, colon, false
	}
	return key, trimSpace(line[sep+1:]), colon, true
}

type keyKind uint8

const (
	keyUnknown keyKind = iota
	keyUserAgent
	keyAllow
	keyDisallow
	keySitemap
	keyCrawlDelay
)

func (k keyKind) String() string {
	switch k {
	case keyUserAgent:
		return "User-agent"
	case keyAllow:
		return "Allow"
	case keyDisallow:
		return "Disallow"
	case keySitemap:
		return "Sitemap"
	case keyCrawlDelay:
		return "Crawl-delay"
	}
	return "unknown"
}

func hasPrefixFold(s []byte, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// classifyKey maps a key to its record type the way Google's ParsedRobotsKey
// does: a key counts when it starts with the canonical name (so "sitemaps"
// and "allowed" count, RB-09), case-insensitively, and the frequent typos
// Google accepts are accepted too; typo reports whether a typo was needed.
func classifyKey(key []byte) (kind keyKind, typo bool) {
	switch {
	case hasPrefixFold(key, "user-agent"):
		return keyUserAgent, false
	case hasPrefixFold(key, "useragent"), hasPrefixFold(key, "user agent"):
		return keyUserAgent, true
	case hasPrefixFold(key, "allow"):
		return keyAllow, false
	case hasPrefixFold(key, "disallow"):
		return keyDisallow, false
	case hasPrefixFold(key, "dissallow"), hasPrefixFold(key, "dissalow"),
		hasPrefixFold(key, "disalow"), hasPrefixFold(key, "diasllow"),
		hasPrefixFold(key, "disallaw"):
		return keyDisallow, true
	case hasPrefixFold(key, "sitemap"):
		return keySitemap, false
	case hasPrefixFold(key, "site-map"):
		return keySitemap, true
	case hasPrefixFold(key, "crawl-delay"):
		return keyCrawlDelay, false
	case hasPrefixFold(key, "crawldelay"), hasPrefixFold(key, "crawl delay"):
		return keyCrawlDelay, true
	}
	return keyUnknown, false
}
