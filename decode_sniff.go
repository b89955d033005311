package sitemap

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/sitemapkit/sitemap/internal/xmlscan"
	"github.com/sitemapkit/sitemap/rules"
)

// This file holds how the decoder starts: it sniffs gzip (twice at most),
// byte-order marks and the declared encoding, caps the bytes read, and
// tells XML from text and from binary data (F-04).

// errByteCap is returned by limitReader past its cap.
var errByteCap = errors.New("uncompressed size cap reached")

// limitReader counts bytes and fails with errByteCap once more than
// max would be read; a document of exactly max bytes passes.
type limitReader struct {
	r   io.Reader
	n   int64
	max int64
	err error
	ctx context.Context // nil, or DecoderOptions.Context: checked at every read
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if l.ctx != nil {
		if err := l.ctx.Err(); err != nil {
			l.err = err
			return 0, err
		}
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
		ib := bufio.NewReaderSize(&limitReader{r: zr, max: d.opt.MaxBytes, ctx: d.opt.Context}, 4096)
		src = ib
		if isGzip(ib) {
			d.report(RuleGzipNested, SeverityWarning, 0, 0, "the document is gzip-compressed twice (a gzip inside the gzip); read after decompressing both. Search engines decompress a .gz sitemap once: compress it once")
			zr2, err := gzip.NewReader(ib)
			if err != nil {
				return d.fatal(RuleGzip, 0, 0, ErrGzip, fmt.Sprintf("the inner gzip stream's header is corrupt (%v)", err))
			}
			ib2 := bufio.NewReaderSize(zr2, 4096)
			if isGzip(ib2) {
				return d.fatal(rules.F04, 0, 0, ErrNotSitemap, "gzip-compressed more than twice; not read (compress a sitemap once)")
			}
			src = ib2
		}
	}
	d.lim = &limitReader{r: src, max: d.opt.MaxBytes, ctx: d.opt.Context}
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
		d.report(rules.X01, SeverityError, 1, 1, "the document is "+transformed+"; sitemaps must be UTF-8; read after conversion")
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
			return d.fatal(rules.F04, 1, 1, ErrNotSitemap, "the document is empty: no XML root element and no URL lines")
		}
		// A kilobyte of blanks: go on as text, which will find out.
	}
	if i < len(head) && head[i] == '<' {
		if i > 0 {
			line := 1 + bytes.Count(head[:i], []byte{'\n'})
			d.report(rules.X09, SeverityWarning, line, 1, "white space before the XML declaration or root element; XML parsers may reject it")
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
		return d.fatal(rules.F04, 1, 1, ErrNotSitemap, "binary data, not a sitemap (not XML, not text; a compressed format other than gzip?)")
	}
	if i < len(head) && head[i] == '{' {
		// No URL line starts with '{': JSON, such as the entry records
		// 'sitemap parse' writes, read as text would be one T-02 a line.
		return d.fatal(rules.F04, 1+bytes.Count(head[:i], []byte{'\n'}), 1, ErrNotSitemap, "this is JSON (JSONL entry records?), not a sitemap; 'sitemap generate' turns entry records into sitemaps")
	}
	d.format = FormatText
	d.s = xmlscan.New(r, d.opt.MaxLineBytes)
	return nil
}

// isGzip reports whether the next bytes of br are gzip's magic number
// (F-04: sniffed, never taken from a name).
func isGzip(br *bufio.Reader) bool {
	magic, _ := br.Peek(2)
	return IsGzip(magic)
}

// charset wraps r with a decoder for a declared non-UTF-8 encoding.
func (d *Decoder) charset(name string, r io.Reader) io.Reader {
	lname := strings.ToLower(name)
	if lname == "utf-8" || lname == "utf8" || lname == "us-ascii" || lname == "ascii" {
		return r
	}
	if strings.HasPrefix(lname, "utf-16") {
		d.report(rules.X01, SeverityError, 1, 1, fmt.Sprintf("encoding=%q is declared but the bytes are not UTF-16; read as UTF-8 (sitemaps must be UTF-8, X-01)", name))
		return r
	}
	enc := lookupCharset(name)
	if enc == nil {
		d.report(rules.X01, SeverityError, 1, 1, fmt.Sprintf("unknown encoding %q declared; read as UTF-8 (sitemaps must be UTF-8, X-01)", name))
		return r
	}
	d.report(rules.X01, SeverityError, 1, 1, fmt.Sprintf("encoding=%q declared; sitemaps must be UTF-8; read after conversion to UTF-8", name))
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
