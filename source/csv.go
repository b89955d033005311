package source

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
)

// The columns a CSV header may name (docs/CONVENTIONS.md: the entry record's
// field names). "url" is accepted as another name for loc.
const (
	colLoc = iota
	colLastMod
	colChangeFreq
	colPriority
	numCols
)

var colNames = [numCols]string{"loc", "lastmod", "changefreq", "priority"}

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
			return start, &Error{File: c.o.Name, Line: cur.line, Col: cur.col,
				Msg: "quoted field is not closed before the end of the file; add the closing '\"'"}
		}
		if err != nil {
			return 0, err
		}
		if tooLong {
			if start == 0 {
				start = c.lr.line
			}
			return start, &Error{File: c.o.Name, Line: start, Col: 1,
				Msg: fmt.Sprintf("record is longer than %d bytes; skipped", c.o.maxLine())}
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
			return start, &Error{File: c.o.Name, Line: start, Col: 1,
				Msg: fmt.Sprintf("record is longer than %d bytes; skipped", c.o.maxLine())}
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

func (c *csvReader) readHeader() error {
	line, err := c.record()
	if err != nil {
		return err
	}
	for i := range c.cols {
		c.cols[i] = -1
	}
	var ignored []string
	for i := range c.fields {
		name, _ := c.field(i)
		n := strings.ToLower(string(name))
		if n == "url" {
			n = "loc"
		}
		k := -1
		for j, cn := range colNames {
			if n == cn {
				k = j
			}
		}
		if k < 0 {
			ignored = append(ignored, strconv.Quote(string(name)))
			continue
		}
		if c.cols[k] >= 0 {
			return &Error{File: c.o.Name, Line: line, Col: c.fields[i].col,
				Msg: fmt.Sprintf("column %q appears twice in the header row", colNames[k])}
		}
		c.cols[k] = i
	}
	if c.cols[colLoc] < 0 {
		return &Error{File: c.o.Name, Line: line, Col: 1,
			Msg: "the header row has no loc column; the first row names the columns, e.g. loc,lastmod,changefreq,priority"}
	}
	if len(ignored) > 0 {
		c.o.warn(&Error{File: c.o.Name, Line: line, Col: 1,
			Msg: "ignoring column(s) " + strings.Join(ignored, ", ") + "; known columns are loc, lastmod, changefreq, priority"})
	}
	c.header = true
	return nil
}

func (c *csvReader) Next() (Record, error) {
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
			return Record{}, &Error{File: c.o.Name, Line: c.fields[i].line, Col: c.fields[i].col,
				Msg: fmt.Sprintf("field %s is not valid UTF-8; save the file as UTF-8", preview(b))}
		}
	}
	loc, _ := c.field(c.cols[colLoc])
	u.Loc = string(loc)
	if v, f := c.field(c.cols[colLastMod]); len(v) > 0 {
		d, issues, err := sitemap.ParseDateLenient(string(v))
		switch {
		case err != nil:
			// The page is kept without its lastmod (M-05: better none
			// than a wrong one).
			c.o.warn(&Error{File: c.o.Name, Line: f.line, Col: f.col, Rule: "M-01", Dropped: "lastmod",
				Msg: "lastmod dropped, the page kept: lastmod is " + err.Error()})
		case issues&^sitemap.DateTrimmed != 0:
			issues &^= sitemap.DateTrimmed
			c.o.warn(&Error{File: c.o.Name, Line: f.line, Col: f.col, Rule: "M-01",
				Msg: fmt.Sprintf("lastmod %q has %v; read as %s", v, issues, d)})
		}
		u.LastMod = d
	}
	if v, _ := c.field(c.cols[colChangeFreq]); len(v) > 0 {
		// C-04: read case-insensitively; the encoder checks the value.
		u.ChangeFreq = sitemap.ChangeFreq(strings.ToLower(string(v)))
	}
	if v, f := c.field(c.cols[colPriority]); len(v) > 0 {
		p, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsNaN(p) || math.IsInf(p, 0) {
			c.o.warn(&Error{File: c.o.Name, Line: f.line, Col: f.col, Rule: "P-01", Dropped: "priority",
				Msg: fmt.Sprintf("priority dropped, the page kept: %q is not a number; use a decimal from 0.0 to 1.0", v)})
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
