package fetch

import (
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// DefaultDedupMemory is the in-memory budget of URL deduplication when
// Options.DedupMemory is 0: 64 MiB holds about 1 million URLs before
// anything goes to disk.
const DefaultDedupMemory = seen.DefaultMemory

// dedupSet is the walk's URL dedup: a seen.Set shared by the workers.
type dedupSet struct{ set *seen.Set }

func newDedupSet(budget int64, dir string) *dedupSet {
	return &dedupSet{set: seen.New(budget, dir)}
}

// add reports whether the URL u was new, and records it: URLs compare in
// their normal form (urlnorm.Key), so the spellings of one URL count as
// one. Safe for concurrent use.
func (d *dedupSet) add(u string) (bool, error) { return d.set.Add(urlnorm.Key(u)) }

// release frees the memory and removes the spill files.
func (d *dedupSet) release() error { return d.set.Close() }
