// Package diff compares two sets of sitemap entries (two sitemaps,
// indexes, directories or sites) and reports the entries added, removed
// and modified, in order of loc.
//
// It streams: each side is sorted by loc with an external merge sort on
// temporary files (sorted runs of at most Options.ChunkBytes, each entry
// stored as the end of its loc that the entry before does not share, its
// fields and its sitemap's number, about 35 bytes for a URL with a
// lastmod), merged Options.FanIn at a time, so each entry is written
// once up to FanIn runs (about 10⁸ URLs a side at the defaults) and a
// bounded number of times past them); then the two sorted streams are
// joined. Memory is bounded by the chunk size and the merge buffers,
// never by the number of URLs, so millions of entries compare in a few
// tens of megabytes.
package diff

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
)

// Entries is a stream of entries: it calls yield once per entry, in the
// order they were read, and stops with the first error yield returns. The
// *sitemap.URL is only read during the call (the caller may reuse it). It
// is the module's one stream shape, [sitemap.Entries].
type Entries = sitemap.Entries

// Kind is what happened to an entry.
type Kind string

// The three kinds of [Change].
const (
	Added    Kind = "added"    // only in the new set
	Removed  Kind = "removed"  // only in the old set
	Modified Kind = "modified" // in both, with fields that differ
)

// Change is one difference, in the JSONL form `sitemap diff` writes:
//
//	{"change":"modified","loc":"…","fields":["lastmod"],"old":{…},"new":{…}}
//
// Old and New are entry records (docs/CONVENTIONS.md); Old is nil for an added
// entry, New for a removed one. Fields names the differing fields of a
// modified entry, by their JSON names, in a fixed order (see [Compare]).
type Change struct {
	Change Kind         `json:"change"`
	Loc    string       `json:"loc"`
	Fields []string     `json:"fields,omitempty"`
	Old    *sitemap.URL `json:"old,omitempty"`
	New    *sitemap.URL `json:"new,omitempty"`
}

// Summary counts what Diff saw. Old and New count distinct locs of each
// side; the Duplicates count repeated locs (L-17), of which only the first
// entry was compared.
type Summary struct {
	Old, New                       int
	OldDuplicates, NewDuplicates   int
	Added, Removed, Modified, Same int
}

// Differ reports whether the two sides differ.
func (s Summary) Differ() bool { return s.Added+s.Removed+s.Modified > 0 }

// String is the one-line summary for people.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d added, %d removed, %d modified, %d unchanged (old %s, new %s)",
		s.Added, s.Removed, s.Modified, s.Same, plural.Of(s.Old, "URL", "URLs"), plural.Of(s.New, "URL", "URLs"))
	if s.OldDuplicates+s.NewDuplicates > 0 {
		fmt.Fprintf(&b, "; duplicates ignored: %d old, %d new (L-17, first entry compared)", s.OldDuplicates, s.NewDuplicates)
	}
	return b.String()
}

// Options tunes [Diff]. The zero value is ready to use.
type Options struct {
	// TempDir is where the sort's run files go (default os.TempDir()),
	// unlinked as soon as they are made (on Unix; elsewhere removed when
	// Diff returns), so nothing is left there however the run ends.
	TempDir string
	// ChunkBytes bounds the entries held in memory per side before they
	// are sorted and written to a run file (default 16 MiB).
	ChunkBytes int
	// FanIn is how many run files are merged at once (default 1024, each
	// with an 8 KiB buffer); past it, as many runs are merged first as
	// it takes to bring them down to FanIn. Each side may hold up to
	// about FanIn files open.
	FanIn int
	// Ignore lists fields (by JSON name, e.g. "lastmod") not compared:
	// names of Fields; Diff refuses any other before reading a side.
	Ignore []string
}

// Fields are the names [Compare] reports, in its order.
var Fields = []string{"lastmod", "changefreq", "priority", "images", "videos", "news", "alternates", "content_hash"}

// Compare returns the JSON names of the fields in which a and b differ,
// in the order of [Fields]. Loc and Source are not compared. Two lastmods
// are equal when they denote the same instant at the same precision
// (sitemap.Date.Equal), so "+00:00" and "Z" are the same; extension
// fields are compared by their JSON forms.
func Compare(a, b *sitemap.URL) []string {
	var out []string
	if !a.LastMod.Equal(b.LastMod) {
		out = append(out, "lastmod")
	}
	if a.ChangeFreq != b.ChangeFreq {
		out = append(out, "changefreq")
	}
	if (a.Priority == nil) != (b.Priority == nil) || (a.Priority != nil && *a.Priority != *b.Priority) {
		out = append(out, "priority")
	}
	if !jsonEqual(a.Images, b.Images) {
		out = append(out, "images")
	}
	if !jsonEqual(a.Videos, b.Videos) {
		out = append(out, "videos")
	}
	if !jsonEqual(a.News, b.News) {
		out = append(out, "news")
	}
	if !jsonEqual(a.Alternates, b.Alternates) {
		out = append(out, "alternates")
	}
	if a.ContentHash != b.ContentHash {
		out = append(out, "content_hash")
	}
	return out
}

func jsonEqual[T any](a, b T) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// Diff reads both sides, then calls emit with every difference in order
// of loc (byte order), and returns the counts. An error from either
// side, from the temporary files or from emit stops it; nothing is
// emitted before both sides have been read whole, so a side that fails
// half-way produces no misleading "removed" entries.
func Diff(ctx context.Context, old, new Entries, o Options, emit func(Change) error) (Summary, error) {
	if err := ctx.Err(); err != nil {
		return Summary{}, err
	}
	if old == nil || new == nil || emit == nil {
		return Summary{}, errors.New("diff: nil side or emit function")
	}
	o, err := withDefaults(o)
	if err != nil {
		return Summary{}, err
	}
	// The run files go straight into TempDir, unlinked as they are
	// made (internal/extsort): a directory of their own would outlive a
	// killed run.
	dir := o.TempDir

	var sum Summary
	a, err := sortSide(ctx, old, dir, o)
	if err != nil {
		return sum, fmt.Errorf("old: %w", err)
	}
	defer a.close()
	b, err := sortSide(ctx, new, dir, o)
	if err != nil {
		return sum, fmt.Errorf("new: %w", err)
	}
	defer b.close()

	ignore := map[string]bool{}
	for _, f := range o.Ignore {
		ignore[f] = true
	}
	pa, pb := &peeker{s: a, dups: &sum.OldDuplicates}, &peeker{s: b, dups: &sum.NewDuplicates}
	err = mergeSides(ctx, pa, pb, ignore, &sum, emit)
	return sum, err
}

// withDefaults checks o.Ignore and fills in a zero or negative
// ChunkBytes (16 MiB) and a FanIn under 2 (1024) on its copy of o. An
// Ignore entry that is not one of Fields is an error naming it and the
// fields there are; nothing else is checked.
func withDefaults(o Options) (Options, error) {
	for _, f := range o.Ignore {
		if !slices.Contains(Fields, f) {
			return o, fmt.Errorf("diff: Options.Ignore %q: not a field; want one of %s", f, strings.Join(Fields, ", "))
		}
	}
	if o.ChunkBytes <= 0 {
		o.ChunkBytes = 16 << 20
	}
	if o.FanIn < 2 {
		o.FanIn = 1024
	}
	return o, nil
}

// mergeSides walks the two sorted sides in step, one loc at a time
// (duplicates counted by the peekers and skipped), adds every entry to
// sum and calls emit with every difference in order of loc. Two empty
// sides emit nothing. The first error from reading a side, from
// decoding a record, from emit or from ctx (looked at every 4096 locs)
// stops it; sum then holds the counts up to there.
func mergeSides(ctx context.Context, pa, pb *peeker, ignore map[string]bool, sum *Summary, emit func(Change) error) error {
	ra, okA, err := pa.nextUnique()
	if err != nil {
		return err
	}
	rb, okB, err := pb.nextUnique()
	if err != nil {
		return err
	}
	for n := 0; okA || okB; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		c := 0
		switch {
		case !okA:
			c = 1
		case !okB:
			c = -1
		default:
			c = strings.Compare(ra.loc, rb.loc)
		}
		ch, err := changeOf(ra, rb, c, ignore, sum)
		if err != nil {
			return err
		}
		if ch != nil {
			if err := emit(*ch); err != nil {
				return err
			}
		}
		if c <= 0 {
			if ra, okA, err = pa.nextUnique(); err != nil {
				return err
			}
		}
		if c >= 0 {
			if rb, okB, err = pb.nextUnique(); err != nil {
				return err
			}
		}
	}
	return nil
}

// changeOf counts one loc into sum and returns its Change: c < 0 means
// only the old side has it (ra), c > 0 only the new side (rb), 0 both.
// It returns nil for a loc that is the same on both sides, byte for
// byte or apart from ignored fields, and the error of a record that
// cannot be decoded (sum is counted already then).
func changeOf(ra, rb record, c int, ignore map[string]bool, sum *Summary) (*Change, error) {
	var ch *Change
	switch {
	case c < 0: // only old
		sum.Old++
		sum.Removed++
		u, err := decode(ra)
		if err != nil {
			return nil, err
		}
		ch = &Change{Change: Removed, Loc: ra.loc, Old: u}
	case c > 0: // only new
		sum.New++
		sum.Added++
		u, err := decode(rb)
		if err != nil {
			return nil, err
		}
		ch = &Change{Change: Added, Loc: rb.loc, New: u}
	default:
		sum.Old++
		sum.New++
		if bytes.Equal(ra.data, rb.data) {
			sum.Same++
			break
		}
		ua, err := decode(ra)
		if err != nil {
			return nil, err
		}
		ub, err := decode(rb)
		if err != nil {
			return nil, err
		}
		var fields []string
		for _, f := range Compare(ua, ub) {
			if !ignore[f] {
				fields = append(fields, f)
			}
		}
		if len(fields) == 0 {
			sum.Same++
			break
		}
		sum.Modified++
		ch = &Change{Change: Modified, Loc: ra.loc, Fields: fields, Old: ua, New: ub}
	}
	return ch, nil
}

// sortSide reads one side into a sorter and returns its sorted stream.
func sortSide(ctx context.Context, e Entries, dir string, o Options) (stream, error) {
	s := newSorter(dir, o.ChunkBytes, o.FanIn)
	n := 0
	err := e(ctx, func(u *sitemap.URL) error {
		if n++; n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if u == nil {
			return errors.New("diff: the side yielded a nil entry")
		}
		var err error
		s.scratch, err = appendEntry(s.scratch[:0], u)
		if err != nil {
			return fmt.Errorf("%s: %w", u.Loc, err)
		}
		return s.add(record{loc: u.Loc, data: s.scratch, src: u.Source})
	})
	if err != nil {
		s.es.Close()
		return nil, err
	}
	st, err := s.finish(ctx)
	if err != nil {
		return nil, fmt.Errorf("sorting: %w", err)
	}
	return st, nil
}

func decode(r record) (*sitemap.URL, error) { return decodeEntry(r) }

// peeker reads a sorted stream one distinct loc at a time, counting the
// repeated ones.
type peeker struct {
	s       stream
	dups    *int
	have    bool
	pending record
}

func (p *peeker) read() (record, bool, error) {
	if p.have {
		p.have = false
		return p.pending, true, nil
	}
	r, err := p.s.next()
	if errors.Is(err, io.EOF) {
		return record{}, false, nil
	}
	if err != nil {
		return record{}, false, fmt.Errorf("diff: %w", err)
	}
	return r, true, nil
}

func (p *peeker) nextUnique() (record, bool, error) {
	r, ok, err := p.read()
	if !ok || err != nil {
		return r, ok, err
	}
	for {
		q, ok, err := p.read()
		if err != nil {
			return r, false, err
		}
		if !ok {
			return r, true, nil
		}
		if q.loc != r.loc {
			p.pending, p.have = q, true
			return r, true, nil
		}
		*p.dups++
	}
}
