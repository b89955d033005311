package serve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
	sitemap "github.com/sitemapkit/sitemap"
)

// site is what a Handler serves at one base URL: the pages and the index,
// built for that base (a page's locs and the index's page URLs depend on
// it). A handler with Options.BaseURL has one; without, one per allowed
// Host seen.
type site struct {
	h    *Handler
	base *url.URL
	mu   sync.Mutex // held by an update
	snap atomic.Pointer[snapshot]
	bufs [][]byte // the body buffers of readRange, one a worker, under mu
	// gone is set when a page's bytes could not be read: the next update
	// reads every page and builds those again.
	gone atomic.Bool
	// issued is the newest Last-Modified given to each page (by id; the
	// index is 0), under mu: it outlives the page, so a page that comes
	// back never gets an older one.
	issued map[int]time.Time
}

// checkShare is how many times a check's duration the pages are trusted
// after it at least: a check of every page never takes more than a fifth
// of the time (of the database's and of one core).
const checkShare = 4

// update brings the pages up to date: every page when all is set (or
// there are none yet), else the pages holding keys. A full update asks
// Source.Version first and reads nothing when it did not move (unless
// force). The new snapshot replaces the old one whole, every page and the
// index in it built; the blobs no snapshot needs any more are dropped.
func (s *site) update(ctx context.Context, all, force bool, keys []Key) (_ *snapshot, rerr error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if ctx.Err() == nil {
			s.h.noteCheck(rerr)
		}
	}()
	return s.updateLocked(ctx, all, force, keys)
}

// updateLocked is update with s.mu held.
func (s *site) updateLocked(ctx context.Context, all, force bool, keys []Key) (*snapshot, error) {
	h := s.h
	if s.gone.Swap(false) {
		all, force = true, true
	}
	old := s.snap.Load()
	began := time.Now()
	now := h.now()
	version := ""
	if old == nil {
		all = true
	}
	if old != nil {
		version = old.version
		if all && !force && h.o.Recheck > 0 && now.Sub(old.checked) < old.trust {
			return old, nil // checked while this one waited
		}
	}
	if all {
		v, err := h.src.Version(ctx)
		if err != nil {
			if old != nil {
				// Keep answering from the pages there are; try again
				// after Recheck rather than at every request.
				ns := *old
				ns.checked = now
				s.snap.Store(&ns)
			}
			return nil, fmt.Errorf("serve: change check: %w", err)
		}
		if old != nil && !force && v != "" && v == old.version {
			ns := *old
			ns.checked, ns.trust = now, max(h.o.Recheck, checkShare*time.Since(began))
			s.snap.Store(&ns)
			return &ns, nil
		}
		version = v
	}
	pages := []*page{{id: 1}}
	maxID := 1
	if old != nil {
		pages, maxID = old.pages, old.maxID
	}
	check := make([]bool, len(pages))
	if all {
		for i := range check {
			check[i] = true
		}
	} else if err := s.locate(ctx, pages, keys, check); err != nil {
		for i := range check {
			check[i] = true
		}
	}
	var out []*page
	var built []*artifact // new artifacts: dropped again on an error
	// What Options.Changed is told once the new pages are served: not
	// the first build's entries. With the keys a feed named, the entries
	// of those keys; else the lines that differ from the page before.
	tell := h.o.Changed != nil && old != nil
	var changed []sitemap.URL
	var watch func(Key) bool
	if tell && !all {
		named := make(map[string]bool, len(keys))
		for _, k := range keys {
			named[keyText(k)] = true
		}
		watch = func(k Key) bool { return named[keyText(k)] }
	}
	fail := func(err error) (*snapshot, error) {
		for _, a := range built {
			a.blob.drop()
		}
		return nil, err
	}
	// The pages to read are read by as many workers as there are CPUs
	// (each a query of its own), then put in order.
	results := make([]rebuilt, len(pages))
	var todo []int
	for i := range pages {
		if check[i] {
			todo = append(todo, i)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	for len(s.bufs) < workers {
		s.bufs = append(s.bufs, nil)
	}
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := range workers {
		wg.Go(func() {
			for i := range next {
				var r rebuilt
				s.bufs[w], r = s.rebuild(wctx, pages[i], s.bufs[w], watch, tell)
				results[i] = r
				if r.err != nil {
					cancel()
				}
			}
		})
	}
	for _, i := range todo {
		if wctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	cancel()
	var firstErr error
	for _, i := range todo {
		built = append(built, results[i].built...)
		// The reads one failure cut short failed with wctx's error:
		// the failure is the cause.
		if err := results[i].err; err != nil && (firstErr == nil || errors.Is(firstErr, context.Canceled) && !errors.Is(err, context.Canceled)) {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return fail(fmt.Errorf("serve: reading the entries: %w", firstErr))
	}
	for i, p := range pages {
		if !check[i] {
			out = append(out, p)
			continue
		}
		r := results[i]
		for _, np := range r.pages {
			if np.id == 0 {
				maxID++
				np.id = maxID
			}
			if np.art != p.art {
				np.art.modified = s.nextModified(np.id, now)
			}
			out = append(out, np)
		}
		changed = append(changed, r.changed...)
	}
	if old == nil && h.autoPerPage {
		// Pages of DefaultPerPage, unless there would be more than
		// autoMaxPages of them: then as many entries a page as keeps
		// them under it, set once for the handler's life.
		total := 0
		for _, p := range out {
			total += p.count()
		}
		if per := perPageFor(total, h.autoMaxPages); per > h.perPage() {
			for _, a := range built {
				a.blob.drop()
			}
			h.lim.perPage.Store(int64(per))
			return s.updateLocked(ctx, all, force, keys)
		}
	}
	out = tile(out, pages[0].id)
	ns := newSnapshot(out)
	ns.maxID = max(ns.maxID, maxID)
	ns.version, ns.checked = version, now
	ns.trust = h.o.Recheck
	if all {
		ns.trust = max(h.o.Recheck, checkShare*time.Since(began))
	}
	if old != nil && old.index != nil && !old.index.gone.Load() && samePages(old.pages, out) {
		ns.index = old.index
	} else if ns.listsPages() {
		idx, err := s.buildIndex(ns, old, now)
		if err != nil {
			return fail(err)
		}
		ns.index = idx
	}
	h.stats.refreshes.Add(1)
	h.stats.refreshNanos.Add(int64(time.Since(began)))
	s.snap.Store(ns)
	if old != nil {
		dropUnused(old, ns)
	}
	if len(changed) > 0 {
		h.o.Changed(changed)
	}
	return ns, nil
}

// locate marks in check the pages holding keys, through the source's
// Locator.
func (s *site) locate(ctx context.Context, pages []*page, keys []Key, check []bool) error {
	if len(keys) == 0 {
		return nil
	}
	l, ok := s.h.src.(Locator)
	if !ok {
		return errNoLocator
	}
	uppers := make([]Key, 0, len(pages)-1)
	for _, p := range pages[:len(pages)-1] {
		uppers = append(uppers, p.upto)
	}
	idx, err := l.Locate(ctx, uppers, keys)
	if err != nil {
		return err
	}
	if len(idx) != len(keys) {
		return fmt.Errorf("serve: Locate gave %d pages for %d keys", len(idx), len(keys))
	}
	for _, i := range idx {
		if i < 0 || i >= len(pages) {
			return fmt.Errorf("serve: Locate gave page %d of %d", i, len(pages))
		}
		check[i] = true
	}
	return nil
}

// tile drops the pages that list nothing and sets the bounds so the
// ranges cover every key again: a range left empty joins the next page's
// (no entry moves). At least one page remains (numbered first when none
// lists anything).
func tile(pages []*page, first int) []*page {
	kept := pages[:0:0]
	for _, p := range pages {
		if p.count() > 0 {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return []*page{{id: first}}
	}
	for i, p := range kept {
		var after, upto Key
		if i > 0 {
			after = kept[i-1].upto
		}
		if i < len(kept)-1 {
			upto = p.upto
		}
		if !sameKey(after, p.after) || !sameKey(upto, p.upto) {
			// Pages are shared between snapshots: a page whose bounds
			// move is a new page of the same artifact.
			kept[i] = &page{id: p.id, after: after, upto: upto, art: p.art}
		}
	}
	return kept
}

// samePages reports whether a and b list the same pages with the same
// bytes, so the index of a is the index of b.
func samePages(a, b []*page) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].id != b[i].id || a[i].art != b[i].art {
			return false
		}
	}
	return true
}

// listsPages reports whether the index of s lists a page: whether any page
// has an entry.
func (s *snapshot) listsPages() bool {
	for _, p := range s.pages {
		if p.count() > 0 {
			return true
		}
	}
	return false
}

// buildIndex builds the index of ns: every page that lists an entry, with
// its newest lastmod.
func (s *site) buildIndex(ns, old *snapshot, now time.Time) (*artifact, error) {
	h := s.h
	o := sitemap.EncoderOptions{Index: true, Stylesheet: h.stylesheet()}
	body := []byte{}
	n := 0
	for _, x := range h.indexEntries(ns, s.base) {
		var err error
		if body, err = o.AppendIndexEntry(body, &x); err != nil {
			return nil, fmt.Errorf("serve: the index: %w", err)
		}
		n++
	}
	header := o.AppendHeader(nil)
	etag := etagOf(header, body, o.Trailer())
	if old != nil && old.index != nil && old.index.etag == etag && !old.index.gone.Load() {
		return old.index, nil
	}
	b, err := h.store.put(func(w io.Writer) error {
		w.Write(header)
		w.Write(body)
		_, err := io.WriteString(w, o.Trailer())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("serve: keeping the index: %w", err)
	}
	return &artifact{blob: b, etag: etag, size: int64(len(header) + len(body) + len(o.Trailer())), count: n, lastmod: ns.lastmod(), modified: s.nextModified(0, now)}, nil
}

// nextModified is the Last-Modified of new bytes of page id (0: the
// index): now at whole seconds, and at least a second after any given to
// that page before, so that a client asking If-Modified-Since with an
// earlier one never gets a 304 for other bytes (HTTP dates have whole
// seconds: two versions within one second would share one).
func (s *site) nextModified(id int, now time.Time) time.Time {
	m := now.Truncate(time.Second)
	if prev, ok := s.issued[id]; ok && !m.After(prev) {
		m = prev.Add(time.Second)
	}
	if s.issued == nil {
		s.issued = map[int]time.Time{}
	}
	s.issued[id] = m
	return m
}

// dropUnused drops the blobs of old that ns no longer has.
func dropUnused(old, ns *snapshot) {
	live := make(map[*artifact]bool, len(ns.pages)+1)
	for _, p := range ns.pages {
		live[p.art] = true
	}
	live[ns.index] = true
	for _, p := range old.pages {
		if p.art != nil && !live[p.art] {
			live[p.art] = true // once
			p.art.blob.drop()
		}
	}
	if old.index != nil && !live[old.index] {
		old.index.blob.drop()
	}
}

// tell reports the problems of a part built anew to Options.Dropped and
// Options.Skipped.
func (h *Handler) tell(pt *part) {
	for _, p := range pt.problems {
		switch {
		case p.what == "" && h.o.Skipped != nil:
			h.o.Skipped(p.loc, p.err)
		case p.what != "" && h.o.Dropped != nil:
			h.o.Dropped(p.loc, p.what, p.err)
		}
	}
}

// entryLines maps each <url> line of a built page to a hash of the line,
// by the line's loc as written (escaped): the encoder writes one entry a
// line, so the lines of two builds tell which entries changed. An empty
// map for a page not built (or no longer readable).
func entryLines(a *artifact) map[string]uint64 {
	m := map[string]uint64{}
	if a == nil {
		return m
	}
	r, err := a.blob.open()
	if err != nil {
		return m
	}
	defer r.Close()
	zr, err := gzip.NewReader(r)
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 64<<10), sitemap.MaxBytes)
	for sc.Scan() {
		if loc, ok := lineLoc(sc.Bytes()); ok {
			m[loc] = lineHash(sc.Bytes())
		}
	}
	return m
}

// changedEntries returns the entries of body (a part's <url> lines) that
// before does not have as they are.
func changedEntries(before map[string]uint64, body []byte) []sitemap.URL {
	var out []sitemap.URL
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		loc, ok := lineLoc(line)
		if !ok {
			continue
		}
		if h, had := before[loc]; had && h == lineHash(line) {
			continue
		}
		u := sitemap.URL{Loc: unescapeXML(loc)}
		if _, rest, ok := bytes.Cut(line, []byte("</loc><lastmod>")); ok {
			if v, _, ok := bytes.Cut(rest, []byte("</lastmod>")); ok {
				u.LastMod, _ = sitemap.ParseDate(string(v))
			}
		}
		out = append(out, u)
	}
	return out
}

// lineLoc is the loc of a <url> line, as written.
func lineLoc(line []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(line, []byte("<url><loc>"))
	if !ok {
		return "", false
	}
	loc, _, ok := bytes.Cut(rest, []byte("</loc>"))
	return string(loc), ok
}

func lineHash(b []byte) uint64 {
	d := fnv.New64a()
	d.Write(b)
	return d.Sum64()
}

// unescapeXML undoes the encoder's escaping of a loc (E-01).
var unescapeXML = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&apos;", "'", "&quot;", `"`, "&#xD;", "\r").Replace

// sameKey reports whether two keys a source gave are the same value
// (a []byte key, from a BLOB or bytea column, is not comparable with ==).
func sameKey(a, b Key) bool {
	ab, aok := a.([]byte)
	bb, bok := b.([]byte)
	if aok || bok {
		return aok && bok && bytes.Equal(ab, bb)
	}
	return a == b
}

// rebuilt is what reading one page's range gave: the pages it makes now
// (the first keeps the old page's number; the others have none yet), the
// artifacts built anew, and the entries to tell Options.Changed.
type rebuilt struct {
	pages   []*page
	built   []*artifact
	changed []sitemap.URL
	err     error
}

// rebuild reads the range of p and builds the pages it holds now, reusing
// p's bytes when they did not change. It may run beside other rebuilds.
func (s *site) rebuild(ctx context.Context, p *page, buf []byte, watch func(Key) bool, tell bool) ([]byte, rebuilt) {
	h := s.h
	var r rebuilt
	var before map[string]uint64 // the old page's entries, for Changed
	first := true
	buf, r.err = h.readRange(ctx, s.base, p.after, p.upto, buf, watch, func(pt *part) error {
		np := &page{after: pt.after, upto: pt.upto}
		if first {
			np.id, first = p.id, false
		}
		o := h.docOptions(pt.ext)
		header := o.AppendHeader(nil)
		etag := etagOf(header, pt.body, o.Trailer())
		if p.art != nil && p.art.etag == etag && !p.art.gone.Load() {
			np.art = p.art // the same bytes: kept, Last-Modified too
			r.pages = append(r.pages, np)
			return nil
		}
		start := time.Now()
		b, err := h.store.put(func(w io.Writer) error {
			if _, err := w.Write(header); err != nil {
				return err
			}
			if _, err := w.Write(pt.body); err != nil {
				return err
			}
			_, err := io.WriteString(w, o.Trailer())
			return err
		})
		if err != nil {
			return fmt.Errorf("keeping a built page: %w", err)
		}
		np.art = &artifact{blob: b, etag: etag, size: int64(len(header) + len(pt.body) + len(o.Trailer())),
			count: pt.count, lastmod: pt.lastmod}
		r.built = append(r.built, np.art)
		h.stats.observeBuild(time.Since(start))
		h.tell(pt)
		switch {
		case !tell:
		case watch != nil:
			r.changed = append(r.changed, pt.changed...)
		default:
			if before == nil {
				before = entryLines(p.art)
			}
			r.changed = append(r.changed, changedEntries(before, pt.body)...)
		}
		r.pages = append(r.pages, np)
		return nil
	})
	return buf, r
}

// autoMaxPages is the most pages the default page size makes: a table of
// more than DefaultPerPage × autoMaxPages entries gets larger pages.
const autoMaxPages = 20_000

// perPageFor is the page size for n entries when Options.PerPage is 0:
// DefaultPerPage, or the multiple of 1,000 that keeps the pages within
// autoMaxPages (at most 50,000 entries a page, S-01).
func perPageFor(n, maxPages int) int {
	per := DefaultPerPage
	if n > per*maxPages {
		per = ((n+maxPages-1)/maxPages + 999) / 1000 * 1000
	}
	return min(per, sitemap.MaxURLs)
}
