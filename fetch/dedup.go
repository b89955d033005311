package fetch

import (
	"slices"

	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// DefaultDedupMemory is the in-memory budget of URL deduplication when
// Options.DedupMemory is 0: 64 MiB holds about 3 million URLs before
// anything goes to disk.
const DefaultDedupMemory = seen.DefaultMemory

// dedupSet is the walk's URL dedup: a seen.Set shared by the workers.
type dedupSet struct{ set *seen.Set }

func newDedupSet(budget int64, dir string) *dedupSet {
	return &dedupSet{set: seen.New(budget, dir)}
}

// drop removes from b's events the URLs handed out before (by any
// worker, or earlier in b), records the others, and returns how many it
// removed. URLs compare in their normal form (urlnorm.Key), so the
// spellings of one URL count as one; of the copies in b, the first is
// kept. A worker calls it once a batch is full (up to batchURLs URLs),
// before sending it, so the set takes the URLs a batch at a time
// (seen.Set.AddBatch: one lock a shard, and the memory's cache misses
// waited for together) instead of one at a time. On an error of the
// spill files every URL of b is removed and the error returned. Safe
// for concurrent use.
func (d *dedupSet) drop(b *batch) (int64, error) {
	keys := b.dedupKeys[:0]
	for i := range b.events {
		if ev := &b.events[i]; ev.Kind == EventURL {
			keys = append(keys, urlnorm.Key(ev.URL.Loc))
		}
	}
	if len(keys) == 0 {
		return 0, nil
	}
	isNew := slices.Grow(b.dedupNew[:0], len(keys))[:len(keys)]
	err := d.set.AddBatch(keys, isNew)
	clear(keys) // the keys may be the locs: let them go with the batch
	b.dedupKeys, b.dedupNew = keys[:0], isNew[:0]
	var dups int64
	k, kept := 0, b.events[:0]
	for _, ev := range b.events {
		if ev.Kind == EventURL {
			k++
			if err != nil || !isNew[k-1] {
				dups++
				continue
			}
		}
		kept = append(kept, ev)
	}
	clear(b.events[len(kept):])
	b.events = kept
	if err != nil {
		return 0, err
	}
	return dups, nil
}

// release frees the memory and removes the spill files.
func (d *dedupSet) release() error { return d.set.Close() }
