package validate

import (
	"hash/maphash"

	sitemap "github.com/sitemapkit/sitemap"
)

// maxAcross bounds the locs an [IndexLocs] remembers (about 16 bytes each
// in the map): the URLs of ten full sitemaps. Past it, locs are still
// checked against those remembered but no longer added.
const maxAcross = 10 * sitemap.MaxURLs

// IndexLocs remembers the page locs of the sitemaps of one index, so that
// a loc listed by two of them is found: L-17 asks for a warning on
// duplicates "within one sitemap, or across an index". Give the same
// IndexLocs to the [Options] of every child sitemap of the index, checked
// one after the other. Like the per-document check it compares 64-bit
// hashes.
//
// Memory is bounded (maxAcross locs, then no more are remembered). An
// IndexLocs is not safe for concurrent use.
type IndexLocs struct {
	seed maphash.Seed
	docs []string
	seen map[uint64]int32 // loc hash → index in docs
}

// NewIndexLocs returns an empty IndexLocs for one index.
func NewIndexLocs() *IndexLocs {
	return &IndexLocs{seed: maphash.MakeSeed(), seen: make(map[uint64]int32)}
}

// begin registers a document and returns its number.
func (x *IndexLocs) begin(name string) int32 {
	x.docs = append(x.docs, name)
	return int32(len(x.docs) - 1)
}

// other returns the name of an earlier document of the index that listed
// loc, or "" (and remembers loc for document doc).
func (x *IndexLocs) other(doc int32, loc string) string {
	h := maphash.String(x.seed, loc)
	if d, ok := x.seen[h]; ok {
		if d != doc {
			return x.docs[d]
		}
		return ""
	}
	if len(x.seen) < maxAcross {
		x.seen[h] = doc
	}
	return ""
}
