package build

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/klauspost/compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"
)

// Commit finishes the last sitemap, writes the index when one is needed
// (I-09: each child's lastmod is the newest lastmod of its URLs, absent
// when none has one; the index is written last), writes the manifest, and
// publishes everything through the store: children, then the index, then
// the manifest; files the previous run's manifest lists that this run no
// longer writes are removed after that. On any error nothing is published
// and the previous files stay as they were.
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
	if b.err != nil {
		return Summary{}, b.err
	}
	if b.urls == 0 {
		return Summary{}, ErrNoEntries
	}
	p := b.cur
	name := b.o.childName(p.num)
	single := p.num == 1 && b.o.Index != IndexAlways
	if single {
		name = b.o.singleName()
	}
	if err := b.finishPart(name); err != nil {
		return Summary{}, err
	}
	if err := b.wait(); err != nil {
		return Summary{}, err
	}
	if err := ctx.Err(); err != nil {
		return Summary{}, err
	}

	files := make([]store.File, 0, len(b.done)+2)
	for _, c := range b.done {
		files = append(files, c.file)
		sum.Files = append(sum.Files, c.sum)
	}
	keep := map[string]bool{}
	for _, f := range files {
		keep[f.Name()] = true
	}
	if !single {
		idx, f, err := b.writeIndex(ctx, sum.Files)
		if err != nil {
			return Summary{}, err
		}
		b.done = append(b.done, composed{sum: idx, file: f}) // aborted with the rest on failure
		files = append(files, f)
		keep[f.Name()] = true
		sum.Index = &idx
	}

	// Orphans: what the previous run published (per its manifest) that
	// this run does not write.
	for _, n := range b.previous(ctx) {
		if !keep[n] && n != b.o.manifestName() {
			sum.Removed = append(sum.Removed, n)
		}
	}
	slices.Sort(sum.Removed)

	mf, err := b.writeManifest(ctx, sum)
	if err != nil {
		return Summary{}, err
	}
	b.done = append(b.done, composed{file: mf})
	files = append(files, mf)

	if err := ctx.Err(); err != nil {
		return Summary{}, err
	}
	if err := b.st.Publish(ctx, store.Publication{Journal: b.o.journalName(), Files: files, Remove: sum.Removed}); err != nil {
		return Summary{}, err
	}
	b.done = nil

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
	return sum, nil
}

// writeIndex writes and commits the sitemap index over children (I-01, I-09).
func (b *Builder) writeIndex(ctx context.Context, children []FileSummary) (FileSummary, store.File, error) {
	name := b.o.indexName()
	f, err := b.st.Create(ctx, name)
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
	if b.o.GzipIndex {
		zw, _ = gzip.NewWriterLevel(sink, b.o.GzipLevel)
		w = zw
	}
	enc := sitemap.NewEncoder(w, sitemap.EncoderOptions{Index: true, Stylesheet: b.o.Stylesheet, Scope: b.o.iscope})
	for _, c := range children {
		// I-09: the newest lastmod of the child's URLs, or none; never
		// the time of the run.
		if err := enc.EncodeIndexEntry(&sitemap.IndexEntry{Loc: b.o.base + c.Name, LastMod: c.LastMod}); err != nil {
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
	s := FileSummary{Name: name, URLs: len(children), Bytes: enc.Written(), SHA256: sink.sum()}
	for _, c := range children {
		if !c.LastMod.IsZero() && (s.LastMod.IsZero() || c.LastMod.Time.After(s.LastMod.Time)) {
			s.LastMod = c.LastMod // the newest of the children's
		}
	}
	if zw != nil {
		s.CompressedBytes = sink.n
	}
	return s, f, nil
}

// Manifest is the record of a published set, NAME.manifest.json. It holds
// no time of the run, so the same input gives the same manifest.
type Manifest struct {
	Name  string        `json:"name"`
	Files []FileSummary `json:"files"`
	Index *FileSummary  `json:"index,omitempty"`
}

func (b *Builder) writeManifest(ctx context.Context, sum Summary) (store.File, error) {
	m := Manifest{Name: b.o.Name, Files: sum.Files, Index: sum.Index}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	f, err := b.st.Create(ctx, b.o.manifestName())
	if err != nil {
		return nil, err
	}
	_, err = f.Write(append(data, '\n'))
	if err == nil {
		err = f.Commit()
	}
	if err != nil {
		f.Abort()
		return nil, fmt.Errorf("build: writing manifest: %w", err)
	}
	return f, nil
}

// previous returns the names the previous run published, from its
// manifest; only names this Builder could have written are returned, so a
// damaged manifest can never remove another file. A missing or unreadable
// manifest means no orphans are known.
func (b *Builder) previous(ctx context.Context) []string {
	if b.out == nil {
		return nil
	}
	r, err := b.out.Open(ctx, b.o.manifestName())
	if err != nil {
		return nil
	}
	defer r.Close()
	var m Manifest
	if err := json.NewDecoder(io.LimitReader(r, 64<<20)).Decode(&m); err != nil {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if b.o.owns(n) && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, f := range m.Files {
		add(f.Name)
	}
	if m.Index != nil {
		add(m.Index.Name)
	}
	return names
}
