package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"sync/atomic"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// page is one page of the index: the entries whose key is in (after,
// upto], and the bytes built from them.
type page struct {
	id    int // the N of NAME-N.xml: stable for the life of the page
	after Key // exclusive lower bound; nil for the first page
	upto  Key // inclusive upper bound; nil for the last page
	art   *artifact
}

// count is the number of entries the page lists (0 for an empty range).
func (p *page) count() int {
	if p.art == nil {
		return 0
	}
	return p.art.count
}

// artifact is one built document: its plain XML bytes, kept gzipped.
type artifact struct {
	blob     blob
	etag     string // the hash of the plain bytes, quoted
	size     int64  // of the plain bytes
	count    int    // entries (or, for the index, pages) it lists
	lastmod  sitemap.Date
	modified time.Time // when this handler first built these bytes
	// gone is set when the blob could not be read (a cache file removed
	// by hand): the next check builds the page again.
	gone atomic.Bool
}

// snapshot is an immutable view of the pages, replaced as a whole by an
// update: a request sees one snapshot, and every page and the index in it
// are built.
type snapshot struct {
	version string
	pages   []*page // in key order; their ranges tile the keys
	byID    map[int]*page
	index   *artifact // nil when no page lists an entry
	maxID   int
	checked time.Time
	// trust is how long after checked the pages are trusted without a
	// check: Recheck, or longer when the check itself is slow.
	trust time.Duration
}

func newSnapshot(pages []*page) *snapshot {
	s := &snapshot{pages: pages, byID: make(map[int]*page, len(pages))}
	for _, p := range pages {
		s.byID[p.id] = p
		s.maxID = max(s.maxID, p.id)
	}
	return s
}

// lastmod is the newest lastmod of every page.
func (s *snapshot) lastmod() sitemap.Date {
	var d sitemap.Date
	for _, p := range s.pages {
		if p.art != nil && later(p.art.lastmod, d) {
			d = p.art.lastmod
		}
	}
	return d
}

// limits are what a page may hold.
type limits struct {
	perPage  atomic.Int64 // set once more by the first build when Options.PerPage is 0
	maxBytes int64        // for the <url> elements, header and trailer excluded
}

// pageHeadroom is what a page reserves for its header and trailer out of
// the 50 MiB: the urlset start tag with every namespace and the
// stylesheet's processing instruction fit well within it.
const pageHeadroom = 4096

// later reports whether a is after b (an absent b is before everything).
func later(a, b sitemap.Date) bool {
	if a.IsZero() {
		return false
	}
	return b.IsZero() || a.Time.After(b.Time)
}

// allExt declares every extension namespace: a part is encoded with it
// (an entry's bytes do not depend on what the header declares), and its
// header then declares only those its entries use (EX-05).
const allExt = sitemap.ExtAll

// part is one page's worth of entries as read from the source: the
// <url> elements, and what the header and the index need of them.
type part struct {
	after, upto Key
	count       int
	ext         sitemap.Ext
	lastmod     sitemap.Date
	body        []byte // the <url> elements; valid until the next part
	// problems are the parts of entries dropped or entries left out
	// while reading it, told only when the part is built anew.
	problems []problem
	more     int // problems past maxProblems
}

// problem is one value or entry the encoder refused.
type problem struct {
	loc, what string // what "" for an entry left out whole
	err       error
}

// maxProblems bounds the problems a part keeps to tell.
const maxProblems = 100

func (pt *part) problem(loc, what string, err error) {
	if len(pt.problems) < maxProblems {
		pt.problems = append(pt.problems, problem{loc, what, err})
	} else {
		pt.more++
	}
}

// header and trailer of a part's document.
func (h *Handler) docOptions(ext sitemap.Ext) sitemap.EncoderOptions {
	return sitemap.EncoderOptions{Extensions: ext, Stylesheet: h.stylesheet()}
}

// etagOf is the ETag of a document: the start of the SHA-256 of its plain
// bytes, header + body + trailer.
func etagOf(header, body []byte, trailer string) string {
	d := sha256.New()
	d.Write(header)
	d.Write(body)
	d.Write([]byte(trailer))
	return `"` + hex.EncodeToString(d.Sum(nil)[:16]) + `"`
}

// readRange reads the entries of (after, upto] from the source and cuts
// them into parts of at most lim, calling emit with each (its body is
// reused afterwards). The first part starts at after and the last ends at
// upto, so the parts tile the range; a range with no entry emits none.
// buf is the body buffer to reuse. Every entry's loc is made absolute
// against base, and a field or extension block the encoder refuses is
// dropped (keepEntry); an entry refused whole is left out.
func (h *Handler) readRange(ctx context.Context, base *url.URL, after, upto Key, buf []byte, emit func(*part) error) ([]byte, error) {
	o := sitemap.EncoderOptions{Extensions: allExt}
	pt := &part{after: after, body: buf[:0]}
	var last Key
	flush := func(end Key) error {
		pt.upto = end
		err := emit(pt)
		buf = pt.body
		*pt = part{after: end, body: buf[:0]}
		return err
	}
	var loc string
	dropped := func(what string, err error) { pt.problem(loc, what, err) }
	err := h.src.Entries(ctx, after, upto, func(k Key, u *sitemap.URL) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		u.Loc = absLoc(base, u.Loc)
		loc = u.Loc
		if last != nil && sameKey(k, last) {
			// The key of the entry before (a key column that is not
			// unique): every read of a range starts after a key, so a
			// page boundary between the two would lose the second on
			// the next read. The first is kept, the same at every read.
			pt.problem(loc, "", &sitemap.EntryError{Rule: rules.L17, Value: loc, Field: "loc", Message: "has the key of the entry before it (the key column is not unique): listed once; give a unique column with --key"})
			h.stats.skipped.Add(1)
			return nil
		}
		m := len(pt.body)
		err := keepEntry(u, func(u *sitemap.URL) error {
			var err error
			pt.body, err = o.AppendURL(pt.body[:m], u)
			return err
		}, dropped)
		var ee *sitemap.EntryError
		if errors.As(err, &ee) {
			pt.body = pt.body[:m]
			pt.problem(loc, "", err)
			h.stats.skipped.Add(1)
			return nil
		}
		if err != nil {
			return err
		}
		if size := int64(len(pt.body) - m); pt.count > 0 && (int64(pt.count) >= h.lim.perPage.Load() || int64(m)+size > h.lim.maxBytes) {
			// The entry opens the next part.
			entry := append([]byte(nil), pt.body[m:]...)
			pt.body = pt.body[:m]
			if err := flush(last); err != nil {
				return err
			}
			pt.body = append(pt.body, entry...)
		} else if size > h.lim.maxBytes {
			pt.body = pt.body[:m]
			pt.problem(loc, "", &sitemap.EntryError{Rule: rules.S02, Value: u.Loc, Field: "loc", Message: "makes an entry too large for a sitemap even alone"})
			h.stats.skipped.Add(1)
			return nil
		}
		pt.count++
		pt.ext |= sitemap.Extensions(u)
		if later(u.LastMod, pt.lastmod) {
			pt.lastmod = u.LastMod
		}
		last = k
		return nil
	})
	if err != nil {
		return buf, err
	}
	if pt.count > 0 {
		err = flush(upto)
	} else if len(pt.problems) > 0 {
		h.tell(pt) // a range of refused entries only: told at every check
	}
	return buf, err
}
