package build

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/klauspost/compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"
)

// Commit finishes the last sitemap, writes the index when one is needed
// (I-09: each child's lastmod is the newest lastmod of its URLs, absent
// when none has one), and publishes everything through the store in one
// publication: the files given to Attach, the children, then the index;
// files of earlier runs that are no longer needed are removed after that.
// On any error nothing is published and the previous files stay as they
// were.
//
// The children of an index are named by their content (NAME-N-HASH.xml,
// see Options.Name), so they never replace a file the live index lists,
// and the rename of the index is the one moment the published set
// changes: a run killed at any point leaves an index that lists complete
// children of one run. The single sitemap of a run without an index is
// NAME.xml itself, one rename. After the switch, the store keeps the
// children of the index it replaced, for readers that fetched that index
// before the switch (the grace period lasts until the next run), and
// removes the rest of the files earlier runs left: children of the index
// before that, children of killed runs, a top file of another name
// (NAME.xml.gz when NAME.xml is written), and the NAME.manifest.json
// earlier versions wrote into the directory.
//
// In a dry run nothing is written, and the summary's Removed lists what a
// real run would remove.
func (b *Builder) Commit(ctx context.Context) (sum Summary, err error) {
	if b.closed {
		return Summary{}, errors.New("build: Commit after Commit or Abort")
	}
	defer func() {
		if err != nil {
			b.Abort()
		}
		b.closed = true
		b.release()
	}()
	single, err := b.finishLast(ctx)
	if err != nil {
		return Summary{}, err
	}
	files, keep, err := b.filesToPublish(ctx, single, &sum)
	if err != nil {
		return Summary{}, err
	}
	sum.Removed, sum.Kept = b.obsolete(ctx, keep)

	if err := ctx.Err(); err != nil {
		return Summary{}, err
	}
	if err := b.st.Publish(ctx, store.Publication{Files: files, Remove: sum.Removed}); err != nil {
		return Summary{}, err
	}
	b.done, b.attached = nil, nil
	b.addTotals(&sum)
	return sum, nil
}

// finishLast finishes the last sitemap, NAME.xml itself when it is the
// only one (and Options.Index does not ask for an index), else the last
// child, and waits for every file being written. It reports whether the
// run has that single sitemap. It returns the Builder's first error, a
// *NeedIndexError when the entries need an index that may not be
// written, ErrNoEntries when nothing was added, an error writing, or ctx's error when ctx is done.
func (b *Builder) finishLast(ctx context.Context) (bool, error) {
	if b.err != nil {
		return false, b.err
	}
	if b.counting {
		return false, b.needIndex()
	}
	if b.urls == 0 {
		return false, ErrNoEntries
	}
	p := b.cur
	name := b.o.childName(p.num)
	single := p.num == 1 && b.o.Index != IndexAlways
	if single {
		name = b.o.singleName()
	}
	if err := b.finishPart(name, !single); err != nil {
		return false, err
	}
	if err := b.wait(); err != nil {
		return false, err
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return single, nil
}

// filesToPublish lists the files Commit publishes, in order: the files
// given to Attach, the sitemaps, then (unless single) the index, which it
// writes and commits here. It records the sitemaps and the index in sum,
// and returns the names to keep from the files of earlier runs. An error
// of writing the index is returned (the index is then aborted; the other
// files are left to Commit's Abort).
func (b *Builder) filesToPublish(ctx context.Context, single bool, sum *Summary) ([]store.File, map[string]bool, error) {
	files := make([]store.File, 0, len(b.attached)+len(b.done)+1)
	files = append(files, b.attached...)
	keep := map[string]bool{}
	for _, c := range b.done {
		files = append(files, c.file)
		keep[c.file.Name()] = true
		sum.Files = append(sum.Files, c.sum)
	}
	if !single {
		idx, f, err := b.writeIndex(ctx, sum.Files)
		if err != nil {
			return nil, nil, err
		}
		b.done = append(b.done, composed{sum: idx, file: f}) // aborted with the rest on failure
		files = append(files, f)
		keep[f.Name()] = true
		sum.Index = &idx
	}
	return files, keep, nil
}

// addTotals fills in the totals of a published run's sum: the entries
// written and skipped, the news stripped, whether it was a dry run, the
// bytes of every file (the index's included), the time since the
// Builder was made and the entries a second (0 when no time passed).
func (b *Builder) addTotals(sum *Summary) {
	sum.URLs = b.urls
	sum.Skipped = b.skipped
	sum.NewsStripped = b.strip
	sum.DryRun = b.o.DryRun
	for _, f := range sum.Files {
		sum.Bytes += f.Bytes
		sum.CompressedBytes += f.CompressedBytes
	}
	if sum.Index != nil {
		sum.Bytes += sum.Index.Bytes
		sum.CompressedBytes += sum.Index.CompressedBytes
	}
	sum.Elapsed = b.o.Now().Sub(b.start)
	if s := sum.Elapsed.Seconds(); s > 0 {
		sum.URLsPerSecond = float64(sum.URLs) / s
	}
}

// Attach adds f, a committed file of the Builder's store, to the set:
// Commit publishes it before the sitemaps (which may reference it, as
// they reference a stylesheet), and Abort, or a Commit that fails,
// discards it. A run that publishes nothing thus leaves no trace of f. In
// a dry run f is discarded at once.
func (b *Builder) Attach(f store.File) error {
	if b.closed {
		f.Abort()
		return errors.New("build: Attach after Commit or Abort")
	}
	if b.o.DryRun {
		return f.Abort()
	}
	b.attached = append(b.attached, f)
	return nil
}

// writeIndex writes and commits the sitemap index over children (I-01, I-09).
func (b *Builder) writeIndex(ctx context.Context, children []FileSummary) (FileSummary, store.File, error) {
	entries := make([]sitemap.IndexEntry, len(children))
	for i, c := range children {
		// I-09: the newest lastmod of the child's URLs, or none; never
		// the time of the run.
		entries[i] = sitemap.IndexEntry{Loc: b.o.base + c.Name, LastMod: c.LastMod}
	}
	eo := sitemap.EncoderOptions{Index: true, Stylesheet: b.o.Stylesheet, Scope: b.o.iscope}
	return writeIndexFile(ctx, b.st, b.o.indexName(), eo, b.o.GzipIndex, b.o.GzipLevel, entries)
}

// writeIndexFile writes the sitemap index over entries to a new file name
// of st with the encoder options eo, through gzip at level gzipLevel when
// gz, and commits it (not yet published). Its summary's lastmod is the
// newest of the entries' (none when none has one). It refuses an index
// over 50 MiB (S-03); on any error the file is aborted and the error
// names it ("build: writing index NAME: …"), but for one of creating it,
// returned as the store gave it.
func writeIndexFile(ctx context.Context, st store.Store, name string, eo sitemap.EncoderOptions, gz bool, gzipLevel int, entries []sitemap.IndexEntry) (FileSummary, store.File, error) {
	f, err := st.Create(ctx, name)
	if err != nil {
		return FileSummary{}, nil, err
	}
	fail := func(err error) (FileSummary, store.File, error) {
		f.Abort()
		return FileSummary{}, nil, fmt.Errorf("build: writing index %s: %w", name, err)
	}
	sink := newSink(f)
	var w io.Writer = sink
	var zw *gzip.Writer
	if gz {
		zw, _ = gzip.NewWriterLevel(sink, gzipLevel)
		w = zw
	}
	enc := sitemap.NewEncoder(w, eo)
	for i := range entries {
		if err := enc.EncodeIndexEntry(&entries[i]); err != nil {
			return fail(err)
		}
	}
	if err := enc.Close(); err != nil {
		return fail(err)
	}
	// S-03: an index has the protocol's own limit; Options.MaxBytes
	// lowers the limit of the sitemaps only.
	if enc.Written() > sitemap.MaxBytes {
		return fail(fmt.Errorf("the index is %d bytes, over the %d-byte limit (S-03); use a shorter base URL or fewer, larger sitemaps", enc.Written(), sitemap.MaxBytes))
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return fail(err)
		}
	}
	if err := f.Commit(); err != nil {
		return fail(err)
	}
	s := FileSummary{Name: name, URLs: len(entries), Bytes: enc.Written(), SHA256: sink.sum()}
	for _, e := range entries {
		if !e.LastMod.IsZero() && (s.LastMod.IsZero() || e.LastMod.Time.After(s.LastMod.Time)) {
			s.LastMod = e.LastMod // the newest of the children's
		}
	}
	if zw != nil {
		s.CompressedBytes = sink.n
	}
	return s, f, nil
}

// Manifest is the record of a published set that earlier versions wrote
// into the published directory as NAME.manifest.json. Commit no longer
// writes one: the Summary holds the same record, and bookkeeping does not
// belong among the files a site serves. Commit reads one an earlier
// version left, to remove the files it lists once they are no longer
// needed, and then removes it.
type Manifest struct {
	Name  string        `json:"name"`
	Files []FileSummary `json:"files"`
	Index *FileSummary  `json:"index,omitempty"`
}

// obsolete returns the names of files earlier runs left in the caller's
// store that this run removes after its switch (see Commit), and those it
// keeps for the readers of the index it replaces. It removes every name
// of the set (Options.Name) that keep does not hold and the live top file
// (NAME.xml, NAME.xml.gz) does not list, except the plain child names
// NAME-N.xml of earlier versions, which another set's top file can have
// ("sitemap-2024.xml"): those go only when the manifest such a version
// left lists them. When the store cannot be listed, or the live index
// cannot be read to its end, nothing is removed: a file still listed is
// never removed by mistake.
func (b *Builder) obsolete(ctx context.Context, keep map[string]bool) (remove, kept []string) {
	if b.out == nil {
		return nil, nil
	}
	names, err := b.out.List(ctx)
	if err != nil {
		return nil, nil
	}
	present := map[string]bool{}
	for _, n := range names {
		present[n] = true
	}
	listed := map[string]bool{} // by the live top file: kept until the next run
	for _, top := range []string{b.o.Name + ".xml", b.o.Name + ".xml.gz"} {
		if present[top] && !b.children(ctx, top, listed) {
			return nil, nil
		}
	}
	legacy, hasLegacy := b.legacyManifest(ctx, present)
	var out []string
	manifestNeeded := false
	for _, n := range names {
		if listed[n] && !keep[n] {
			kept = append(kept, n)
		}
		if keep[n] || listed[n] {
			if legacy[n] {
				manifestNeeded = true // still here next run: remember it is ours
			}
			continue
		}
		switch b.o.kind(n) {
		case kindTop, kindChild:
			out = append(out, n)
		case kindLegacyChild:
			if legacy[n] {
				out = append(out, n)
			}
		}
	}
	if hasLegacy && !manifestNeeded {
		out = append(out, b.o.Name+manifestSuffix)
	}
	slices.Sort(out)
	return out, kept
}

// children adds to listed the names of the set that the live file top
// lists as children, when it is an index; it reports false when top
// cannot be read to its end.
func (b *Builder) children(ctx context.Context, top string, listed map[string]bool) bool {
	r, err := b.out.Open(ctx, top)
	if err != nil {
		return false
	}
	defer r.Close()
	dec := sitemap.NewDecoder(r, sitemap.DecoderOptions{Name: top, MaxEntries: sitemap.MaxURLs})
	for {
		it, err := dec.Next()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
		if it.Kind != sitemap.ItemIndex {
			return true // a single sitemap: it lists no files
		}
		loc := it.Index.Loc
		if i := strings.IndexAny(loc, "?#"); i >= 0 {
			loc = loc[:i]
		}
		if n := loc[strings.LastIndexByte(loc, '/')+1:]; b.o.kind(n) == kindChild || b.o.kind(n) == kindLegacyChild {
			listed[n] = true
		}
	}
}

// legacyManifest reads the NAME.manifest.json an earlier version left in
// the store: the plain child names (NAME-N.xml) it lists that are still
// present, and whether there is one. A manifest that cannot be read names
// nothing (and is removed all the same).
func (b *Builder) legacyManifest(ctx context.Context, present map[string]bool) (map[string]bool, bool) {
	name := b.o.Name + manifestSuffix
	if !present[name] {
		return nil, false
	}
	r, err := b.out.Open(ctx, name)
	if err != nil {
		return nil, true
	}
	defer r.Close()
	var m Manifest
	if err := json.NewDecoder(io.LimitReader(r, 64<<20)).Decode(&m); err != nil {
		return nil, true
	}
	names := map[string]bool{}
	for _, f := range m.Files {
		if present[f.Name] && b.o.kind(f.Name) == kindLegacyChild {
			names[f.Name] = true
		}
	}
	return names, true
}
