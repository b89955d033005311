package source

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// The columns a CSV header may name (docs/CONVENTIONS.md: the entry record's
// field names). "url" is accepted as another name for loc.
const (
	colLoc = iota
	colLastMod
	colChangeFreq
	colPriority
	// The columns of a crawler's export that say whether a row is a page
	// to publish (SRC-07, SRC-08, SRC-09), and its title.
	colStatus
	colIndexability
	colCanonical
	colTitle
	numCols
)

var colNames = [numCols]string{"loc", "lastmod", "changefreq", "priority", "status", "indexability", "canonical", "title"}

// fieldList names the fields a column mapping may map, for messages.
const fieldList = "loc, lastmod, changefreq, priority, title, status, indexability or canonical"

// csvField is one field of the current record: its bytes are
// rec[start:end], and it starts on line, col.
type csvField struct {
	start, end int
	line, col  int
}

type csvReader struct {
	o      Options
	lr     *lineReader
	header bool         // the header row has been read
	cols   [numCols]int // field index of each known column, -1 when absent
	rec    []byte       // the current record's field bytes, unescaped
	fields []csvField
	done   bool
	sep    byte // field separator: ',' unless the header row uses ';' or tab only
	// httpDateWarned is set once an HTTP date was read as a lastmod.
	httpDateWarned bool
	// omitted is set by next for a row left out as unpublishable.
	omitted bool
}

func newCSV(br *bufio.Reader, o Options) *csvReader {
	return &csvReader{o: o, lr: newLineReader(br, o.maxLine())}
}

// CSV field states.
const (
	stFieldStart = iota
	stUnquoted
	stQuoted
	stQuoteInQuoted // a '"' seen inside a quoted field: "" or the closing quote
)

// record reads one logical record (RFC 4180: a quoted field may hold line
// breaks) into c.rec and c.fields. It returns the line it starts on.
func (c *csvReader) record() (int, error) {
	c.rec = c.rec[:0]
	c.fields = c.fields[:0]
	start := 0
	state := stFieldStart
	var cur csvField
	for {
		b, tooLong, err := c.lr.next()
		if err == io.EOF && start > 0 {
			// The file ends inside a quoted field.
			c.done = true
			return start, &Error{File: c.o.Name, Line: cur.line, Col: cur.col, Rule: rules.SRC03,
				Message: "quoted field is not closed before the end of the file; add the closing '\"'"}
		}
		if err != nil {
			return 0, err
		}
		if tooLong {
			if start == 0 {
				start = c.lr.line
			}
			return start, &Error{File: c.o.Name, Line: start, Col: 1, Rule: rules.LIM04,
				Message: fmt.Sprintf("record is longer than %d bytes; skipped", c.o.maxLine())}
		}
		if start == 0 {
			if t, _ := trimSpace(b); len(t) == 0 {
				continue // blank lines between records
			}
			start = c.lr.line
			cur = csvField{start: 0, line: start, col: 1}
			if c.sep == 0 {
				c.sep = separator(b)
			}
		} else {
			c.rec = append(c.rec, '\n') // a line break inside a quoted field
		}
		if len(c.rec)+len(b) > c.o.maxLine() {
			// Skip the rest of the record as far as we can tell: the
			// next line starts afresh.
			return start, &Error{File: c.o.Name, Line: start, Col: 1, Rule: rules.LIM04,
				Message: fmt.Sprintf("record is longer than %d bytes; skipped", c.o.maxLine())}
		}
		for i := 0; i < len(b); i++ {
			ch := b[i]
			switch state {
			case stFieldStart:
				switch ch {
				case '"':
					state = stQuoted
				case c.sep:
					cur.end = len(c.rec)
					c.fields = append(c.fields, cur)
					cur = csvField{start: len(c.rec), line: c.lr.line, col: i + 2}
				case ' ', '\t':
					// leading space before a field (and before its quote);
					// a tab separator was matched above
				default:
					c.rec = append(c.rec, ch)
					state = stUnquoted
				}
			case stUnquoted:
				if ch == c.sep {
					cur.end = len(c.rec)
					c.fields = append(c.fields, cur)
					cur = csvField{start: len(c.rec), line: c.lr.line, col: i + 2}
					state = stFieldStart
				} else {
					c.rec = append(c.rec, ch) // a bare '"' is kept as is
				}
			case stQuoted:
				if ch == '"' {
					state = stQuoteInQuoted
				} else {
					c.rec = append(c.rec, ch)
				}
			case stQuoteInQuoted:
				switch ch {
				case '"':
					c.rec = append(c.rec, '"')
					state = stQuoted
				case c.sep:
					cur.end = len(c.rec)
					c.fields = append(c.fields, cur)
					cur = csvField{start: len(c.rec), line: c.lr.line, col: i + 2}
					state = stFieldStart
				default:
					// "abc"def: keep the text, as lenient readers do
					c.rec = append(c.rec, ch)
					state = stUnquoted
				}
			}
		}
		if state == stQuoted {
			continue // the quoted field goes on on the next line
		}
		cur.end = len(c.rec)
		c.fields = append(c.fields, cur)
		return start, nil
	}
}

// separator picks the field separator from the header row: ',' when it
// has one, else a tab or ';' (spreadsheet exports in some locales), else
// ','.
func separator(header []byte) byte {
	switch {
	case bytes.IndexByte(header, ',') >= 0:
		return ','
	case bytes.IndexByte(header, '\t') >= 0:
		return '\t'
	case bytes.IndexByte(header, ';') >= 0:
		return ';'
	}
	return ','
}

func (c *csvReader) field(i int) ([]byte, csvField) {
	if i < 0 || i >= len(c.fields) {
		return nil, csvField{}
	}
	f := c.fields[i]
	t, _ := trimSpace(c.rec[f.start:f.end])
	return t, f
}

// headerNames maps a header name, folded by headerKey, to the column it
// names: the entry record's field names, and the names other tools'
// exports give the same columns (Screaming Frog's "Address" and "Last
// Modified", the "URL" of Ahrefs and Sitebulb, Google Search Console's
// "Top pages" and "Page", Semrush's "Page URL"); and the crawl columns of
// those exports: the HTTP status ("Status Code", "HTTP Status Code"; not
// Screaming Frog's "Status", which is its text, "OK"), the indexability
// ("Indexability", "Indexable", "Is indexable page") and the canonical
// URL ("Canonical Link Element 1", "Canonical URL"). testdata/exports
// holds the header rows these names come from.
var headerNames = map[string]int{
	"loc": colLoc, "url": colLoc, "address": colLoc, "page": colLoc, "toppages": colLoc, "pageurl": colLoc,
	"lastmod": colLastMod, "lastmodified": colLastMod,
	"changefreq": colChangeFreq, "changefrequency": colChangeFreq,
	"priority":   colPriority,
	"statuscode": colStatus, "httpstatuscode": colStatus, "httpstatus": colStatus, "responsecode": colStatus, "httpcode": colStatus,
	"indexability": colIndexability, "indexable": colIndexability, "isindexablepage": colIndexability, "isindexable": colIndexability, "indexablestatus": colIndexability,
	"canonical": colCanonical, "canonicalurl": colCanonical, "canonicallinkelement1": colCanonical, "canonicallinkelement": colCanonical, "canonicallink": colCanonical,
	"title": colTitle, "title1": colTitle, "pagetitle": colTitle, "titletag": colTitle,
}

// headerKey folds a header name for lookup: lower case, without spaces,
// '_' and '-' ("Last Modified", "last_modified" and "LastModified" are
// one name).
func headerKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r != ' ' && r != '_' && r != '-' && r != '\t' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// maxIgnoredNamed is how many ignored columns the warning names; an
// export of another tool may have dozens.
const maxIgnoredNamed = 6

func (c *csvReader) readHeader() error {
	line, err := c.record()
	if err != nil {
		return err
	}
	for i := range c.cols {
		c.cols[i] = -1
	}
	names := make([]string, len(c.fields))
	for i := range c.fields {
		name, _ := c.field(i)
		names[i] = string(name)
	}
	// Options.Columns first: each field it maps takes the column of that
	// name, which no other field can take.
	mapped := make([]bool, len(names))
	for _, m := range c.o.Columns {
		k := colIndex(m.Field)
		if k < 0 {
			return &Error{File: c.o.Name, Line: line, Col: 1, Rule: rules.SRC02,
				Message: fmt.Sprintf("column mapping %s=%q: %q is not a field; map %s", m.Field, m.Header, m.Field, fieldList)}
		}
		found := -1
		for i, n := range names {
			if strings.EqualFold(n, m.Header) && !mapped[i] {
				found = i
				break
			}
		}
		if found < 0 {
			return &Error{File: c.o.Name, Line: line, Col: 1, Rule: rules.SRC02,
				Message: fmt.Sprintf("column mapping %s=%q: the header row has no column %q; it has %s", m.Field, m.Header, m.Header, listNames(names))}
		}
		if c.cols[k] >= 0 {
			return &Error{File: c.o.Name, Line: line, Col: 1, Rule: rules.SRC02,
				Message: fmt.Sprintf("column mapping names %s twice", m.Field)}
		}
		c.cols[k] = found
		mapped[found] = true
	}
	// Then the names: the entry record's own (exact) win over other
	// tools' names for the same field, and a second column of one name
	// is an error only when both are exact.
	exact := [numCols]bool{}
	var ignored []string
	for i, n := range names {
		if mapped[i] {
			continue
		}
		key := headerKey(n)
		k, ok := headerNames[key]
		if !ok || (c.cols[k] >= 0 && mappedCol(c.o.Columns, k)) {
			ignored = append(ignored, strconv.Quote(n))
			continue
		}
		isExact := key == headerKey(colNames[k])
		switch {
		case c.cols[k] < 0:
		case isExact && exact[k]:
			return &Error{File: c.o.Name, Line: line, Col: c.fields[i].col, Rule: rules.SRC02,
				Message: fmt.Sprintf("column %q appears twice in the header row", colNames[k])}
		case isExact:
			ignored = append(ignored, strconv.Quote(names[c.cols[k]]))
		default:
			ignored = append(ignored, strconv.Quote(n))
			continue
		}
		c.cols[k], exact[k] = i, isExact
	}
	if c.cols[colLoc] < 0 {
		return &Error{File: c.o.Name, Line: line, Col: 1, Rule: rules.SRC02,
			Message: "the header row has no loc column (it has " + listNames(names) + "); name it loc (or URL, Address, Page), or say which column holds the URLs with a column mapping (--columns loc=NAME)"}
	}
	if len(ignored) > 0 {
		more := ""
		if len(ignored) > maxIgnoredNamed {
			more = fmt.Sprintf(" and %d more", len(ignored)-maxIgnoredNamed)
			ignored = ignored[:maxIgnoredNamed]
		}
		c.o.warn(&Error{File: c.o.Name, Line: line, Col: 1, Rule: rules.SRC04,
			Message: "ignoring column(s) " + strings.Join(ignored, ", ") + more + "; known columns are loc, lastmod, changefreq, priority, title, and a crawler export's status, indexability and canonical"})
	}
	c.header = true
	return nil
}

// colIndex is the column of the field name f, -1 when it is none.
func colIndex(f string) int {
	for j, cn := range colNames {
		if strings.EqualFold(f, cn) {
			return j
		}
	}
	return -1
}

// mappedCol reports whether the column k was given by a mapping.
func mappedCol(ms []ColumnMap, k int) bool {
	for _, m := range ms {
		if colIndex(m.Field) == k {
			return true
		}
	}
	return false
}

// listNames quotes a header row's names for a message, the first few.
func listNames(names []string) string {
	if len(names) == 0 {
		return "no columns"
	}
	var q []string
	for i, n := range names {
		if i == maxIgnoredNamed {
			q = append(q, fmt.Sprintf("… (%d in all)", len(names)))
			break
		}
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}

func (c *csvReader) Next() (Record, error) {
	for {
		rec, err := c.next()
		if !c.omitted {
			return rec, err
		}
		c.omitted = false // a row left out (unpublishable): read on
	}
}

func (c *csvReader) next() (Record, error) {
	if c.done {
		return Record{}, io.EOF
	}
	if !c.header {
		if err := c.readHeader(); err != nil {
			c.done = true
			if e, ok := err.(*Error); ok {
				// A header we cannot use ends the stream: it is not an
				// entry error.
				return Record{}, &headerError{e}
			}
			return Record{}, err
		}
	}
	line, err := c.record()
	if err != nil {
		return Record{}, err
	}
	var u sitemap.URL
	for i := range c.fields {
		if b := c.rec[c.fields[i].start:c.fields[i].end]; !utf8.Valid(b) {
			return Record{}, &Error{File: c.o.Name, Line: c.fields[i].line, Col: c.fields[i].col, Rule: rules.E03,
				Message: fmt.Sprintf("field %s is not valid UTF-8; save the file as UTF-8", preview(b))}
		}
	}
	loc, _ := c.field(c.cols[colLoc])
	u.Loc = string(loc)
	if v, f := c.field(c.cols[colLastMod]); len(v) > 0 {
		d, issues, err := sitemap.ParseDateLenient(string(v))
		if err != nil {
			// Crawlers' exports (Screaming Frog's "Last Modified") give
			// the page's HTTP Last-Modified header as it came.
			if t, herr := parseHTTPDate(string(v)); herr == nil {
				d, issues, err = sitemap.DateOf(t.UTC()), 0, nil
				if !c.httpDateWarned {
					c.httpDateWarned = true
					c.o.warn(&Error{File: c.o.Name, Line: f.line, Col: f.col, Rule: rules.M01,
						Message: fmt.Sprintf("lastmod %q is an HTTP date; read as %s, and the column's other HTTP dates the same way", v, d)})
				}
			}
		}
		switch {
		case err != nil:
			// The page is kept without its lastmod (M-05: better none
			// than a wrong one).
			c.o.warn(&Error{File: c.o.Name, Line: f.line, Col: f.col, Rule: rules.M01, Dropped: "lastmod",
				Message: "lastmod dropped, the page kept: lastmod is " + err.Error()})
		case issues&^sitemap.DateTrimmed != 0:
			issues &^= sitemap.DateTrimmed
			// A value read in a corrected form (a time without a time
			// zone read as UTC, a space for the T): a repair, counted.
			c.o.warn(&Error{File: c.o.Name, Line: f.line, Col: f.col, Rule: rules.M01, Fixed: true,
				Message: fmt.Sprintf("lastmod %q has %v; read as %s", v, issues, d)})
		}
		u.LastMod = d
	}
	if v, _ := c.field(c.cols[colChangeFreq]); len(v) > 0 {
		// C-04: read case-insensitively; the encoder checks the value.
		u.ChangeFreq = sitemap.ChangeFreq(strings.ToLower(string(v)))
	}
	if !c.o.AllRows {
		if e := c.unpublishable(u.Loc, line); e != nil {
			if c.o.Omitted != nil {
				c.o.Omitted(e)
			}
			c.omitted = true
			return Record{}, nil
		}
	}
	if v, _ := c.field(c.cols[colTitle]); len(v) > 0 {
		u.Title = string(v)
	}
	if v, f := c.field(c.cols[colPriority]); len(v) > 0 {
		p, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsNaN(p) || math.IsInf(p, 0) {
			c.o.warn(&Error{File: c.o.Name, Line: f.line, Col: f.col, Rule: rules.P01, Dropped: "priority",
				Message: fmt.Sprintf("priority dropped, the page kept: %q is not a number; use a decimal from 0.0 to 1.0", v)})
		} else {
			u.Priority = &p
		}
	}
	return Record{URL: u, Line: line}, nil
}

// headerError is the fatal error of a CSV header that cannot be used. It
// is not an *Error (which would mean "skip this entry and go on").
type headerError struct{ e *Error }

func (h *headerError) Error() string { return h.e.Error() }
func (h *headerError) Unwrap() error { return ErrFormat }

// parseHTTPDate reads a date in the forms HTTP gives (RFC 9110, 5.6.7):
// "Sun, 06 Nov 1994 08:49:37 GMT", and the obsolete RFC 850 and asctime
// forms.
func parseHTTPDate(s string) (time.Time, error) {
	var err error
	for _, layout := range []string{"Mon, 02 Jan 2006 15:04:05 GMT", time.RFC850, time.ANSIC} {
		var t time.Time
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}
