package input

import (
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// IsSitemapHead reports whether head, the first bytes of an input that may
// be a sitemap or a list of entries, begins a sitemap ([IsXML]) rather
// than entries (text, CSV, JSONL). A UTF-16 head (one with a byte-order
// mark) is looked at after conversion, so an entry list saved as UTF-16
// is read as what it is (package source converts it), not as a sitemap;
// a head that does not convert is taken for a sitemap, whose decoder
// says what is wrong. generate and submit tell their inputs apart by it.
func IsSitemapHead(head []byte) bool {
	if len(head) >= 2 && (head[0] == 0xff && head[1] == 0xfe || head[0] == 0xfe && head[1] == 0xff) {
		dec, _, err := transform.Bytes(unicode.BOMOverride(unicode.UTF8.NewDecoder()), head[:len(head)&^1])
		if err != nil {
			return true // the decoder says what is wrong
		}
		return IsXML(dec)
	}
	return IsXML(head)
}
