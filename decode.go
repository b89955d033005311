package sitemap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
	"github.com/sitemapkit/sitemap/internal/xmlscan"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/sitemapkit/sitemap/internal/site"
)

// Format is the kind of document a [Decoder] found (F-01, F-04).
type Format uint8

// The formats the decoder recognises.
const (
	FormatUnknown Format = iota // nothing recognisable (yet): binary, empty, an unknown XML root
	FormatURLSet                // XML <urlset> (§2)
	FormatIndex                 // XML <sitemapindex> (§6)
	FormatText                  // one URL per line (§8)
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
	// OnDiagnostic receives every problem seen in the bytes, in input
	// order, as it is found. It may be nil.
	OnDiagnostic func(Diagnostic)
}

// Default caps of [DecoderOptions].
const (
	DefaultDecodeMaxBytes     = 4 * MaxBytes
	DefaultDecodeMaxEntries   = 10 * MaxURLs
	DefaultDecodeMaxDepth     = 64
	DefaultDecodeMaxLineBytes = 1 << 20
)

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

// Project rule IDs the decoder uses where the protocol has no rule
// (package rules has them all).
const (
	RuleXMLSyntax  = "XML-01"  // not well-formed XML (recovered where possible)
	RuleDoctype    = "XML-02"  // a DOCTYPE: ignored, its entities are never expanded
	RuleEntity     = "XML-03"  // an entity reference other than the five predefined and numeric ones
	RuleStrayText  = "XML-04"  // text where only elements belong
	RuleMaxBytes   = "LIM-01"  // DecoderOptions.MaxBytes reached
	RuleMaxCount   = "LIM-02"  // DecoderOptions.MaxEntries reached
	RuleMaxDepth   = "LIM-03"  // DecoderOptions.MaxDepth reached
	RuleMaxToken   = "LIM-04"  // DecoderOptions.MaxLineBytes reached
	RuleGzip       = "GZ-01"   // corrupt or truncated gzip
	RuleGzipNested = "GZ-02"   // gzip inside gzip (compressed twice): read, with a warning
	RuleRead       = "READ-01" // the reader failed (I/O error): no finding about the document
)

// A Decoder reads the entries of one sitemap document of any format from
// an io.Reader: XML urlset or sitemapindex, text, RSS 2.0, Atom, gzip-
// compressed or not (sniffed from the bytes, never from a name, F-04).
//
// It streams: memory is bounded by the caps of [DecoderOptions], never by
// the number of entries. It reads every entry it can: one bad value is a
// diagnostic (through OnDiagnostic) and the entry and the file go on. It
// never expands DTD entities and never fetches anything.
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

	x xmlReader // XML state

	textLine int // text format: current line number

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
	return &Decoder{opt: o, src: r}
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
			fmt.Sprintf("more than %d entries; stopped reading (raise MaxEntries to read further)", d.opt.MaxEntries))
		return Item{}, d.err
	}
	d.count++
	return *it, nil
}

// report sends a diagnostic at line:col.
func (d *Decoder) report(rule string, sev Severity, line, col int, msg string) {
	if d.opt.OnDiagnostic == nil {
		return
	}
	d.opt.OnDiagnostic(d.diag(rule, sev, line, col, msg))
}

func (d *Decoder) diag(rule string, sev Severity, line, col int, msg string) Diagnostic {
	dg := Diagnostic{Rule: rule, Severity: sev, Message: msg, Line: line, Col: col}
	if n := d.opt.Name; site.IsHTTP(n) {
		dg.URL = n
	} else {
		dg.File = n
	}
	return dg
}

// reportAt reports at an absolute offset of the scanner's input.
func (d *Decoder) reportAt(rule string, sev Severity, off int64, msg string) {
	if d.opt.OnDiagnostic == nil {
		return
	}
	line, col := 0, 0
	if d.s != nil {
		line, col = d.s.Pos(off)
	}
	d.report(rule, sev, line, col, msg)
}

// fatal reports an error diagnostic and returns it as a *DecodeError.
func (d *Decoder) fatal(rule string, line, col int, err error, msg string) error {
	dg := d.diag(rule, SeverityError, line, col, msg)
	if d.opt.OnDiagnostic != nil {
		d.opt.OnDiagnostic(dg)
	}
	return &DecodeError{Diagnostic: dg, Err: err}
}

func (d *Decoder) fatalAt(rule string, off int64, err error, msg string) error {
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
	case errors.Is(err, errByteCap):
		return d.fatalAt(RuleMaxBytes, off, ErrLimit, fmt.Sprintf(
			"more than %d uncompressed bytes; stopped reading (a sitemap may hold %d, S-02; raise MaxBytes to read further)",
			d.opt.MaxBytes, MaxBytes))
	case errors.Is(err, xmlscan.ErrTokenCap):
		what := "an XML tag, comment or value"
		if d.format == FormatText {
			what = "a line"
		}
		return d.fatalAt(RuleMaxToken, off, ErrLimit, fmt.Sprintf(
			"%s longer than %d bytes; stopped reading (raise MaxLineBytes to read further)", what, d.opt.MaxLineBytes))
	case d.gz != nil && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) ||
		errors.Is(err, gzip.ErrHeader) || strings.Contains(err.Error(), "flate")):
		return d.fatalAt(RuleGzip, off, ErrGzip, fmt.Sprintf(
			"gzip stream is corrupt or truncated after %d uncompressed bytes (%v); every entry before this point was read", d.Bytes(), err))
	}
	// The reader itself failed (a directory, a dropped connection, a disk
	// error): not a finding about the document's syntax.
	return d.fatalAt(RuleRead, off, err, fmt.Sprintf("cannot read: %v", err))
}

// errByteCap is returned by limitReader past its cap.
var errByteCap = errors.New("uncompressed size cap reached")

// limitReader counts bytes and fails with errByteCap once more than
// max would be read; a document of exactly max bytes passes.
type limitReader struct {
	r   io.Reader
	n   int64
	max int64
	err error
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if rem := l.max - l.n; int64(len(p)) > rem {
		if rem == 0 {
			var one [1]byte
			n, err := l.r.Read(one[:])
			if n > 0 {
				l.err = errByteCap
				return 0, l.err
			}
			if err != nil {
				l.err = err
			}
			return 0, err
		}
		p = p[:rem]
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	if err != nil {
		l.err = err
	}
	return n, err
}

// start sniffs the input (F-04): gzip magic, byte-order marks, the XML
// declaration's encoding, and whether the first non-blank byte opens XML.
func (d *Decoder) start() error {
	br := bufio.NewReaderSize(d.src, 4096)
	var src io.Reader = br
	if isGzip(br) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return d.fatal(RuleGzip, 0, 0, ErrGzip, fmt.Sprintf("starts like gzip but the header is corrupt (%v)", err))
		}
		d.gz = zr
		src = zr
		// A gzip inside the gzip (a .xml.gz compressed again, or served
		// with a Content-Encoding the client did not undo) is read too.
		// The inner compressed stream is capped like the output: empty
		// gzip members inflate to nothing and would otherwise never reach
		// MaxBytes.
		ib := bufio.NewReaderSize(&limitReader{r: zr, max: d.opt.MaxBytes}, 4096)
		src = ib
		if isGzip(ib) {
			d.report(RuleGzipNested, SeverityWarning, 0, 0, "the document is gzip-compressed twice (a gzip inside the gzip); read after decompressing both. Search engines decompress a .gz sitemap once: compress it once")
			zr2, err := gzip.NewReader(ib)
			if err != nil {
				return d.fatal(RuleGzip, 0, 0, ErrGzip, fmt.Sprintf("the inner gzip stream's header is corrupt (%v)", err))
			}
			ib2 := bufio.NewReaderSize(zr2, 4096)
			if isGzip(ib2) {
				return d.fatal("F-04", 0, 0, ErrNotSitemap, "gzip-compressed more than twice; not read (compress a sitemap once)")
			}
			src = ib2
		}
	}
	d.lim = &limitReader{r: src, max: d.opt.MaxBytes}
	pr := bufio.NewReaderSize(d.lim, 4096)
	head, _ := pr.Peek(1024)
	var r io.Reader = pr
	transformed := ""
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		pr.Discard(3) // a UTF-8 BOM is accepted silently
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), len(head) >= 2 && head[0] == '<' && head[1] == 0:
		r = transform.NewReader(pr, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder())
		transformed = "UTF-16LE"
		if head[0] == 0xFF {
			pr.Discard(2)
		}
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}), len(head) >= 2 && head[0] == 0 && head[1] == '<':
		r = transform.NewReader(pr, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder())
		transformed = "UTF-16BE"
		if head[0] == 0xFE {
			pr.Discard(2)
		}
	}
	var perr error
	if transformed != "" {
		d.report("X-01", SeverityError, 1, 1, "the document is "+transformed+"; sitemaps must be UTF-8 (X-01); read after conversion")
		pr = bufio.NewReaderSize(r, 4096)
		r = pr
	}
	head, perr = pr.Peek(1024)
	i := 0
	for i < len(head) && (xmlscan.IsSpace(head[i]) || head[i] == '\f' || head[i] == '\v') {
		i++
	}
	if i == len(head) {
		if len(head) < 1024 {
			if perr != nil && perr != io.EOF {
				return d.readFailure(perr, 0)
			}
			return d.fatal("F-04", 1, 1, ErrNotSitemap, "the document is empty: no XML root element and no URL lines")
		}
		// A kilobyte of blanks: go on as text, which will find out.
	}
	if i < len(head) && head[i] == '<' {
		if i > 0 {
			line := 1 + bytes.Count(head[:i], []byte{'\n'})
			d.report("X-09", SeverityWarning, line, 1, "white space before the XML declaration or root element; XML parsers may reject it")
		}
		if transformed == "" {
			if enc := declaredEncoding(head[i:]); enc != "" {
				r = d.charset(enc, r)
			}
		}
		d.s = xmlscan.New(r, d.opt.MaxLineBytes)
		d.x.init(d)
		return nil
	}
	// Not XML: text, unless it looks binary.
	if looksBinary(head) {
		return d.fatal("F-04", 1, 1, ErrNotSitemap, "binary data, not a sitemap (not XML, not text; a compressed format other than gzip?)")
	}
	d.format = FormatText
	d.s = xmlscan.New(r, d.opt.MaxLineBytes)
	return nil
}

// isGzip reports whether the next bytes of br are gzip's magic number
// (F-04: sniffed, never taken from a name).
func isGzip(br *bufio.Reader) bool {
	magic, _ := br.Peek(2)
	return len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
}

// charset wraps r with a decoder for a declared non-UTF-8 encoding.
func (d *Decoder) charset(name string, r io.Reader) io.Reader {
	lname := strings.ToLower(name)
	if lname == "utf-8" || lname == "utf8" || lname == "us-ascii" || lname == "ascii" {
		return r
	}
	if strings.HasPrefix(lname, "utf-16") {
		d.report("X-01", SeverityError, 1, 1, fmt.Sprintf("encoding=%q is declared but the bytes are not UTF-16; read as UTF-8 (sitemaps must be UTF-8, X-01)", name))
		return r
	}
	var enc encoding.Encoding
	if e, err := ianaindex.IANA.Encoding(name); err == nil && e != nil {
		enc = e
	} else if e, err := htmlindex.Get(name); err == nil && e != nil {
		enc = e
	}
	if enc == nil {
		d.report("X-01", SeverityError, 1, 1, fmt.Sprintf("unknown encoding %q declared; read as UTF-8 (sitemaps must be UTF-8, X-01)", name))
		return r
	}
	d.report("X-01", SeverityError, 1, 1, fmt.Sprintf("encoding=%q declared; sitemaps must be UTF-8 (X-01); read after conversion to UTF-8", name))
	return transform.NewReader(r, enc.NewDecoder())
}

// declaredEncoding returns the encoding pseudo-attribute of an XML
// declaration at the start of b, or "".
func declaredEncoding(b []byte) string {
	if !bytes.HasPrefix(b, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(b, []byte("?>"))
	if end < 0 {
		return ""
	}
	decl := b[:end]
	i := bytes.Index(decl, []byte("encoding"))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	j := bytes.IndexByte(rest[1:], rest[0])
	if j < 0 {
		return ""
	}
	return string(rest[1 : 1+j])
}

// looksBinary reports whether the first bytes of a non-XML document are
// not text: NUL bytes, or mostly control characters and invalid UTF-8.
func looksBinary(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			if c < 0x20 && !xmlscan.IsSpace(c) && c != '\f' && c != '\v' {
				bad++
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 && len(b)-i >= utf8.UTFMax {
			bad++
		}
		i += n
	}
	return bad*10 > len(b)
}

// textNext reads the next URL line of a text sitemap (§8, T-08).
func (d *Decoder) textNext() (Item, error) {
	for {
		raw, off, ok := d.s.NextLine() // T-08: LF or CRLF
		if !ok {
			if d.s.Err() != nil && d.s.Err() != io.EOF {
				return Item{}, d.readFailure(d.s.Err(), off)
			}
			if d.count == 0 {
				d.report("T-01", SeverityWarning, d.textLine, 0, "the text sitemap holds no URL")
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
			d.report("T-08", SeverityWarning, d.textLine, 1, "blank line; a text sitemap holds one URL per line and nothing else (T-05)")
			continue
		}
		if !hasHTTPScheme(val) {
			show := val
			if len(show) > 80 {
				show = show[:80]
			}
			d.report("T-02", SeverityError, d.textLine, lead+1, fmt.Sprintf("%q is not an absolute http(s) URL; a text sitemap holds only full URLs, one per line (line skipped)", bytes.ToValidUTF8(show, []byte("\uFFFD"))))
			continue
		}
		loc := string(val)
		if !utf8.ValidString(loc) {
			d.report("T-04", SeverityError, d.textLine, lead+1, "the line is not valid UTF-8 (T-04); bad bytes replaced by U+FFFD")
			loc = strings.ToValidUTF8(loc, "\uFFFD")
		}
		return Item{Kind: ItemURL, URL: URL{Loc: loc, Source: d.opt.Name}, Line: d.textLine, Col: lead + 1}, nil
	}
}

// hasHTTPScheme reports whether b starts with http:// or https:// (any case)
// followed by something.
func hasHTTPScheme(b []byte) bool {
	for _, p := range [...]string{"http://", "https://"} {
		if len(b) > len(p) && strings.EqualFold(string(b[:len(p)]), p) {
			return true
		}
	}
	return false
}
