package input

import sitemap "github.com/sitemapkit/sitemap"

// IsSitemapHead reports whether head, the first bytes of an input that may
// be a sitemap or a list of entries, begins a sitemap (XML, by
// [sitemap.Sniff]) rather than entries (text, CSV, JSONL). A UTF-16 head
// (one with a byte-order mark) is looked at after conversion, so an entry
// list saved as UTF-16 is read as what it is (package source converts
// it), not as a sitemap; gzip is looked into. generate and submit tell
// their inputs apart by it.
func IsSitemapHead(head []byte) bool {
	return sitemap.Sniff(head).Kind == sitemap.SniffXML
}
