// Package build turns a stream of entries into published sitemaps: it
// splits them into numbered files exactly at the protocol limits (S-01,
// S-02, S-07, N-10), declares on each file only the extension namespaces it
// uses (EX-05), compresses, writes an index whose lastmods are the newest
// lastmod of each child (I-09), and publishes the whole set atomically
// through a store: children first, named by their content so that they
// never replace a file the live index lists, the index last (the one
// rename that changes the published set), then the files of earlier runs
// that are no longer needed are removed (see [Builder.Commit]).
//
// Memory does not grow with the number of entries: each sitemap's body
// (its <url> elements) is kept in memory up to 8 MiB and spilled to an
// unlinked temporary file beyond that, and when the file is complete its
// header (with exactly the namespaces used), the body and the closing tag
// are streamed through gzip into the store, in a goroutine while the next
// file fills. At most two bodies exist at a time.
//
// Output is deterministic: the same entries and options give byte-identical
// files.
package build

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/klauspost/compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/store"
)

// ErrNoEntries is returned by Commit when no entry was accepted: nothing
// is published (an empty urlset is not a valid sitemap) and the previous
// files stay as they were.
var ErrNoEntries = errors.New("build: no valid entries to write; nothing published, previous sitemaps left as they were")

// allExt declares every extension namespace: the encoder writes an entry's
// bytes the same whatever is declared, so entries are encoded once with
// everything allowed and each file's header declares only what it used.
const allExt = sitemap.ExtAll

// Builder writes one set of sitemaps. Create it with New or NewContext
// (the zero value is not usable) and use it from one goroutine: Add the
// entries, then Commit (or Abort).
type Builder struct {
	st  store.Store // where files go (a discarding store in a dry run)
	out store.Store // the caller's store (nil allowed in a dry run)
	o   *resolved
	ctx context.Context

	enc        sitemap.EncoderOptions  // entries: every namespace allowed
	hdr        sitemap.EncoderOptions  // headers: Extensions set per file
	hdrLen     [sitemap.ExtAll + 1]int // by declared extensions; 0 = not computed
	trailerLen int
	buf        []byte
	check      []byte // Check's buffer

	cur      *part
	free     []byte // a body buffer back from compose, for the next part
	memLimit int    // memBody; lowered by tests to exercise spilling
	parts    int    // parts started
	inflight chan composed
	zw       *gzip.Writer
	done     []composed // composed files, in order
	attached []store.File
	newsCut  time.Time
	// counting is set once the entries need more sitemaps than the index
	// mode allows (IndexNever): from then on nothing is kept, the files
	// the entries need are only counted, for Commit's NeedIndexError.
	counting bool

	start   time.Time
	urls    int
	skipped int
	strip   int
	adds    int
	err     error // sticky: the run cannot go on
	closed  bool
	unlock  func() error // releases the store's lock (nil: none)
}

func (b *Builder) release() {
	if b.unlock != nil {
		b.unlock()
		b.unlock = nil
	}
}

// memBody is how much of a sitemap's body is kept in memory before the
// rest goes to a spill file. A 50,000-URL sitemap of plain locs and
// lastmods (about 5 MB) never touches the disk.
const memBody = 8 << 20

// part is one sitemap being filled.
type part struct {
	num     int
	mem     []byte        // the first memBody bytes of the body
	spill   *os.File      // the rest, when the body outgrew mem (else nil)
	w       *bufio.Writer // buffers writes to spill
	used    sitemap.Ext
	body    int64 // bytes of <url> elements so far
	urls    int
	news    int
	lastmod sitemap.Date
}

type composed struct {
	sum  FileSummary
	file store.File
	mem  []byte // the part's memory buffer, for reuse
	err  error
}

// New returns a Builder writing through st. Unless o.DryRun, it takes the
// store's lock for o.Name when the store has one (store.Locker; a second
// run on the same names fails at once with store.ErrLocked, and on a
// DirStore so does any other run into the same directory), then finishes
// a journaled publication an earlier version's killed run left behind
// (store.Store.Recover) and removes the temporary files of killed runs;
// their published files, and the children of older indexes, are removed
// by Commit after its switch. The lock is held until Commit or Abort.
func New(st store.Store, o Options) (*Builder, error) {
	return NewContext(context.Background(), st, o)
}

// NewContext is New with a context for the recovery of an earlier run and
// for the work done in the background while entries are added.
func NewContext(ctx context.Context, st store.Store, o Options) (*Builder, error) {
	r, err := o.resolve()
	if err != nil {
		return nil, err
	}
	if st == nil && !r.DryRun {
		return nil, errors.New("build: no store")
	}
	if _, one := st.(*store.WriterStore); one && !r.DryRun {
		// Its bytes reach the writer as they are written: a run whose
		// entries turn out to need an index must not have written a
		// first child there, so it is counted as under IndexNever.
		if r.Index == IndexAlways {
			return nil, errors.New("build: the store takes one file (store.Writer), so it cannot hold an index and its children; publish into a directory (store.Dir) for IndexAlways")
		}
		r.Index, r.oneFile = IndexNever, true
	}
	b := &Builder{o: r, out: st, st: st, ctx: ctx, start: r.Now(), memLimit: memBody}
	if r.DryRun {
		b.st = discard{}
	} else {
		if l, ok := st.(store.Locker); ok {
			// One run per set of names at a time: a second run would
			// take the first one's temporary files for stale ones.
			if b.unlock, err = l.Lock(ctx, r.Name); err != nil {
				return nil, err
			}
		}
		if err := st.Recover(ctx, r.journalName(), r.owns); err != nil {
			b.release()
			return nil, err
		}
	}
	b.enc = sitemap.EncoderOptions{Extensions: allExt, Stylesheet: r.Stylesheet, Legacy: r.Legacy, Scope: r.scope}
	b.hdr = b.enc
	b.trailerLen = len(b.enc.Trailer())
	if r.NewsMaxAge > 0 {
		b.newsCut = b.start.Add(-r.NewsMaxAge)
	}
	return b, nil
}

func (b *Builder) headerLen(e sitemap.Ext) int {
	if n := b.hdrLen[e]; n != 0 {
		return n
	}
	h := b.hdr
	h.Extensions = e
	b.hdrLen[e] = len(h.AppendHeader(nil))
	return b.hdrLen[e]
}

// Add adds one entry. An entry that cannot be written (an invalid or
// out-of-scope loc, or one too large for an empty sitemap) is skipped:
// Add returns a *sitemap.EntryError and the run goes on. Any other error
// means the run cannot go on (more sitemaps than an index may list, a
// split without a base URL, a store failure, a cancelled context); Commit
// then returns it too. Entries that need more than one sitemap under
// IndexNever are counted to the end and Commit returns a
// *NeedIndexError.
func (b *Builder) Add(ctx context.Context, u *sitemap.URL) error {
	if b.err != nil {
		return b.err
	}
	if b.closed {
		return errors.New("build: Add after Commit or Abort")
	}
	if u == nil {
		return errors.New("build: nil entry")
	}
	if b.adds++; b.adds&1023 == 0 {
		if err := ctx.Err(); err != nil {
			return b.fail(err)
		}
	}
	if u.News != nil && !b.newsCut.IsZero() && !u.News.PublicationDate.IsZero() && u.News.PublicationDate.Time.Before(b.newsCut) {
		// N-11: news older than the window loses its news block.
		v := *u
		v.News = nil
		u = &v
		b.strip++
	}
	var err error
	b.buf, err = b.enc.AppendURL(b.buf[:0], u)
	if err != nil {
		var ee *sitemap.EntryError
		if !errors.As(err, &ee) {
			// Not about this entry (a nil entry, an unusable scope): the
			// run cannot go on.
			return b.fail(fmt.Errorf("build: %w", err))
		}
		b.skipped++
		return err
	}
	ext := sitemap.Extensions(u)
	isNews := u.News != nil
	if b.cur == nil {
		if err := b.startPart(); err != nil {
			return err
		}
	}
	if !b.fits(b.cur, ext, isNews) {
		if !b.fits(&part{}, ext, isNews) {
			// Not even an empty file could take it: skip it, without
			// rolling over.
			b.skipped++
			return tooLarge(u, len(b.buf), b.headerLen(ext)+b.trailerLen, b.o.MaxBytes)
		}
		if err := b.rollover(); err != nil {
			return err
		}
	}
	p := b.cur
	if b.counting {
		// Only counted: see NeedIndexError.
	} else if p.spill == nil && len(p.mem)+len(b.buf) <= b.memLimit {
		p.mem = append(p.mem, b.buf...)
	} else if err := b.spill(p); err != nil {
		return err
	}
	p.used |= ext
	p.body += int64(len(b.buf))
	p.urls++
	b.urls++
	if isNews {
		p.news++
	}
	if lm := u.LastMod; !lm.IsZero() && (p.lastmod.IsZero() || lm.Time.After(p.lastmod.Time)) {
		p.lastmod = lm // I-09: newest lastmod of the child
	}
	return nil
}

// Check reports whether Add would take u, without adding it: the
// *sitemap.EntryError Add would return for it (the encoder's refusal, or
// an entry too large for even an empty sitemap, S-02), else nil. For a
// caller that holds entries back before adding them (generate's hreflang
// pass); the Builder is not changed.
func (b *Builder) Check(u *sitemap.URL) error {
	if u == nil {
		return errors.New("build: nil entry")
	}
	buf, err := b.enc.AppendURL(b.check[:0], u)
	b.check = buf[:0]
	if err != nil {
		return err
	}
	ext := sitemap.Extensions(u)
	if b.o.MaxBytes > 0 && int64(b.headerLen(ext))+int64(len(buf))+int64(b.trailerLen) > int64(b.o.MaxBytes) {
		return tooLarge(u, len(buf), b.headerLen(ext)+b.trailerLen, b.o.MaxBytes)
	}
	return nil
}

// tooLarge is the error for an entry that does not fit even into an empty
// sitemap (S-02): n is the encoded entry, frame the header and closing tag
// a file holding it needs.
func tooLarge(u *sitemap.URL, n, frame, limit int) error {
	return &sitemap.EntryError{Rule: rules.S02, Value: u.Loc,
		Message: fmt.Sprintf("is an entry of %d bytes encoded; with the header and closing tag (%d bytes) a sitemap holding it has %d bytes, over the limit of at most %d bytes; raise the byte limit (--max-bytes) or drop some of its images, videos or alternates", n, frame, n+frame, limit)}
}

// fits reports whether the entry in b.buf, needing ext, fits into p
// (S-07): the file's size with it would be the header declaring
// p.used|ext, the body so far, the entry and the closing tag.
func (b *Builder) fits(p *part, ext sitemap.Ext, isNews bool) bool {
	if p.urls+1 > b.o.MaxURLs || (isNews && p.news+1 > b.o.MaxNews) {
		return false
	}
	size := int64(b.headerLen(p.used|ext)) + p.body + int64(len(b.buf)) + int64(b.trailerLen)
	return size <= int64(b.o.MaxBytes)
}

func (b *Builder) fail(err error) error {
	if b.err == nil {
		b.err = err
	}
	return b.err
}

func (b *Builder) startPart() error {
	b.parts++
	b.cur = &part{num: b.parts, mem: b.free}
	b.free = nil
	return nil
}

// spill writes b.buf to p's spill file, creating it on first use.
func (b *Builder) spill(p *part) error {
	if p.spill == nil {
		f, err := os.CreateTemp(b.o.TempDir, "sitemap-body-*")
		if err != nil {
			return b.fail(fmt.Errorf("build: spill file: %w", err))
		}
		if runtime.GOOS != "windows" {
			// Unlinked at once: the open descriptor keeps it, and a
			// killed run leaves nothing behind.
			os.Remove(f.Name())
		}
		p.spill, p.w = f, bufio.NewWriterSize(f, 64<<10)
	}
	if _, err := p.w.Write(b.buf); err != nil {
		return b.fail(fmt.Errorf("build: spilling sitemap body: %w", err))
	}
	return nil
}

func (p *part) closeSpill() {
	if f := p.spill; f != nil {
		f.Close()
		if runtime.GOOS == "windows" {
			os.Remove(f.Name())
		}
	}
}

// rollover completes the current file, which is now known to be a child,
// and starts the next one.
func (b *Builder) rollover() error {
	switch {
	case b.o.Index == IndexNever:
		// Nothing more is written: the entries are counted to the end,
		// so that Commit can say how many sitemaps they need.
		if !b.counting {
			b.counting = true
			b.cur.closeSpill()
		}
		b.cur = nil
		return b.startPart()
	case b.o.base == "":
		return b.fail(errors.New("build: the entries need more than one sitemap, so an index, and an index needs the base URL the sitemaps are served from (I-02)"))
	case b.parts >= sitemap.MaxURLs:
		return b.fail(fmt.Errorf("build: the entries need more than %d sitemaps, more than one index may list (S-03); raise the per-file limits or split the site into several sitemap names", sitemap.MaxURLs))
	}
	if err := b.finishPart(b.o.childName(b.cur.num), true); err != nil {
		return err
	}
	return b.startPart()
}

// NeedIndexError is the error of Commit when the index mode is IndexNever
// (or the store is a store.Writer) and the entries need more than one
// sitemap: nothing was written.
type NeedIndexError struct {
	// Sitemaps is how many sitemaps the entries need, and URLs how many
	// entries they hold.
	Sitemaps, URLs int
	// The limits of one sitemap the run had.
	MaxURLs, MaxBytes, MaxNews int
	// OneFile is set when the index mode was IndexAuto but the store
	// takes one file (store.Writer), which cannot hold an index.
	OneFile bool
}

func (e *NeedIndexError) Error() string {
	if e.OneFile {
		return fmt.Sprintf("build: the %d entries need %d sitemaps (at most %d URLs, %d bytes and %d news entries each) but the store takes one file (store.Writer); publish them into a directory (store.Dir) to have them written with an index, or split the entries", e.URLs, e.Sitemaps, e.MaxURLs, e.MaxBytes, e.MaxNews)
	}
	return fmt.Sprintf("build: the %d entries need %d sitemaps (at most %d URLs, %d bytes and %d news entries each) but the index mode is never; use index mode auto (--index auto) to write them with an index", e.URLs, e.Sitemaps, e.MaxURLs, e.MaxBytes, e.MaxNews)
}

func (b *Builder) needIndex() error {
	return &NeedIndexError{Sitemaps: b.parts, URLs: b.urls, MaxURLs: b.o.MaxURLs, MaxBytes: b.o.MaxBytes, MaxNews: b.o.MaxNews, OneFile: b.o.oneFile}
}

// finishPart hands the current file to the compose goroutine under name,
// after the previous one is done (one compose in flight bounds memory and
// disk). A child of an index is renamed by its content once written.
func (b *Builder) finishPart(name string, child bool) error {
	p := b.cur
	b.cur = nil
	if p.spill != nil {
		if err := p.w.Flush(); err != nil {
			p.closeSpill()
			return b.fail(fmt.Errorf("build: spilling sitemap body: %w", err))
		}
	}
	if err := b.wait(); err != nil {
		p.closeSpill()
		return err
	}
	if b.zw == nil && b.o.Gzip {
		b.zw, _ = gzip.NewWriterLevel(io.Discard, b.o.GzipLevel)
	}
	h := b.hdr
	h.Extensions = p.used
	header := h.AppendHeader(nil)
	ch := make(chan composed, 1)
	b.inflight = ch
	go func(zw *gzip.Writer) {
		ch <- b.compose(p, name, child, header, zw)
	}(b.zw)
	return nil
}

// wait waits for the compose in flight, if any.
func (b *Builder) wait() error {
	if b.inflight == nil {
		return b.err
	}
	c := <-b.inflight
	b.inflight = nil
	b.free = c.mem[:0]
	c.mem = nil
	if c.err != nil {
		return b.fail(c.err)
	}
	b.done = append(b.done, c)
	return b.err
}

// compose writes header + body (memory, then spill file) + trailer,
// through gzip when zw is set, into a new store file, and commits it; a
// child is then renamed to its content name. It runs in its own goroutine
// and touches only p, zw and the store.
func (b *Builder) compose(p *part, name string, child bool, header []byte, zw *gzip.Writer) (c composed) {
	defer p.closeSpill()
	f, err := b.st.Create(b.ctx, name)
	if err != nil {
		return composed{mem: p.mem, err: fmt.Errorf("build: %s: %w", name, err)}
	}
	defer func() {
		c.mem = p.mem
		if c.err != nil {
			f.Abort()
		}
	}()
	sink := newSink(f)
	var w io.Writer = sink
	if zw != nil {
		zw.Reset(sink)
		w = zw
	}
	fail := func(err error) composed {
		return composed{err: fmt.Errorf("build: writing %s: %w", name, err)}
	}
	if _, err := w.Write(header); err != nil {
		return fail(err)
	}
	if _, err := w.Write(p.mem); err != nil {
		return fail(err)
	}
	n := int64(len(p.mem))
	if p.spill != nil {
		if _, err := p.spill.Seek(0, io.SeekStart); err != nil {
			return fail(err)
		}
		m, err := io.CopyBuffer(w, onlyReader{p.spill}, make([]byte, 64<<10))
		if err != nil {
			return fail(err)
		}
		n += m
	}
	if n != p.body {
		return fail(fmt.Errorf("spilled body is %d bytes, expected %d", n, p.body))
	}
	if _, err := io.WriteString(w, b.enc.Trailer()); err != nil {
		return fail(err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return fail(err)
		}
	}
	if err := f.Commit(); err != nil {
		return fail(err)
	}
	hash := sink.sum()
	if child {
		name = b.o.contentName(p.num, hash)
		r, ok := f.(store.Renamer)
		if !ok {
			return fail(errors.New("the store cannot rename a file once written (store.Renamer), which the children of an index need: they are named by their content"))
		}
		if err := r.Rename(name); err != nil {
			return fail(err)
		}
	}
	s := FileSummary{
		Name:    name,
		URLs:    p.urls,
		News:    p.news,
		Bytes:   int64(len(header)) + p.body + int64(b.trailerLen),
		LastMod: p.lastmod,
		SHA256:  hash,
	}
	if zw != nil {
		s.CompressedBytes = sink.n
	}
	return composed{sum: s, file: f}
}

// onlyReader hides *os.File's WriterTo so io.CopyBuffer uses our buffer.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// sink counts and hashes what goes to a store file.
type sink struct {
	w io.Writer
	h hash.Hash
	n int64
}

func newSink(w io.Writer) *sink { return &sink{w: w, h: sha256.New()} }

func (s *sink) Write(p []byte) (int, error) {
	s.h.Write(p)
	n, err := s.w.Write(p)
	s.n += int64(n)
	return n, err
}

func (s *sink) sum() string { return hex.EncodeToString(s.h.Sum(nil)) }

// Abort discards everything this run wrote; the previous sitemaps stay as
// they were. It is safe after Commit (it then does nothing).
func (b *Builder) Abort() error {
	if b.closed {
		return nil
	}
	b.closed = true
	defer b.release()
	if b.inflight != nil {
		c := <-b.inflight
		b.inflight = nil
		if c.file != nil {
			c.file.Abort()
		}
	}
	if b.cur != nil {
		b.cur.closeSpill()
		b.cur = nil
	}
	for _, c := range b.done {
		c.file.Abort()
	}
	for _, f := range b.attached {
		f.Abort()
	}
	b.done, b.attached = nil, nil
	return nil
}

// discard is the store of a dry run: files are counted, never kept.
type discard struct{}

type discardFile struct{ name string }

func (discard) Create(ctx context.Context, name string) (store.File, error) {
	return &discardFile{name}, nil
}
func (discard) Publish(context.Context, store.Publication) error { return nil }
func (discard) Recover(context.Context, string, func(string) bool) error {
	return nil
}
func (discard) Remove(context.Context, string) error { return nil }
func (discard) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	return nil, os.ErrNotExist
}
func (discard) List(context.Context) ([]string, error) { return nil, nil }

func (f *discardFile) Rename(name string) error    { f.name = name; return nil }
func (f *discardFile) Name() string                { return f.name }
func (f *discardFile) Write(p []byte) (int, error) { return len(p), nil }
func (f *discardFile) Commit() error               { return nil }
func (f *discardFile) Abort() error                { return nil }
