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

// updateLocked is update with s.mu held. It checks whether anything
// moved, reads the pages to check, builds the new snapshot and publishes
// it. On an error the artifacts it built are dropped and the snapshot
// served stays (re-stamped when the change check failed); a cancelled ctx
// is an error like any other.
func (s *site) updateLocked(ctx context.Context, all, force bool, keys []Key) (*snapshot, error) {
	h := s.h
	if s.gone.Swap(false) {
		all, force = true, true
	}
	old := s.snap.Load()
	began := time.Now()
	now := h.now()
	if old == nil {
		all = true
	}
	version, kept, err := s.checkVersionLocked(ctx, old, all, force, began, now)
	if err != nil {
		return nil, err
	}
	if kept != nil {
		return kept, nil
	}
	pages := []*page{{id: 1}}
	maxID := 1
	if old != nil {
		pages, maxID = old.pages, old.maxID
	}
	check := s.pagesToRead(ctx, pages, all, keys)
	// What Options.Changed is told once the new pages are served: not
	// the first build's entries. The lines that differ from the page
	// before, also with the keys a feed named: a change committed while
	// an update reads its page is in the bytes it builds, and the next
	// update, told its key, finds those bytes as they are.
	tell := h.o.Changed != nil && old != nil
	results, built, err := s.readPagesLocked(ctx, pages, check, tell)
	if err != nil {
		return nil, err
	}
	out, maxID, changed := s.collectPagesLocked(pages, check, results, maxID, now)
	if old == nil && h.autoPerPage {
		// Pages of DefaultPerPage, unless there would be more than
		// autoMaxPages of them: then as many entries a page as keeps
		// them under it, set once for the handler's life.
		if per := perPageFor(countEntries(out), h.autoMaxPages); per > h.perPage() {
			dropArtifacts(built)
			h.lim.perPage.Store(int64(per))
			return s.updateLocked(ctx, all, force, keys)
		}
	}
	out = tile(out, pages[0].id)
	ns, err := s.nextSnapshotLocked(old, out, maxID, version, all, began, now)
	if err != nil {
		dropArtifacts(built)
		return nil, err
	}
	s.publishLocked(old, ns, changed, began)
	return ns, nil
}

// checkVersionLocked is the change check of an update, with s.mu held:
// it gives the version the new snapshot will carry (old's, or for a full
// update the one Source.Version gives now), or the snapshot to answer
// with when there is nothing to read. That is old itself when another
// update checked it while this one waited for the lock, or old stamped
// as checked now when the version did not move (never with force, or
// when the source has no version: ""). When Source.Version fails, old
// (if any) is stamped as checked now, so the next try waits for
// Recheck, and the error is returned.
func (s *site) checkVersionLocked(ctx context.Context, old *snapshot, all, force bool, began, now time.Time) (string, *snapshot, error) {
	h := s.h
	version := ""
	if old != nil {
		version = old.version
		if all && !force && h.o.Recheck > 0 && now.Sub(old.checked) < old.trust {
			return "", old, nil // checked while this one waited
		}
	}
	if !all {
		return version, nil, nil
	}
	v, err := h.src.Version(ctx)
	if err != nil {
		if old != nil {
			// Keep answering from the pages there are; try again
			// after Recheck rather than at every request.
			ns := *old
			ns.checked = now
			s.snap.Store(&ns)
		}
		return "", nil, fmt.Errorf("serve: change check: %w", err)
	}
	if old != nil && !force && v != "" && v == old.version {
		ns := *old
		ns.checked, ns.trust = now, max(h.o.Recheck, checkShare*time.Since(began))
		s.snap.Store(&ns)
		return "", &ns, nil
	}
	return v, nil, nil
}

// pagesToRead marks the pages an update reads: every page when all is
// set, else the pages holding keys (none for no keys). When the source
// cannot locate keys (no Locator, Locate fails, or its answer does not
// fit the pages) every page is read.
func (s *site) pagesToRead(ctx context.Context, pages []*page, all bool, keys []Key) []bool {
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
	return check
}

// readPagesLocked rebuilds the pages marked in check, with s.mu held (the
// workers use s.bufs): as many workers as there are CPUs (each a query of
// its own) read them, and the results come back by page. It also returns
// the artifacts built anew. The first failure cancels the reads not yet
// done; then, or when ctx is cancelled, every artifact built is dropped
// and the error (the failure, not the cancellation it caused) returned.
// Nothing marked: no results, no error unless ctx is done.
func (s *site) readPagesLocked(ctx context.Context, pages []*page, check []bool, tell bool) ([]rebuilt, []*artifact, error) {
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
				s.bufs[w], r = s.rebuild(wctx, pages[i], s.bufs[w], tell)
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
	var built []*artifact // new artifacts: dropped again on an error
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
		dropArtifacts(built)
		return nil, nil, fmt.Errorf("serve: reading the entries: %w", firstErr)
	}
	return results, built, nil
}

// collectPagesLocked puts the pages of an update in order, with s.mu held
// (it gives Last-Modified times): the pages not read as they were, each
// page read replaced by the pages its range makes now. A new page gets the
// next number after maxID, new bytes a new Last-Modified. It returns the
// pages, the highest number given and the entries to tell
// Options.Changed (none when no page was read).
func (s *site) collectPagesLocked(pages []*page, check []bool, results []rebuilt, maxID int, now time.Time) ([]*page, int, []sitemap.URL) {
	var out []*page
	var changed []sitemap.URL
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
	return out, maxID, changed
}

// countEntries is the number of entries the pages list (0 for none).
func countEntries(pages []*page) int {
	total := 0
	for _, p := range pages {
		total += p.count()
	}
	return total
}

// dropArtifacts drops the blobs of artifacts built by an update that
// fails or starts over (none: nothing happens).
func dropArtifacts(built []*artifact) {
	for _, a := range built {
		a.blob.drop()
	}
}

// nextSnapshotLocked makes the snapshot of the pages out (tiled), with
// s.mu held (a new index gets a Last-Modified): stamped with version and as checked now, and trusted for Recheck
// (for a full update, at least checkShare times the time it took). It
// keeps old's index when the pages and their bytes are the same and the
// index still readable, else builds one when a page lists anything. An
// error is one of keeping the index; the snapshot is not published.
func (s *site) nextSnapshotLocked(old *snapshot, out []*page, maxID int, version string, all bool, began, now time.Time) (*snapshot, error) {
	h := s.h
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
			return nil, err
		}
		ns.index = idx
	}
	return ns, nil
}

// publishLocked serves ns in place of old, with s.mu held: it counts the
// refresh, stores ns, drops the blobs of old that ns does not use (none
// when there was no old) and then tells Options.Changed the changed
// entries, if any.
func (s *site) publishLocked(old, ns *snapshot, changed []sitemap.URL, began time.Time) {
	h := s.h
	h.stats.refreshes.Add(1)
	h.stats.refreshNanos.Add(int64(time.Since(began)))
	s.snap.Store(ns)
	if old != nil {
		dropUnused(old, ns)
	}
	if len(changed) > 0 {
		h.o.Changed(changed)
	}
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
func (s *site) rebuild(ctx context.Context, p *page, buf []byte, tell bool) ([]byte, rebuilt) {
	h := s.h
	var r rebuilt
	var before map[string]uint64 // the old page's entries, for Changed
	first := true
	buf, r.err = h.readRange(ctx, s.base, p.after, p.upto, buf, func(pt *part) error {
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
		if tell {
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
