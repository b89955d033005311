// Package serve answers sitemap requests straight from where the entries
// live: a SQL table or query (SQLite, PostgreSQL), a crawl state, any Go
// iterator of entries, or a published directory.
//
// A [Handler] serves one sitemap index and its pages:
//
//	NAME.xml         the index, listing every page with its newest lastmod
//	NAME-N.xml       page N: at most Options.PerPage entries (1,000 unless set or the source is large; 50,000 at most) and 50 MiB (S-01, S-02)
//	NAME-N.xml.gz    the same page as a gzip file
//	NAME.xsl         the stylesheet browsers render the XML with (Options.XSL)
//	robots.txt       with a Sitemap: line for the index (Options.Robots)
//
// What it serves is what the source holds. Pages are cut by keyset on a
// stable key (the loc, or a key column), never by OFFSET: each page is a
// range of keys, so a change touches the page whose range holds the key,
// and a page that outgrows the limits splits in two (the new part under a
// new number). Every page is built once per change of its bytes and kept
// (in memory, or in Options.CacheDir); a request is answered from the
// built bytes, whose hash is the ETag, so a 304 is never sent for other
// bytes and a request never waits for a database scan.
//
// A change is found one of three ways, cheapest first:
//
//   - a [Watcher] source reports the keys each commit touched (PostgreSQL's
//     logical decoding through package serve/pgfeed, a program's own
//     notifications through [Watched]); only the pages holding those keys
//     are read again;
//   - a source whose Version changes exactly when its entries do (SQLite's
//     data_version, a file's size and time) is asked every Options.Recheck,
//     and every page is checked when it moved;
//   - any other source has every page checked every Options.Recheck: each
//     page's range is read and encoded, and rebuilt when its bytes differ.
//
// [Handler.Run] keeps the pages current in the background; without it,
// the request that finds the pages older than Options.Recheck starts the
// check.
//
// [Run] is `sitemap serve` as one call, from [Settings] as a command line
// gives them: the source opened, the pages built, the changes followed,
// the server run until its context is done.
package serve

import (
	"context"
	"errors"

	sitemap "github.com/sitemapkit/sitemap"
)

// Key is the value entries are ordered and paged by: what the source's
// driver returns for the key column (a string for a loc, an int64 for an
// integer id). The handler never compares keys itself; it hands back the
// keys a source gave it as page boundaries, and asks a [Locator] which
// pages hold a changed key. nil means "no bound".
type Key = any

// Source is where a Handler's entries come from.
//
// Entries walks the entries whose key is in (after, upto] in key order,
// the order the source itself defines (a database's ORDER BY); a nil after
// starts at the first entry, a nil upto goes to the last. It stops at fn's
// first error and returns it. The *sitemap.URL given to fn is the
// handler's until fn returns (a source may reuse it for the next entry).
//
// Version is the change check: a value that changes whenever the entries
// may have changed (SQLite's data_version, a file's size and modification
// time). An empty string means the source cannot tell: every page is then
// read and compared at each check.
type Source interface {
	Entries(ctx context.Context, after, upto Key, fn func(Key, *sitemap.URL) error) error
	Version(ctx context.Context) (string, error)
}

// Change is what a [Watcher] reports of one commit: the keys of the
// entries it added, changed or removed (an entry whose key changed: the
// old key and the new), or All when it cannot say which.
type Change struct {
	Keys []Key
	All  bool
}

// Watcher is a Source that reports its changes as they commit. Watch calls
// fn for each change until ctx is done or the feed fails, and returns the
// feed's error (ctx's error once ctx is done). Its first call must be
// Change{All: true} once the feed is live: what was committed before it is
// found by a check of every page.
type Watcher interface {
	Watch(ctx context.Context, fn func(Change)) error
}

// Locator is a Source that can tell which page holds a key, in its own
// order: for each of keys, the number of uppers (sorted page upper bounds,
// each a key the source gave) that are less than it. Without a Locator,
// a Change's keys are taken as All.
type Locator interface {
	Locate(ctx context.Context, uppers []Key, keys []Key) ([]int, error)
}

// Watched returns src with watch as its [Watcher]: a program that knows
// when its entries change (a message queue, its own writes) calls fn with
// the keys it touched, and the handler reads only the pages holding them.
// The keys must be of the kind src's Entries gives (the loc for [Seq]
// and [Entries]); src's Locator, when it has one, is kept.
func Watched(src Source, watch func(ctx context.Context, fn func(Change)) error) Source {
	return watched{src, watch}
}

type watched struct {
	Source
	watch func(ctx context.Context, fn func(Change)) error
}

func (w watched) Watch(ctx context.Context, fn func(Change)) error { return w.watch(ctx, fn) }

func (w watched) Locate(ctx context.Context, uppers, keys []Key) ([]int, error) {
	if l, ok := w.Source.(Locator); ok {
		return l.Locate(ctx, uppers, keys)
	}
	return nil, errNoLocator
}

var errNoLocator = errors.New("serve: the source cannot locate keys")

// errStop ends a walk early; it never leaves the package.
var errStop = errors.New("serve: stop")

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
		what, ok := u.Drop(ee)
		if !ok {
			return err
		}
		if dropped != nil {
			dropped(what, err)
		}
	}
}
