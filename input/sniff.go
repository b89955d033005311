package input

import (
	"bytes"
	"io"

	"github.com/klauspost/compress/gzip"
)

// IsXML reports whether head, the first bytes of a document (up to a few
// KiB, gzip-compressed or not), opens XML: after an optional byte-order
// mark (UTF-8 or UTF-16) and white space, a '<'. A sitemap, a sitemap
// index, an RSS or an Atom feed is XML; a text sitemap, a CSV or JSONL
// file is not. It looks at the bytes only, never at a name, so a
// sitemap saved as urls.txt is still told apart from a list of URLs.
// Compressed bytes are decompressed as far as head goes (a cut-off
// stream is fine); a corrupt gzip header is not XML.
func IsXML(head []byte) bool {
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return false
		}
		var buf [4096]byte
		n, _ := io.ReadFull(zr, buf[:])
		return IsXML(buf[:n])
	}
	switch {
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}), bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		// UTF-16: only XML is read in it here (the decoder transcodes it).
		return true
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n")
	return len(head) > 0 && head[0] == '<'
}
