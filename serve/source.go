// Package serve answers sitemap requests straight from where the entries
// live: a SQL table or query (SQLite, PostgreSQL), a crawl state, any Go
// iterator of entries, or a published directory.
//
// A [Handler] serves one sitemap index and its pages:
//
//	NAME.xml         the index, listing every page with its newest lastmod
//	NAME-N.xml       page N: at most 50,000 entries and 50 MiB (S-01, S-02)
//	NAME-N.xml.gz    the same page as a gzip file
//	NAME.xsl         the stylesheet browsers render the XML with (Options.XSL)
//	robots.txt       with a Sitemap: line for the index (Options.Robots)
//
// Pages are cut by keyset on a stable key (the loc, or a key column), never
// by OFFSET: each page is a range of keys, so adding a row changes the one
// page whose range holds it, and a page that outgrows the limits is split in
// two (one new boundary, the new part under a new number). The boundaries
// and each page's newest lastmod are kept in memory and refreshed when a
// cheap change check ([Source.Version], e.g. the row count and the newest
// update) says the entries changed, so a crawler re-reading an unchanged site
// gets 304s without a table scan. A page is streamed through the root
// package's Encoder into the response: memory does not grow with a page.
package serve

import (
	"context"
	"errors"

	sitemap "github.com/sitemapkit/sitemap"
)

// Key is the value entries are ordered and paged by: what the source's
// driver returns for the key column (a string for a loc, an int64 for an
// integer id). The handler never compares keys itself; it only hands back
// the keys a source gave it as page boundaries. nil means "no bound".
type Key = any

// Stat is what paging needs of one entry: its key, its lastmod, an upper
// bound on the bytes its <url> element takes, and the extension namespaces
// it needs.
type Stat struct {
	Key     Key
	LastMod sitemap.Date
	// Size is at least the number of bytes the encoder writes for the
	// entry; 0 for an entry the encoder will refuse.
	Size int64
	Ext  sitemap.Ext
}

// Source is where a Handler's entries come from.
//
// Entries and Stats walk the entries whose key is in (after, upto] in key
// order, the order the source itself defines (a database's ORDER BY); a
// nil after starts at the first entry, a nil upto goes to the last. They
// stop at fn's first error and return it.
//
// Version is the cheap change check: a value that changes whenever the
// entries may have changed (a row count with the newest update time, a file's
// size and modification time). It is called at most once per
// Options.Recheck; an empty string means the source cannot tell, and the
// pages are then computed once and kept.
type Source interface {
	Entries(ctx context.Context, after, upto Key, fn func(Key, *sitemap.URL) error) error
	Version(ctx context.Context) (string, error)
}

// Statter is a Source that can list its keys without building entries
// (a SQL source reads the key, lastmod and loc length from the index it
// pages by). Sources without it are paged by encoding every entry once per
// refresh to measure it.
type Statter interface {
	Stats(ctx context.Context, after, upto Key, fn func(Stat) error) error
}

// Pager is a Source that can cut its entries into pages of perPage itself,
// in one pass where the data lives (a SQL source: one ordered scan
// aggregated by the database, instead of every key sent to the handler).
// Each PageStat covers the entries after the previous one's Last; Bytes is
// at least the bytes of the page's <url> elements. The handler uses it for
// the first count when every page fits its byte limit, and the per-key
// walk otherwise (and for every recount, which keeps the boundaries). A
// Pager may return no pages and no error to say it cannot.
type Pager interface {
	Pages(ctx context.Context, perPage int) ([]PageStat, error)
}

// PageStat is one page as a Pager counts it.
type PageStat struct {
	Count   int
	Last    Key
	LastMod sitemap.Date
	Bytes   int64
}

// errStop ends a walk early; it never leaves the package.
var errStop = errors.New("serve: stop")

// stats walks the Stats of src in (after, upto]: through its Statter when
// it has one, else by measuring every entry with the encoder's own
// appender, without the parts it refuses (keepEntry; a refused entry
// counts with Size 0).
func stats(ctx context.Context, src Source, after, upto Key, fn func(Stat) error) error {
	if s, ok := src.(Statter); ok {
		return s.Stats(ctx, after, upto, fn)
	}
	var buf []byte
	return src.Entries(ctx, after, upto, func(k Key, u *sitemap.URL) error {
		// Measured as writePage writes it: without the parts the encoder
		// refuses.
		var ext sitemap.Ext
		err := keepEntry(u, func(u *sitemap.URL) error {
			ext = sitemap.Extensions(u)
			var err error
			buf, err = sitemap.EncoderOptions{Extensions: ext}.AppendURL(buf[:0], u)
			return err
		}, nil)
		st := Stat{Key: k, LastMod: u.LastMod, Ext: ext}
		if err == nil {
			st.Size = int64(len(buf))
		}
		return fn(st)
	})
}

// maxDrops bounds the parts keepEntry drops from one entry (each Drop
// removes one, so an entry has fewer than this many in practice).
const maxDrops = 64

// keepEntry calls encode with u and, while the encoder refuses one of its
// fields or extension blocks (sitemap.EntryError.Drop: a changefreq in
// capitals, an image with a relative loc), drops it and tries again, as
// package generate does, so that a page is not left out of its sitemap
// for one bad value. dropped, when set, is told each part dropped. It
// returns encode's last error: an *EntryError about the entry as a whole
// (its loc) when the entry cannot be written at all.
func keepEntry(u *sitemap.URL, encode func(*sitemap.URL) error, dropped func(what string, err error)) error {
	for i := 0; ; i++ {
		err := encode(u)
		var ee *sitemap.EntryError
		if !errors.As(err, &ee) || i >= maxDrops {
			return err
		}
		what, ok := ee.Drop(u)
		if !ok {
			return err
		}
		if dropped != nil {
			dropped(what, err)
		}
	}
}
