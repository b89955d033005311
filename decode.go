package sitemap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/sitemapkit/sitemap/internal/xmlscan"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Format is the kind of document a [Decoder] found (F-01, F-04).
type Format uint8

// The formats the decoder recognises.
const (
	FormatUnknown Format = iota // nothing recognisable (yet): binary, empty, an unknown XML root
	FormatURLSet                // XML <urlset> (X-02)
	FormatIndex                 // XML <sitemapindex> (I-01)
	FormatText                  // one URL per line (T-01)
	FormatRSS                   // RSS 2.0 feed
	FormatAtom                  // Atom 0.3 or 1.0 feed
	FormatHTML                  // an HTML page: not a sitemap
)

// String returns "urlset", "sitemapindex", "text", "rss", "atom", "html" or
// "unknown".
func (f Format) String() string {
	switch f {
	case FormatURLSet:
		return "urlset"
	case FormatIndex:
		return "sitemapindex"
	case FormatText:
		return "text"
	case FormatRSS:
		return "rss"
	case FormatAtom:
		return "atom"
	case FormatHTML:
		return "html"
	}
	return "unknown"
}

// ItemKind says which field of an [Item] holds the entry.
type ItemKind uint8

// The two kinds of entries.
const (
	ItemURL   ItemKind = iota + 1 // Item.URL: a <url>, a text line, a feed item or entry
	ItemIndex                     // Item.Index: a <sitemap> of a sitemapindex
)

// Item is one entry read by a [Decoder], with the 1-based line and byte
// column where it starts (the <url>, <sitemap>, <item> or <entry> tag, or
// the URL on a text line).
type Item struct {
	Kind  ItemKind
	URL   URL
	Index IndexEntry
	Line  int
	Col   int
	// LocLine and LocCol are where the entry's URL is: the start tag of
	// the <loc> it was read from, or the URL on a text line. They are 0
	// when the URL comes from elsewhere (a feed's link, text directly
	// inside <url>); Col is 0 when the tag had left the reader's buffer.
	LocLine int
	LocCol  int
}

// LocPos returns where the entry's URL is (LocLine, LocCol), or where the
// entry starts when that is unknown: the place to report a problem of
// the URL itself.
func (it *Item) LocPos() (line, col int) {
	if it.LocLine > 0 {
		return it.LocLine, it.LocCol
	}
	return it.Line, it.Col
}

// DecoderOptions configures a [Decoder]. The zero value is ready to use.
type DecoderOptions struct {
	// Name is the file name or URL of the document; it fills the File (or,
	// for an http(s) URL, the URL) field of every diagnostic and the Source
	// of every entry.
	Name string
	// BaseURL resolves relative links of RSS items and Atom entries
	// when the feed gives no xml:base. Usually the feed's own URL.
	BaseURL string
	// MaxBytes caps the uncompressed bytes read; default 4*MaxBytes
	// (a gzip bomb stops here). Reading past it is a LIM-01 diagnostic and
	// an error from Next.
	MaxBytes int64
	// MaxEntries caps the entries returned; default 10*MaxURLs (LIM-02).
	MaxEntries int
	// MaxDepth caps XML element nesting; default 64 (LIM-03).
	MaxDepth int
	// MaxLineBytes caps one token: a text-sitemap line, an XML tag, comment,
	// CDATA section, or one element's text value; default 1 MiB (LIM-04).
	// Character data between elements is streamed and not capped.
	MaxLineBytes int
	// MaxErrors caps the error diagnostics of the document; default
	// DefaultDecodeMaxErrors, negative for no cap. The error that reaches
	// it is followed by one LIM-05 diagnostic and Next returns ErrLimit: a
	// file of junk (one T-02 per line of a 200 MiB text) is abandoned after
	// MaxErrors lines instead of reported line by line to its end.
	MaxErrors int
	// Context, when set, stops the decoder once it is done: Next returns
	// a *DecodeError whose Err is the context's error (not reported to
	// OnDiagnostic), within one read of the input (a few KB), however
	// long the input goes on without an entry.
	Context context.Context
	// OnDiagnostic receives every problem seen in the bytes, in input
	// order, as it is found. It may be nil.
	OnDiagnostic func(Diagnostic)
	// ReuseValues lets Next return entries whose short strings (the loc,
	// image, video and news values) share one buffer that the next call
	// to Next overwrites, as bufio.Scanner's Bytes are valid only until
	// the next Scan. A caller that keeps such a string past the next call
	// must copy it (strings.Clone). It saves an allocation and fresh
	// memory per entry: a reader that looks at each entry once (a
	// validator, a printer) reads a document of any size in a few
	// kilobytes. By default every string is the caller's to keep.
	ReuseValues bool
}

// Default caps of [DecoderOptions].
const (
	DefaultDecodeMaxBytes     = 4 * MaxBytes
	DefaultDecodeMaxEntries   = 10 * MaxURLs
	DefaultDecodeMaxDepth     = 64
	DefaultDecodeMaxLineBytes = 1 << 20
	// DefaultDecodeMaxErrors is two errors for each URL a sitemap may
	// hold (S-01): a real sitemap with one mistake in every entry is read
	// to its end, a file of junk is not.
	DefaultDecodeMaxErrors = 2 * MaxURLs
)

// MaxErrorsFlag is DecoderOptions.MaxErrors for n as a command line's
// --max-errors gives it: n itself when positive; 0 (or less), which the
// flag reads as no limit, is the option's negative. A command line
// refuses a negative n first ([CheckMaxErrorsFlag]).
func MaxErrorsFlag(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

// CheckMaxErrorsFlag refuses a --max-errors that means nothing: a
// negative number (0 is no limit). Its error says what the flag takes;
// the caller names the flag and the value.
func CheckMaxErrorsFlag(n int) error {
	if n < 0 {
		return errors.New("give a number of errors, 0 or more (0: no limit; LIM-05)")
	}
	return nil
}

// Errors returned (wrapped in a *DecodeError) by [Decoder.Next].
var (
	// ErrNotSitemap: the input is not a sitemap (HTML page, binary data,
	// an unknown XML root, no content).
	ErrNotSitemap = errors.New("not a sitemap")
	// ErrLimit: a cap of DecoderOptions was reached.
	ErrLimit = errors.New("decoder limit reached")
	// ErrTruncated: the input ends inside the document.
	ErrTruncated = errors.New("document truncated")
	// ErrGzip: the gzip stream is corrupt or truncated.
	ErrGzip = errors.New("corrupt gzip stream")
)

// DecodeError is the error Next returns when it cannot read further. Its
// Diagnostic says what, where and which rule; it was also passed to
// OnDiagnostic. Err is one of ErrNotSitemap, ErrLimit, ErrTruncated,
// ErrGzip, or a read error of the underlying reader; for the last, the
// Diagnostic's rule is RuleRead ("cannot read: <cause>").
type DecodeError struct {
	Diagnostic Diagnostic
	Err        error
}

func (e *DecodeError) Error() string { return e.Diagnostic.String() }

func (e *DecodeError) Unwrap() error { return e.Err }

// Cause returns an error whose text is Err's alone (the diagnostic's
// message when Err is nil) for a caller that says where itself ("name:
// cause"), but which still carries e: errors.As finds e, and so its rule,
// through it, and errors.Is finds Err.
func (e *DecodeError) Cause() error { return decodeCause{e} }

type decodeCause struct{ e *DecodeError }

func (c decodeCause) Error() string {
	if c.e.Err == nil {
		return c.e.Diagnostic.Message
	}
	return c.e.Err.Error()
}

func (c decodeCause) Unwrap() []error {
	if c.e.Err == nil {
		return []error{c.e}
	}
	return []error{c.e.Err, c.e}
}

// Project rule IDs the decoder uses where the protocol has no rule
// (package rules has them all).
const (
	RuleXMLSyntax  = rules.XML01  // not well-formed XML (recovered where possible)
	RuleDoctype    = rules.XML02  // a DOCTYPE: ignored, its entities are never expanded
	RuleEntity     = rules.XML03  // an entity reference other than the five predefined and numeric ones
	RuleStrayText  = rules.XML04  // text where only elements belong
	RuleMaxBytes   = rules.LIM01  // DecoderOptions.MaxBytes reached
	RuleMaxCount   = rules.LIM02  // DecoderOptions.MaxEntries reached
	RuleMaxDepth   = rules.LIM03  // DecoderOptions.MaxDepth reached
	RuleMaxToken   = rules.LIM04  // DecoderOptions.MaxLineBytes reached
	RuleMaxErrors  = rules.LIM05  // DecoderOptions.MaxErrors reached
	RuleGzip       = rules.GZ01   // corrupt or truncated gzip
	RuleGzipNested = rules.GZ02   // gzip inside gzip (compressed twice): read, with a warning
	RuleRead       = rules.READ01 // the reader failed (I/O error): no finding about the document
)

// A Decoder reads the entries of one sitemap document of any format from
// an io.Reader: XML urlset or sitemapindex, text, RSS 2.0, Atom, gzip-
// compressed or not (sniffed from the bytes, never from a name, F-04).
//
// It streams: memory is bounded by the caps of [DecoderOptions], never by
// the number of entries. It reads every entry it can: one bad value is a
// diagnostic (through OnDiagnostic) and the entry and the file go on. It
// never expands DTD entities and never fetches anything.
//
// Every entry it returns has a URL a program can print and fetch: an
// absolute http(s) URL without control characters, the one written. An
// entry whose URL has a control character (L-07; a &#10; would forge a
// line of text output), is relative (L-01, L-16; a feed's relative links
// are resolved, R-05, with a warning), or lost a reference the decoder does
// not expand (XML-03, E-03; http://x&lol2;/ is not http://x/) is skipped
// with an error diagnostic saying so.
type Decoder struct {
	opt     DecoderOptions
	src     io.Reader
	lim     *limitReader
	gz      *gzip.Reader
	s       *xmlscan.Scanner
	format  Format
	started bool
	err     error // sticky error of Next
	count   int   // entries returned
	errs    int   // error diagnostics reported
	stop    error // LIM-05: MaxErrors reached (a *DecodeError)

	x xmlReader // XML state

	textLine  int // text format: current line number
	blankRun  int // text format: blank lines just read, not yet reported (T-08)
	blankFrom int // text format: the first of them

	noFast bool // tests: read without the fast paths of decode_fast.go
}

// NewDecoder returns a decoder reading r. Nothing is read until the first
// call to Next.
func NewDecoder(r io.Reader, o DecoderOptions) *Decoder {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultDecodeMaxBytes
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = DefaultDecodeMaxEntries
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultDecodeMaxDepth
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultDecodeMaxLineBytes
	}
	if o.MaxErrors == 0 {
		o.MaxErrors = DefaultDecodeMaxErrors
	}
	d := &Decoder{opt: o, src: r}
	d.x.strs.reuse = o.ReuseValues
	return d
}

// Format returns the document's format; it is known after the first call
// to Next.
func (d *Decoder) Format() Format { return d.format }

// Bytes returns the uncompressed bytes read so far (S-02 counts these).
func (d *Decoder) Bytes() int64 {
	if d.lim == nil {
		return 0
	}
	return d.lim.n
}

// Compressed reports whether the input was gzip-compressed.
func (d *Decoder) Compressed() bool { return d.gz != nil }

// Next returns the next entry. At the clean end of the document it returns
// io.EOF. Any other error means the decoder cannot read further (not a
// sitemap, truncated, corrupt gzip, a cap reached): every entry before the
// problem has been returned, and the error is a *DecodeError. Diagnostics
// for entries are delivered to OnDiagnostic before the entry is returned.
func (d *Decoder) Next() (Item, error) {
	if d.err != nil {
		return Item{}, d.err
	}
	d.x.strs.reset()
	if !d.started {
		d.started = true
		if err := d.start(); err != nil {
			d.err = err
			return Item{}, err
		}
	}
	// The XML side hands back its own entry (no copy of the large Item
	// until the one return below).
	var it *Item
	var err error
	if d.format == FormatText {
		var t Item
		t, err = d.textNext()
		it = &t
	} else {
		it, err = d.xmlNext()
	}
	if err != nil {
		d.err = err
		return Item{}, err
	}
	if d.count >= d.opt.MaxEntries {
		d.err = d.fatal(RuleMaxCount, it.Line, it.Col, ErrLimit,
			fmt.Sprintf("more than %d entries; stopped reading: no flag raises this limit; split the input into smaller files (a sitemap holds at most %d URLs, S-01), or, in a Go program, raise DecoderOptions.MaxEntries", d.opt.MaxEntries, MaxURLs))
		return Item{}, d.err
	}
	d.count++
	return *it, nil
}

// report sends a diagnostic at line:col, and counts it towards MaxErrors.
func (d *Decoder) report(rule rules.ID, sev Severity, line, col int, msg string) {
	d.send(rule, sev, false, line, col, msg)
}

// reportSkipped reports an error about an entry (item, line) the decoder
// leaves out, reading on: the diagnostic's Skipped is set.
func (d *Decoder) reportSkipped(rule rules.ID, line, col int, msg string) {
	d.send(rule, SeverityError, true, line, col, msg)
}

func (d *Decoder) send(rule rules.ID, sev Severity, skipped bool, line, col int, msg string) {
	if d.opt.OnDiagnostic != nil {
		dg := d.diag(rule, sev, line, col, msg)
		dg.Skipped = skipped
		d.opt.OnDiagnostic(dg)
	}
	if sev == SeverityError {
		d.countError(line, col)
	}
}

// errorsWord is "error" for 1, else "errors": LIM-05 at --max-errors 1
// says "1 error".
func errorsWord(n int) string {
	if n == 1 {
		return "error"
	}
	return "errors"
}

// countError counts an error diagnostic; the one that reaches MaxErrors
// abandons the document (LIM-05): d.stop is what Next returns from then on.
func (d *Decoder) countError(line, col int) {
	d.errs++
	if d.errs != d.opt.MaxErrors || d.stop != nil {
		return
	}
	d.stop = d.fatal(RuleMaxErrors, line, col, ErrLimit, fmt.Sprintf(
		"%d %s in this document; stopped reading it (is it a sitemap at all? Fix the first errors, or raise the bound (--max-errors; MaxErrors in Go) to read further)", d.errs, errorsWord(d.errs)))
	if d.x.fatal == nil {
		d.x.fatal = d.stop
	}
}

func (d *Decoder) diag(rule rules.ID, sev Severity, line, col int, msg string) Diagnostic {
	dg := Diagnostic{Rule: rule, Severity: sev, Message: msg, Line: line, Col: col}
	if n := d.opt.Name; urlnorm.IsHTTP(n) {
		dg.URL = n
	} else {
		dg.File = n
	}
	return dg
}

// reportAt reports at an absolute offset of the scanner's input.
func (d *Decoder) reportAt(rule rules.ID, sev Severity, off int64, msg string) {
	d.sendAt(rule, sev, false, off, msg)
}

func (d *Decoder) sendAt(rule rules.ID, sev Severity, skipped bool, off int64, msg string) {
	if d.opt.OnDiagnostic == nil {
		if sev == SeverityError {
			d.countError(0, 0)
		}
		return
	}
	line, col := 0, 0
	if d.s != nil {
		line, col = d.s.Pos(off)
	}
	d.send(rule, sev, skipped, line, col, msg)
}

// fatal reports an error diagnostic and returns it as a *DecodeError.
func (d *Decoder) fatal(rule rules.ID, line, col int, err error, msg string) error {
	dg := d.diag(rule, SeverityError, line, col, msg)
	if d.opt.OnDiagnostic != nil {
		d.opt.OnDiagnostic(dg)
	}
	return &DecodeError{Diagnostic: dg, Err: err}
}

func (d *Decoder) fatalAt(rule rules.ID, off int64, err error, msg string) error {
	line, col := 0, 0
	if d.s != nil {
		line, col = d.s.Pos(off)
	}
	return d.fatal(rule, line, col, err, msg)
}

// readFailure turns a sticky reader error other than io.EOF into the
// error Next returns.
func (d *Decoder) readFailure(err error, off int64) error {
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		// Stopped (DecoderOptions.Context, or the reader's own context):
		// no finding about the document, so not reported.
		line, col := 0, 0
		if d.s != nil {
			line, col = d.s.Pos(off)
		}
		return &DecodeError{Diagnostic: d.diag(RuleRead, SeverityError, line, col, fmt.Sprintf("cannot read: %v", err)), Err: err}
	case errors.Is(err, errByteCap):
		return d.fatalAt(RuleMaxBytes, off, ErrLimit, fmt.Sprintf(
			"more than %d uncompressed bytes; stopped reading: no flag raises this limit; split the input into sitemaps of at most %d bytes (S-02), or, in a Go program, raise DecoderOptions.MaxBytes",
			d.opt.MaxBytes, MaxBytes))
	case errors.Is(err, xmlscan.ErrTokenCap):
		what := "an XML tag, comment or value"
		if d.format == FormatText {
			what = "a line"
		}
		return d.fatalAt(RuleMaxToken, off, ErrLimit, fmt.Sprintf(
			"%s longer than %d bytes; stopped reading: no flag raises this limit; look for a missing line break or closing tag and fix it, or split the value, or, in a Go program, raise DecoderOptions.MaxLineBytes", what, d.opt.MaxLineBytes))
	case d.gz != nil && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) ||
		errors.Is(err, gzip.ErrHeader) || strings.Contains(err.Error(), "flate")):
		return d.fatalAt(RuleGzip, off, ErrGzip, fmt.Sprintf(
			"gzip stream is corrupt or truncated after %d uncompressed bytes (%v); every entry before this point was read", d.Bytes(), err))
	}
	// The reader itself failed (a directory, a dropped connection, a disk
	// error): not a finding about the document's syntax.
	return d.fatalAt(RuleRead, off, err, fmt.Sprintf("cannot read: %v", err))
}
