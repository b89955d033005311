package sitemap

import (
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/internal/check"
)

// charClass classifies every byte for the URL checks and the escapers,
// one bit per class, so each hot loop is a single table lookup. It is
// package check's table (one for the module); TestCharClass checks it
// against the definitions below.
//
//	cURI  may appear literally in a URL's path, query or fragment: RFC
//	      3986 unreserved, sub-delims, ':', '@', '/', '?'
//	cHost may appear in a host name: letters, digits, '-', '.', '_', '~'
//	cText needs escaping in element content: & < > ' " CR
//	cAttr needs escaping in an attribute value: cText plus TAB and LF
//	cCtl  a C0 control XML 1.0 forbids (all but TAB, LF, CR)
const charClass = check.Class

const (
	cURI  = check.ClassURI
	cHost = check.ClassHost
	cText = check.ClassText
	cAttr = check.ClassAttr
	cCtl  = check.ClassCtl
	// cPlain is cURI but '?', '&' and '\'': a byte of a path that
	// appendText writes as it is (fastURL).
	cPlain = check.ClassPlain
)

// XML escaping for the encoder (E-01, E-02, E-03). Written by hand rather
// than with encoding/xml so the hot path appends to a caller's buffer
// without allocating: bytes that need no escape (everything above '>' and
// most below it) are copied in runs.
//
// The appenders assume their input already passed checkText (or the URL
// checks, which admit only printable ASCII): they do not look for
// characters XML 1.0 forbids.

// appendText appends s as element content. It escapes the five characters
// of E-01 (& < > ' ") by their named entities and CR as &#xD; (a literal
// CR would be turned into LF by every XML parser, so the value would not
// survive a round trip). TAB and LF are written as they are.
func appendText(dst []byte, s string) []byte { return appendEscaped(dst, s, cText) }

// appendAttr appends s as a double-quoted attribute value (without the
// quotes). Besides what appendText escapes it writes TAB and LF as
// character references, because attribute-value normalisation would turn
// them into spaces.
func appendAttr(dst []byte, s string) []byte { return appendEscaped(dst, s, cAttr) }

// entity is the escaped form of every byte that cText or cAttr marks.
var entity = [256]string{
	'&': "&amp;", '<': "&lt;", '>': "&gt;", '\'': "&apos;", '"': "&quot;",
	'\r': "&#xD;", '\n': "&#xA;", '\t': "&#x9;",
}

// appendEscaped appends s with every byte of the given charClass class
// replaced by its entity; the runs between them are copied as they are.
// Eight bytes at a time are skipped while none of them is in the class.
func appendEscaped(dst []byte, s string, class uint8) []byte {
	last := 0
	for i := 0; i < len(s); {
		lim := len(s)
		if i+8 <= len(s) {
			w := s[i : i+8]
			if (charClass[w[0]]|charClass[w[1]]|charClass[w[2]]|charClass[w[3]]|
				charClass[w[4]]|charClass[w[5]]|charClass[w[6]]|charClass[w[7]])&class == 0 {
				i += 8
				continue
			}
			lim = i + 8 // these eight one by one
		}
		for ; i < lim; i++ {
			c := s[i]
			if charClass[c]&class == 0 || entity[c] == "" {
				continue
			}
			dst = append(dst, s[last:i]...)
			dst = append(dst, entity[c]...)
			last = i + 1
		}
	}
	return append(dst, s[last:]...)
}

// badChar describes the first character of a string that XML 1.0 cannot
// carry (E-03).
type badChar struct {
	off  int  // byte offset in the string
	r    rune // the rune, or utf8.RuneError for a byte that is not UTF-8
	utf8 bool // true when r is a decoded rune, false for an invalid byte
}

// describe says what the bad character is and where, for an EntryError
// message (the caller adds the rule: E-03, or X-01 for bytes that are not
// UTF-8).
func (b badChar) describe() string {
	if !b.utf8 {
		return "a byte that is not valid UTF-8 at byte " + itoa(b.off)
	}
	return "the character " + check.RuneName(b.r) + " at byte " + itoa(b.off) + ", which XML 1.0 forbids"
}

// checkText finds the first character in s that XML 1.0 forbids (E-03):
// C0 controls other than TAB, LF and CR, U+FFFE and U+FFFF, and bytes that
// are not UTF-8 (unpaired surrogates included, since Go's decoder rejects
// their encoding). ok is true when there is none.
//
// The encoder rejects such values instead of replacing them: a replaced
// value would differ from the entry the caller holds, and a silent change
// is worse than an error that names the field (see [EncoderOptions.Check]).
func checkText(s string) (bad badChar, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if charClass[c]&cCtl != 0 {
				return badChar{off: i, r: rune(c), utf8: true}, false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return badChar{off: i, r: r}, false
		}
		if r == 0xFFFE || r == 0xFFFF {
			return badChar{off: i, r: r, utf8: true}, false
		}
		i += size
	}
	return badChar{}, true
}

// appendTextLossy appends s as attribute text, dropping the characters
// checkText rejects. It is used only for option values that have no error
// path (the stylesheet href in AppendHeader), so the header is always
// well-formed.
func appendAttrLossy(dst []byte, s string) []byte {
	for {
		bad, ok := checkText(s)
		if ok {
			return appendAttr(dst, s)
		}
		dst = appendAttr(dst, s[:bad.off])
		n := 1
		if bad.utf8 {
			n = utf8.RuneLen(bad.r)
		}
		s = s[bad.off+n:]
	}
}

// itoa is strconv.Itoa for non-negative ints, kept here so escape.go has no
// strconv dependency in its hot paths.
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
