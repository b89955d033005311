package source

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// Format is an input format.
type Format uint8

// The input formats. FormatAuto lets [New] decide from the name's
// extension, or failing that from the first bytes.
const (
	FormatAuto  Format = iota
	FormatText         // one URL per line; blank lines and '#' comments skipped
	FormatCSV          // header row naming loc, lastmod, changefreq, priority
	FormatJSONL        // one entry record (JSON object) per line
)

// String returns "auto", "text", "csv" or "jsonl".
func (f Format) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case FormatText:
		return "text"
	case FormatCSV:
		return "csv"
	case FormatJSONL:
		return "jsonl"
	}
	return "format(" + strconv.Itoa(int(f)) + ")"
}

// ParseFormat reads a format name as given on a command line: auto, text
// (or txt), csv, jsonl (or ndjson, json).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return FormatAuto, nil
	case "text", "txt":
		return FormatText, nil
	case "csv":
		return FormatCSV, nil
	case "jsonl", "ndjson", "json":
		return FormatJSONL, nil
	}
	return FormatAuto, fmt.Errorf("unknown input format %q; use auto, text, csv or jsonl", s)
}

// FormatOf returns the format a file name's extension names (.txt, .csv,
// .jsonl, .ndjson, each optionally followed by .gz), or FormatAuto.
func FormatOf(name string) Format {
	ext := strings.ToLower(path.Ext(name))
	if ext == ".gz" {
		base := name[:len(name)-len(ext)]
		ext = strings.ToLower(path.Ext(base))
	}
	switch ext {
	case ".txt":
		return FormatText
	case ".csv":
		return FormatCSV
	case ".jsonl", ".ndjson":
		return FormatJSONL
	}
	return FormatAuto
}

// DefaultMaxLineBytes is the longest line (or CSV record) a reader accepts
// when Options.MaxLineBytes is zero. A longer line is an [*Error] for that
// line; reading goes on with the next one.
const DefaultMaxLineBytes = 1 << 20

// Options configure a reader.
type Options struct {
	// Name is the input's name in positions ("urls.txt"); it also selects the
	// format when Format is FormatAuto.
	Name string
	// Format is the input format; FormatAuto decides from Name's extension,
	// then from the first bytes (a '{' means JSONL, a first line starting
	// with the column name loc and a separator means CSV, anything else is
	// text).
	Format Format
	// MaxLineBytes caps one line (one CSV record); zero means
	// DefaultMaxLineBytes.
	MaxLineBytes int
	// Columns maps entry record fields to the header columns of a CSV
	// input that hold them (see [ParseColumns]); a field it does not map
	// is found by its name as usual. A mapped column missing from the
	// header row is an error of the header, like a missing loc column.
	Columns []ColumnMap
	// AllRows reads every row of a CSV crawler export as an entry. By
	// default a row whose status column is not 200 (SRC-07), whose
	// indexability column says it is not indexable (SRC-08) or whose
	// canonical column names another URL (SRC-09) is left out: Next
	// skips it, and Omitted (when set) receives why.
	AllRows bool
	// Omitted receives each row left out as AllRows says, with its
	// position and rule, at info severity. It may be nil.
	Omitted func(*Error)
	// Warn receives remarks that do not cost an entry (ignored CSV columns,
	// dates read leniently, a loc that looks XML-escaped). It may be nil.
	Warn func(*Error)
}

func (o Options) maxLine() int {
	if o.MaxLineBytes > 0 {
		return o.MaxLineBytes
	}
	return DefaultMaxLineBytes
}

func (o Options) warn(e *Error) {
	if o.Warn != nil {
		o.Warn(e)
	}
}

// Record is one entry read from the input, with the (1-based) line it
// starts on.
type Record struct {
	URL  sitemap.URL
	Line int
}

// Error is one bad entry, or a fatal problem, with its position: a
// [rules.Problem] with File, Line and Col (1-based; Col 0 when unknown),
// Rule (the rule ID the problem breaks, when there is one) and Message
// set. On a warning, Dropped names what was left out of an entry that was
// kept (a field, "lastmod", or an extension block, "videos[1]", "news",
// whose value could not be read), and Fixed tells that a value was read
// in a corrected form, such as a number written as a JSON string ("0.5").
//
// Its Error text is a compiler message: "urls.csv:4:12: msg (P-01)". It is
// a diagnostic as it is: set its Severity (zero is error) to report it as
// one.
type Error = rules.Problem

// Reader yields the entries of one input. Next returns the next record;
// an [*Error] for a bad entry (call Next again for the rest); io.EOF at the
// end; any other error when the input cannot be read further.
type Reader interface {
	Next() (Record, error)
}

// ErrFormat is wrapped by the error a CSV reader returns for a header it
// cannot use, and by [New] for an unknown format.
var ErrFormat = errors.New("unusable input format")

// ErrBinary is wrapped by the error [New] returns for an input that is
// binary data, not text (F-04: a NUL byte among the first bytes). It
// wraps [ErrFormat].
var ErrBinary = fmt.Errorf("%w: binary data", ErrFormat)

// bufSize is the bufio buffer of every reader: lines up to this length are
// read without copying.
const bufSize = 64 << 10

// New returns a reader for r in the format o.Format (or the one o.Name or
// the first bytes suggest). Gzip-compressed input is recognised by its
// magic bytes and decompressed. New reads at most a buffer's worth of r.
func New(r io.Reader, o Options) (Reader, error) {
	br := bufio.NewReaderSize(r, bufSize)
	if magic, _ := br.Peek(2); sitemap.IsGzip(magic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.Name, err)
		}
		br = bufio.NewReaderSize(zr, bufSize)
	}
	if bom, err := br.Peek(2); err == nil && (bom[0] == 0xff && bom[1] == 0xfe || bom[0] == 0xfe && bom[1] == 0xff) {
		// Saved as UTF-16 ("Unicode" in Windows tools): read after
		// conversion, as the decoder reads a UTF-16 sitemap.
		enc := "UTF-16LE"
		if bom[0] == 0xfe {
			enc = "UTF-16BE"
		}
		o.warn(&Error{File: o.Name, Line: 1, Col: 1, Rule: rules.X01, Message: "the input is " + enc + "; read after conversion to UTF-8 (save it as UTF-8)"})
		br = bufio.NewReaderSize(transform.NewReader(br, unicode.BOMOverride(unicode.UTF8.NewDecoder())), bufSize)
	}
	f := o.Format
	if f == FormatAuto {
		f = FormatOf(o.Name)
	}
	if f == FormatAuto {
		f = sniff(br)
	}
	if err := notEntries(br, f); err != nil {
		if errors.Is(err, ErrBinary) {
			return nil, fmt.Errorf("%s: %w", o.Name, err)
		}
		return nil, fmt.Errorf("%s: %w: %v", o.Name, ErrFormat, err)
	}
	if len(o.Columns) > 0 && f != FormatCSV {
		what := "a URL list, which has no columns"
		if f == FormatJSONL {
			what = "JSONL, whose fields are named by their keys"
		}
		o.warn(&Error{File: o.Name, Rule: rules.SRC05, Message: "column mapping ignored: this input is " + what + " (a mapping applies to CSV inputs)"})
	}
	var rd Reader
	switch f {
	case FormatText:
		rd = newText(br, o)
	case FormatCSV:
		rd = newCSV(br, o)
	case FormatJSONL:
		rd = newJSONL(br, o)
	default:
		return nil, fmt.Errorf("%s: %w %v", o.Name, ErrFormat, f)
	}
	if o.Warn != nil {
		rd = escapedLocWarner{rd, o}
	}
	return rd, nil
}

// escapedLocWarner warns about locs that look XML-escaped, as when they
// are copied out of a sitemap: input URLs are plain (E-05, T-08), so
// "&amp;" would reach the sitemap as "&amp;amp;" and the URL would carry
// a parameter named "amp;…". The entry is kept as given.
type escapedLocWarner struct {
	r Reader
	o Options
}

func (w escapedLocWarner) Next() (Record, error) {
	rec, err := w.r.Next()
	if err == nil && strings.IndexByte(rec.URL.Loc, '&') >= 0 && strings.Contains(rec.URL.Loc, "&amp;") {
		w.o.warn(&Error{File: w.o.Name, Line: rec.Line, Rule: rules.E05,
			Message: fmt.Sprintf("loc %q looks XML-escaped; input URLs are plain, so the sitemap would say &amp;amp;: write & instead of &amp;", rec.URL.Loc)})
	}
	return rec, err
}

// notEntries says why the first bytes of br (those one read brings; it
// never waits for more) cannot start entries in the format f: binary data
// (a NUL byte), or XML read as text (a sitemap given where a list of URLs
// is wanted; each of its lines would be an invalid loc).
func notEntries(br *bufio.Reader, f Format) error {
	if _, err := br.Peek(1); err != nil {
		return nil
	}
	b, _ := br.Peek(min(br.Buffered(), 512))
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return fmt.Errorf("%w (a NUL byte at byte %d), not UTF-8 text, CSV or JSONL (F-04)", ErrBinary, i+1)
	}
	if f == FormatText && sitemap.Sniff(b).Kind == sitemap.SniffXML {
		return errors.New("XML (a sitemap?), not a list of URLs; read a sitemap's entries with 'sitemap parse FILE' (sitemap parse FILE | sitemap generate ... -)")
	}
	return nil
}

// sniff guesses the format from the first bytes: JSONL when the first
// non-space byte is '{', CSV when the first line starts with the column
// name loc (any letter case, optionally quoted) followed by a separator
// NewCSV accepts (',', ';', tab) or the line end, or names the loc column
// as another tool's export does (isHeaderRow), text otherwise.
func sniff(br *bufio.Reader) Format {
	b, _ := br.Peek(4096)
	if sitemap.Sniff(b).Kind == sitemap.SniffJSON {
		return FormatJSONL
	}
	b = bytes.TrimLeft(bytes.TrimPrefix(b, bom), " \t\r\n")
	if len(b) >= 4 && strings.EqualFold(string(b[:3]), "loc") && strings.IndexByte(",;\t\r\n", b[3]) >= 0 {
		return FormatCSV // a header row: loc and a separator, or loc alone
	}
	if len(b) >= 5 && b[0] == '"' && strings.EqualFold(string(b[1:4]), "loc") && b[4] == '"' {
		return FormatCSV
	}
	if isHeaderRow(b) {
		return FormatCSV
	}
	return FormatText
}

// isHeaderRow reports whether the first line of b is a CSV header row of
// another tool's export: a field (split at the separator NewCSV would
// use, quotes and spaces trimmed) names the loc column, such as
// "Address" or "URL" ("URL" alone on the line counts too). A URL never
// is such a name, so a list of URLs stays text.
func isHeaderRow(b []byte) bool {
	line := b
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	} else if len(b) == 4096 {
		return false // a first line longer than the peek: not a header
	}
	line = bytes.TrimRight(line, "\r")
	sep := separator(line)
	for _, f := range bytes.Split(line, []byte{sep}) {
		f = bytes.Trim(bytes.TrimSpace(f), `"`)
		if k, ok := headerNames[headerKey(string(f))]; ok && k == colLoc {
			return true
		}
	}
	return false
}

// NewText returns a reader of plain text: one URL per line (T-01), LF or
// CRLF line ends, a leading UTF-8 BOM stripped, each line trimmed, blank
// lines and lines starting with '#' skipped (T-08).
func NewText(r io.Reader, o Options) Reader { return newText(bufio.NewReaderSize(r, bufSize), o) }

// NewCSV returns a reader of CSV (RFC 4180) with a header row whose column
// names are the entry record's fields loc, lastmod, changefreq and
// priority (case-insensitive; other columns are ignored with one warning),
// or the names other tools' exports give them: URL, Address, Page or Top
// pages for loc, Last Modified (an HTTP date is read too) for lastmod
// (case, spaces, '_' and '-' do not matter); Options.Columns names any
// other column.
// Fields are separated by commas, or by tabs or semicolons when the header
// row has no comma.
func NewCSV(r io.Reader, o Options) Reader { return newCSV(bufio.NewReaderSize(r, bufSize), o) }

// NewJSONL returns a reader of JSONL entry records (docs/CONVENTIONS.md): one
// JSON object per line, decoded into [sitemap.URL]. Unknown fields are
// ignored; blank lines are skipped.
func NewJSONL(r io.Reader, o Options) Reader { return newJSONL(bufio.NewReaderSize(r, bufSize), o) }
