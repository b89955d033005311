package input

import (
	sitemap "github.com/sitemapkit/sitemap"
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
	sn := sitemap.Sniff(head)
	// UTF-16 is read only as XML here (the decoder transcodes it).
	return sn.Kind == sitemap.SniffXML || sn.Encoding != ""
}
