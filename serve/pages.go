package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// page is one page of the index: the entries whose key is in (after, upto].
type page struct {
	id      int // the N of NAME-N.xml: stable for the life of the page
	after   Key // exclusive lower bound; nil for the first page
	upto    Key // inclusive upper bound; nil for the last page
	count   int
	bytes   int64 // upper bound on the <url> elements' bytes
	lastmod sitemap.Date
	ext     sitemap.Ext
	etag    string
}

// snapshot is an immutable view of the pages, replaced as a whole on a
// refresh.
type snapshot struct {
	version string
	pages   []*page // in key order
	byID    map[int]*page
	etag    string // of the index
	lastmod sitemap.Date
	checked time.Time
	// trust is how long after checked the pages are trusted: Recheck,
	// or longer when the change check itself is slow (see checkShare).
	trust time.Duration
}

// listsPages reports whether the index of s lists a page: whether any page
// has an entry.
func (s *snapshot) listsPages() bool {
	for _, p := range s.pages {
		if p.count > 0 {
			return true
		}
	}
	return false
}

// limits are what a page may hold.
type limits struct {
	perPage  int
	maxBytes int64 // for the <url> elements, header and trailer excluded
}

// pageHeadroom is what a page reserves for its header and trailer out of
// the 50 MiB: the urlset start tag with every namespace and the
// stylesheet's processing instruction fit well within it.
const pageHeadroom = 4096

// cutter cuts a stream of Stats into pages greedily: a page closes when
// the next entry would make it exceed the limits.
type cutter struct {
	lim   limits
	pages []*page
	cur   *page
	last  Key // key of the last entry added
}

func (c *cutter) start(id int, after Key) {
	c.cur = &page{id: id, after: after}
	c.pages = append(c.pages, c.cur)
}

// add adds st to the current page, closing it first (at the last key
// added) and starting one with newID when st does not fit.
func (c *cutter) add(st Stat, newID func() int) {
	p := c.cur
	if p.count > 0 && (p.count >= c.lim.perPage || p.bytes+st.Size > c.lim.maxBytes) {
		p.upto = c.last
		c.start(newID(), c.last)
		p = c.cur
	}
	p.count++
	p.bytes += st.Size
	p.ext |= st.Ext
	if later(st.LastMod, p.lastmod) {
		p.lastmod = st.LastMod
	}
	c.last = st.Key
}

// later reports whether a is after b (an absent b is before everything).
func later(a, b sitemap.Date) bool {
	if a.IsZero() {
		return false
	}
	return b.IsZero() || a.Time.After(b.Time)
}

// build cuts every entry of src into pages numbered from 1: through its
// Pager when it has one and every page it gives fits lim, else by walking
// every key.
func build(ctx context.Context, src Source, lim limits) ([]*page, error) {
	if pg, ok := src.(Pager); ok {
		ps, err := pg.Pages(ctx, lim.perPage)
		if err != nil {
			return nil, err
		}
		if pages := fromPageStats(ps, lim); pages != nil {
			return pages, nil
		}
	}
	c := cutter{lim: lim}
	n := 1
	c.start(n, nil)
	err := stats(ctx, src, nil, nil, func(st Stat) error {
		c.add(st, func() int { n++; return n })
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	return c.pages, nil
}

// recount re-reads the entries of every page of old within its own key
// range, so an entry added or removed changes only the page whose range
// holds it. A page that no longer fits is split where it overflows (its
// first part keeps its number, the rest get new numbers after the highest
// in use); a page left empty is dropped and its range joins its neighbour's
// (no entry moves). At least one page remains.
func recount(ctx context.Context, src Source, old []*page, lim limits) ([]*page, error) {
	maxID := 0
	for _, p := range old {
		maxID = max(maxID, p.id)
	}
	newID := func() int { maxID++; return maxID }
	var out []*page
	for _, op := range old {
		c := cutter{lim: lim}
		c.start(op.id, op.after)
		err := stats(ctx, src, op.after, op.upto, func(st Stat) error {
			c.add(st, newID)
			return ctx.Err()
		})
		if err != nil {
			return nil, err
		}
		c.cur.upto = op.upto
		out = append(out, c.pages...)
	}
	kept := out[:0]
	for _, p := range out {
		if p.count > 0 {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		kept = append(kept, out[0])
	}
	for i, p := range kept {
		if i == 0 {
			p.after = nil
		} else {
			p.after = kept[i-1].upto
		}
	}
	kept[len(kept)-1].upto = nil
	return kept, nil
}

// newSnapshot fills in the ETags of pages and of the index. salt is what
// else the bytes served depend on (the handler's options).
func newSnapshot(version string, pages []*page, salt string, now time.Time) *snapshot {
	s := &snapshot{version: version, pages: pages, byID: make(map[int]*page, len(pages)), checked: now}
	ih := sha256.New()
	fmt.Fprintf(ih, "%s\x00", salt)
	for _, p := range pages {
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00%d\x00%v\x00%v\x00%d\x00%d\x00%d\x00%s", salt, p.id, p.after, p.upto, p.count, p.bytes, p.ext, p.lastmod.Time.UTC().Format(time.RFC3339Nano))
		p.etag = `"` + hex.EncodeToString(h.Sum(nil)[:12]) + `"`
		fmt.Fprintf(ih, "%d%s\x00", p.id, p.etag)
		s.byID[p.id] = p
		if later(p.lastmod, s.lastmod) {
			s.lastmod = p.lastmod
		}
	}
	s.etag = `"` + hex.EncodeToString(ih.Sum(nil)[:12]) + `"`
	return s
}

// fromPageStats turns a Pager's pages into pages numbered from 1, or nil
// when there are none or one does not fit lim (the walk by key then cuts
// by bytes).
func fromPageStats(ps []PageStat, lim limits) []*page {
	if len(ps) == 0 {
		return nil
	}
	out := make([]*page, len(ps))
	var after Key
	for i, st := range ps {
		if st.Count > lim.perPage || st.Bytes > lim.maxBytes {
			return nil
		}
		out[i] = &page{id: i + 1, after: after, upto: st.Last, count: st.Count, bytes: st.Bytes, lastmod: st.LastMod}
		after = st.Last
	}
	out[len(out)-1].upto = nil
	return out
}
