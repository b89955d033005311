package sitemap

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/internal/xmlscan"
	"github.com/sitemapkit/sitemap/rules"
)

// This file holds the text format: one URL per line (T-01).

// textNext reads the next URL line of a text sitemap (T-01, T-08).
func (d *Decoder) textNext() (Item, error) {
	for {
		if d.stop != nil {
			return Item{}, d.stop // LIM-05
		}
		raw, off, ok := d.s.NextLine() // T-08: LF or CRLF
		if !ok {
			d.blanks()
			if d.s.Err() != nil && d.s.Err() != io.EOF {
				return Item{}, d.readFailure(d.s.Err(), off)
			}
			if d.count == 0 {
				d.report(rules.T01, SeverityWarning, d.textLine, 0, "the text sitemap holds no URL")
			}
			return Item{}, io.EOF
		}
		d.textLine++
		lead := 0
		for lead < len(raw) && (xmlscan.IsSpace(raw[lead]) || raw[lead] == '\f' || raw[lead] == '\v') {
			lead++
		}
		val := bytes.TrimRight(raw[lead:], " \t\r\n\f\v")
		if len(val) == 0 {
			// A run of blank lines is one warning, when it ends (a file
			// of 200 MiB of them is one diagnostic, not 200 million).
			if d.blankRun == 0 {
				d.blankFrom = d.textLine
			}
			d.blankRun++
			continue
		}
		d.blanks()
		if !absHTTP(val) {
			show := val
			if len(show) > 80 {
				show = show[:80]
			}
			d.reportSkipped(rules.T02, d.textLine, lead+1, fmt.Sprintf("%q is not an absolute http(s) URL; a text sitemap holds only full URLs, one per line (line skipped)", bytes.ToValidUTF8(show, []byte("\uFFFD"))))
			continue
		}
		if !printableASCII(val) {
			// One rule for every entry's URL (decode_loc.go): a control
			// character (a raw CR, NUL, ESC) skips the line.
			if rule, msg := locProblem(val, false); rule != "" {
				d.reportSkipped(rule, d.textLine, lead+1, "the line "+msg+"; line skipped")
				continue
			}
		}
		loc := d.x.strs.string(val)
		if !utf8.ValidString(loc) {
			d.report(rules.T04, SeverityError, d.textLine, lead+1, "the line is not valid UTF-8; bad bytes replaced by U+FFFD")
			loc = strings.ToValidUTF8(loc, "\uFFFD")
		}
		return Item{Kind: ItemURL, URL: URL{Loc: loc, Source: d.opt.Name}, Line: d.textLine, Col: lead + 1, LocLine: d.textLine, LocCol: lead + 1}, nil
	}
}

// blanks reports the run of blank lines just read, if any (T-08).
func (d *Decoder) blanks() {
	switch n := d.blankRun; {
	case n == 1:
		d.report(rules.T08, SeverityWarning, d.blankFrom, 1, "blank line; a text sitemap holds one URL per line and nothing else (T-05)")
	case n > 1:
		d.report(rules.T08, SeverityWarning, d.blankFrom, 1, fmt.Sprintf("%d blank lines (to line %d); a text sitemap holds one URL per line and nothing else (T-05)", n, d.blankFrom+n-1))
	}
	d.blankRun = 0
}

// hasHTTPScheme reports whether b starts with http:// or https:// (any case)
// followed by something.
func hasHTTPScheme(b []byte) bool {
	n := httpSchemeLen(b)
	return n > 0 && len(b) > n
}
