package sitemap

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/xmlscan"
	"github.com/sitemapkit/sitemap/rules"
)

// This file holds the checks and conversions of element values:
// references (E-01, E-02, E-03, XML-03), characters (E-03, X-01), dates,
// changefreq, priority.

// valueState is what value parsing keeps between entries: the last date
// parsed the general way (a sitemap often repeats one), the time zones of
// dates (decode_fast_values.go) and the slab priorities are carved from.
type valueState struct {
	lastDateIn  string
	lastDate    Date
	lastIssues  DateIssue
	lastDateErr error
	zones       zoneCache
	prioSlab    []float64 // room for the next priorities (newPriority)
	strs        textArena // room for the next values (locs, extension text)
}

// textArena makes the strings of values (locs, image locs, titles) without
// an allocation each: they are cut from a shared chunk, one allocation per
// textChunk bytes. By default a chunk is only ever appended to, so every
// string stays valid and unchanged for good; one a caller keeps keeps its
// chunk (at most textChunk bytes) alive. With reuse (DecoderOptions.
// ReuseValues), reset rewinds the chunk at each entry: the strings of one
// entry are overwritten by the next one's, and a document of any size
// reads in one chunk.
type textArena struct {
	buf   []byte
	reuse bool
}

// textChunk is the size of a chunk of textArena; longer values get a
// string of their own.
const textChunk = 4096

// string returns v as a string.
func (a *textArena) string(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	if len(v) > textChunk/4 {
		return string(v)
	}
	if cap(a.buf)-len(a.buf) < len(v) {
		a.buf = make([]byte, 0, textChunk)
	}
	start := len(a.buf)
	a.buf = append(a.buf, v...)
	// The bytes from start on are never written again unless reset
	// rewinds (reuse), which the caller asked for.
	return unsafe.String(&a.buf[start], len(v))
}

// reset makes the room of the strings handed out so far free for the next
// ones, when the arena reuses its memory.
func (a *textArena) reset() {
	if a.reuse {
		a.buf = a.buf[:0]
	}
}

// unescape appends raw to dst, replacing the five predefined entities and
// character references (E-02). Other entity references are never expanded
// (XML-03): they are dropped with a diagnostic. A bare '&' is kept with an
// E-01 error.
func (x *xmlReader) unescape(dst, raw []byte, off int64) []byte {
	base := off
	for {
		i := bytes.IndexByte(raw, '&')
		if i < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:i]...)
		at := base + int64(i)
		raw = raw[i:]
		base = at
		lim := len(raw)
		if lim > 40 {
			lim = 40
		}
		j := bytes.IndexByte(raw[1:lim], ';') + 1
		if j <= 1 || !isRefName(raw[1:j]) {
			x.report(rules.E01, at, "a bare '&' in text; write it as &amp; (read as '&')")
			dst = append(dst, '&')
			raw = raw[1:]
			base++
			continue
		}
		ent := raw[1:j]
		switch string(ent) {
		case "amp":
			dst = append(dst, '&')
		case "lt":
			dst = append(dst, '<')
		case "gt":
			dst = append(dst, '>')
		case "apos":
			dst = append(dst, '\'')
		case "quot":
			dst = append(dst, '"')
		default:
			if ent[0] == '#' {
				var v uint64
				var err error
				if len(ent) > 1 && (ent[1] == 'x' || ent[1] == 'X') {
					v, err = strconv.ParseUint(string(ent[2:]), 16, 32)
				} else {
					v, err = strconv.ParseUint(string(ent[1:]), 10, 32)
				}
				r := rune(v)
				if err != nil || !isXMLChar(r) {
					x.report(rules.E03, at, fmt.Sprintf("character reference &%s; is not a character XML allows; dropped", shortText(ent)))
					x.dropOff, x.dropName, x.dropRule = at+1, "character reference &"+shortText(ent)+"; was dropped", rules.E03
					x.drops++
				} else {
					dst = utf8.AppendRune(dst, r)
				}
			} else {
				x.report(RuleEntity, at, fmt.Sprintf("entity reference &%s; is not expanded (only &amp; &lt; &gt; &apos; &quot; and character references are read; DTD entities never are); dropped", shortText(ent)))
				x.dropOff, x.dropName, x.dropRule = at+1, "entity reference &"+shortText(ent)+"; was dropped", RuleEntity
				x.drops++
			}
		}
		raw = raw[j+1:]
		base += int64(j + 1)
	}
}

// isRefName reports whether b (between '&' and ';') has the shape of a
// reference: a name or #digits / #xhex.
func isRefName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[0] == '#' {
		if len(b) < 2 {
			return false
		}
		for _, c := range b[1:] {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == 'x' || c == 'X') {
				return false
			}
		}
		return true
	}
	if !xmlscan.IsNameStart(b[0]) {
		return false
	}
	for _, c := range b {
		if !xmlscan.IsNameByte(c) {
			return false
		}
	}
	return true
}

// isXMLChar reports whether XML 1.0 allows r (E-03).
func isXMLChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// valueCharClass marks bytes that need a closer look in a value: 1 for C0
// controls XML forbids, 2 for non-ASCII.
var valueCharClass = func() (t [256]byte) {
	for c := 0; c < 0x20; c++ {
		if c != '\t' && c != '\n' && c != '\r' {
			t[c] = 1
		}
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = 2
	}
	return
}()

// checkChars reports forbidden characters (E-03) and invalid UTF-8
// in a value and returns it usable: invalid UTF-8 replaced.
func (x *xmlReader) checkChars(v []byte, off int64, what []byte) []byte {
	if printableASCII(v) { // the usual case: nothing to report or replace
		return v
	}
	var flags byte
	for _, c := range v {
		flags |= valueCharClass[c]
	}
	if flags == 0 {
		return v
	}
	if flags&1 != 0 {
		for _, c := range v {
			if valueCharClass[c]&1 != 0 {
				x.report(rules.E03, off, fmt.Sprintf("<%s> holds control character U+%04X, which XML forbids; the document is not well-formed", shortText(what), c))
				return v
			}
		}
	}
	if flags&2 == 0 {
		return v
	}
	if !utf8.Valid(v) {
		x.report(rules.X01, off, fmt.Sprintf("<%s> holds bytes that are not UTF-8; sitemaps must be UTF-8. Replaced by U+FFFD", shortText(what)))
		return bytes.ToValidUTF8(v, []byte("\uFFFD"))
	}
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRune(v[i:])
		if r == 0xFFFE || r == 0xFFFF {
			x.report(rules.E03, off, fmt.Sprintf("<%s> holds U+%04X, which XML forbids", shortText(what), r))
			break
		}
		i += n
	}
	return v
}

// trimXMLSpace trims XML white space.
func trimXMLSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && xmlscan.IsSpace(b[i]) {
		i++
	}
	for j > i && xmlscan.IsSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// date parses a date value leniently (M-04), reporting W3C errors (rule),
// large offsets (D-03) and forms the XSD rejects (M-04): the sitemap,
// news and video schemas all type their dates xsd:date ∪ xsd:dateTime.
func (x *xmlReader) date(val []byte, off int64, rule rules.ID, what string) Date {
	var d Date
	var issues DateIssue
	var err error
	// The usual forms, valid and in range, parse without allocating and
	// report nothing (parseCommonDate); the rest go the general way.
	if d, ok := parseCommonDate(val, &x.zones); ok {
		return d
	}
	if string(val) == x.lastDateIn && x.lastDateIn != "" {
		d, issues, err = x.lastDate, x.lastIssues, x.lastDateErr
	} else {
		in := string(val)
		d, issues, err = ParseDateLenient(in)
		x.lastDateIn, x.lastDate, x.lastIssues, x.lastDateErr = in, d, issues, err
	}
	if err != nil {
		x.reportAs(rule, SeverityError, off, fmt.Sprintf("%s %q is not a W3C Datetime (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm); ignored", what, shortText(val)))
		return Date{}
	}
	w3cErr := issues & W3CErrors
	if w3cErr != 0 {
		x.reportAs(rule, SeverityError, off, fmt.Sprintf("%s %q is not valid W3C Datetime: %s", what, shortText(val), w3cErr))
	}
	if y := d.Time.Year(); y < 1 && w3cErr == 0 {
		// Year 0000 parses but is no W3C Datetime year (the encoder
		// refuses it with the same words).
		x.reportAs(rule, SeverityError, off, fmt.Sprintf("%s %q %s", what, shortText(val), check.DateYear(y).Text()))
	}
	if issues&DateLargeOffset != 0 {
		x.report(rules.D03, off, fmt.Sprintf("%s %q has a time-zone offset beyond ±14:00", what, shortText(val)))
	}
	// M-04 says "valid W3C Datetime": only for a value that is. One the
	// W3C error above already rejects gets that one diagnostic (M-04).
	if w3cErr == 0 {
		switch d.Precision {
		case PrecisionYear, PrecisionMonth, PrecisionMinute:
			form := check.FormYear
			switch d.Precision {
			case PrecisionMonth:
				form = check.FormMonth
			case PrecisionMinute:
				form = check.FormMinute
			}
			x.report(rules.M04, off, fmt.Sprintf("%s %q %s", what, shortText(val), check.DatePrecision(form).Text()))
		}
	}
	return d
}

// changefreq maps a value to the enumeration (C-01), accepting other case
// with a C-04 error.
func (x *xmlReader) changefreq(val []byte, off int64) ChangeFreq {
	switch string(val) {
	case "always":
		return Always
	case "hourly":
		return Hourly
	case "daily":
		return Daily
	case "weekly":
		return Weekly
	case "monthly":
		return Monthly
	case "yearly":
		return Yearly
	case "never":
		return Never
	}
	for _, c := range [...]ChangeFreq{Always, Hourly, Daily, Weekly, Monthly, Yearly, Never} {
		if strings.EqualFold(string(val), string(c)) {
			x.report(rules.C04, off, fmt.Sprintf("<changefreq> %q %s; read as %q", shortText(val), check.ChangeFreq(string(val)).Text(), c))
			return c
		}
	}
	x.report(rules.C01, off, fmt.Sprintf("<changefreq> %q %s; ignored", shortText(val), check.ChangeFreq(string(val)).Text()))
	return ""
}

// priority parses an xsd:decimal in 0.0–1.0 (P-01).
func (x *xmlReader) priority(val []byte, off int64) *float64 {
	if p, ok := parseSimpleDecimal(val); ok && p <= 1 { // "0.8", "1.0": no diagnostic
		return x.newPriority(p)
	}
	if !isDecimal(val) {
		x.report(rules.P01, off, fmt.Sprintf("<priority> %q is not a decimal number from 0.0 to 1.0; ignored", shortText(val)))
		return nil
	}
	p, err := strconv.ParseFloat(string(val), 64)
	if err != nil || p < 0 || p > 1 {
		x.report(rules.P01, off, fmt.Sprintf("<priority> %q %s; ignored", shortText(val), check.Priority(p).Text()))
		return nil
	}
	if p == 0 {
		p = 0 // no negative zero
	}
	return x.newPriority(p)
}

// isDecimal reports whether b is an xsd:decimal lexical form: optional
// sign, digits with at most one '.', at least one digit, no exponent.
func isDecimal(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	digits, dot := 0, false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// parseYesNo parses the video yes/no values (the XSD also takes Yes/YES/No/NO).
func parseYesNo(v []byte) (bool, bool) {
	switch string(v) {
	case "yes", "Yes", "YES":
		return true, true
	case "no", "No", "NO":
		return false, true
	}
	return false, false
}
