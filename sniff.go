package sitemap

import (
	"bytes"
	"io"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// IsGzip reports whether head, the first bytes of a document, starts
// with gzip's magic number (1f 8b). Fewer than two bytes are not gzip.
// With [Sniff] it is the module's one sniffer: every reader (the
// Decoder, packages source and input, fetch's Content-Encoding) tells
// gzip by these bytes, never by a name or a header alone (F-04).
func IsGzip(head []byte) bool {
	return len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b
}

// What [Sniff] says a document's first bytes are.
const (
	SniffEmpty = "empty" // nothing but white space (so far)
	SniffXML   = "xml"   // '<': a sitemap, an index, RSS, Atom
	SniffJSON  = "json"  // '{': JSONL entry records
	SniffText  = "text"  // anything else: a list of URLs, CSV
)

// Sniffed is what the first bytes of a document say it is.
type Sniffed struct {
	// Gzip is set when the bytes are gzip-compressed ([IsGzip]); the
	// rest is said of the decompressed bytes (a gzip inside the gzip
	// decompressed too).
	Gzip bool
	// Encoding is "UTF-16LE" or "UTF-16BE" for a document with a UTF-16
	// byte-order mark, else "" (UTF-8, with or without its mark); the
	// Kind is said of the bytes after conversion.
	Encoding string
	// Kind is SniffXML, SniffJSON, SniffText or SniffEmpty, by the first
	// byte after a byte-order mark and white space.
	Kind string
}

// Sniff looks at head, the first bytes of a document (a few KiB; a
// cut-off gzip stream or UTF-16 sequence is fine), and says what it is:
// compressed or not, its encoding, and XML, JSON or text. It looks at
// the bytes only, never at a name, so a sitemap saved as urls.txt is
// still told apart from a list of URLs. A corrupt gzip header is text
// (the reader that opens it says what is wrong).
func Sniff(head []byte) Sniffed {
	var s Sniffed
	for IsGzip(head) { // a gzip inside the gzip too (the Decoder reads two)
		s.Gzip = true
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			s.Kind = SniffText
			return s
		}
		var buf [4096]byte
		n, _ := io.ReadFull(zr, buf[:])
		head = buf[:n]
	}
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		s.Encoding = "UTF-16LE"
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		s.Encoding = "UTF-16BE"
	}
	if s.Encoding != "" {
		head, _, _ = transform.Bytes(unicode.BOMOverride(unicode.UTF8.NewDecoder()), head[:len(head)&^1])
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case len(head) == 0:
		s.Kind = SniffEmpty
	case head[0] == '<':
		s.Kind = SniffXML
	case head[0] == '{':
		s.Kind = SniffJSON
	default:
		s.Kind = SniffText
	}
	return s
}
